#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds (failing on compiler warnings), builds
# the self-contained release, then every test (FuzzSeedTests among them runs every fuzz target's
# body over its seeds). LPCHECK_FUZZ_SECONDS=N adds a libFuzzer pass of N seconds a target beside
# the release build (Scripts/fuzz.sh runs longer ones, optimised).
# Tests that need ../shared/samples skip cleanly when that folder is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
# How long each step took, for the log (CI's included).
step() { echo "test.sh: $1 (${SECONDS} s from the start)"; }
./Scripts/bootstrap.sh
step "installed what was missing"
seconds="${LPCHECK_FUZZ_SECONDS:-0}"
release="${LPCHECK_RELEASE_BUILD:-1}"
# A clean build prints no warning (CI builds a fresh clone, so every file is compiled): a new
# warning fails the suite. Warnings in dependencies' checkouts are not ours.
log="$(mktemp)"
swift build --build-tests 2>&1 | tee "$log"
if grep -E "warning:" "$log" | grep -v "/\.build/" | grep -q .; then
  echo "test.sh: the build printed warnings (above); fix them" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
step "development build done, no warning"
# A libFuzzer pass when asked (LPCHECK_FUZZ_SECONDS): in the background beside the release
# build, its own build (unoptimised: a short pass needs no speed, and the build takes under half
# the time of an optimised one), its seeds, then every target for that many seconds. Off by
# default: its build took 2 of the 13 minutes of a fresh run, for a few hundred inputs a target.
fuzz_log=".fuzz-pass.log"
if [ "$seconds" != 0 ]; then
  ./Scripts/fuzz.sh --debug --seconds "$seconds" > "$fuzz_log" 2>&1 &
  fuzz_pass=$!
  # Not left running when a step below fails.
  trap 'kill "$fuzz_pass" 2>/dev/null || true' EXIT
fi
# The self-contained release build (static Swift runtime) that CI systems install; the tests
# check it (ReleaseBuildTests). LPCHECK_RELEASE_BUILD=0 skips it.
if [ "$release" != 0 ]; then
  ./Scripts/build-release.sh .build-release/dist
  step "release build done"
fi
if [ "$seconds" != 0 ]; then
  if ! wait "$fuzz_pass"; then
    echo "test.sh: the fuzzing pass failed:" >&2
    cat "$fuzz_log" >&2
    exit 1
  fi
  trap - EXIT
  grep -E "^fuzz " "$fuzz_log"
  rm -f "$fuzz_log"
  step "fuzzing pass done"
fi
# The command-line tests run the release build just made (the binary users install, and about
# fifteen times faster on real files than the development build); ReleaseBuildTests compare
# the two. Without the release build they run the development build.
if [ "$release" != 0 ]; then
  export LPCHECK_TEST_BINARY="$PWD/.build-release/dist/bin/lpcheck"
fi
status=0
test_log="$(mktemp)"
# The tests' scratch lives in a folder of its own (TMPDIR), so that what a test leaves behind
# is seen: listed after the run, and under CI=true it fails the run. (Swift's build tooling
# leaves empty TemporaryDirectory.* folders of its own: not the tests'.)
scratch="$(mktemp -d)"
TMPDIR="$scratch" swift test --skip-build "$@" 2>&1 | tee "$test_log" || status=$?
left="$(find "$scratch" -mindepth 1 -maxdepth 1 ! -name 'TemporaryDirectory.*' -printf '%f\n' | sort)"
if [ -n "$left" ]; then
  echo "test.sh: the tests left $(echo "$left" | wc -l) files or folders in their scratch:" >&2
  echo "$left" | sed 's/^/test.sh:   /' >&2
  if [ "${CI:-}" = "true" ]; then [ "$status" -ne 0 ] || status=1; fi
fi
rm -rf "$scratch"
# Swift Testing counts a skipped test among those that passed: the skips are counted here, with
# their reasons, so that a green run says what it did not run.
skipped="$(grep -cE '^.{1,4} Test .* skipped: ' "$test_log" || true)"
echo "test.sh: ${skipped} tests skipped"
grep -E '^.{1,4} Test .* skipped: ' "$test_log" | sed -E 's/^.* skipped: //' | sort | uniq -c | sort -rn | sed 's/^/test.sh:   /' || true
rm -f "$test_log"
# Under CI=true nothing may skip: every dependency is installed there, and a green run that did
# not run a test would hide it (a mount namespace refused, a library missing).
if [ "${CI:-}" = "true" ] && [ "$skipped" -gt 0 ]; then
  echo "test.sh: under CI=true no test may skip, and ${skipped} did (above)" >&2
  [ "$status" -ne 0 ] || status=1
fi
step "tests done (exit $status)"
exit $status

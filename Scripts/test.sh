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
# Background work (the release build, the fuzzing pass, test processes) is stopped when a step
# below fails.
background=()
trap 'for pid in "${background[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
# The self-contained release build (static Swift runtime) that CI systems install; the tests
# check it (ReleaseBuildTests). LPCHECK_RELEASE_BUILD=0 skips it. It builds in a folder of its
# own (.build-release), beside the development build: each alone leaves part of a core idle.
# Its log is shown once it is done.
if [ "$release" != 0 ]; then
  release_log="$(mktemp)"
  ./Scripts/build-release.sh .build-release/dist > "$release_log" 2>&1 &
  release_pid=$!
  background+=("$release_pid")
fi
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
  background+=("$fuzz_pass")
fi
# The tests run in three processes at once when none is named (the README's command), each
# running its own tests in parallel; two run the test bundle directly (SwiftPM holds the build
# folder's lock while `swift test` runs). "early": the suites that run no lpcheck binary (the
# readers', records', object store's and thumbnails' targets, the ledger oracle), started
# once the development build is done, beside the rest of the release build. "side": the
# suites that mostly wait (hostile servers, the S3 bucket, deadlines, a helper killed) and
# export's two long suites, beside the rest. Measured on two cores: BENCHMARKS.md.
early='^(LivePhotoFormatsTests|LivePhotoCodecProtocolTests|LivePhotoObjectStoreTests|LivePhotoRecordsTests)\.|^LivePhotoWritingTests\.LedgerOracleTests/'
side='^lpcheckTests\.(HostileServerTests|ObjectStoreTests|CodecBudgetTests|DependableEdgesTests|ExportTests|ExportGIFTests)/'
bundle="$(swift build --show-bin-path)/lpcheckPackageTests.xctest"
# (On macOS the bundle is a folder that xctest runs, not a program: there, one `swift test`.)
split=0
if [ $# -eq 0 ] && [ -f "$bundle" ] && [ -x "$bundle" ]; then split=1; fi
# The tests' scratch lives in a folder of its own (TMPDIR), so that what a test leaves behind
# is seen: listed after the run, and under CI=true it fails the run. (Swift's build tooling
# leaves empty TemporaryDirectory.* folders and _PATH.lock files of its own: not the tests'.)
scratch="$(mktemp -d)"
part() {
  local log="$1"
  shift
  TMPDIR="$scratch" NO_COLOR=1 "$bundle" --testing-library swift-testing "$@" > "$log" 2>&1
}
if [ "$split" = 1 ]; then
  early_log="$(mktemp)"
  part "$early_log" --filter "$early" &
  early_pid=$!
  background+=("$early_pid")
fi
if [ "$release" != 0 ]; then
  release_status=0
  wait "$release_pid" || release_status=$?
  cat "$release_log"
  rm -f "$release_log"
  if [ "$release_status" != 0 ]; then
    echo "test.sh: the release build failed (above)" >&2
    exit 1
  fi
  step "release build done"
fi
if [ "$seconds" != 0 ]; then
  if ! wait "$fuzz_pass"; then
    echo "test.sh: the fuzzing pass failed:" >&2
    cat "$fuzz_log" >&2
    exit 1
  fi
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
if [ "$split" = 1 ]; then
  side_log="$(mktemp)"
  part "$side_log" --filter "$side" &
  side_pid=$!
  background+=("$side_pid")
  TMPDIR="$scratch" swift test --skip-build --skip "$early|$side" 2>&1 | tee "$test_log" || status=$?
  for name in early side; do
    if [ "$name" = early ]; then pid=$early_pid log=$early_log; else pid=$side_pid log=$side_log; fi
    wait "$pid" || status=$?
    echo "test.sh: the $name tests (run beside the others):"
    cat "$log"
    cat "$log" >> "$test_log"
    rm -f "$log"
  done
else
  TMPDIR="$scratch" swift test --skip-build "$@" 2>&1 | tee "$test_log" || status=$?
fi
trap - EXIT
left="$(find "$scratch" -mindepth 1 -maxdepth 1 ! -name 'TemporaryDirectory.*' ! -name '_*.lock' -printf '%f\n' | sort)"
if [ -n "$left" ]; then
  echo "test.sh: the tests left $(echo "$left" | wc -l) files or folders in their scratch:" >&2
  echo "$left" | sed 's/^/test.sh:   /' >&2
  if [ "${CI:-}" = "true" ]; then [ "$status" -ne 0 ] || status=1; fi
fi
rm -rf "$scratch"
# How many tests ran, and the ten suites that took longest (as Swift Testing times a suite:
# from its start to its end, other suites running beside it).
grep -hE '^.{1,4} Test run with ' "$test_log" | sed 's/^/test.sh: /' || true
echo "test.sh: the ten longest suites:"
grep -E '^.{1,4} Suite .* after [0-9.]+ seconds' "$test_log" | sed -E 's/^.{1,4} Suite ([^ ]+) .* after ([0-9.]+) seconds.*/\2 \1/' \
  | sort -rn | head -10 | awk '{ printf "test.sh:   %6.1f s  %s\n", $1, $2 }' || true
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

#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds (failing on compiler warnings), builds
# the self-contained release and the libFuzzer targets side by side, runs a short fuzzing pass
# over every reader and the repair planner (LPCHECK_FUZZ_SECONDS per target, 0 to skip), then
# every test.
# Tests that need ../shared/samples skip cleanly when that folder is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
# How long each step took, for the log (CI's included).
step() { echo "test.sh: $1 (${SECONDS} s from the start)"; }
./Scripts/bootstrap.sh
step "installed what was missing"
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
seconds="${LPCHECK_FUZZ_SECONDS:-5}"
release="${LPCHECK_RELEASE_BUILD:-1}"
# The fuzz targets (unoptimised: a smoke pass needs no speed, and their build takes under half
# the time of an optimised one) are built beside the self-contained release build: a release
# build optimises each module in one process for long stretches, which leaves a core idle.
fuzz_log=".fuzz-build.log"
if [ "$seconds" != 0 ]; then
  ./Scripts/fuzz.sh --debug --build-only > "$fuzz_log" 2>&1 &
  fuzz_build=$!
  # Not left running when a step below fails.
  trap 'kill "$fuzz_build" 2>/dev/null || true' EXIT
fi
# The self-contained release build (static Swift runtime) that CI systems install; the tests
# check it (ReleaseBuildTests). LPCHECK_RELEASE_BUILD=0 skips it.
if [ "$release" != 0 ]; then
  ./Scripts/build-release.sh .build-release/dist
  step "release build done"
fi
if [ "$seconds" != 0 ]; then
  if ! wait "$fuzz_build"; then
    echo "test.sh: the fuzz build failed:" >&2
    cat "$fuzz_log" >&2
    exit 1
  fi
  rm -f "$fuzz_log"
  trap - EXIT
  step "fuzz build and seeds done"
  # Every reader and the repair planner, two targets at a time (each is one thread).
  ./Scripts/fuzz.sh --debug --seconds "$seconds" --jobs 2
  step "fuzzing pass done"
fi
# The command-line tests run the release build just made (the binary users install, and about
# fifteen times faster on real files than the development build); ReleaseBuildTests compare
# the two. Without the release build they run the development build.
if [ "$release" != 0 ]; then
  export LPCHECK_TEST_BINARY="$PWD/.build-release/dist/bin/lpcheck"
fi
status=0
swift test --skip-build "$@" || status=$?
step "tests done (exit $status)"
exit $status

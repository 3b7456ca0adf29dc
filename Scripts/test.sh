#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds (failing on compiler warnings), runs a
# short libFuzzer pass over every reader and the repair planner (LPCHECK_FUZZ_SECONDS per target,
# 0 to skip), builds the self-contained release, then every test.
# Tests that need ../shared/samples skip cleanly when that folder is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
./Scripts/bootstrap.sh
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
seconds="${LPCHECK_FUZZ_SECONDS:-5}"
if [ "$seconds" != 0 ]; then
  ./Scripts/fuzz.sh --seconds "$seconds"
fi
# The self-contained release build (static Swift runtime) that CI systems install; the tests
# check it (ReleaseBuildTests). LPCHECK_RELEASE_BUILD=0 skips it.
if [ "${LPCHECK_RELEASE_BUILD:-1}" != 0 ]; then
  ./Scripts/build-release.sh .build-release/dist
fi
swift test --skip-build "$@"

#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs a short libFuzzer pass over every
# reader and the repair planner (LPCHECK_FUZZ_SECONDS per target, 0 to skip), then every test.
# Tests that need ../shared/samples skip cleanly when that folder is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
./Scripts/bootstrap.sh
swift build --build-tests
seconds="${LPCHECK_FUZZ_SECONDS:-5}"
if [ "$seconds" != 0 ]; then
  ./Scripts/fuzz.sh --seconds "$seconds"
fi
swift test --skip-build "$@"

#!/usr/bin/env bash
# The whole test suite: installs what is missing, then builds and runs every test.
# Tests that need ../shared/samples skip cleanly when that folder is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
./Scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build "$@"

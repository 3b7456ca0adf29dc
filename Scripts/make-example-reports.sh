#!/usr/bin/env bash
# Regenerates Reports/examples/ from Samples/ with every report format.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product lpcheck
bin="$(swift build --show-bin-path)/lpcheck"
mkdir -p Reports/examples
"$bin" check Samples --quiet \
  --format json --output Reports/examples/samples.json \
  --format plist --output Reports/examples/samples.plist \
  --format html --output Reports/examples/samples.html \
  --format junit --output Reports/examples/samples.junit.xml \
  --format sarif --output Reports/examples/samples.sarif || [ $? -eq 1 ]
"$bin" dump --format json Samples/camera-pair.jpg Samples/camera-pair.mov > Reports/examples/dump-camera-pair.json

#!/usr/bin/env bash
# The main job on the bundled samples: installs what is missing, builds lpcheck, reads Samples/.
set -euo pipefail
cd "$(dirname "$0")/.."
./Scripts/bootstrap.sh
swift build -c release --product lpcheck
bin="$(swift build -c release --show-bin-path)/lpcheck"
"$bin" dump --stats Samples/*.jpg Samples/*.mov "$@"

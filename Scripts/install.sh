#!/usr/bin/env bash
# Installs a release tree made by Scripts/build-release.sh under PREFIX (default /usr/local):
# PREFIX/bin/lpcheck, its codec helper PREFIX/bin/lpcheck-codec (for make CLIP), the man page and the shell completions. Usage: Scripts/install.sh [PREFIX] [DIST]
set -euo pipefail
prefix="${1:-/usr/local}"
dist="${2:-$(dirname "$0")/../dist}"
[ -x "$dist/bin/lpcheck" ] || { echo "install.sh: no $dist/bin/lpcheck; run Scripts/build-release.sh first" >&2; exit 1; }
install -d "$prefix/bin"
install -m 0755 "$dist/bin/lpcheck" "$prefix/bin/lpcheck"
if [ -x "$dist/bin/lpcheck-codec" ]; then install -m 0755 "$dist/bin/lpcheck-codec" "$prefix/bin/lpcheck-codec"; fi
(cd "$dist/share" && find . -type f) | while read -r file; do
  install -D -m 0644 "$dist/share/$file" "$prefix/share/$file"
done
echo "install.sh: installed lpcheck $("$prefix/bin/lpcheck" --version) under $prefix"

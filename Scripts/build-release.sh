#!/usr/bin/env bash
# A self-contained Linux lpcheck for CI systems that do not build Swift: the Swift runtime and
# Foundation linked statically (only system C libraries stay dynamic: libexif, libxml2, libsqlite3 and what
# they need, libstdc++, libc), stripped, with bash/zsh/fish completions and the man page. Beside it
# lpcheck-codec, the codec helper `make CLIP` runs: the one program that links FFmpeg's libraries
# (lpcheck itself runs where none is installed).
# Usage: Scripts/build-release.sh [OUTDIR]   (default dist/; then Scripts/install.sh PREFIX)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
scratch=.build-release
./Scripts/bootstrap.sh
swift build -c release --product lpcheck --static-swift-stdlib --scratch-path "$scratch"
swift build -c release --product lpcheck-codec --static-swift-stdlib --scratch-path "$scratch"
# The man page: ArgumentParser's generate-manual tool run on the binary just built. (Its plugin
# builds every product in release again first, without the static runtime, which cost a second
# full release build: 3 min 52 s of every fresh test run here.) The tool is a development build
# in .build, where the test command has built ArgumentParser already.
swift build --product generate-manual >/dev/null
manual="$scratch/manual"
mkdir -p "$manual"
"$(swift build --show-bin-path)/generate-manual" "$scratch/release/lpcheck" --output-directory "$manual" >/dev/null
mkdir -p "$out/bin" "$out/share/man/man1" "$out/share/bash-completion/completions" \
  "$out/share/zsh/site-functions" "$out/share/fish/vendor_completions.d"
install -m 0755 "$scratch/release/lpcheck" "$out/bin/lpcheck"
install -m 0755 "$scratch/release/lpcheck-codec" "$out/bin/lpcheck-codec"
strip "$out/bin/lpcheck" "$out/bin/lpcheck-codec"
for binary in lpcheck lpcheck-codec; do
  if ldd "$out/bin/$binary" | grep -Ei "libswift|libFoundation|libdispatch|libBlocksRuntime|_Testing"; then
    echo "build-release.sh: $binary still links a Swift runtime library (above)" >&2
    exit 1
  fi
done
if ldd "$out/bin/lpcheck" | grep -Ei "libav|libswscale|libx26"; then
  echo "build-release.sh: lpcheck links a codec library (above); only lpcheck-codec may" >&2
  exit 1
fi
install -m 0644 "$manual/lpcheck.1" "$out/share/man/man1/lpcheck.1"
"$out/bin/lpcheck" --generate-completion-script bash > "$out/share/bash-completion/completions/lpcheck"
"$out/bin/lpcheck" --generate-completion-script zsh > "$out/share/zsh/site-functions/_lpcheck"
"$out/bin/lpcheck" --generate-completion-script fish > "$out/share/fish/vendor_completions.d/lpcheck.fish"
echo "build-release.sh: $out/bin/lpcheck ($(du -h "$out/bin/lpcheck" | cut -f1)), $out/bin/lpcheck-codec ($(du -h "$out/bin/lpcheck-codec" | cut -f1)), man page and completions in $out/share"

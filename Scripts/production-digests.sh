#!/usr/bin/env bash
# The SHA-256 of every file make, export and convert write from the shared samples, one line a
# file: "digest  command/output-name". Run it with two builds and compare the lists (diff): a
# refactoring of the writers must change no output byte.
#   Scripts/production-digests.sh LPCHECK SCRATCH > digests.txt
# LPCHECK: the lpcheck binary (its lpcheck-codec beside it); SCRATCH: an empty folder the
# outputs go to (its name is part of no output: make's identifiers come from the inputs' paths).
set -u
lpcheck=${1:?lpcheck binary}
scratch=${2:?scratch folder}
samples=$(cd "$(dirname "$0")/../../shared/samples" 2>/dev/null && pwd) || { echo "no ../shared/samples beside the project" >&2; exit 2; }
mkdir -p "$scratch"
run() { # NAME ARGS...: runs lpcheck, output into $scratch/NAME, prints its exit status
    local name=$1; shift
    "$lpcheck" "$@" -o "$scratch/$name" --format json > "$scratch/$name.json" 2> "$scratch/$name.err"
    echo "status $? $name"
}
pairs=("$samples/Bai-Mirror__pyheic_struct/apple.HEIC" "$samples/Bai-Mirror__pyheic_struct/apple.MOV"
       "$samples/henteko__livephotoskit-react/test.JPG" "$samples/henteko__livephotoskit-react/test.mov"
       "$samples/LycheeOrg__Lychee/train.jpg" "$samples/LycheeOrg__Lychee/train.mov")
motion=("$samples/androidx__media/pixel-motion-photo-shortened.jpg" "$samples/googleinterns__motion-photos-filereader/PXL_20200710_061629144.MP.jpg"
        "$samples/ente-io__motion_photos/motionphoto.heic")
clips=("$samples/movies/Jsonize__jsonize-ffmpeg-task__tests_assets_iphone_rotated.mov" "$samples/movies/Vanilagy__mediabunny__test_public_video-h265.mp4"
       "$samples/movies/Vanilagy__mediabunny__test_public_cursed-vfr.mp4")
gifs=("$samples/gifs/python-pillow__Pillow__Tests_images_dispose_prev.gif" "$samples/gifs/image-rs__image__tests_images_gif_anim_mixed-disposal.gif"
      "$samples/gifs/python-pillow__Pillow__Tests_images_transparent.gif")
for form in movie loop reverse bounce gif; do run "export-$form" export "${pairs[@]}" "${motion[@]}" --as "$form"; done
run export-loop-still-mp4 export "${pairs[@]}" --as loop --start still --count 2 --container mp4
run export-gif-frame export "${pairs[@]:0:2}" --as gif --fps 10 --palette frame --dither floyd-steinberg --width 240 --start still
run convert-motion-photo convert "${pairs[@]}" --to motion-photo
run convert-live-photo convert "${motion[@]}" --to live-photo
run make-pair make "${pairs[0]}" "${pairs[1]}"
n=0
for clip in "${clips[@]}" "${gifs[@]}"; do
    n=$((n + 1))
    run "make-clip-$n-heic" make "$clip"
    run "make-clip-$n-jpeg" make "$clip" --still jpeg
done
run make-clip-lossless make "${clips[1]}" --lossless-still
run make-clip-motion-photo make "${clips[0]}" --to motion-photo
run make-gif-hevc make "${gifs[0]}" --codec hevc --time 0.1
(cd "$scratch" && find . -type f ! -name '*.json' ! -name '*.err' | LC_ALL=C sort | xargs -r sha256sum)
# The JSON documents (contracts too), with the scratch folder, the version and the random part of
# a writer's temporary name (a GIF's movie, which make's ledger compares with) taken out.
for document in "$scratch"/*.json; do
    sed -e "s|$scratch|SCRATCH|g" -e 's|"version":"[^"]*"||' -e 's|lpcheck-tmp-[0-9]*-[0-9]*|lpcheck-tmp|g' "$document" | sha256sum | sed "s|-\$|json/$(basename "$document")|"
done

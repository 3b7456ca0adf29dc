#!/usr/bin/env bash
# Builds the libFuzzer targets (address sanitizer on) and runs them, seeded from Samples/ and
# ../shared/samples. Usage: Scripts/fuzz.sh [--seconds N | --runs N] [--debug] [--jobs N] [TARGET...]
# Targets: movie jpeg heif makerapple exif xmp inspect repair convert records configuration gif hevc zip (default: all).
# Corpora grow in .fuzz/corpus/TARGET; a crash, a hang (10 s) or more than 1 GB of memory is saved
# in .fuzz/crashes/ and the script fails. The writer targets (repair, convert) expand LPHS recipes
# (HostileStructure) into deep nesting, many boxes, huge counts and offsets, chunks past the end.
# --debug builds without optimisation (under half the build time, about a fifth of the executions
# a second: the test command's short pass); --jobs runs that many targets at once (each is one
# thread).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=(-max_total_time=10)
targets=()
configuration=release
jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    --debug) configuration=debug; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(movie jpeg heif makerapple exif xmp inspect repair convert records configuration gif hevc zip)
# Optimised (-c release keeps overflow checks, preconditions and exclusivity checks): about four
# times the executions per second of a debug build, with the same sanitizer and coverage.
# LPCHECK_FUZZ_BINARY runs a binary built earlier (long runs keep going while the tree changes).
[ -n "${LPCHECK_FUZZ_BINARY:-}" ] || (cd Fuzz && swift build -c "$configuration" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 | tail -1)
mkdir -p .fuzz/seeds .fuzz/corpus .fuzz/crashes
# Seeds are made once; again when a target has none yet (a target added since).
seeded=1
[ -f .fuzz/seeds/.done ] || seeded=0
for target in "${targets[@]}"; do [ -d ".fuzz/seeds/$target" ] || seeded=0; done
[ "$seeded" = 1 ] || { rm -rf .fuzz/seeds && mkdir -p .fuzz/seeds && python3 Fuzz/make_seeds.py .fuzz/seeds && touch .fuzz/seeds/.done; }
bin="${LPCHECK_FUZZ_BINARY:-$(cd Fuzz && swift build -c "$configuration" --show-bin-path)/LPCheckFuzz}"
# One target: its corpus, its log, its status.
run_target() {
  local target="$1"
  mkdir -p ".fuzz/corpus/$target"
  # A target with a dictionary (Fuzz/TARGET.dict: a format's signatures and field values) has
  # libFuzzer splice those whole.
  local dict=()
  [ -f "Fuzz/$target.dict" ] && dict=(-dict="Fuzz/$target.dict")
  # Every seed is under 64 KB (skeletons keep moov/meta and the JPEG segments); larger inputs
  # only slow each execution down.
  LPCHECK_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$bin" "${limit[@]}" -max_len=65536 -rss_limit_mb=1024 \
    -timeout=10 "${dict[@]}" -print_final_stats=1 -artifact_prefix=".fuzz/crashes/$target-" \
    ".fuzz/corpus/$target" ".fuzz/seeds/$target" > ".fuzz/$target.log" 2>&1
}
# Up to --jobs targets at once; their results are told in the order given.
declare -A outcome
running=()
for target in "${targets[@]}"; do
  run_target "$target" &
  running+=("$!:$target")
  if [ ${#running[@]} -ge "$jobs" ]; then
    entry="${running[0]}"; running=("${running[@]:1}")
    if wait "${entry%%:*}"; then outcome[${entry#*:}]=0; else outcome[${entry#*:}]=1; fi
  fi
done
for entry in "${running[@]}"; do
  if wait "${entry%%:*}"; then outcome[${entry#*:}]=0; else outcome[${entry#*:}]=1; fi
done
status=0
for target in "${targets[@]}"; do
  log=".fuzz/$target.log"
  if [ "${outcome[$target]}" = 0 ]; then
    echo "fuzz $target: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs, no crash"
  else
    echo "fuzz $target: FAILED (see $log)"; tail -30 "$log"; status=1
  fi
done
exit $status

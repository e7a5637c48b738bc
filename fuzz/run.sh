#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60) on its committed corpus
# (fuzz/corpus/<target>/: small inputs that cover the reader, and every input that ever crashed
# it) and on the shared sample files, with its dictionary. New inputs go to a scratch folder; the
# committed corpus is only read, unless --update-corpus merges into it what adds coverage.
#
#   fuzz/run.sh [SECONDS] [--build DIR] [--only TARGET] [--update-corpus]
#
# The fuzz tree must be built first (./setup.sh fuzz does both). Prints one line per target with
# its executions and executions per second; exits 1 when a target finds a crash, a leak, a timeout
# or runs out of memory, with the input saved under DIR/crashes/ (add it to the corpus once fixed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
build=$root/build-fuzz
only=""
update=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --update-corpus) update=1; shift ;;
    [0-9]*) seconds=$1; shift ;;
    *) echo "usage: fuzz/run.sh [SECONDS] [--build DIR] [--only TARGET] [--update-corpus]" >&2; exit 2 ;;
  esac
done
shared=$root/../shared/models

# The targets are the folders fuzz/NAME/ holding a *_fuzzer.cpp (as fuzz/CMakeLists.txt builds
# them), each with its dictionary fuzz/NAME/*.dict. Per target, where the defaults (inputs up to
# 64 KiB, no seeds beyond the committed corpus) do not fit:
# target | largest input | seed folders beside the committed corpus
settings=(
  "pod|2000000|$shared/pod/cocos3d $shared/pod/nsdk $shared/pod/oolong $shared/pod/webglsdk"
  "opengex|65536|$shared/ogex"
  "awd|65536|$shared/awd"
  "pof|1100000|$shared/pof"
  "gltf|262144|"
  "textures|1500000|$root/tests/textures/pcx $shared/pof"
  "convert|1100000|$shared/ogex $shared/awd $shared/pof $shared/pod/oolong"
)

mkdir -p "$build/crashes"
failed=0
for source in "$root"/fuzz/*/*_fuzzer.cpp; do
  name=$(basename "$(dirname "$source")")
  [ -n "$only" ] && [ "$only" != "$name" ] && continue
  dicts=("$root/fuzz/$name"/*.dict)
  maxlen=65536
  seeds=""
  for entry in "${settings[@]}"; do
    if [ "${entry%%|*}" = "$name" ]; then IFS='|' read -r _ maxlen seeds <<<"$entry"; fi
  done
  binary=$build/fuzz_$name
  if [ ! -x "$binary" ]; then
    echo "fuzz: $binary is not built (./setup.sh fuzz builds it)" >&2
    failed=1
    continue
  fi
  corpus=$root/fuzz/corpus/$name
  mkdir -p "$corpus"
  dirs=("$corpus")
  for d in $seeds; do [ -d "$d" ] && dirs+=("$d"); done
  scratch=$(mktemp -d)
  log=$build/fuzz_$name.log
  set +e
  "$binary" "$scratch" "${dirs[@]}" -dict="${dicts[0]}" -max_len="$maxlen" -rss_limit_mb=2048 -timeout=25 \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$build/crashes/$name-" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  units=$(find "$scratch" -type f | wc -l)
  if [ "$rc" -ne 0 ]; then
    echo "fuzz_$name: FAILED (exit $rc) after ${runs:-?} runs; the input is in $build/crashes/, the log in $log"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5 || true
    failed=1
  else
    echo "fuzz_$name: ${runs:-?} runs in ${seconds} s (${rate:-?}/s), $units new inputs, no finding"
  fi
  if [ "$update" -eq 1 ] && [ "$rc" -eq 0 ]; then
    "$binary" -merge=1 "$corpus" "$scratch" -max_len="$maxlen" -rss_limit_mb=2048 >"$build/fuzz_$name.merge.log" 2>&1
    echo "fuzz_$name: corpus now $(find "$corpus" -type f | wc -l) inputs"
  fi
  rm -rf "$scratch"
done
exit $failed

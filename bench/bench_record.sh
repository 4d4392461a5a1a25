#!/usr/bin/env bash
# Wall time of `armprof record` on each aarch64 example against plain
# qemu-aarch64 on the same binary, the plugin with instrumentation only
# (--no-model --no-timing), and the plugin with the timing model but no SPE
# model (--no-model). Best of N runs each (default 3), in one run of this
# script, so the ratios compare like with like on a shared machine.
#
# usage: bench/bench_record.sh [BUILD_DIR] [RUNS]     (default build-q, 3)
# Prints a markdown table for docs/PERFORMANCE.md.
set -euo pipefail
build=${1:-build-q}
runs=${2:-3}
armprof=$build/armprof
ex=$build/examples
[ -x "$armprof" ] && [ -e "$build/armprof-qemu.so" ] && [ -x "$ex/pointer_chase" ] ||
  { echo "bench_record: build $build first (armprof, armprof-qemu.so, examples)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

best() { # best wall time in seconds of "$@" over $runs runs
  local b="" t0 t1 t
  for _ in $(seq "$runs"); do
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    t1=$(date +%s.%N)
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  printf '%.3f' "$b"
}

echo "| example | plain qemu (s) | instrumentation only (s) | + timing model (s) | armprof record (s) | record / plain | instr. / plain |"
echo "|---|---|---|---|---|---|---|"
for name in pointer_chase stream branchy false_sharing; do
  plain=$(best qemu-aarch64 "$ex/$name")
  instr=$(best "$armprof" record -q --no-model --no-timing -o "$tmp/x.data" -- "$ex/$name")
  timing=$(best "$armprof" record -q --no-model -o "$tmp/x.data" -- "$ex/$name")
  full=$(best "$armprof" record -q -o "$tmp/x.data" -- "$ex/$name")
  awk -v n="$name" -v p="$plain" -v i="$instr" -v t="$timing" -v f="$full" \
    'BEGIN { printf "| %s | %s | %s | %s | %s | %.1fx | %.1fx |\n", n, p, i, t, f, f / p, i / p }'
done

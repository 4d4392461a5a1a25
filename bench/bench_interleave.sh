#!/usr/bin/env bash
# What interleaved replay (armprof record --interleave N, plugins/qemu/
# replay_hub.h) costs and what it shows, on the false_sharing example:
# for each quantum, the best of N runs of wall and CPU time, the models'
# CPU time, the share of accesses served by the peer core (the summary's
# peer-core figure) and the hand-overs, against plain qemu-aarch64 in the
# same run of this script. --interleave 0 is a model thread per program
# thread (threads meet only where their replays overlap in host time).
# Then the same for bench/progs/own_data.c (two threads that share no
# line, built here with aarch64-linux-gnu-gcc): what the hub costs where
# its order changes nothing (calm windows side by side).
#
# usage: bench/bench_interleave.sh [BUILD_DIR] [RUNS] [ITERATIONS]   (build, 3, 5000000)
# Prints a markdown table for docs/PERFORMANCE.md.
set -euo pipefail
build=${1:-build}
runs=${2:-3}
iters=${3:-5000000}
armprof=$build/armprof
prog=$build/examples/false_sharing
[ -x "$armprof" ] && [ -e "$build/armprof-qemu.so" ] && [ -x "$prog" ] ||
  { echo "bench_interleave: build $build first (armprof, armprof-qemu.so, examples)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_interleave: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "$0")/best_of.sh"

echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
read -r pw pc < <(best qemu-aarch64 "$prog" "$iters")
echo "plain qemu-aarch64 false_sharing $iters: wall $pw s, cpu $pc s (best of $runs)"
echo
echo "| --interleave | wall / cpu (s) | record / plain wall | models' CPU (s) | peer-core (of all accesses) | hand-overs |"
echo "|---|---|---|---|---|---|"
# A table row for --interleave $1 on "${@:2}": wall / cpu, ratio to plain
# ($pw), the models' CPU, and what $extra (a sed expression) finds in the
# summary, then the hand-overs.
row() {
  local q=$1 w c models found hand ratio
  shift
  read -r w c < <(best "$armprof" record --interleave "$q" -o "$tmp/x.data" -- "$@")
  models=$(sed -n 's/^armprof record: the models took \([0-9.]*\) s of CPU time.*/\1/p' "$tmp/err")
  found=$(sed -n "$extra" "$tmp/err")
  hand=$(sed -n 's/.*(\([0-9]*\) hand-overs.*/\1/p' "$tmp/err")
  ratio=$(awk -v a="$w" -v b="$pw" 'BEGIN { printf "%.1fx", a / b }')
  echo "| $q | $w / $c | $ratio | $models | ${found:--} | ${hand:--} |"
}
extra='s/.*peer-core \([0-9.]*%\).*/\1/p'
for q in 1 8 64 0; do
  row "$q" "$prog" "$iters"
done

own=$tmp/own_data
if aarch64-linux-gnu-gcc -O2 -static -pthread -o "$own" "$(dirname "$0")/progs/own_data.c" 2> /dev/null; then
  read -r pw pc < <(best qemu-aarch64 "$own" 2)
  echo
  echo "plain qemu-aarch64 own_data 2: wall $pw s, cpu $pc s (best of $runs)"
  echo
  echo "| --interleave | wall / cpu (s) | record / plain wall | models' CPU (s) | windows side by side | hand-overs |"
  echo "|---|---|---|---|---|---|"
  extra='s/.* \([0-9]*\) windows side by side.*/\1/p'
  for q in 8 0; do
    row "$q" "$own" 2
  done
fi
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

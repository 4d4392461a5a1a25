#!/usr/bin/env bash
# armprof record on real distribution programs: Debian's own arm64 gzip,
# bzip2, xz and zstd (stripped, dynamically linked against Debian's arm64
# glibc; scripts/debian-arm64-root.sh unpacks them), compressing the same
# text, and coreutils' sort with two threads sorting its words, one per
# line (C locale). For each, the best of N runs of wall and CPU time of plain
# qemu-aarch64, of armprof record --no-timing (instrumentation, SPE model,
# constant latencies) and of armprof record (the full timing model), the
# models' CPU time from the summary and per access and branch (ns/event),
# how long the program's threads waited for the models (ring full and
# drains) and the model threads for events (the summary's ring waits: both
# threads busy means both near 0), and the ratios to plain QEMU in the same
# run of this script. The last three columns are the last run's.
#
# usage: bench/bench_real_programs.sh [BUILD_DIR] [RUNS] [INPUT_KB]   (build, 3, 3000)
# Prints a markdown table for docs/PERFORMANCE.md.
set -euo pipefail
build=${1:-build}
runs=${2:-3}
kb=${3:-3000}
here=$(cd "$(dirname "$0")" && pwd)
armprof=$build/armprof
root=${ARMPROF_DEBIAN_ROOT:-$here/../.cache/debian-arm64/root}
[ -x "$armprof" ] && [ -e "$build/armprof-qemu.so" ] ||
  { echo "bench_real_programs: build $build first (armprof, armprof-qemu.so)" >&2; exit 2; }
[ -x "$root/bin/gzip" ] ||
  { echo "bench_real_programs: no Debian arm64 root in $root (bash scripts/debian-arm64-root.sh .cache/debian-arm64)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_real_programs: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$here/best_of.sh"

python3 "$here/gen_words.py" "$kb" > "$tmp/in.txt"
tr ' ' '\n' < "$tmp/in.txt" > "$tmp/lines.txt"
export LC_ALL=C

echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
echo "Input: $kb KiB of text; best of $runs runs."
echo
echo "| program | operations | plain qemu wall / cpu (s) | record --no-timing | armprof record | models' CPU (s) | --no-timing / plain wall | record / plain wall | models' ns/event | program waited (s) | models waited (s) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for p in "bin/gzip -c" "bin/bzip2 -c" "usr/bin/xz -T1 -c" "usr/bin/zstd -T1 -3 -c" "usr/bin/sort --parallel=2 -S 64M"; do
  set -- $p
  prog=$root/$1
  shift
  [ -x "$prog" ] || { echo "bench_real_programs: no $prog in the root: skipped" >&2; continue; }
  input=$tmp/in.txt
  [ "$(basename "$prog")" != sort ] || input=$tmp/lines.txt
  read -r pw pc < <(best qemu-aarch64 -L "$root" "$prog" "$@" "$input")
  read -r nw nc < <(best "$armprof" record --no-timing --sysroot "$root" -o "$tmp/x.data" -- "$prog" "$@" "$input")
  read -r rw rc < <(best "$armprof" record --sysroot "$root" -o "$tmp/x.data" -- "$prog" "$@" "$input")
  ops=$(sed -n 's/^armprof record: \([0-9]*\) operations fed.*/\1/p' "$tmp/err")
  models=$(sed -n 's/^armprof record: the models took \([0-9.]*\) s of CPU time.*/\1/p' "$tmp/err")
  # accesses + branches, from the timing model's line
  events=$(sed -n 's/^armprof record: timing model: \([0-9]*\) accesses,.*; \([0-9]*\) branches,.*/\1 \2/p' "$tmp/err" |
           awk '{ print $1 + $2 }')
  waits=$(sed -n 's/^armprof record: ring waits: .* models [0-9]* times, \([0-9.]*\) s (ring full), and [0-9]* times, \([0-9.]*\) s (drains); .* events [0-9]* times, \([0-9.]*\) s$/\1 \2 \3/p' "$tmp/err")
  echo "| $(basename "$prog") $* | $ops | $pw / $pc | $nw / $nc | $rw / $rc | $models |" \
       "$(awk -v a="$nw" -v b="$pw" 'BEGIN { printf "%.1fx", a / b }') |" \
       "$(awk -v a="$rw" -v b="$pw" 'BEGIN { printf "%.1fx", a / b }') |" \
       "$(awk -v m="$models" -v e="${events:-0}" 'BEGIN { if (e > 0) printf "%.1f", m * 1e9 / e; else printf "-" }') |" \
       "$(echo "${waits:-- - -}" | awk '{ if ($1 == "-") print "- | -"; else printf "%.2f + %.2f | %.2f", $1, $2, $3 }') |"
done
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

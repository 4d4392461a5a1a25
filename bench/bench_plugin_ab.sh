#!/usr/bin/env bash
# Two builds of the QEMU plugin (e.g. before and after a change) compared in
# wall and CPU time on the same recordings: `armprof record` of Debian's own
# arm64 gzip and bzip2 (bench_real_programs.sh's text) with plugin A, then
# B, alternated RUNS times after one warm-up each, and for each pair the
# ratio A/B; prints the median of each side and of the pair ratios. Pairs
# taken in turn hold when the machine's speed drifts, where a best-of-N of
# each side alone does not. Instruction counts (bench_uarch_programs_cg.sh)
# no longer tell the time of the models: this is the figure for a change
# that trades instructions for fewer mispredicted branches.
#
# A or B may also be a build directory: its armprof and armprof-qemu.so
# then both stand for that side (a change to armprof record itself, the
# conversion to perf.data after the run, say); a plugin alone runs under
# BUILD_DIR's armprof.
#
# usage: bench/bench_plugin_ab.sh BUILD_DIR A B [RUNS] [INPUT_KB]   (7, 1000)
#        A, B: a plugin (.so) or a build directory
# Needs the Debian root (scripts/debian-arm64-root.sh, or ARMPROF_DEBIAN_ROOT)
# and /usr/bin/time. Prints a markdown table for docs/PERFORMANCE.md.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR A B [RUNS] [INPUT_KB]  (A, B: a plugin .so or a build directory)" >&2; exit 2; }
build=$1 a=$(realpath "$2") b=$(realpath "$3") runs=${4:-7} kb=${5:-1000}
here=$(cd "$(dirname "$0")" && pwd)
root=${ARMPROF_DEBIAN_ROOT:-$here/../.cache/debian-arm64/root}
# Each side's armprof and plugin.
if [ -d "$a" ]; then a_armprof=$a/armprof a_plugin=$a/armprof-qemu.so; else a_armprof=$build/armprof a_plugin=$a; fi
if [ -d "$b" ]; then b_armprof=$b/armprof b_plugin=$b/armprof-qemu.so; else b_armprof=$build/armprof b_plugin=$b; fi
for f in "$a_armprof" "$a_plugin" "$b_armprof" "$b_plugin" "$root/bin/gzip" /usr/bin/time; do
  [ -e "$f" ] || { echo "bench_plugin_ab: $f: missing" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen_words.py" "$kb" > "$tmp/in.txt"

# run a|b PROG...: prints "wall cpu" of one armprof record of that side
run() {
  local armprof plugin
  if [ "$1" = a ]; then armprof=$a_armprof plugin=$a_plugin; else armprof=$b_armprof plugin=$b_plugin; fi
  shift
  ARMPROF_PLUGIN=$plugin /usr/bin/time -f '%e %U %S' -o "$tmp/t" \
    "$armprof" record --sysroot "$root" -o "$tmp/x.data" -- "$@" "$tmp/in.txt" > /dev/null 2> "$tmp/err" ||
    { echo "bench_plugin_ab: armprof record failed with $armprof, $plugin: $(tail -2 "$tmp/err")" >&2; exit 2; }
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/t"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
echo "A = $a, B = $b; $runs alternated pairs after a warm-up each; $kb KiB of text."
echo
echo "| program | A wall / cpu (s, median) | B wall / cpu (s, median) | A/B wall (median, min-max) | A/B cpu (median) |"
echo "|---|---|---|---|---|"
for p in "bin/gzip -c" "bin/bzip2 -c"; do
  # shellcheck disable=SC2086 # $p is a word list
  set -- $p
  prog=$root/$1
  shift
  run a "$prog" "$@" > /dev/null
  run b "$prog" "$@" > /dev/null
  : > "$tmp/pairs"
  for _ in $(seq "$runs"); do
    read -r aw ac < <(run a "$prog" "$@")
    read -r bw bc < <(run b "$prog" "$@")
    echo "$aw $ac $bw $bc" >> "$tmp/pairs"
  done
  col() { awk -v c="$1" '{ print $c }' "$tmp/pairs" | median; }
  rw=$(awk '{ print $1 / $3 }' "$tmp/pairs" | median)
  rc=$(awk '{ print $2 / $4 }' "$tmp/pairs" | median)
  lo=$(awk '{ print $1 / $3 }' "$tmp/pairs" | sort -g | head -1)
  hi=$(awk '{ print $1 / $3 }' "$tmp/pairs" | sort -g | tail -1)
  printf '| %s | %s / %s | %s / %s | %.3f (%.3f-%.3f) | %.3f |\n' "$(basename "$prog") $*" \
    "$(col 1)" "$(col 2)" "$(col 3)" "$(col 4)" "$rw" "$lo" "$hi" "$rc"
done
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

#!/usr/bin/env bash
# armprof record at the instrumentation floor (issue 23): wall and CPU time
# of `armprof record` (the full timing and SPE models) under armprof's own
# qemu-aarch64, whose patch 0007 logs the plugin's events inline, and under
# Debian's qemu-user with the plugin's callbacks; against plain
# qemu-aarch64 (each QEMU) and against QEMU's contrib cache plugin
# (contrib/plugins/cache.c of the same 7.2 source, built -O2 by
# system/qemu/build.sh; set to armprof's L1D and L2 geometry, LRU) under
# armprof's QEMU. The examples, then Debian's own arm64 gzip, bzip2, xz,
# zstd and a two-thread sort on generated text. Best of N runs each, all in
# one run of this script, so the ratios compare like with like.
#
# usage: bench/bench_record_vs.sh [BUILD_DIR] [RUNS] [INPUT_KB] [RECORD_OPTION...]
#        (build, 3, 1000; e.g. --no-model --no-timing: the instrumentation alone)
# Needs: bash system/qemu/build.sh (.cache/qemu/current: qemu-aarch64 and
# contrib/libcache.so), scripts/debian-arm64-root.sh's root (or
# ARMPROF_DEBIAN_ROOT), /usr/bin/time. Prints markdown for docs/PERFORMANCE.md.
set -euo pipefail
build=${1:-build}
runs=${2:-3}
kb=${3:-1000}
shift $(($# < 3 ? $# : 3))
ropts=("$@")
here=$(cd "$(dirname "$0")" && pwd)
armprof=$build/armprof
ex=$build/examples
qdir=${ARMPROF_QEMU_DIR:-$here/../.cache/qemu/current}
ours=$qdir/bin/qemu-aarch64
cachelib=$qdir/contrib/libcache.so
deb=$(command -v qemu-aarch64 || true)
root=${ARMPROF_DEBIAN_ROOT:-$here/../.cache/debian-arm64/root}
[ -x "$armprof" ] && [ -e "$build/armprof-qemu.so" ] && [ -x "$ex/pointer_chase" ] ||
  { echo "bench_record_vs: build $build first (armprof, armprof-qemu.so, examples)" >&2; exit 2; }
[ -x "$ours" ] && [ -e "$cachelib" ] ||
  { echo "bench_record_vs: no $ours or $cachelib: bash system/qemu/build.sh" >&2; exit 2; }
[ -n "$deb" ] || { echo "bench_record_vs: no Debian qemu-aarch64 on PATH (qemu-user)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_record_vs: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$here/best_of.sh"
cache_args="dcachesize=65536,dassoc=4,dblksize=64,l2=on,l2cachesize=1048576,l2assoc=8,l2blksize=64,evict=lru"

python3 "$here/gen_words.py" "$kb" > "$tmp/in.txt"
tr ' ' '\n' < "$tmp/in.txt" > "$tmp/lines.txt"
export LC_ALL=C

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }'; }

echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
echo "Best of $runs runs; wall / CPU seconds; real programs on $kb KiB of text; record options: ${ropts[*]:-(none)}."
echo
echo "| program | plain Debian qemu | plain armprof qemu | record, callbacks (Debian qemu) | record, inline (armprof qemu) | contrib cache plugin (armprof qemu) | models' CPU, inline (s) | callbacks / plain Debian (wall) | inline / plain armprof (wall) | inline / plain armprof (CPU) | cache plugin / inline (wall) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
row() { # NAME SYSROOT PROG ARGS...
  local name=$1 sysroot=$2
  shift 2
  local L=() R=()
  [ -z "$sysroot" ] || { L=(-L "$sysroot"); R=(--sysroot "$sysroot"); }
  read -r dw dc < <(best "$deb" "${L[@]}" "$@")
  read -r ow oc < <(best "$ours" "${L[@]}" "$@")
  read -r cw cc < <(best "$armprof" record --qemu "$deb" "${ropts[@]}" "${R[@]}" -o "$tmp/x.data" -- "$@")
  read -r iw ic < <(best "$armprof" record --qemu "$ours" "${ropts[@]}" "${R[@]}" -o "$tmp/x.data" -- "$@")
  local models
  models=$(sed -n 's/^armprof record: the models took \([0-9.]*\) s of CPU time.*/\1/p' "$tmp/err")
  grep -q "events logged inline by QEMU" "$tmp/err" ||
    { echo "bench_record_vs: $ours did not log inline: $(tail -2 "$tmp/err")" >&2; exit 2; }
  read -r pw pc < <(best "$ours" "${L[@]}" -plugin "$cachelib,$cache_args" -d plugin -D /dev/null "$@")
  echo "| $name | $dw / $dc | $ow / $oc | $cw / $cc | $iw / $ic | $pw / $pc | ${models:--} | $(ratio "$cw" "$dw") |" \
       "$(ratio "$iw" "$ow") | $(ratio "$ic" "$oc") | $(ratio "$pw" "$iw") |"
}
for run in "pointer_chase 4000000" "stream 8" "branchy 10" "false_sharing 5000000"; do
  set -- $run
  row "$run" "" "$ex/$1" "${@:2}"
done
if [ -x "$root/bin/gzip" ]; then
  for p in "bin/gzip -c" "bin/bzip2 -c" "usr/bin/xz -T1 -c" "usr/bin/zstd -T1 -3 -c" "usr/bin/sort --parallel=2 -S 64M"; do
    set -- $p
    input=$tmp/in.txt
    [ "$(basename "$1")" != sort ] || input=$tmp/lines.txt
    row "$(basename "$1") ${*:2}" "$root" "$root/$1" "${@:2}" "$input"
  done
else
  echo "bench_record_vs: no Debian arm64 root in $root: real programs skipped" >&2
fi
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

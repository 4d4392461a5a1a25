#!/usr/bin/env bash
# Host instructions per modelled event (access or branch) of two plugin
# builds on Debian's own arm64 programs, under callgrind (deterministic: the
# figure to go by on a busy machine). For each program and plugin: the
# instructions executed in armprof's own code (lib/ and plugins/, the
# timing and SPE models and the replay, as callgrind_annotate attributes
# them by source file), divided by the accesses and branches the timing
# model saw (the plugin's stats: loads + stores + branches). The models run
# on the program's thread (pipeline=0), with the plugin's defaults
# otherwise (interval 1024, call stacks followed), compressing
# bench_real_programs.sh's text.
#
# usage: bench/bench_uarch_programs_cg.sh OLD_PLUGIN.so NEW_PLUGIN.so [INPUT_KB]   (100)
# QEMU: $ARMPROF_QEMU, else .cache/qemu/current/bin/qemu-aarch64 (patch 0007's
# inline events); the Debian root: $ARMPROF_DEBIAN_ROOT, else
# .cache/debian-arm64/root. Prints a markdown table for docs/PERFORMANCE.md.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_PLUGIN.so NEW_PLUGIN.so [INPUT_KB]" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2") kb=${3:-100}
here=$(cd "$(dirname "$0")" && pwd)
root=${ARMPROF_DEBIAN_ROOT:-$here/../.cache/debian-arm64/root}
qemu=${ARMPROF_QEMU:-$here/../.cache/qemu/current/bin/qemu-aarch64}
for f in "$old" "$new" "$qemu" "$root/bin/gzip"; do
  [ -e "$f" ] || { echo "bench_uarch_programs_cg: $f: missing" >&2; exit 2; }
done
command -v valgrind > /dev/null && command -v callgrind_annotate > /dev/null ||
  { echo "bench_uarch_programs_cg: needs valgrind (callgrind_annotate)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/gen_words.py" "$kb" > "$tmp/in.txt"
printf 'out=%s\nstats=%s\nmodel=1\ntiming=1\ninterval=1024\npipeline=0\n' "$tmp/o.raw" "$tmp/o.stats" > "$tmp/cfg"

# instructions in armprof's lib/ and plugins/qemu/ of callgrind output $1
ours() {
  callgrind_annotate --auto=no --threshold=100 "$1" 2> /dev/null |
    awk '/^ *[0-9,]+ .*[ \/](lib\/[a-z0-9]+|plugins\/qemu)\/[a-z0-9_]+\.[ch]:/ { n = $1; gsub(",", "", n); s += n }
         END { printf "%.0f\n", s }'
}
stat() { sed -n "s/^$1=//p" "$tmp/o.stats"; }

echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
echo "Input: $kb KiB of text; callgrind, models on the program's thread."
echo
echo "| program | accesses | branches | old instr (M) | new instr (M) | old instr/event | new instr/event | new/old |"
echo "|---|---|---|---|---|---|---|---|"
for p in "bin/gzip -c" "bin/bzip2 -c" "usr/bin/xz -T1 -c"; do
  set -- $p
  prog=$root/$1
  shift
  [ -x "$prog" ] || { echo "bench_uarch_programs_cg: no $prog in the root: skipped" >&2; continue; }
  for which in old new; do
    plugin=$old
    [ $which = new ] && plugin=$new
    valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file="$tmp/cg.$which" \
      "$qemu" -L "$root" -plugin "$plugin,cfg=$tmp/cfg" "$prog" "$@" "$tmp/in.txt" > /dev/null 2> "$tmp/vg.err" ||
      { echo "bench_uarch_programs_cg: $prog failed under callgrind:" >&2; tail "$tmp/vg.err" >&2; exit 2; }
    acc=$(( $(stat loads) + $(stat stores) )) br=$(stat branches)
    eval "i_$which=$(ours "$tmp/cg.$which")"
  done
  awk -v p="$(basename "$prog") $*" -v a="$acc" -v b="$br" -v o="$i_old" -v n="$i_new" 'BEGIN {
    printf "| %s | %d | %d | %.1f | %.1f | %.1f | %.1f | %.3f |\n", p, a, b, o / 1e6, n / 1e6, o / (a + b), n / (a + b), n / o }'
done
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

#!/usr/bin/env bash
# The cost of call stacks in `armprof record` (issue 20): each example
# recorded with call graphs (the default) and with --call-graph=off, best
# of N runs each, the two alternated run by run so that the machine's load
# falls on both alike. Wall and CPU time (user + sys of QEMU and armprof),
# the models' CPU time (the replay, where the plugin follows the call
# stack: armprof record's summary line) and the perf.data size (the
# samples with their call chains). examples/call_tree is the call-heavy
# one (a call or return every 25 operations or so).
#
# usage: bench/bench_record_call_graph.sh [BUILD_DIR] [RUNS]   (default build, 5)
# Prints a markdown table for docs/PERFORMANCE.md.
set -euo pipefail
build=${1:-build}
runs=${2:-5}
armprof=$build/armprof
ex=$build/examples
[ -x "$armprof" ] && [ -e "$build/armprof-qemu.so" ] && [ -x "$ex/call_tree" ] ||
  { echo "bench_record_call_graph: build $build first (armprof, armprof-qemu.so, examples)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_record_call_graph: needs /usr/bin/time" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one() { # OUT-PREFIX CALL-GRAPH-OPTION PROGRAM ARGS...: "wall cpu models_cpu bytes"
  local out=$1 cg=$2
  shift 2
  /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$armprof" record "$cg" -o "$tmp/$out.data" -- "$@" > /dev/null 2> "$tmp/err"
  local w u s m
  read -r w u s < "$tmp/t"
  m=$(sed -n 's/^armprof record: the models took \([0-9.]*\) s of CPU time.*/\1/p' "$tmp/err")
  echo "$w $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') ${m:-0} $(stat -c %s "$tmp/$out.data")"
}

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }

echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
echo "| example | on: wall / cpu (s) | off: wall / cpu (s) | on / off: wall (cpu) | models' CPU on / off (s) | perf.data on / off |"
echo "|---|---|---|---|---|---|"
for run in "call_tree 4000" "pointer_chase 4000000" "stream 8" "branchy 10" "false_sharing 5000000"; do
  set -- $run
  name=$1
  shift
  ow="" oc="" om="" fw="" fc="" fm="" ob=0 fb=0
  for _ in $(seq "$runs"); do
    read -r w c m b < <(one on --call-graph=on "$ex/$name" "$@")
    ow=$(min "$w" "$ow") oc=$(min "$c" "$oc") om=$(min "$m" "$om") ob=$b
    read -r w c m b < <(one off --call-graph=off "$ex/$name" "$@")
    fw=$(min "$w" "$fw") fc=$(min "$c" "$fc") fm=$(min "$m" "$fm") fb=$b
  done
  awk -v n="$name $*" -v ow="$ow" -v oc="$oc" -v om="$om" -v fw="$fw" -v fc="$fc" -v fm="$fm" -v ob="$ob" -v fb="$fb" \
    'BEGIN { printf "| %s | %.2f / %.2f | %.2f / %.2f | %.2fx (%.2fx) | %.2f / %.2f | %.1f / %.1f MB |\n",
             n, ow, oc, fw, fc, ow / fw, oc / fc, om, fm, ob / 1e6, fb / 1e6 }'
done
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

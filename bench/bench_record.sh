#!/usr/bin/env bash
# Wall and CPU time of `armprof record` on each aarch64 example against plain
# qemu-aarch64 on the same binary, QEMU with a plugin that registers the same
# callbacks and does nothing in them (the floor QEMU 7.2's plugin API sets:
# bench/qemu_callback_floor.c), the plugin with instrumentation only
# (--no-model --no-timing), the plugin with the timing model but no SPE
# model (--no-model), armprof record with the models on the program's own
# threads (--no-pipeline) and with timing windows (--timing-window 256).
# Best of N runs each (default 3), in one run of this
# script, so the ratios compare like with like. CPU time (user + sys of QEMU
# and armprof) is given beside wall time because the machine is shared: when
# other work holds the cores, wall time measures the queue, not armprof.
#
# usage: bench/bench_record.sh [BUILD_DIR] [RUNS]     (default build, 3)
# Prints a markdown table for docs/PERFORMANCE.md.
set -euo pipefail
build=${1:-build}
runs=${2:-3}
armprof=$build/armprof
ex=$build/examples
[ -x "$armprof" ] && [ -e "$build/armprof-qemu.so" ] && [ -x "$ex/pointer_chase" ] &&
  [ -e "$build/bench/armprof-qemu-floor.so" ] ||
  { echo "bench_record: build $build first (armprof, armprof-qemu.so, bench/armprof-qemu-floor.so, examples)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_record: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source "$(dirname "$0")/best_of.sh"

# CPU time of the models alone in one armprof record run (its summary line):
# what the replay of the event log costs, apart from QEMU and the callbacks.
models_cpu() {
  "$armprof" record -o "$tmp/x.data" "$@" 2>&1 > /dev/null |
    sed -n 's/^armprof record: the models took \([0-9.]*\) s of CPU time.*/\1/p'
}

# The load average goes with the figures: other work on the machine shows
# in wall time first, and in CPU time through shared host caches.
echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
echo "| example | plain qemu wall / cpu (s) | callbacks alone (floor) | instrumentation only | + timing model | armprof record | record --no-pipeline | record --timing-window 256 | models' CPU in record (s) | floor / plain: wall (cpu) | record / plain: wall (cpu) | --no-pipeline / plain | window / plain | models' CPU / plain wall |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
# Workloads long enough (0.1-1 s under plain QEMU) that start-up (~50 ms to
# load the plugin and write the output) does not dominate.
for run in "pointer_chase 4000000" "stream 8" "branchy 10" "false_sharing 5000000"; do
  set -- $run
  name=$1
  shift
  read -r pw pc < <(best qemu-aarch64 "$ex/$name" "$@")
  read -r lw lc < <(best qemu-aarch64 -plugin "$build/bench/armprof-qemu-floor.so" "$ex/$name" "$@")
  read -r iw ic < <(best "$armprof" record -q --no-model --no-timing -o "$tmp/x.data" -- "$ex/$name" "$@")
  read -r tw tc < <(best "$armprof" record -q --no-model -o "$tmp/x.data" -- "$ex/$name" "$@")
  read -r fw fc < <(best "$armprof" record -q -o "$tmp/x.data" -- "$ex/$name" "$@")
  read -r nw nc < <(best "$armprof" record -q --no-pipeline -o "$tmp/x.data" -- "$ex/$name" "$@")
  read -r ww wc < <(best "$armprof" record -q --timing-window 256 -o "$tmp/x.data" -- "$ex/$name" "$@")
  mc=$(models_cpu -- "$ex/$name" "$@")
  awk -v n="$name $*" -v pw="$pw" -v pc="$pc" -v lw="$lw" -v lc="$lc" -v iw="$iw" -v ic="$ic" -v tw="$tw" -v tc="$tc" \
      -v fw="$fw" -v fc="$fc" -v nw="$nw" -v nc="$nc" -v ww="$ww" -v wc="$wc" -v mc="${mc:-0}" \
      'function r(a, b) { return b > 0 ? a / b : 0 }
    BEGIN { printf "| %s | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f | %.1fx (%.1fx) | %.1fx (%.1fx) | %.1fx (%.1fx) | %.1fx (%.1fx) | %.1fx |\n",
            n, pw, pc, lw, lc, iw, ic, tw, tc, fw, fc, nw, nc, ww, wc, mc, r(lw, pw), r(lc, pc), r(fw, pw), r(fc, pc), r(nw, pw), r(nc, pc), r(ww, pw), r(wc, pc), r(mc, pw) }'
done
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

#!/usr/bin/env bash
# What full-system SPE costs the guest: the guest's own run time of an
# aarch64 program on armprof's QEMU (system/qemu) in three configurations,
# in one run of this script so the ratios compare like with like:
#   off      the same QEMU with spe=off (QEMU as upstream runs it)
#   idle     spe=on, --no-timing, nothing recording: the inline count of
#            every instruction (clock and perf are --no-timing too)
#   clock    spe=on, perf record -e cpu-clock of the program: perf's own
#            start-up and exit (a large program under TCG), no SPE
#   perf     spe=on, perf record -e arm_spe_0/ts_enable=1,pa_enable=1/ of
#            the program: sampling every 1024 operations (the driver's
#            default), records written through the guest's page tables,
#            PMBIRQ, the driver, perf copying the AUX buffer
#   timing   spe=on with the timing model (armprof system's default), nothing
#            recording: every load, store and branch logged inline and fed
#            to lib/uarch (docs/system-qemu.md)
#   perf-timing  perf as above, with the timing model
# Each configuration boots once and times RUNS runs of the program inside
# the guest (`time`: the guest clock is QEMU's virtual clock, host time
# without -icount), best and median. Then prints a markdown row per
# configuration with the ratio to `off`, for docs/PERFORMANCE.md.
#
# usage: bench/bench_system.sh [BUILD_DIR] [RUNS] [PROGRAM ARGS...]
#        (default build, 5, examples/pointer_chase 2000000)
# BENCH_SYSTEM_CONFIGS="off perf-timing" runs only those (off and clock
# always: the ratios' bases); ARMPROF_SYSTEM_QEMU picks the QEMU.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
shift 2 2> /dev/null || shift $#
armprof=$build/armprof
prog=("${@:-$build/examples/pointer_chase}")
[ $# -gt 0 ] || prog+=(2000000)
[ -x "$armprof" ] && [ -x "${prog[0]}" ] || { echo "bench_system: build $build first (armprof, examples)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "${prog[0]}" "$tmp/prog"
args="${prog[*]:1}"

run() { # NAME ARMPROF-SYSTEM-OPTIONS... -- GUEST-PREFIX
  local name=$1; shift
  local opts=() prefix
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  prefix=$2
  "$armprof" system "${opts[@]}" --share "$tmp" -- \
    "cd $tmp && for i in \$(seq $runs); do busybox time -f %e $prefix ./prog $args > /dev/null 2>> $name.times || true; done" \
    > "$tmp/$name.out" 2>&1 || { echo "bench_system: $name failed: $(tail -5 "$tmp/$name.out")" >&2; exit 2; }
  sort -n "$tmp/$name.times" | grep -E '^[0-9.]+$' > "$tmp/$name.sorted" || true
  [ -s "$tmp/$name.sorted" ] || { echo "bench_system: $name printed no times: $(cat "$tmp/$name.times")" >&2; exit 2; }
}
configs=" off clock ${BENCH_SYSTEM_CONFIGS:-idle perf timing perf-timing} "
want() { [[ $configs == *" $1 "* ]]; }
run off --no-spe -- ""
! want idle || run idle --no-timing -- ""
run clock --no-timing -- "perf record -q -e cpu-clock -o /tmp/c.data --"
! want perf || run perf --no-timing -- "perf record -q -e arm_spe_0/ts_enable=1,pa_enable=1/ -o /tmp/p.data --"
! want timing || run timing --timing -- ""
! want perf-timing || run perf-timing --timing -- "perf record -q -e arm_spe_0/ts_enable=1,pa_enable=1/ -o /tmp/p.data --"

med() { awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' "$tmp/$1.sorted"; }
best() { head -n 1 "$tmp/$1.sorted"; }
base=$(med off)
clock=$(med clock)
echo "| configuration | best s | median s | median / off | median / clock |"
echo "|---|---|---|---|---|"
for c in off idle clock perf timing perf-timing; do
  want "$c" || continue
  printf '| %s | %s | %s | %.2fx | %.2fx |\n' "$c" "$(best $c)" "$(med $c)" \
    "$(echo "$(med $c) / $base" | bc -l)" "$(echo "$(med $c) / $clock" | bc -l)"
done

#!/usr/bin/env bash
# What perf's test_arm_spe_fork.sh checks ("perf doesn't hang when there are
# forks"), without its one-second wall-clock window: perf records a parent
# that forks a child and waits, and only the child runs (it inherits the
# event). The driver sets PMBLIMITR_EL1 to the AUX buffer's wakeup point (half
# the buffer, page-aligned); the model raises the buffer-full event there
# (SPE-3.5.2-1) and PMBIRQ (SPE-3.5-4) in the child's context; the driver
# ends the AUX output, which wakes perf (its -vvv log prints one
# "auxtrace idx" line per read), and perf drains the buffer before the child
# fills the other half. So: a PMBIRQ for each wakeup point the data passed,
# perf reads the buffer again and again, no AUX record is truncated, and the
# records number the child's operations over the interval: nothing lost at
# the wakeups, the context switches or the child's exit (the driver's stop:
# PSB CSYNC, SPE-3.6-12: a second boot has the PE hold 16 records,
# spe.record_hold=16, with a buffer that never fills, and every record is
# there). A read woken at the wakeup point sees the head exactly there (the
# driver pads up to it) unless the child was switched out first (perf on its
# CPU): those reads are counted, not required. The PMBIRQ count may be one
# short of the wakeup points passed (the child can exit right after one).
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -static -o fork_spin "$src/tests/system_spe/progs/fork_spin.c"
# The child: 6 instructions per iteration (the loop of spin()), 1.2 G in all:
# 18310 records at the interval 65536, about 700 KiB, 5 wakeups of the
# 256 KiB AUX buffer (-m,64: its wakeup point every 128 KiB). The other half
# gives perf 128 KiB (about 220 M instructions) to drain the first.
iters=200000000 period=65536 aux=$((64 * 4096))
sys -- "grep arm_spe_pmu /proc/interrupts > irq0.txt;
        perf record -vvv -m,64 -e arm_spe_0/period=$period/u -o fork.data ./fork_spin $iters > prog.out 2> record.log &&
        grep arm_spe_pmu /proc/interrupts > irq1.txt" \
  > out.txt || fail "armprof system: $(tail -20 out.txt; tail -20 record.log 2> /dev/null)"
grep -q "AUX area mmap length $aux\$" record.log || fail "perf did not map a $aux-byte AUX buffer: $(grep 'AUX area' record.log)"
child=$(sed -n 's/^child \([0-9]*\)$/\1/p' prog.out)
[ -n "$child" ] || fail "fork_spin printed no child PID: $(cat prog.out)"
"$armprof" decode --stats --format jsonl -o fork.jsonl fork.data 2> stats.txt || fail "decode: $(tail -5 stats.txt)"
grep -q "AUX buffers selected, 0 truncated" stats.txt || fail "perf lost AUX data (truncated): $(grep truncated stats.txt)"
grep -q "records (0 with errors, 0 truncated)" stats.txt || fail "records with errors: $(tail -1 stats.txt)"
python3 - record.log fork.jsonl irq0.txt irq1.txt "$child" "$iters" "$period" "$aux" <<'PY'
import json, re, sys
log, jsonl, irq0, irq1 = sys.argv[1:5]
child, iters, period, aux = map(int, sys.argv[5:])
# perf's reads: "auxtrace idx I old X head Y diff D", per CPU (idx).
reads = [(int(i), int(h, 16)) for i, h in
         re.findall(r"^auxtrace idx (\d+) old \S+ head (\S+) diff", open(log).read(), re.M)]
data = sum(max([h for i2, h in reads if i2 == i]) for i in {i for i, _ in reads})
woken = sum(1 for _, h in reads if h and h % (aux // 2) == 0)
# PMBIRQ (PPI 5, "GICv3 21 Level arm_spe_pmu"): the per-CPU counts summed.
irqs = [sum(int(f) for f in open(p).read().split()[1:] if f.isdigit()) for p in (irq0, irq1)]
passed = data // (aux // 2)
print(f"AUX data {data} bytes, wakeup points passed {passed}, PMBIRQs {irqs[1] - irqs[0]}, "
      f"perf's reads {len(reads)} ({woken} at a wakeup point)")
assert passed >= 3, "too little data to pass 3 wakeup points"
assert irqs[1] - irqs[0] >= passed - 1, "fewer PMBIRQs than wakeup points passed"
assert len(reads) >= 3, f"perf read the AUX buffer {len(reads)} times: not woken"
pids = [json.loads(l).get("ctx_el1") for l in open(jsonl)]
mine = sum(p == child for p in pids)
expected = 6 * iters / period
print(f"records {len(pids)}, of the child (PID {child}) {mine}, its operations / interval {expected:.0f}")
assert len(pids) - mine <= 0.01 * len(pids), "records of other PIDs than the child's"
assert abs(mine - expected) <= 0.01 * expected, "the child's records do not number its operations / interval"
PY
# Records the PE holds (spe.record_hold) are written by the PSB CSYNC of the
# driver's stop when the child exits (SPE-3.6-12): one lost there would be
# 16 fewer. 120 M instructions, 1831 records, no buffer-full event in the
# default 4 MiB buffer (a buffer-full event discards held records,
# SPE-3.5-10).
sys --config spe.record_hold=16 -- "perf record -q -e arm_spe_0/period=$period/u -o held.data ./fork_spin 20000000 > held.out" \
  > out-held.txt || fail "armprof system (record_hold=16): $(tail -20 out-held.txt)"
child=$(sed -n 's/^child \([0-9]*\)$/\1/p' held.out)
"$armprof" decode --stats --format jsonl -o held.jsonl held.data 2> held-stats.txt || fail "decode: $(tail -5 held-stats.txt)"
python3 - held.jsonl "$child" 20000000 "$period" <<'PY'
import json, sys
child, iters, period = map(int, sys.argv[2:])
mine = sum(json.loads(l).get("ctx_el1") == child for l in open(sys.argv[1]))
expected = 6 * iters / period
print(f"with 16 records held: {mine} records of the child, its operations / interval {expected:.1f}")
assert abs(mine - expected) <= 3, "records held in the PE were lost at the child's exit"
PY
echo "fork: ok"

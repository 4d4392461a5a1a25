#!/usr/bin/env bash
# What perf's test_arm_spe_fork.sh checks ("perf doesn't hang when there are
# forks"), without its one-second wall-clock window: perf records a parent
# that forks a child and waits, and only the child runs (it inherits the
# event). The driver sets PMBLIMITR_EL1 to the AUX buffer's wakeup point (half
# the buffer, page-aligned); the model raises the buffer-full event there
# (SPE-3.5.2-1) and PMBIRQ (SPE-3.5-4) in the child's context; the driver
# ends the AUX output, which wakes perf (its -vvv log prints one
# "auxtrace idx" line per read), and perf drains the buffer before the child
# fills the other half. So: perf reads the buffer at each wakeup point, no
# AUX record is truncated, and the records number the child's operations
# over the interval: nothing lost at the wakeups, the context switches or the
# child's exit (the driver's stop: PSB CSYNC, SPE-3.6-12).
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -static -o fork_spin "$src/tests/system_spe/progs/fork_spin.c"
# The child: 6 instructions per iteration (the loop of spin()), 1.2 G in all:
# 18310 records at the interval 65536, about 700 KiB, 5 wakeups of the
# 256 KiB AUX buffer (-m,64: its wakeup point every 128 KiB). The other half
# gives perf 128 KiB (about 220 M instructions) to drain the first.
iters=200000000 period=65536 aux=$((64 * 4096))
sys -- "perf record -vvv -m,64 -e arm_spe_0/period=$period/u -o fork.data ./fork_spin $iters > prog.out 2> record.log" \
  > out.txt || fail "armprof system: $(tail -20 out.txt; tail -20 record.log 2> /dev/null)"
grep -q "AUX area mmap length $aux\$" record.log || fail "perf did not map a $aux-byte AUX buffer: $(grep 'AUX area' record.log)"
child=$(sed -n 's/^child \([0-9]*\)$/\1/p' prog.out)
[ -n "$child" ] || fail "fork_spin printed no child PID: $(cat prog.out)"
"$armprof" decode --stats --format jsonl -o fork.jsonl fork.data 2> stats.txt || fail "decode: $(tail -5 stats.txt)"
grep -q "AUX buffers selected, 0 truncated" stats.txt || fail "perf lost AUX data (truncated): $(grep truncated stats.txt)"
grep -q "records (0 with errors, 0 truncated)" stats.txt || fail "records with errors: $(tail -1 stats.txt)"
python3 - record.log fork.jsonl "$child" "$iters" "$period" "$aux" <<'PY'
import json, re, sys
log, jsonl, child, iters, period, aux = sys.argv[1], sys.argv[2], int(sys.argv[3]), *map(int, sys.argv[4:])
# perf's reads: "auxtrace idx I old X head Y diff D"; a read woken at the
# wakeup point sees the head exactly there (the driver pads up to it).
heads = [int(h, 16) for h in re.findall(r"^auxtrace idx \d+ old \S+ head (\S+) diff", open(log).read(), re.M)]
woken = [h for h in heads if h and h % (aux // 2) == 0]
print(f"perf's reads of the AUX buffer: {len(heads)}, at a wakeup point: {len(woken)}")
assert len(woken) >= 3, f"perf was woken {len(woken)} times at the wakeup point (heads {[hex(h) for h in heads]})"
pids = [json.loads(l).get("ctx_el1") for l in open(jsonl)]
mine = sum(p == child for p in pids)
expected = 6 * iters / period
print(f"records {len(pids)}, of the child (PID {child}) {mine}, its operations / interval {expected:.0f}")
assert len(pids) - mine <= 0.01 * len(pids), "records of other PIDs than the child's"
assert abs(mine - expected) <= 0.01 * expected, "the child's records do not number its operations / interval"
PY
echo "fork: ok"

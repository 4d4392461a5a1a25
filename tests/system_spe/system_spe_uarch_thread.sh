#!/usr/bin/env bash
# The timing model's own thread (patch 0012, docs/system-qemu.md): a vCPU
# hands its resolved accesses and branches to a thread per vCPU, and the
# sampled instruction's drain feeds what the thread has not reached on the
# vCPU's thread; the core must see the same calls in the same order as a
# model fed synchronously, so that each sampled operation's latencies,
# events and Data Source (SPE-5.3.4-4, SPE-5.3.7-19, SPE-5.3.5-1) are what
# they were without the thread. QEMU's ARMPROF_UARCH_SHADOW=1 feeds a
# second model (its own system) every entry at once on the vCPU's thread
# and compares every sampled result; with one vCPU the two must agree.
# The program mixes L1D hits, DRAM misses and random branches
# (tests/system_spe/progs/timing.c), long enough for the thread to take
# many batches between the samples of the unsampled start.
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
grep -q "ARMPROF_UARCH_SHADOW" "$qemu" ||
  { echo "SKIP: $qemu predates patch 0012 (no model thread): bash system/qemu/build.sh"; exit 77; }
aarch64-linux-gnu-gcc -O1 -g -static -o timing "$src/tests/system_spe/progs/timing.c"
ARMPROF_UARCH_SHADOW=1 sys --cpus 1 -- \
  "perf record -q -e arm_spe_0/ts_enable=1,pa_enable=1/ -o t.data ./timing 200000 > /dev/null" > out.txt 2>&1 ||
  fail "armprof system: $(tail -20 out.txt)"
grep "armprof uarch shadow" out.txt | tail -3
python3 - out.txt <<'PY'
import re, sys
rows = [tuple(map(int, m.groups())) for m in
        re.finditer(r"armprof uarch shadow: cpu 0: (\d+) sampled results compared, (\d+) differ", open(sys.argv[1]).read())]
assert rows, "QEMU printed no shadow counts (ARMPROF_UARCH_SHADOW not passed on?)"
checked, differ = max(rows)
assert checked >= 4096, f"only {checked} sampled results compared"
assert all(d == 0 for _, d in rows), f"the model thread changed sampled results: {rows}"
PY
"$armprof" report t.data > t.txt 2> t.err || fail "armprof report: $(cat t.err)"
grep -q "chase_dram" t.txt || fail "no records of chase_dram: $(head -20 t.txt)"
echo "uarch thread: ok"

#!/usr/bin/env bash
# The external snapshot request from the host (--snapshot-every: QEMU's
# agent asserts every vCPU's request every PERIOD of -icount guest time, the
# IMPLEMENTATION DEFINED mechanism of SS-RSCLCQ-2, and reads the saved
# counters through the external PMU frame):
# - one CSV row per request and vCPU;
# - before the guest allows Capture events (PMECR_EL1.SSE = 0b00 at reset,
#   no EL2/EL3: SS-TD13-10-row3) no request captures (SS-RMFJWS);
# - after the module sets SSE = 0b11 and starts counter 0 on CPU_CYCLES
#   and the cycle counter on every CPU, each request captures
#   (SS-RSCLCQ-1, SS-RVPZHN-1, SS-RVPZHN-2) and between two of a vCPU's
#   rows the CPU_CYCLES delta (PMEVCNTSVR0) and the PMCCNTSVR delta equal
#   the guest time between the requests (QEMU's cycles are virtual ns):
#   the period, while the guest is busy (an idle guest's time passes in
#   real time, so a request comes when the vCPUs next stop).
set -euo pipefail
. "$(dirname "$0")/ss_common.sh" "$@"
cp "$examples/pointer_chase" .
sys --snapshot-every 1ms --snapshot-out series.csv -- 'sleep 0.05; insmod ./pmu_ss_test.ko selftest=0 allow_external=1 &&
  ./pointer_chase 30000000 > /dev/null & ./pointer_chase 30000000 > /dev/null; wait' > out.txt 2> err.txt ||
  fail "armprof system: $(tail -n 20 out.txt err.txt)"
cat err.txt
python3 - series.csv <<'PY' || fail "the snapshot series"
import csv, collections, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and rows[0]["cpu"] == "0", rows[:2]
# One row per request and vCPU: the rows come in pairs with one time.
assert len(rows) % 2 == 0 and all(rows[i]["time_ns"] == rows[i + 1]["time_ns"] and
                                  rows[i]["cpu"] == "0" and rows[i + 1]["cpu"] == "1"
                                  for i in range(0, len(rows), 2)), "not one row per request and vCPU"
first = next(i for i, r in enumerate(rows) if r["captured"] == "1")
assert first >= 2 and all(r["captured"] == "0" for r in rows[:first]), "captures before the guest allowed them"
assert all(r["captured"] == "1" for r in rows[first + 2:]), "a request after SSE = 0b11 did not capture"
prev, periods, pairs = {}, collections.Counter(), 0
for r in rows[first:]:
    t, cc, ev0 = int(r["time_ns"]), int(r["PMCCNTSVR"]), int(r["PMEVCNTSVR0"])
    if r["cpu"] in prev:
        pt, pcc, pev0 = prev[r["cpu"]]
        assert cc - pcc == t - pt == ev0 - pev0, (r, prev[r["cpu"]])
        periods[t - pt] += 1
        pairs += 1
    prev[r["cpu"]] = (t, cc, ev0)
exact = periods[1000000]
print(f"{len(rows)} rows, {pairs} deltas: CPU_CYCLES = PMCCNTR delta = guest time between requests; "
      f"{exact} of them exactly the period 1 ms; {periods.most_common(3)}")
assert exact >= pairs / 2, "fewer than half the deltas are the period"
PY
echo "snapshot series: ok"

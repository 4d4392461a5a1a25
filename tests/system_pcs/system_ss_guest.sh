#!/usr/bin/env bash
# PMU snapshots from guest software: a kernel module (system/guest/pmu_ss,
# built against Debian's headers) at EL1 on a CPU with FEAT_PMUv3_SS
# (--config snapshot.feat_pmuv3_ss=1):
# - ID_AA64DFR0_EL1.PMSS [19:16] = 1 advertises it; PMSSCR_EL1 resets to
#   {NC,SS} = {1,0}, PMECR_EL1 to 0.
# - Table D13-10 as the guest reaches it: this machine has no EL3 and no
#   EL2, so MDCR_EL3.PMSSE and MDCR_EL2.PMSSE act as 0b01 and PMECR_EL1.SSE
#   decides: 0b11 Allowed (SS-TD13-10-row5, SS-RTSYTY-5): the write of
#   PMSSCR_EL1.SS captures, SS polls 0 (SS-IMXCMM-2, Example D13-8) and
#   {NC,SS} = {0,0} (SS-RDBRSV); with the counters stopped the saved
#   PMEVCNTSVR0/1_EL1 and PMCCNTSVR_EL1 equal the live PMEVCNTR0/1_EL0 and
#   PMCCNTR_EL0 (SS-RVPZHN-1, SS-RVPZHN-2, SS-RSCLCQ-1); 0b00 Disabled
#   (SS-TD13-10-row3, SS-RYWLFL-3): the write is ignored (SS-RMFJWS: NC
#   stays 0), nothing saved; 0b10 Prohibited (SS-TD13-10-row4,
#   SS-RTSYTY-7): {NC,SS} = {1,0}, nothing saved.
# - Counting: the saved values lie between the live ones read just before
#   and after the capture, and the live ones keep counting (SS-IVZCDM).
# - With EL2 (--el2: Linux at EL2 with VHE, the module too) MDCR_EL2.PMSSE
#   decides first, "even when" PMECR_EL1.SSE says otherwise: 0b11 Allowed
#   with SSE = 0b00 (SS-TD13-10-row7, SS-RTSYTY-4), 0b00 Disabled with SSE
#   = 0b11 (SS-TD13-10-row2, SS-RYWLFL-2: ignored, NC stays 0), 0b10
#   Prohibited with SSE = 0b11 (SS-TD13-10-row6); then 0b01 leaves it to
#   SSE (the three rows above again).
set -euo pipefail
. "$(dirname "$0")/ss_common.sh" "$@"
check() {
python3 - "$1" "$2" <<'PY'
import sys
el = sys.argv[2]
lines = [l.split("armprof-ss: ", 1)[1].split() for l in open(sys.argv[1]) if "armprof-ss: " in l]
by = {}
for w in lines:
    by[w[0] + (w[1] if w[0] in ("sse", "pmsse") else "")] = w
def val(w, key):
    return w[w.index(key) + 1]
def nums(w, key, n=3):
    i = w.index(key)
    return [int(x) for x in w[i + 1:i + 1 + n]]
cpu = by["cpu"]
assert val(cpu, "pmss") == "1" and val(cpu, "el") == el, cpu
reset = by["reset"]
assert val(reset, "pmsscr") == "0x100000000" and val(reset, "pmecr") == "0x0", reset
def allowed(w):
    assert val(w, "pmsscr") == "0x0" and nums(w, "saved") == nums(w, "live"), w
    assert nums(w, "live")[0] > 0 and nums(w, "live")[2] > 0, w
def disabled(w):     # the write ignored: NC stays 0 after the allowed row
    assert val(w, "pmsscr") == "0x0" and nums(w, "saved") == nums(w, "before"), w
def prohibited(w):   # {NC,SS} = {1,0}, nothing saved
    assert val(w, "pmsscr") == "0x100000000" and nums(w, "saved") == nums(w, "before"), w
if el == "2":
    allowed(by["pmsse3"]); disabled(by["pmsse0"]); prohibited(by["pmsse2"])
else:
    assert not any(k.startswith("pmsse") for k in by), by.keys()
allowed(by["sse3"]); disabled(by["sse0"]); prohibited(by["sse2"])
run = by["running"]
b, s, a = nums(run, "before"), nums(run, "saved"), nums(run, "after")
assert val(run, "pmsscr") == "0x0", run
for k in (0, 2):   # CPU_CYCLES and the cycle counter (INST_RETIRED counts only under -icount)
    assert b[k] < s[k] < a[k], run
print(f"guest snapshots at EL{el}: ok")
PY
}
sys --cpus 1 --config snapshot.feat_pmuv3_ss=1 -- 'insmod ./pmu_ss_test.ko && dmesg | grep "armprof-ss:"' \
  > el1.txt 2> err.txt || fail "armprof system: $(tail -n 20 el1.txt err.txt)"
cat el1.txt
check el1.txt 1 || fail "the guest's snapshots at EL1"
sys --el2 --cpus 1 --config snapshot.feat_pmuv3_ss=1 -- 'insmod ./pmu_ss_test.ko && dmesg | grep "armprof-ss:"' \
  > el2.txt 2> err.txt || fail "armprof system --el2: $(tail -n 20 el2.txt err.txt)"
cat el2.txt
check el2.txt 2 || fail "the guest's snapshots at EL2"

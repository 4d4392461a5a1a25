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
set -euo pipefail
. "$(dirname "$0")/ss_common.sh" "$@"
sys --cpus 1 --config snapshot.feat_pmuv3_ss=1 -- 'insmod ./pmu_ss_test.ko && dmesg | grep "armprof-ss:"' \
  > out.txt 2> err.txt || fail "armprof system: $(tail -20 out.txt err.txt)"
cat out.txt
python3 - out.txt <<'PY' || fail "the guest's snapshots"
import re, sys
lines = [l.split("armprof-ss: ", 1)[1].split() for l in open(sys.argv[1]) if "armprof-ss: " in l]
by = {}
for w in lines:
    by[w[0] if w[0] != "sse" else "sse" + w[1]] = w
def nums(w, key, n=3):
    i = w.index(key)
    return [int(x) for x in w[i + 1:i + 1 + n]]
cpu = by["cpu"]
assert cpu[cpu.index("pmss") + 1] == "1", cpu
reset = by["reset"]
assert reset[reset.index("pmsscr") + 1] == "0x100000000" and reset[reset.index("pmecr") + 1] == "0x0", reset
allowed, disabled, prohibited = by["sse3"], by["sse0"], by["sse2"]
assert allowed[allowed.index("pmsscr") + 1] == "0x0", allowed
assert nums(allowed, "saved") == nums(allowed, "live"), allowed
assert nums(allowed, "live")[0] > 0 and nums(allowed, "live")[2] > 0, allowed
assert disabled[disabled.index("pmsscr") + 1] == "0x0", disabled      # ignored: NC stays 0
assert nums(disabled, "saved") == nums(disabled, "before"), disabled
assert prohibited[prohibited.index("pmsscr") + 1] == "0x100000000", prohibited
assert nums(prohibited, "saved") == nums(prohibited, "before"), prohibited
run = by["running"]
b, s, a = nums(run, "before"), nums(run, "saved"), nums(run, "after")
assert run[run.index("pmsscr") + 1] == "0x0", run
for k in (0, 2):   # CPU_CYCLES and the cycle counter (INST_RETIRED counts only under -icount)
    assert b[k] < s[k] < a[k], run
print("guest snapshots: ok")
PY

#!/usr/bin/env bash
# The type filters of SPE after v1 and discard mode's PMU events, as Linux
# 7.x's arm_spe_pmu drives them on `armprof system --cpu max` (issue 29,
# docs/requirements-later.md; system_spe_later.sh has the other filters).
# The guest runs progs/type_mix.c, one loop of an integer op, a load, a
# store, an atomic load-add (load AND store, SPE-3.2.2-2/3), a scalar FP add
# (FP), an Advanced SIMD add (SIMD) and a conditional branch; perf records
# it with each filter, and the host decode of each perf.data must hold
# records at exactly the loop's instructions the filter lets through
# (every one of them, none of the others; tests/record/type_mix_check.py
# finds their PCs by mnemonic in objdump of mix_loop):
#  - AND/OR masks (PMSFCR_EL1.{B,LD,ST}m, LATER-EFT-1, LATER-EFT-2): load OR
#    store; load with store_filter_mask (a store AND a load: the atomic
#    alone); load_filter_mask with store_filter_mask (a load, NOT a store);
#    branch_filter_mask alone (everything but the branch);
#  - SIMD and FP (PMSFCR_EL1.{SIMD,FP} and masks, LATER-EFT-1..3): the FP
#    add alone; the SIMD add alone; FP OR SIMD; simd_filter_mask alone
#    (everything but the SIMD add);
#  - discard mode (LATER-DIS-2): no record reaches the buffer, while SPE's
#    PMU events count as without it (perf stat of SAMPLE_POP 0x4000 and
#    SAMPLE_FEED 0x4001 around the recording, SPE 2.6 Table 1).
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
need_spe_later
aarch64-linux-gnu-gcc -O1 -g -static -march=armv8.1-a -o type_mix "$src/tests/system_spe/progs/type_mix.c"
n=300000
rec() { echo "perf record -q -e arm_spe_0/$1/u -o $2.data ./type_mix $n > /dev/null"; }
stat() { echo "perf stat -x, -e r4000,r4001 -o $1 -- $2"; }
sys --cpus 1 --cpu max -- "$(rec load_filter=1,store_filter=1 ls) &&
  $(rec load_filter=1,store_filter=1,store_filter_mask=1 lsm) &&
  $(rec load_filter=1,load_filter_mask=1,store_filter_mask=1 lmsm) &&
  $(rec branch_filter_mask=1 bm) &&
  $(rec float_filter=1 fp) &&
  $(rec simd_filter=1 simd) &&
  $(rec simd_filter=1,float_filter=1 fpsimd) &&
  $(rec simd_filter_mask=1 simdm) &&
  $(stat stat-fill.txt "$(rec ts_enable=1 fill)") &&
  $(stat stat-disc.txt "$(rec discard=1 disc)") &&
  echo guest-done" > out.txt || fail "armprof system --cpu max: $(tail -20 out.txt)"
grep -q guest-done out.txt || fail "the guest's commands did not finish: $(tail -20 out.txt)"

for f in ls lsm lmsm bm fp simd fpsimd simdm fill disc; do
  "$armprof" decode --spe-later --format jsonl $f.data > $f.jsonl 2> $f.err || fail "decode $f.data: $(cat $f.err)"
done
check() { python3 "$src/tests/record/type_mix_check.py" type_mix "$1.jsonl" "$2" "${3:-}" || fail "$1: $4"; }
all=add,ldr,str,ldadd,fadd,add_v,subs,b.ne
check ls ldr,str,ldadd "" "load OR store"
check lsm ldadd "" "a load AND a store (store_filter_mask)"
check lmsm ldr "" "a load AND NOT a store (load_filter_mask, store_filter_mask)"
check bm "${all/,b.ne/}" fmov "NOT a branch (branch_filter_mask alone)"
check fp fadd fmov "FP (float_filter)"
check simd add_v "" "SIMD (simd_filter)"
check fpsimd fadd,add_v fmov "FP OR SIMD"
check simdm "${all/,add_v/}" fmov "NOT SIMD (simd_filter_mask alone)"
check fill "$all" fmov "no filter"

# Discard mode: no record written, but SAMPLE_POP and SAMPLE_FEED count as
# in fill mode (the same program and interval: equal within a few samples).
python3 - <<'EOF' || fail "discard's PMU events"
import json
def counts(path):
    c = {}
    for line in open(path):
        f = line.strip().split(",")
        if len(f) > 2 and f[2] in ("r4000", "r4001"):
            assert f[0].isdigit(), f"{path}: {line!r} (not counted)"
            c[f[2]] = int(f[0])
    assert set(c) == {"r4000", "r4001"}, f"{path}: {open(path).read()}"
    return c
fill, disc = counts("stat-fill.txt"), counts("stat-disc.txt")
fill_recs = sum(1 for l in open("fill.jsonl") if '"pc"' in l)
disc_recs = sum(1 for l in open("disc.jsonl") if '"pc"' in l)
assert fill_recs > 100, f"fill mode wrote {fill_recs} records"
assert disc_recs == 0, f"discard mode wrote {disc_recs} records"
n = 300000 * 8
assert disc["r4000"] >= n and fill["r4000"] >= n, (fill, disc)
assert disc["r4001"] > 100, f"discard mode took {disc['r4001']} samples: {disc}"
assert abs(disc["r4001"] - fill["r4001"]) <= 0.05 * fill["r4001"] + 5, (fill, disc)
assert abs(disc["r4000"] - fill["r4000"]) <= 0.05 * fill["r4000"], (fill, disc)
print("discard ok", fill, disc, fill_recs)
EOF
echo "later filters: ok"

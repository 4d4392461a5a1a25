#!/usr/bin/env bash
# The FEAT_PMUv3_EXT32 frame (--config pcsr.pmu_ext=ext32, without 64-bit
# atomic reads: pcsr.atomic64=0): the agent reads PMPCSR[31:0] (the read
# that samples and captures the context: PMPCSR-33), then PMPCSR[63:32]
# (which does not sample: PMPCSR-39, it returns what the first captured),
# PMCID1SR, PMCID2SR and PMVIDSR (spec/003 "Accessing PMPCSR"). The program's
# samples carry its thread (PMCID1SR = CONTEXTIDR_EL1) and its user PCs
# (PMPCSR[63:32]: NS=1, EL0), and its hot loop leads them. The agent reads
# every vCPU: both samplers were activated by its first reads (FEAT_PCSRv8p9,
# PCS-H7.1.1.1-5, -6: PMPCSCTL = IMP | EN on each).
set -euo pipefail
. "$(dirname "$0")/pcs_common.sh" "$@"
cp "$examples/pointer_chase" .
sys --pc-sample 100us --config pcsr.pmu_ext=ext32 -o pcs.data -- \
  "./pointer_chase 20000000 > /dev/null & echo \"pid \$!\"; wait; devmem $(reg 0 $PMPCSCTL) 32; devmem $(reg 1 $PMPCSCTL) 32" > out.txt 2> err.txt ||
  fail "armprof system: $(tail -n 20 out.txt err.txt)"
cat err.txt
pid=$(awk '$1 == "pid" { print $2 }' out.txt)
[ -n "$pid" ] || fail "the guest printed no pid: $(cat out.txt)"
[ "$(grep -c '^0x00000003' out.txt)" = 2 ] || fail "PMPCSCTL of the two vCPUs (0xE50 in EXT32 too): $(grep '^0x' out.txt | tr '\n' ' ')"
"$armprof" report --format json --tid "$pid" --binary pointer_chase pcs.data > prog.json 2> prog.err ||
  fail "armprof report --tid $pid: $(cat prog.err)"
python3 - prog.json <<'PY' || fail "the program's samples"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["records"] > 500, r["records"]
f = r["functions"][0]
assert f["function"] == "chase" and f["samples"] > r["records"] / 2, r["functions"][:3]
print(f"ext32: {r['records']} samples of the program, chase {f['samples']}")
PY
echo "ext32 frame: ok"

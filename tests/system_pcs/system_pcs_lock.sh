#!/usr/bin/env bash
# The Software Lock of the memory-mapped frame (PMPCSR-34, PMPCSR-35: the
# OPTIONAL PMLSR/PMLAR, locked at reset): the agent reads through the system
# bus (--pc-sample-bus system), as memory-mapped accesses.
# - While cpu0's and cpu1's frames are locked (PMLSR = SLI|SLK = 0x3) the
#   agent's reads have no side effect: the suspended samplers stay suspended
#   (PMPCSCTL = IMP = 0x2, no activation: PCS-H7.1.1.1-5 needs a read with
#   side effects), PMCCIDSR keeps its reset value 0, and no read gives a PC
#   sample (a suspended sampler samples nothing: PCS-H7.1.1.1-1).
# - The guest then writes the key 0xC5ACCE55 to cpu1's PMLAR: the agent's
#   next read of cpu1 is the activating one (PCS-H7.1.1.1-7: EN becomes 1),
#   and from then on cpu1's reads give samples; cpu0 stays locked, suspended
#   and sampleless.
set -euo pipefail
. "$(dirname "$0")/pcs_common.sh" "$@"
sys --pc-sample 100us --pc-sample-bus system -o pcs.data -- "
  for c in 0 1; do
    devmem \$(printf 0x%x \$((0x090c1000 + c * 0x2000 + $PMLSR))) 32
    devmem \$(printf 0x%x \$((0x090c1000 + c * 0x2000 + $PMPCSCTL))) 32
    devmem \$(printf 0x%x \$((0x090c1000 + c * 0x2000 + $PMCCIDSR))) 64
  done
  echo unlock; devmem $(reg 1 $PMLAR) 32 0xC5ACCE55; sleep 0.2
  devmem $(reg 1 $PMLSR) 32; devmem $(reg 1 $PMPCSCTL) 32; devmem $(reg 0 $PMPCSCTL) 32" > out.txt 2> err.txt ||
  fail "armprof system: $(tail -n 20 out.txt err.txt)"
cat out.txt err.txt
want="0x00000003 0x00000002 0x0000000000000000 0x00000003 0x00000002 0x0000000000000000 unlock 0x00000001 0x00000003 0x00000002"
got=$(grep -E '^(0x|unlock)' out.txt | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || fail "the guest read: $got; want: $want"
[ "$(stat err.txt samples)" -gt 0 ] || fail "no sample after cpu1's frame was unlocked"
[ "$(stat err.txt EL3)" = 0 ] || fail "EL3 samples"
"$armprof" report --cpu 1 pcs.data > cpu1.txt 2> cpu1.err || fail "report --cpu 1: $(cat cpu1.err)"
if "$armprof" report --cpu 0 pcs.data > cpu0.txt 2> cpu0.err; then
  fail "cpu0, locked all along, has samples: $(head -5 cpu0.txt)"
fi
grep -q "matches none of its samples" cpu0.err || fail "report --cpu 0: $(cat cpu0.err)"
echo "software lock: ok"

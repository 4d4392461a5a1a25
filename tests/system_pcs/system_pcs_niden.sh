#!/usr/bin/env bash
# The authentication input ExternalNoninvasiveDebugEnabled() FALSE
# (--no-niden: the machine property armprof-niden=off): PC sampling is
# prohibited (PCS-H7.1.1-1, PCS-H7.1.1-2), so every read of PMPCSR that is
# not an error response returns the prohibited value 0xFFFFFFFF (H7.1.1,
# the "0xFFFFFFFF" case of PMPCSR[31:0]) and none activates the suspended
# sampler (PCS-H7.1.1.1-5 needs sampling to be allowed): PMPCSCTL stays
# 0x2. The same run with the input TRUE is system_pcs_profile.
set -euo pipefail
. "$(dirname "$0")/pcs_common.sh" "$@"
sys --pc-sample 100us --no-niden -o pcs.data -- "devmem $(reg 0 $PMPCSCTL) 32; devmem $(reg 1 $PMPCSCTL) 32" \
  > out.txt 2> err.txt || fail "armprof system: $(tail -n 20 out.txt err.txt)"
cat out.txt err.txt
[ "$(grep -c '^0x00000002' out.txt)" = 2 ] || fail "PMPCSCTL: $(grep '^0x' out.txt | tr '\n' ' ')"
reads=$(stat err.txt reads) none=$(stat err.txt without) errors=$(stat err.txt error)
[ "$(stat err.txt samples)" = 0 ] || fail "samples while prohibited: $(cat err.txt)"
[ "$none" -gt 1000 ] && [ $((none + errors)) = "$reads" ] || fail "reads $reads: $none without a sample, $errors errors"
# The perf.data is valid and empty of samples: armprof report says so.
"$armprof" report pcs.data > rep.txt 2> rep.err || true
grep -q ', 0 records' rep.txt || fail "report: $(cat rep.txt rep.err)"
echo "noninvasive debug disabled: ok"

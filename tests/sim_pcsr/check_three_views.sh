#!/bin/bash
# Runs examples/three_views and checks its views against each other and
# against the program's ground truth:
#  - view 1 (PMPCSR, PCS-H7.1-3): each function's share of valid samples is
#    within 5 points of its true share of cycles; exactly one read is invalid
#    (the read that activates the suspended sampler, PCS-H7.1.1.1-5);
#  - view 2 (snapshots, SS-RVPZHN-1, SS-RVPZHN-2, SS-RVPZHN-3, SS-RPLPCY-1): one row per 25000
#    cycles; CPU_CYCLES equals PMCCNTR in every interval; PMU_SNAPSHOT counts
#    the previous Capture (0 in the first row, 1 after);
#  - view 3 (SPE), when built: hot() has the most sampled operations.
set -u
out=$("$1") || { echo "three_views failed"; exit 1; }
echo "$out"
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; fi; }
rows=$(echo "$out" | awk '/^== view 2/{v=1; next} /^== /{v=0} v && $1 ~ /^[0-9]+$/' | wc -l)
check '[ "$rows" -eq 9 ]' "9 snapshot rows (200 iterations x ~1144 cycles / 25000), got $rows"
bad=$(echo "$out" | awk '/^== view 2/{v=1; next} /^== /{v=0} v && $1 ~ /^[0-9]+$/ {
	if ($5 != $7) print "row " $1 ": CPU_CYCLES " $5 " != PMCCNTR " $7;
	if ($1 == 1 && $6 != 0) print "row 1: PMU_SNAPSHOT " $6;
	if ($1 > 1 && $6 != 1) print "row " $1 ": PMU_SNAPSHOT " $6 }')
check '[ -z "$bad" ]' "snapshot rows: $bad"
invalid=$(echo "$out" | sed -n 's/.*no sample (0xFFFFFFFF) \([0-9]*\)/\1/p')
check '[ "$invalid" = 1 ]' "one invalid PMPCSR read expected, got '$invalid'"
far=$(echo "$out" | awk '/^== view 1/{v=1; next} /^== /{v=0} v && / samples / {
	gsub(/[%()]/, ""); d = $4 - $9; if (d < 0) d = -d; if (d > 5) print $1 " " $4 " vs " $9 }')
check '[ -z "$far" ]' "PC histogram far from the true cycle shares: $far"
if echo "$out" | grep -q '^== view 3'; then
	top=$(echo "$out" | awk '/^== view 3/{v=1; next} v && / sampled operations/ { if ($2 > m) { m = $2; f = $1 } } END { print f }')
	check '[ "$top" = hot ]' "SPE: hot() should have the most samples, got '$top'"
fi
exit $fail

#!/usr/bin/env bash
# perf record -e arm_spe_0// of an aarch64 program in the guest, through the
# unmodified driver: perf report and perf script in the guest and armprof
# report on the host agree on its hot functions, and each function's share of
# the samples is its exact share of the executed operations (SPE-2.2-1),
# counted by the user-mode plugin on the same program (armprof record
# --counts). Kernel samples appear when the event is not limited to user
# space (EL1 records, [kernel.kallsyms]).
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
if ! command -v qemu-aarch64 > /dev/null || [ ! -e "$build/armprof-qemu.so" ]; then
  echo "SKIP: needs qemu-aarch64 and armprof-qemu.so (not built with sanitizers) for the exact counts"
  exit 77
fi
cp "$examples/pointer_chase" .
spe=arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,branch_filter=1/
sys -- "perf record -q -e arm_spe_0/ts_enable=1/u -o u.data ./pointer_chase 300000 > /dev/null &&
        perf report -i u.data --stdio -q --sort sym > guest-u.txt 2> /dev/null &&
        perf record -q -e ${spe}u -o f.data ./pointer_chase 300000 > /dev/null &&
        perf report -i f.data --stdio -q --sort sym > guest-f.txt 2> /dev/null &&
        perf script -i f.data -F ip,sym > guest-f-script.txt 2> /dev/null &&
        perf record -q -e arm_spe_0/ts_enable=1/ -o k.data ./pointer_chase 100000 > /dev/null &&
        perf report -i k.data --stdio -q --sort dso > guest-k.txt 2> /dev/null" > out.txt ||
  fail "armprof system: $(tail -20 out.txt)"

# 1. Sample shares against the exact operation counts (user space only).
"$armprof" record --no-timing --counts exact.counts -o rec.data -- ./pointer_chase 300000 > /dev/null 2> rec.err ||
  fail "armprof record: $(cat rec.err)"
python3 "$src/tests/record/counts_by_function.py" pointer_chase exact.counts > exact.txt
"$armprof" report --format json u.data > u.json 2> u.err || fail "armprof report u.data: $(cat u.err)"
python3 "$src/tests/system_spe/shares.py" u.json exact.txt 2

# 2. The same hot functions in perf (guest) and armprof (host), in order.
guest_top() { awk '$NF != "" && /%/ { print $NF }' "$1" | head -n 2 | tr '\n' ' '; }
host_top() { python3 -c 'import json,sys; print(" ".join(f["function"] for f in json.load(open(sys.argv[1]))["functions"][:2]) + " ")' "$1"; }
"$armprof" report --format json f.data > f.json 2> f.err || fail "armprof report f.data: $(cat f.err)"
[ "$(guest_top guest-u.txt)" = "$(host_top u.json)" ] ||
  fail "hot functions (unfiltered): perf $(guest_top guest-u.txt), armprof $(host_top u.json)"
[ "$(guest_top guest-f.txt)" = "$(host_top f.json)" ] ||
  fail "hot functions (loads, stores, branches): perf $(guest_top guest-f.txt), armprof $(host_top f.json)"
# perf script in the guest: one line per synthesized sample, the same functions.
for f in $(host_top f.json); do
  grep -q " $f" guest-f-script.txt || fail "perf script in the guest never names $f"
done
# Every record decodes; the filtered one holds only loads, stores and branches
# (PMSFCR_EL1.FT with B, LD, ST, 3.2.3 CollectRecord).
"$armprof" decode --stats f.data > f.stats 2>&1 || fail "decode f.data: $(cat f.stats)"
grep -q "(0 with errors, 0 truncated), 0 unknown and 0 reserved packets" f.stats || fail "$(cat f.stats)"
"$armprof" decode --format jsonl f.data | python3 -c '
import json, sys
ops = {json.loads(l).get("op") for l in sys.stdin}
assert ops and ops <= {"LD", "ST", "B", "ATOMIC"}, ops' || fail "the type filter let other operations through"

# 3. Kernel samples without /u: EL1 records and [kernel.kallsyms].
"$armprof" decode --format jsonl k.data > k.jsonl
grep -q '"el":1' k.jsonl || fail "no EL1 record in an unfiltered recording"
grep -q "kernel.kallsyms" guest-k.txt || fail "perf report names no kernel sample: $(cat guest-k.txt)"
echo "perf: ok"

#!/usr/bin/env bash
# Kernel symbols: perf record -e arm_spe_0// in the guest without /u keeps
# the kernel's samples (EL1 records, PCs in the kernel's half: spec/002
# 5.3.1, SPE-5.3.1-5, SPE-5.3.1-19); armprof report --kallsyms with the guest's
# /proc/kallsyms names their functions as perf in the guest does
# (docs/record-and-report.md).
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
cp "$examples/pointer_chase" .
# perf report's default view counts only the samples it synthesizes per
# event kind (memory, branch-miss, ...): --itrace=i1i makes it count every
# record as an instruction sample, as armprof report does.
sys -- "cat /proc/kallsyms > kallsyms &&
        perf record -q -e arm_spe_0/ts_enable=1/ -o perf.data ./pointer_chase 100000 > /dev/null &&
        perf report -i perf.data --stdio -q --itrace=i1i --sort sym > guest.txt 2> /dev/null" > out.txt ||
  fail "armprof system: $(tail -20 out.txt)"
[ -s kallsyms ] || fail "the guest wrote no kallsyms"
"$armprof" report --format json --kallsyms kallsyms perf.data > k.json 2> k.err ||
  fail "armprof report --kallsyms: $(cat k.err)"
"$armprof" report --format json perf.data > plain.json 2> plain.err || fail "armprof report: $(cat plain.err)"
# The five most sampled kernel rows: named, binary [kernel.kallsyms] or a
# module; without --kallsyms the kernel's samples are unnamed.
kernel_rows() {
  python3 -c '
import json, sys
fns = json.load(open(sys.argv[1]))["functions"]
k = [f for f in fns if f.get("binary", "").startswith("[")]
print(" ".join(f["function"] for f in k[:5]))' "$1"
}
top=$(kernel_rows k.json)
[ -n "$top" ] || fail "no kernel row (binary [kernel.kallsyms]) in $(head -c 2000 k.json)"
case " $top " in *" [unknown] "*) fail "an unnamed row among the top kernel rows: $top" ;; esac
python3 -c '
import json, sys
fns = json.load(open(sys.argv[1]))["functions"]
assert not any(f["function"] in sys.argv[2].split() for f in fns), "kernel functions named without --kallsyms"
assert any(f["function"] == "[unknown]" for f in fns), "no unnamed row without --kallsyms"' plain.json "$top" ||
  fail "without --kallsyms"
# perf in the guest: the same most sampled kernel function ([k] rows).
guest_top=$(awk '$2 == "[k]" { print $3; exit }' guest.txt)
[ -n "$guest_top" ] || fail "perf report in the guest shows no kernel function: $(head guest.txt)"
[ "$guest_top" = "${top%% *}" ] || fail "top kernel function: perf $guest_top, armprof ${top%% *} (of $top)"
echo "kallsyms: ok ($top)"

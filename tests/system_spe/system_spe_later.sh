#!/usr/bin/env bash
# SPE after v1 as Linux 7.x drives it (issue 29, docs/requirements-later.md):
# with `armprof system --cpu max` (SPEv1p5 with every feature of the model)
# the unmodified arm_spe_pmu driver reads ID_AA64DFR0_EL1.PMSVer = 6
# (LATER-VER-1) and PMSIDR_EL1's FnE, FDS, EFT, PBT, CRR bits (LATER-VER-3)
# and offers the format attributes that use them; perf records with each and
# the host decode of the guest's perf.data shows the filter's effect:
#  - discard=1 (PMBLIMITR_EL1.FM = 0b10): no record reaches the buffer
#    (LATER-DIS-1, LATER-DIS-2);
#  - inv_event_filter (PMSNEVFR_EL1, PMSFCR_EL1.FnE): no record has an
#    event the filter names (LATER-FNE-2, LATER-FNE-4), where the unfiltered
#    recording has some;
#  - inv_data_src_filter (PMSDSFR_EL1, PMSFCR_EL1.FDS): no load has a Data
#    Source the filter excludes (LATER-FDS-2, LATER-FDS-4, with MDCR_EL3 and
#    HDFGxTR_EL2 passed as LATER-FDS-3 / LATER-FNE-3 say);
#  - branch records carry the previous branch target (LATER-PBT-2,
#    LATER-PBT-3) and calls/returns their CR class (LATER-CRR-2, LATER-CRR-3);
#    perf 7.x's `perf script -F brstack` shows it as the second entry of
#    each sample's branch stack (LATER-OUT-1).
# The default CPU (Neoverse N1, SPEv1) offers none of these attributes.
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
need_spe_later
dev=/sys/bus/event_source/devices/arm_spe_0
cp "$examples/pointer_chase" "$examples/branchy" "$examples/call_tree" .
pc_n=200000
sys --cpus 1 --cpu max --dmesg dmesg.txt -- "ls $dev/format > formats.txt &&
  perf record -q -e arm_spe_0/branch_filter=1,ts_enable=1/u -o b.data ./branchy > /dev/null &&
  perf record -q -e arm_spe_0/branch_filter=1,inv_event_filter=0x40/u -o bi.data ./branchy > /dev/null &&
  perf record -q -e arm_spe_0/discard=1/u -o d.data ./pointer_chase $pc_n > /dev/null &&
  perf record -q -e arm_spe_0/load_filter=1/u -o l.data ./pointer_chase $pc_n > /dev/null &&
  perf record -q -e arm_spe_0/load_filter=1,inv_data_src_filter=0x1/u -o ld.data ./pointer_chase $pc_n > /dev/null &&
  perf record -q -e arm_spe_0/branch_filter=1/u -o c.data ./call_tree > /dev/null &&
  perf script -i c.data -F brstack --itrace=bl > brstack.txt &&
  echo guest-done" > out.txt || fail "armprof system --cpu max: $(tail -20 out.txt)"
grep -q guest-done out.txt || fail "the guest's commands did not finish: $(tail -20 out.txt)"

# The driver sees SPEv1p5 and the features (LATER-VER-1, LATER-VER-3).
grep -Eq "arm_spe_pmu spe: probed SPEv1\.5 for CPUs 0" dmesg.txt ||
  fail "the driver did not probe SPEv1.5: $(grep -i spe dmesg.txt)"
for f in discard inv_event_filter inv_data_src_filter branch_filter_mask load_filter_mask \
         store_filter_mask simd_filter float_filter simd_filter_mask float_filter_mask; do
  grep -qx "$f" formats.txt || fail "format/$f missing with --cpu max: $(tr '\n' ' ' < formats.txt)"
done

jsonl() { "$armprof" decode --spe-later --format jsonl "$1" 2> "$1.err" || fail "decode $1: $(cat "$1.err")"; }
count() { python3 -c 'import sys; print(sum(1 for l in open(sys.argv[1]) if l.strip()))' "$1"; }

# Discard mode: records are not written (LATER-DIS-2); the other recording
# of the same program has them.
"$armprof" decode --stats d.data > d.stats 2>&1 || true
jsonl l.data > l.jsonl
[ "$(count l.jsonl)" -gt 100 ] || fail "the load recording has $(count l.jsonl) records"
if grep -q '"pc"' <("$armprof" decode --spe-later --format jsonl d.data 2>/dev/null); then
  fail "discard=1 wrote records: $(head -3 d.stats)"
fi

# Inverted event filter, E[6] (not-taken): none left, the unfiltered has some
# (LATER-FNE-4; E[6] is filterable with FnE, LATER-EVF-1).
jsonl b.data > b.jsonl
jsonl bi.data > bi.jsonl
python3 - b.jsonl bi.jsonl <<'EOF' || fail "inv_event_filter=0x40"
import json, sys
def recs(p): return [json.loads(l) for l in open(p) if l.strip()]
b, bi = recs(sys.argv[1]), recs(sys.argv[2])
nt = lambda r: bool(r.get("events", 0) & 0x40)
assert len(bi) > 50, f"{len(bi)} records with the inverted filter"
assert any(nt(r) for r in b), "the unfiltered recording has no not-taken branch"
bad = [r for r in bi if nt(r)]
assert not bad, f"{len(bad)} not-taken records passed the inverted filter: {bad[:2]}"
EOF

# Data-source filter: PMSDSFR_EL1 = ~0x1 leaves out loads with Data Source 0
# (LATER-FDS-4); the unfiltered recording has some.
jsonl ld.data > ld.jsonl
python3 - l.jsonl ld.jsonl <<'EOF' || fail "inv_data_src_filter=0x1"
import json, sys
def loads(p): return [r for r in (json.loads(l) for l in open(p) if l.strip()) if r.get("op") == "LD"]
l, ld = loads(sys.argv[1]), loads(sys.argv[2])
assert any(r.get("data_source") == 0 for r in l), "no load with Data Source 0 unfiltered"
assert len(ld) > 20, f"{len(ld)} loads with the data-source filter"
bad = [r for r in ld if r.get("data_source", None) == 0]
assert not bad, f"{len(bad)} loads with Data Source 0 passed: {bad[:2]}"
EOF

# Previous branch target and call/return classes (LATER-PBT-2, LATER-CRR-2):
# records carry prev_br_tgt; calls are BL and returns RET; a return's
# previous target is where the call went or a branch inside the callee.
jsonl c.data > c.jsonl
python3 - c.jsonl <<'EOF' || fail "previous branch target / call-return"
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(rs) > 50, f"{len(rs)} records"
with_pbt = [r for r in rs if "prev_br_tgt" in r]
assert len(with_pbt) > 0.9 * len(rs), f"{len(with_pbt)} of {len(rs)} records carry prev_br_tgt"
assert all(r["prev_br_tgt_el"] == 0 for r in with_pbt), "a user-space previous target not at EL0"
# Calls and returns are rare among the sampled branches (a few per
# thousand): the three branch recordings together, BL or RET and nothing
# else the model does not write (NON_BL_RET).
cr = set()
for p in (sys.argv[1], "b.jsonl", "bi.jsonl"):
    cr |= {json.loads(l).get("br_cr") for l in open(p) if l.strip()}
assert cr & {"BL", "RET"} and cr <= {None, "BL", "RET"}, f"call/return classes seen: {cr}"
# A taken branch's target becomes the next sampled operation's previous
# target through the translated code: in a program whose time goes to a hot
# loop, the most frequent previous target is the loop's back-edge target,
# the most frequent target of the sampled taken branches.
import collections
taken = collections.Counter(r["target"] for r in rs
                            if r.get("op") == "B" and r.get("target") and not r.get("events", 0) & 0x40)
prev = collections.Counter(r["prev_br_tgt"] for r in with_pbt)
assert taken and prev.most_common(1)[0][0] == taken.most_common(1)[0][0], (prev.most_common(3), taken.most_common(3))
assert all(int(r["prev_br_tgt"], 16) % 4 == 0 for r in with_pbt)
EOF
# perf 7.x in the guest builds a two-entry branch stack per branch sample,
# the second entry 0x0/<previous branch target> (LATER-PBT-3, LATER-OUT-1):
# its targets are exactly the host decode's prev_br_tgt values.
python3 - c.jsonl brstack.txt <<'EOF' || fail "perf script -F brstack: $(head -3 brstack.txt)"
import collections, json, sys
host = collections.Counter(int(json.loads(l)["prev_br_tgt"], 16) for l in open(sys.argv[1]) if l.strip())
guest = collections.Counter()
for line in open(sys.argv[2]):
    entries = line.split()
    if not entries:
        continue
    assert len(entries) == 2, f"not two branch entries: {line!r}"
    frm, to = entries[1].split("/")[:2]
    assert int(frm, 16) == 0, line
    guest[int(to, 16)] += 1
assert sum(guest.values()) > 50 and guest == host, (guest.most_common(3), host.most_common(3))
EOF
echo "later: ok"

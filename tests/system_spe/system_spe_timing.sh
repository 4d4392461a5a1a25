#!/usr/bin/env bash
# The timing model in the full system (armprof system's default, spe-config
# uarch=on; docs/system-qemu.md): perf record -e arm_spe_0// in the guest of
# code whose behaviour is known (tests/system_spe/progs/timing.c), read by
# armprof report on the host and by perf's own report and script in the
# guest:
#   - a pointer chase round 16 KiB: L1D hits (Data Source L1D, SPE-5.3.5-1,
#     SPE-5.3.5-6 Neoverse values), E[2] L1D access without E[3] refill
#     (SPE-5.3.7-19, SPE-5.3.7-18), E[4] TLB access without E[5] walk
#     (SPE-5.3.7-17, SPE-5.3.7-16), and the L1D's latencies: total = issue +
#     L1 DTLB + L1D (SPE-5.3.4-4), issue (SPE-5.3.4-5), translation
#     (SPE-5.3.4-6);
#   - a pointer chase round 64 MiB, visited in the order it was written so
#     that LRU caches hold none of it: DRAM, E[8] LLC access and E[9] LLC
#     miss (SPE-5.3.7-12, SPE-5.3.7-11), table walks, total latency >= DRAM
#     latency; perf --mem-mode calls it "RAM hit", and the L1 chase "L1 hit";
#   - a conditional branch on random bits: E[7] mispredicted (SPE-5.3.7-14)
#     on a large share of its records, perf's branch-miss samples; the same
#     loop with the branch always taken: none; E[6] not taken
#     (SPE-5.3.7-15) only on the random one.
# Then the same program with --no-timing: the constants of before (Data
# Source 0, no cache events), so that the model changes nothing when off;
# and SAMPLE_POP (SPE 2.6 Table 1) counts the same operations either way.
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -g -static -o timing "$src/tests/system_spe/progs/timing.c"
steps=400000
spe=arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,branch_filter=1/u
# SAMPLE_POP (PMU event 0x4000, SPE 2.6 Table 1): the user operations of
# one run, with and without the timing model; equal, so that its drain
# stops neither lose nor repeat an instruction of the count.
pop="perf stat -x, -e r4000 -o POP -- perf record -q -e arm_spe_0//u -o p.data ./timing 100000 > /dev/null"
sys -- "${pop/POP/pop-t.txt} &&
        perf record -q -e $spe -o t.data ./timing $steps > /dev/null &&
        perf report -i t.data --stdio --mem-mode --sort mem,sym > guest-mem.txt 2> /dev/null &&
        perf script -i t.data -F event,ip,sym,flags > guest-script.txt 2> /dev/null" > out.txt ||
  fail "armprof system (timing model): $(tail -20 out.txt)"
"$armprof" report --format json --top 0 t.data > t.json 2> t.err || fail "armprof report: $(cat t.err)"

python3 - t.json guest-mem.txt guest-script.txt <<'PY'
import collections, json, re, sys
rep = json.load(open(sys.argv[1]))
fn = {f["function"]: f for f in rep["functions"]}
# lib/uarch defaults (include/armprof/uarch.h ap_uarch_config_init).
issue, l1tlb, l1d, walk, dram = 2, 1, 4, 30, 180
def ds_share(f, name):
    ds = f["data_source"]
    return ds.get(name, 0) / max(1, sum(ds.values()))
for name in ("chase_l1", "chase_dram", "branch_random", "branch_taken"):
    assert name in fn, f"no records in {name}: {sorted(fn)}"
def chase_load(name):
    """The chase's load instruction (ldr x0, [x0]): its own records."""
    ins = [i for i in rep["instructions"] if i["function"] == name and i["loads"]]
    assert ins, f"no load records in {name}"
    return max(ins, key=lambda i: i["loads"])

small = chase_load("chase_l1")
print(f"chase_l1 {small['disasm']}: {small['loads']} loads, L1D {ds_share(small, 'L1D'):.1%}, latency mean "
      f"{small['lat_mean']}, p50 {small['lat_p50']}, l1d miss {small['l1d_miss_rate']:.2%}, walks {small['tlb_walk_rate']:.2%}")
assert small["loads"] >= 50, small
assert ds_share(small, "L1D") >= 0.98, small["data_source"]
assert small["l1d_miss_rate"] <= 0.02 and small["tlb_walk_rate"] <= 0.02, small
assert small["l1d_access"] == small["loads"] and small["tlb_access"] == small["loads"], small
assert small["lat_p50"] == issue + l1tlb + l1d and small["lat_p90"] == issue + l1tlb + l1d, small
assert small["issue_lat_mean"] == issue, small["issue_lat_mean"]
assert small["xlat_lat_mean"] < l1tlb + 0.5, small["xlat_lat_mean"]

large = chase_load("chase_dram")
print(f"chase_dram {large['disasm']}: {large['loads']} loads, DRAM {ds_share(large, 'DRAM'):.1%}, latency mean "
      f"{large['lat_mean']}, llc miss {large['llc_miss_rate']:.2%}, walks {large['tlb_walk_rate']:.2%}")
assert large["loads"] >= 50, large
assert ds_share(large, "DRAM") >= 0.9, large["data_source"]
assert large["llc_miss_rate"] >= 0.9 and large["llc_access"] >= 0.9 * large["loads"], large
assert large["l1d_miss_rate"] >= 0.9, large
assert large["tlb_walk_rate"] >= 0.5, large
assert large["lat_p50"] >= issue + l1tlb + dram, large["lat_p50"]
assert large["xlat_lat_mean"] > 10 * l1tlb, large["xlat_lat_mean"]
assert large["lat_mean"] > 10 * small["lat_mean"], (large["lat_mean"], small["lat_mean"])

def branches(name):
    ins = [i for i in rep["instructions"] if i["function"] == name and i["branches"]]
    n = sum(i["branches"] for i in ins)
    return dict(n=n, miss=sum(i["mispredicted"] for i in ins), not_taken=sum(i["not_taken"] for i in ins),
                lat=sum(i["lat_total_sum"] for i in ins) / max(1, n))
rnd, tkn = branches("branch_random"), branches("branch_taken")
for name, b in (("branch_random", rnd), ("branch_taken", tkn)):
    print(f"{name}: {b['n']} branches, {b['miss']} mispredicted, {b['not_taken']} not taken, latency mean {b['lat']:.2f}")
assert rnd["n"] >= 100 and tkn["n"] >= 100, (rnd, tkn)
# One branch of the loop's two or three is random: about half of it wrong.
assert rnd["miss"] >= 0.1 * rnd["n"], rnd
assert tkn["miss"] <= 0.01 * tkn["n"], tkn
assert rnd["not_taken"] > 0, rnd
assert rnd["lat"] > tkn["lat"], (rnd, tkn)

# perf in the guest: --mem-mode's data sources per symbol (the first event
# perf synthesizes, l1d-miss), and script's branch-miss samples.
mem = open(sys.argv[2]).read()
sections = re.split(r"# Samples: .* of event '([^']+)'", mem)
by_event = dict(zip(sections[1::2], sections[2::2]))
assert "memory" in by_event, f"perf --mem-mode: no 'memory' event: {list(by_event)}"
rows = collections.defaultdict(float)
for line in by_event["memory"].splitlines():
    m = re.match(r"\s*([\d.]+)%\s+(.*?)\s+\[\.\]\s+(\S+)", line)
    if m:
        rows[(m.group(3), m.group(2))] += float(m.group(1))
def top(sym):
    got = {k[1]: v for k, v in rows.items() if k[0] == sym}
    assert got, f"perf --mem-mode names no {sym}: {dict(rows)}"
    return max(got, key=got.get)
print("perf --mem-mode:", {s: top(s) for s in ("chase_l1", "chase_dram")})
assert top("chase_l1").startswith("L1"), top("chase_l1")
assert "RAM" in top("chase_dram"), top("chase_dram")
# A mispredicted branch: a branch-miss sample (perf 6.x), or a branch
# sample whose flags say miss (perf 7.x: "jcc/miss,not_taken/").
events = collections.Counter()
for line in open(sys.argv[3]):
    parts = line.split()
    if len(parts) >= 2:
        ev = parts[0].rstrip(":")
        events[(ev, parts[-1])] += 1
        if ev == "branch" and re.search(r"/(\S*,)?miss[,/]", line):
            events[("branch-miss", parts[-1])] += 1
print("perf script branch-miss:", {s: events[("branch-miss", s)] for s in ("branch_random", "branch_taken")})
assert events[("branch-miss", "branch_random")] >= 10, events
assert events[("branch-miss", "branch_taken")] <= events[("branch-miss", "branch_random")] / 20, events
print("perf script llc-miss/memory:", {s: (events[("llc-miss", s)], events[("memory", s)]) for s in ("chase_l1", "chase_dram")})
assert events[("llc-miss", "chase_dram")] >= 0.9 * events[("memory", "chase_dram")], events
assert events[("llc-miss", "chase_l1")] <= 0.02 * events[("memory", "chase_l1")], events
PY

# --no-timing: latencies and Data Source are the constants of before
# (docs/system-qemu.md): the large chase looks like the small one.
sys --no-timing -- "${pop/POP/pop-c.txt} && perf record -q -e $spe -o c.data ./timing 100000 > /dev/null" > out-c.txt ||
  fail "armprof system --no-timing: $(tail -20 out-c.txt)"
"$armprof" report --format json --top 0 c.data > c.json 2> c.err || fail "armprof report: $(cat c.err)"
python3 - c.json <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
fn = {f["function"]: f for f in rep["functions"]}
large = max((i for i in rep["instructions"] if i["function"] == "chase_dram" and i["loads"]), key=lambda i: i["loads"])
print(f"no timing model: chase_dram {large['disasm']}: latency {large['lat_p50']}, data sources {large['data_source']}, "
      f"mispredicted {fn['branch_random']['mispredicted']}")
assert large["loads"] >= 20, large
assert large["lat_p50"] == 5 and large["lat_p99"] == 5 and large["xlat_lat_mean"] == 1, large
assert set(large["data_source"]) == {"L1D"} and large["llc_miss"] == 0 and large["l1d_refill"] == 0, large
assert fn["branch_random"]["mispredicted"] == 0, fn["branch_random"]
PY
python3 - pop-t.txt pop-c.txt <<'PY'
import sys
def pop(path):
    for line in open(path):
        f = line.split(",")
        if len(f) > 2 and f[2].startswith("r4000"):
            return int(f[0])
    raise SystemExit(f"{path}: no r4000 count: {open(path).read()}")
t, c = pop(sys.argv[1]), pop(sys.argv[2])
print(f"SAMPLE_POP of timing 100000: {t} with the timing model, {c} without")
assert c > 1_000_000 and abs(t - c) <= c // 1000, (t, c)
PY
echo "timing: ok"

#!/usr/bin/env bash
# armprof report --flame and --children: folded stacks weighted by samples,
# total latency (spec/002 5.3.4, SPE-5.3.4-4) and events (5.3.7: L1D refill
# E[3] SPE-5.3.7-18, LLC miss E[9] SPE-5.3.7-11, TLB walk E[5] SPE-5.3.7-16,
# mispredicted E[7] SPE-5.3.7-14), on an SPE stream written with `armprof encode` whose
# functions a kallsyms text names (exact numbers); then on a recording made
# here with `armprof record` (when qemu-aarch64 and the examples are there),
# where the folded stacks, the function table and the inclusive table must
# tell the same numbers; and a recording with call stacks of a program whose
# call tree is known (examples/call_tree). Bad options: exit 2. Outputs: a private device
# node, a link (its target replaced), a full device (exit 2, reason).
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > kallsyms <<'K'
ffff800008010000 T main
ffff800008010100 T leaf;odd
ffff800008010200 T other
ffff800008012000 D end
K
{
  for i in 1 2 3 4 5 6; do
    echo "pc 0xffff800008010104 el=1; op ld; ev retired l1d-access l1d-refill tlb-access tlb-walk llc-access llc-miss; lat total 200; va 0x10000; ds 14; ts $i"
  done
  echo "pc 0xffff800008010108 el=1; op ld; ev retired l1d-access; lat total 7; va 0x10008; ds 0; end"
  echo "pc 0xffff800008010010 el=1; op b cond; ev retired mispredicted; lat total 14; end"
  echo "pc 0xffff800008010014 el=1; op other; ev retired; lat total 3; end"
  echo "pc 0xffff800008012010 el=1; op other; ev retired; lat total 5; end"
} > k.txt
"$armprof" encode -o k.spe k.txt
# Plain SPE has no call stacks: each record's stack is its PC's function.
"$armprof" report --kallsyms kallsyms --flame k.spe > samples.folded
printf 'leaf_odd 7\nmain 2\n[unknown] 1\n' | diff - samples.folded || fail "--flame samples"
"$armprof" report --kallsyms kallsyms --flame --weight latency k.spe > lat.folded
printf 'leaf_odd 1207\nmain 17\n[unknown] 5\n' | diff - lat.folded || fail "--flame --weight latency"
for w in l1d-miss llc-miss tlb-walk; do
  "$armprof" report --kallsyms kallsyms --flame --weight $w k.spe > w.folded
  printf 'leaf_odd 6\n' | diff - w.folded || fail "--flame --weight $w"
done
"$armprof" report --kallsyms kallsyms --flame --weight mispredict k.spe > w.folded
printf 'main 1\n' | diff - w.folded || fail "--flame --weight mispredict"

"$armprof" report --kallsyms kallsyms --children k.spe > children.txt
grep -Eq '^ +70\.00% +70\.00% +7 +7 +7  leaf;odd \(\[kernel.kallsyms\]\)$' children.txt || fail "children text: $(cat children.txt)"
"$armprof" report --kallsyms kallsyms --children --sort latency --format json k.spe > children.json
python3 - <<'PY'
import json
c = json.load(open("children.json"))
assert c["sort"] == "latency" and c["totals"]["latency"] == 1229, c["totals"]
f = {r["function"]: r for r in c["functions"]}
assert c["functions"][0]["function"] == "leaf;odd"
assert f["leaf;odd"]["children"]["latency"] == 1207 and f["leaf;odd"]["self"]["l1d-miss"] == 6
assert f["main"]["self"]["mispredict"] == 1 and f["[unknown]"]["children"]["samples"] == 1
print("children json ok")
PY
"$armprof" report --kallsyms kallsyms --children --format csv k.spe > children.csv
head -1 children.csv | grep -q '^function,binary,addr,children_samples,self_samples,children_latency' || fail "csv header"
grep -q '^main,\[kernel.kallsyms\],0xffff800008010000,2,2,17,17,' children.csv || fail "csv main: $(cat children.csv)"

# Usage errors: exit 2, nothing written.
for args in "--weight latency" "--flame --weight bogus" "--flame --children" "--flame --annotate main" \
            "--html x.html -o y" "--html x.html --diff k.spe"; do
  set +e
  # shellcheck disable=SC2086
  "$armprof" report --kallsyms kallsyms $args k.spe > /dev/null 2> err.txt
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "'$args': exit $rc, want 2"
  [ ! -e x.html ] && [ ! -e y ] || fail "'$args' wrote a file"
done

# Outputs (docs/outputs.md): a device written in place, a link's target
# replaced (the link kept), a write that fails named with its reason.
mknod null c 1 3 && mknod full c 1 7
"$armprof" report --kallsyms kallsyms --flame -o null k.spe || fail "--flame -o a device"
[ -c null ] || fail "the device was replaced"
echo old > target && ln -s target link
"$armprof" report --kallsyms kallsyms --flame -o link k.spe
[ -L link ] && cmp -s target samples.folded || fail "--flame -o a link"
set +e
"$armprof" report --kallsyms kallsyms --flame -o full k.spe 2> err.txt
rc=$?
set -e
[ $rc -eq 2 ] && grep -q 'full: write failed: No space left on device' err.txt || fail "full device: exit $rc, $(cat err.txt)"

# A recording: the folded stacks add up to the function table, and each
# function's inclusive weight is the stacks that hold it, once each.
build=$(dirname "$armprof")
if command -v qemu-aarch64 >/dev/null && [ -e "$build/armprof-qemu.so" ] && [ -x "$build/examples/pointer_chase" ]; then
  "$armprof" record -q -o pc.data -- "$build/examples/pointer_chase" 20000 > /dev/null
  for w in samples latency l1d-miss; do
    "$armprof" report --flame --weight $w pc.data > pc.$w.folded
  done
  "$armprof" report --format json --top 0 pc.data > pc.json
  "$armprof" report --children --format json --top 0 pc.data > pc.children.json
  python3 - <<'PY'
import json
keys = {"samples": "samples", "latency": "lat_total_sum", "l1d-miss": "l1d_refill"}
rep = json.load(open("pc.json"))
inc = {r["function"]: r for r in json.load(open("pc.children.json"))["functions"]}
for w, field in keys.items():
    leaf, holds = {}, {}
    for line in open(f"pc.{w}.folded"):
        stack, n = line.rsplit(" ", 1)
        frames = stack.split(";")
        leaf[frames[-1]] = leaf.get(frames[-1], 0) + int(n)
        for f in set(frames):
            holds[f] = holds.get(f, 0) + int(n)
    total = sum(leaf.values())
    assert total == rep["totals"][field], (w, total, rep["totals"][field])
    table = {f["function"]: f[field] for f in rep["functions"] if f[field]}
    assert leaf == table, (w, leaf, table)
    for f, n in holds.items():
        assert inc[f]["children"][w] == n, (w, f, inc[f]["children"][w], n)
        assert inc[f]["self"][w] == table.get(f, 0), (w, f)
print("recording: folded stacks, function table and inclusive table agree")
PY
else
  echo "note: no qemu-aarch64/plugin/examples: the recording part was not run"
fi

# A recording with call stacks (armprof record --call-graph, the default,
# writes each record's stack into the perf.data): examples/call_tree's known
# call tree. leaf() runs 3 times under caller_a for each time under
# caller_b, the same work each time: its samples on the two paths are in
# the ratio 3:1 within the statistical error (a binomial share of 3/4, 5
# sigma); recurse() keeps a frame per level in the folded stacks and counts
# once per sample in --children; the worker thread's stacks start at its
# own root.
if command -v qemu-aarch64 >/dev/null && [ -e "$build/armprof-qemu.so" ] && [ -x "$build/examples/call_tree" ]; then
  "$armprof" record -q -o ct.data -- "$build/examples/call_tree" > /dev/null
  "$armprof" report --flame ct.data > ct.folded
  "$armprof" report --children --format json --top 0 ct.data > ct.children.json
  "$armprof" report --format json --top 0 ct.data > ct.json
  python3 - <<'PY'
import json, math, re
# Each line as speedscope's folded importer (/^(.*) (\d+)$/, frames split at
# ';') and flamegraph.pl (/^(.*)\s+?(\d+(?:\.\d*)?)$/) read it: no empty frame.
for l in open("ct.folded"):
    m = re.fullmatch(r"(.*) (\d+)", l.rstrip("\n"))
    assert m and all(m.group(1).split(";")) and int(m.group(2)) > 0, l
lines = [l.rsplit(" ", 1) for l in open("ct.folded")]
stacks = [(s.split(";"), int(n)) for s, n in lines]
def under(path):  # samples whose stack ends with path (outermost first)
    return sum(n for f, n in stacks if f[-len(path):] == path and "worker" not in f)
a, b = under(["main", "caller_a", "leaf"]), under(["main", "caller_b", "leaf"])
share, sigma = a / (a + b), math.sqrt(0.75 * 0.25 / (a + b))
assert a + b > 200 and abs(share - 0.75) < 5 * sigma, (a, b, share, sigma)
wa = sum(n for f, n in stacks if f[-3:] == ["worker", "caller_a", "leaf"])
wb = sum(n for f, n in stacks if f[-3:] == ["worker", "caller_b", "leaf"])
assert wa + wb > 100 and abs(wa / (wa + wb) - 0.75) < 5 * math.sqrt(0.75 * 0.25 / (wa + wb)), (wa, wb)
assert all(f[0] == "thread_start" for f, n in stacks if "worker" in f), "worker's stacks root"
deep = max(f.count("recurse") for f, n in stacks)
assert deep >= 5, deep
inc = {r["function"]: r for r in json.load(open("ct.children.json"))["functions"]}
for name in ("recurse", "leaf", "main", "caller_a"):
    holds = sum(n for f, n in stacks if name in f)
    assert inc[name]["children"]["samples"] == holds, (name, inc[name]["children"], holds)
rep = json.load(open("ct.json"))
assert inc["recurse"]["self"]["samples"] == next(f["samples"] for f in rep["functions"] if f["function"] == "recurse")
assert inc["main"]["children"]["samples"] < rep["totals"]["samples"]  # the worker's are not under main
print(f"call_tree: leaf under caller_a/caller_b {a}:{b} (share {share:.3f}, sigma {sigma:.3f}), worker {wa}:{wb}, recursion depth {deep}")
PY
else
  echo "note: no qemu-aarch64/plugin/call_tree example: the call-stack recording part was not run"
fi
echo "report_stacks ok"

#!/usr/bin/env bash
# armprof report on SPE streams written with `armprof encode` (docs/spe-text-format.md):
# text/json/csv output, sample shares, rates, data sources, symbols from an
# aarch64 example binary (when the cross toolchain built one), bad input.
# Counts the packets of spec/002 5.3: Operation Type (SPE-5.3.8), Events
# (SPE-5.3.7-11, SPE-5.3.7-12, SPE-5.3.7-14, SPE-5.3.7-18, SPE-5.3.7-19),
# Counter (SPE-5.3.4-4), Data Source (SPE-5.3.5-1: the Neoverse values, --cpu-model;
# report_capture.sh has the other CPUs).
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

bin=$(dirname "$armprof")/examples/pointer_chase
chase=0x1000 main=0x2000 binopt=()
if [ -x "$bin" ] && command -v aarch64-linux-gnu-nm >/dev/null; then
  chase=0x$(aarch64-linux-gnu-nm "$bin" | awk '$3 == "chase" {print $1}')
  main=0x$(aarch64-linux-gnu-nm "$bin" | awk '$3 == "main" {print $1}')
  binopt=(--binary "$bin")
fi
ld=$(printf '0x%x' $((chase + 12)))
{
  for i in 1 2 3 4 5 6; do
    echo "pc $ld el=0; op ld; ev retired l1d-access l1d-refill tlb-access llc-access llc-miss; lat issue 2; lat total 200; va 0x10000; lat xlat 1; ds 14; ts $i"
  done
  for i in 1 2; do
    echo "pc $ld el=0; op ld; ev retired l1d-access tlb-access; lat issue 2; lat total 7; va 0x10008; lat xlat 1; ds 0; end"
  done
  echo "pc $(printf '0x%x' $((chase + 20))) el=0; op b cond; ev retired mispredicted; lat total 14; tgt $ld el=0; end"
  echo "pc $main el=0; op other; ev retired; lat total 3; end"
} > prof.spe
"$armprof" encode -o prof.raw prof.spe

"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --format json -o report.json prof.raw
python3 - "$bin" "${#binopt[@]}" <<'PY'
import json, sys
r = json.load(open("report.json"))
assert r["records"] == 10, r["records"]
fns = {f["function"]: f for f in r["functions"]}
for f in r["functions"]:
    assert "function" in f and "samples" in f
name = "chase" if sys.argv[2] != "0" else "[unknown]"
top = r["functions"][0]
assert top["function"] == name, top["function"]
assert top["samples"] == (9 if name == "chase" else 10), top
if name == "chase":
    assert abs(top["share"] - 0.9) < 1e-9
    assert fns["main"]["samples"] == 1
    assert top["data_source"] == {"L1D": 2, "DRAM": 6}, top["data_source"]
    assert abs(top["l1d_miss_rate"] - 0.75) < 1e-9 and abs(top["llc_miss_rate"] - 0.75) < 1e-9
    assert top["mispredict_rate"] == 1.0
    ins = r["instructions"][0]
    assert ins["samples"] == 8 and ins["function"] == "chase" and ins["offset"] == 12
    assert ins["disasm"].startswith("ldr"), ins
print("json ok")
PY

"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" prof.raw > report.txt
grep -q '^# armprof report: prof.raw (raw SPE), 10 records' report.txt || fail "text header"
grep -q 'Functions' report.txt && grep -q 'Instructions' report.txt || fail "text tables"
if [ ${#binopt[@]} -gt 0 ]; then
  grep -q '^# more: armprof report --annotate chase prof.raw ' report.txt || fail "text: the hint line: $(tail -1 report.txt)"
fi
"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --format csv prof.raw > report.csv
head -1 report.csv | grep -q '^kind,name,addr,samples,share,latency_share,lat_mean' || fail "csv header"
[ "$(grep -c '^function,' report.csv)" -ge 1 ] || fail "csv function rows"
[ "$(grep -c '^instruction,' report.csv)" -eq 3 ] || fail "csv instruction rows"

# --sort: by samples the load leads (8 of 10 samples); by mispredicted
# branches the conditional branch does. The latency shares of all rows sum
# to 1 (the load: 1214 of the 1231 cycles of total latency, SPE-5.3.4-4).
"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --sort mispredict --format json -o sorted.json prof.raw
python3 - <<'PY'
import json
r = json.load(open("sorted.json"))
assert r["sort"] == "mispredict", r["sort"]
ins = r["instructions"]
assert ins[0]["mispredicted"] == 1 and ins[0]["branches"] == 1, ins[0]
assert ins[1]["samples"] == 8, ins[1]
assert abs(sum(i["latency_share"] for i in ins) - 1) < 1e-9
assert abs(ins[1]["latency_share"] - 1214 / 1231) < 1e-6, ins[1]["latency_share"]
assert r["totals"]["lat_total_sum"] == 1231, r["totals"]
print("sort ok")
PY
"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --sort latency prof.raw > sorted.txt
grep -q '^Functions (.* by latency)$' sorted.txt || fail "text: ranked by latency"
grep -q 'lat-share' sorted.txt || fail "text: latency share column"

# --annotate: one function, every instruction in address order (7 in
# chase), the samples where they fell (the load at +12: 8 of chase's 9,
# 1214 of its 1228 cycles; the branch at +20: 1), nothing elsewhere; the
# shares are of the function. A name nobody has: exit 2, no output file.
if [ ${#binopt[@]} -gt 0 ]; then
  size=$((0x$(aarch64-linux-gnu-nm -S "$bin" | awk '$4 == "chase" {print $2}')))
  "$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --annotate chase --format json -o ann.json prof.raw
  python3 - "$size" <<'PY'
import json, sys
a = json.load(open("ann.json"))
ins = a["instructions"]
assert a["function"] == "chase" and a["samples"] == 9 and a["lat_total_sum"] == 1228, a
assert len(ins) == int(sys.argv[1]) // 4, (len(ins), sys.argv[1])
assert [i["offset"] for i in ins] == list(range(0, 4 * len(ins), 4))
hot = {i["offset"]: i for i in ins if i["samples"]}
assert sorted(hot) == [12, 20], sorted(hot)
assert hot[12]["samples"] == 8 and hot[12]["disasm"].startswith("ldr"), hot[12]
assert abs(hot[12]["latency_share"] - 1214 / 1228) < 1e-6 and abs(hot[12]["share"] - 8 / 9) < 1e-6
assert hot[20]["mispredicted"] == 1 and hot[20]["disasm"].startswith("b"), hot[20]
print("annotate ok")
PY
  "$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --annotate chase prof.raw > ann.txt
  grep -q '^# annotate chase: .* 9 samples (90.00% of all)' ann.txt || fail "annotate: text header: $(head -3 ann.txt)"
  [ "$(grep -c ' +0x[0-9a-f]* ' ann.txt)" -eq $((size / 4)) ] || fail "annotate: not one text row per instruction"
  grep -E '^ +8 +88\.89% .* \+0xc +ldr' ann.txt > /dev/null || fail "annotate: the load's row: $(grep ldr ann.txt)"
  "$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --annotate chase --format csv prof.raw > ann.csv
  head -1 ann.csv | grep -q '^pc,offset,samples,share,latency_share' || fail "annotate: csv header"
  [ "$(($(wc -l < ann.csv) - 1))" -eq $((size / 4)) ] || fail "annotate: csv rows"
  # GCC's copies of a function (stream's sum is sum.constprop.0) answer to its name.
  "$armprof" report --cpu-model neoverse-n1 --binary "$(dirname "$bin")/stream" --annotate sum prof.raw > clone.txt
  grep -q '^# annotate sum\.constprop\.0: ' clone.txt || fail "annotate: no clone of sum: $(head -2 clone.txt)"
  set +e
  "$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --annotate no_such_function -o none.txt prof.raw 2> err.txt
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "annotate: unknown function exit $rc"
  grep -q "no function 'no_such_function' in .*pointer_chase" err.txt || fail "annotate: message: $(cat err.txt)"
  [ ! -e none.txt ] || fail "annotate: output written for an unknown function"
fi

# Threads: records by their Context packet (CONTEXTIDR_EL1, INDEX 0b00:
# SPE-5.3.3-3), the thread id under Linux and armprof record. The stream
# above has none: one row, no tid, no text table. With contexts: a row per thread, ranked, with its
# share; the text table appears with two threads or more.
"$armprof" report --cpu-model neoverse-n1 --format json -o noctx.json prof.raw
python3 -c 'import json; t=json.load(open("noctx.json"))["threads"]; assert len(t) == 1 and t[0]["tid"] is None and t[0]["samples"] == 10, t'
! grep -q '^Threads' report.txt || fail "a threads table for a stream without contexts"
{
  for i in 1 2 3; do echo "pc 0x1000 el=0; op ld; ev retired; lat total 4; ctx el1 101; end"; done
  echo "pc 0x1000 el=0; op ld; ev retired; lat total 40; ctx el1 202; end"
  echo "pc 0x1004 el=0; op other; ev retired; lat total 3; end"
} > ctx.spe
"$armprof" encode -o ctx.raw ctx.spe
"$armprof" report --cpu-model neoverse-n1 --format json -o ctx.json ctx.raw
python3 - <<'PY'
import json
t = json.load(open("ctx.json"))["threads"]
assert [(x["tid"], x["samples"]) for x in t] == [(101, 3), (202, 1), (None, 1)], t
assert abs(t[0]["share"] - 0.6) < 1e-9 and abs(t[1]["latency_share"] - 40 / 55) < 1e-6, t
print("threads ok")
PY
"$armprof" report --cpu-model neoverse-n1 ctx.raw > ctx.txt
grep -q '^Threads (3 of 3, by samples)$' ctx.txt || fail "threads: no text table"
grep -E '^ +3 +60\.00% .* 101$' ctx.txt > /dev/null || fail "threads: row of 101: $(grep -A4 '^Threads' ctx.txt)"
"$armprof" report --cpu-model neoverse-n1 --format csv ctx.raw > ctx.csv
grep -q '^thread,202,' ctx.csv && grep -q '^thread,,' ctx.csv || fail "threads: csv rows"

# --diff OLD NEW: functions matched by name; each one's share of the
# samples and of the latency in each run, and the change. Here the samples
# move from chase (9 of 10 -> 2 of 10) to main (1 -> 8): -0.7 and +0.7 of
# the samples, -0.543 and +0.543 of the latency (1228 of 1231 cycles -> 20
# of 44). A function in one run only shows the other's share as 0.
{
  for i in 1 2; do echo "pc $ld el=0; op ld; ev retired l1d-access tlb-access; lat total 10; va 0x10000; ds 0; end"; done
  for i in 1 2 3 4 5 6 7 8; do echo "pc $main el=0; op other; ev retired; lat total 3; end"; done
} > after.spe
"$armprof" encode -o after.raw after.spe
"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --diff prof.raw --format json -o diff.json after.raw
python3 - "${#binopt[@]}" <<'PY'
import json, sys
d = json.load(open("diff.json"))
assert d["old"]["records"] == 10 and d["new"]["records"] == 10, d
f = d["functions"]
if sys.argv[1] != "0":
    assert [x["function"] for x in f] == ["chase", "main"], [x["function"] for x in f]
    assert abs(f[0]["share_change"] + 0.7) < 1e-6 and abs(f[1]["share_change"] - 0.7) < 1e-6, f
    assert abs(f[0]["latency_share_change"] - (20 / 44 - 1228 / 1231)) < 1e-5, f[0]["latency_share_change"]
    assert f[0]["old"]["samples"] == 9 and f[0]["new"]["samples"] == 2 and f[1]["new"]["samples"] == 8
else:  # no symbols: one [unknown] function, the same share in both
    assert len(f) == 1 and f[0]["share_change"] == 0, f
print("diff ok")
PY
"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --diff prof.raw after.raw > diff.txt
grep -q '^# armprof report --diff: prof.raw (raw SPE, 10 records) -> after.raw (raw SPE, 10 records)$' diff.txt ||
  fail "diff: text header: $(head -1 diff.txt)"
if [ ${#binopt[@]} -gt 0 ]; then
  grep -E '^ +90\.00% +20\.00% +-70\.00 .* chase$' diff.txt > /dev/null || fail "diff: chase row: $(grep chase diff.txt)"
fi
"$armprof" report --cpu-model neoverse-n1 "${binopt[@]}" --diff prof.raw --format csv after.raw > diff.csv
head -1 diff.csv | grep -q '^function,binary,old_share,new_share,share_change,' || fail "diff: csv header"
set +e
"$armprof" report --cpu-model neoverse-n1 --diff no-such-file after.raw 2> err.txt; [ $? -eq 2 ] || fail "diff: missing old file exit"
"$armprof" report --cpu-model neoverse-n1 --diff prof.raw --annotate chase after.raw 2> err.txt; [ $? -eq 2 ] || fail "diff with annotate exit"
grep -q -- "--diff and --annotate: one at a time" err.txt || fail "diff with annotate message"
set -e

# Shared cache lines (as perf c2c shows them): the 64-byte lines where a
# load's data came from another core's cache (Data Source PEER-CORE 9,
# PEER-CLUSTER 12, LOCAL-CLUSTER 10, REMOTE 13: the Neoverse values,
# SPE-5.3.5-1), with every sample in them, their threads and functions;
# the report reads its input twice for them (not standard input).
cat > shared.spe <<'SPE'
pc 0x4007f8 el=0; op ld; ev retired l1d-access l1d-refill llc-access; lat issue 2; lat total 53; va 0x4a2100; lat xlat 1; ds 9; ctx el1 100; ts 10
pc 0x4007f8 el=0; op ld; ev retired l1d-access; lat issue 2; lat total 7; va 0x5a000000004a2108; lat xlat 1; ds 0; ctx el1 101; ts 11
pc 0x400804 el=0; op st; ev retired l1d-access l1d-refill; lat issue 2; lat total 4; va 0x4a2108; lat xlat 1; ctx el1 101; ts 12
pc 0x4007f8 el=0; op ld; ev retired l1d-access l1d-refill llc-access; lat issue 2; lat total 93; va 0x4a213c; lat xlat 1; ds 12; ctx el1 100; ts 13
pc 0x400828 el=0; op ld; ev retired l1d-access; lat issue 2; lat total 7; va 0x4a2140; lat xlat 1; ds 0; ctx el1 100; ts 14
pc 0x400900 el=0; op ld; ev retired l1d-access; va 0x7000; ds 10; ts 15
pc 0x400904 el=0; op ld; ev retired l1d-access; va 0x7008; ds 13; ts 16
pc 0x400908 el=0; op ld; ev retired l1d-access; va 0x9000; ds 14; end
SPE
"$armprof" encode -o shared.raw shared.spe
"$armprof" report --cpu-model neoverse-n1 shared.raw > shared.txt
grep -q '^Shared cache lines (2 of 2, by loads another core' shared.txt || fail "shared lines: no table: $(cat shared.txt)"
grep -Eq '^ +4 .* 0x4a2100 +2 +2 false +\+0:1 \+8:1 \+56:1 ' shared.txt ||
  fail "shared lines: line 0x4a2100 (4 samples, 2 such loads, 2 threads, false sharing of 3 words): $(cat shared.txt)"
grep -Eq '^ +2 .* 0x7000 +2 +1 - ' shared.txt || fail "shared lines: line 0x7000 (2 samples, 2 such loads, 1 thread)"
! grep -Eq '0x9000|0x4a2140 ' shared.txt || fail "shared lines: a line no other core served is listed"
"$armprof" report --cpu-model neoverse-n1 --format json shared.raw | python3 -c '
import json, sys
r = json.load(sys.stdin)
l = r["shared_lines"]
assert [x["line"] for x in l] == ["0x4a2100", "0x7000"], l
assert l[0]["peer_loads"] == 2 and l[0]["samples"] == 4 and l[0]["loads"] == 3 and l[0]["stores"] == 1, l[0]
assert l[0]["threads"] == 2 and l[0]["functions"] == [{"function": "[unknown]", "samples": 4}], l[0]
assert l[0]["sharing"] == "false" and l[1]["sharing"] == "one thread", l
assert l[0]["words"] == [{"offset": 0, "samples": 1, "threads": 1}, {"offset": 8, "samples": 2, "threads": 1},
                         {"offset": 56, "samples": 1, "threads": 1}], l[0]["words"]
assert l[0]["data_source"] == {"L1D": 1, "PEER-CORE": 1, "PEER-CLUSTER": 1}, l[0]
assert r["shared_lines_dropped_loads"] == 0
' || fail "shared lines: json"
[ "$("$armprof" report --cpu-model neoverse-n1 --format csv shared.raw | grep -c '^line,')" -eq 2 ] || fail "shared lines: csv rows"
"$armprof" report --cpu-model neoverse-n1 - < shared.raw > stdin.txt
! grep -q 'Shared cache lines' stdin.txt || fail "shared lines from standard input (cannot be read twice)"
# No load from another core: no table.
"$armprof" report --cpu-model neoverse-n1 prof.raw > noshared.txt
! grep -q 'Shared cache lines' noshared.txt || fail "shared lines without such loads"

# Bad input: usage errors exit 2, a stream with decode errors exits 1.
set +e
"$armprof" report --cpu-model neoverse-n1 --format xml prof.raw 2>err.txt; [ $? -eq 2 ] || fail "bad format exit"
grep -q "unknown format 'xml'" err.txt || fail "bad format message"
"$armprof" report --cpu-model neoverse-n1 --sort time prof.raw 2>err.txt; [ $? -eq 2 ] || fail "bad sort exit"
grep -q -- "--sort 'time': expected samples, latency" err.txt || fail "bad sort message"
"$armprof" report --cpu-model neoverse-n1 no-such-file 2>err.txt; [ $? -eq 2 ] || fail "missing file exit"
"$armprof" report --cpu-model neoverse-n1 --binary /etc/hostname prof.raw 2>err.txt; [ $? -eq 2 ] || fail "bad binary exit"
grep -q "not a 64-bit ELF" err.txt || fail "bad binary message"
printf 'pc 0x1000 el=0; op ld; bytes 0x4a; end\n' > bad.spe
"$armprof" encode -o bad.raw bad.spe
"$armprof" report --cpu-model neoverse-n1 bad.raw >/dev/null 2>err.txt; [ $? -eq 1 ] || fail "decode errors exit"
grep -q "decode errors" err.txt || fail "decode errors message"
set -e
echo "report_cli ok"

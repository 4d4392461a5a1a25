#!/usr/bin/env bash
# armprof report on the shapes captures from real hardware have, written
# with `armprof encode` (docs/spe-text-format.md): kernel data addresses
# without a tag (spec/002 5.3.1, SPE-5.3.1-17: shown canonical, 0xffff..),
# records of hosts whose kernel runs at EL2 with the Context packet of
# INDEX 1 only (5.3.3, SPE-5.3.3-4), each CPU's Data Source values
# (5.3.5, SPE-5.3.5-1).
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# A VHE host: two threads (PIDs 500, 501) in CONTEXTIDR_EL2, false sharing
# of a kernel line (0xffff000012345600: packet VA 0x00ff.., no TBI), a
# line of a tagged user pointer, one record without a Context packet.
cat > el2.spe <<'SPE'
pc 0xffff800010123450 el=2; ctx el2 500; op ld; ev retired l1d-access; lat total 40; va 0x00ff000012345600; ds 9; ts 1
pc 0xffff800010123450 el=2; ctx el2 501; op ld; ev retired l1d-access; lat total 40; va 0x00ff000012345608; ds 9; ts 2
pc 0xffff800010123454 el=2; ctx el2 501; op st; ev retired l1d-access; lat total 4; va 0xf3ff000012345610; ts 3
pc 0x400a10 el=0; ctx el2 500; op ld; ev retired l1d-access; lat total 30; va 0x3c0000ffc0001000; ds 9; ts 4
pc 0x400a10 el=0; ctx el2 500; op ld; ev retired l1d-access; lat total 3; va 0x0000ffc0001008; ds 0; ts 5
pc 0x400a14 el=0; op other; ev retired; lat total 1; ts 6
SPE
"$armprof" encode -o el2.raw el2.spe
"$armprof" report --cpu-model neoverse-n1 el2.raw > el2.txt
grep -q '^# threads from: CONTEXTIDR_EL2 (Context packet index 1' el2.txt || fail "threads: source not said: $(cat el2.txt)"
grep -q 'thread (CONTEXTIDR_EL2)' el2.txt || fail "threads table: not from CONTEXTIDR_EL2: $(cat el2.txt)"
grep -Eq '^ +3 .* 500$' el2.txt || fail "threads: 500 has 3 samples: $(cat el2.txt)"
grep -Eq '^ +2 .* 501$' el2.txt || fail "threads: 501 has 2 samples"
# The shared lines: the kernel line canonical, its two threads from
# CONTEXTIDR_EL2; the tagged pointer's line at its canonical address.
grep -Eq ' 0xffff000012345600 +2 +2 false ' el2.txt || fail "shared lines: kernel line 0xffff000012345600, 2 threads, false sharing: $(cat el2.txt)"
grep -Eq ' 0xffc0001000 +1 +1 ' el2.txt || fail "shared lines: tagged user line at 0xffc0001000 (1 thread)"
! grep -q '0x00ff0000123456\|0x3c0000ffc' el2.txt || fail "an address shown with its tag byte"
"$armprof" report --cpu-model neoverse-n1 --format json el2.raw | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["thread_context"] == {"contextidr_el1": 0, "contextidr_el2": 5}, r["thread_context"]
tids = {t["tid"]: t["samples"] for t in r["threads"]}
assert tids == {500: 3, 501: 2, None: 1}, tids
' || fail "json: thread_context / threads"
# --tid on a raw stream: the records whose Context says that thread.
"$armprof" report --cpu-model neoverse-n1 --format json --tid 501 el2.raw | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["records"] == 2 and [t["tid"] for t in r["threads"]] == [501], r
' || fail "--tid 501 by CONTEXTIDR_EL2"

# Both Context packets: CONTEXTIDR_EL2 unless --context el1.
cat > both.spe <<'SPE'
pc 0x400a10 el=0; ctx el1 7; ctx el2 500; op other; ev retired; lat total 1; ts 1
pc 0x400a10 el=0; ctx el1 8; op other; ev retired; lat total 1; ts 2
SPE
"$armprof" encode -o both.raw both.spe
"$armprof" report --cpu-model neoverse-n1 --format json both.raw | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert sorted(t["tid"] for t in r["threads"]) == [8, 500], r["threads"]
assert r["thread_context"] == {"contextidr_el1": 1, "contextidr_el2": 1}
' || fail "both packets: EL2 first"
"$armprof" report --cpu-model neoverse-n1 --context el1 --format json both.raw | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert sorted(t["tid"] for t in r["threads"]) == [7, 8], r["threads"]
' || fail "--context el1"
"$armprof" report --cpu-model neoverse-n1 -o both.txt both.raw
grep -q 'CONTEXTIDR_EL2 or CONTEXTIDR_EL1 (Context packets of index 1 and 0) (1 records from CONTEXTIDR_EL2, 1 from CONTEXTIDR_EL1)' both.txt ||
  fail "both packets: the text says which"
set +e
"$armprof" report --cpu-model neoverse-n1 --context el3 both.raw 2>err.txt; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "context 'el3'" err.txt || fail "--context el3: exit 2 with a message (got $rc)"
# Data Source per CPU (5.3.5, SPE-5.3.5-1: IMPLEMENTATION DEFINED). An
# AmpereOne stream: 0x0 local chip cache (another core's), 0x5 remote chip
# cache, 0x7 DRAM, 0x8 L1D. Two threads false-share line 0x4a2100.
cat > ampere.spe <<'SPE'
pc 0x400a10 el=0; ctx el2 500; op ld; ev retired l1d-access; lat total 60; va 0x4a2100; ds 0; ts 1
pc 0x400a10 el=0; ctx el2 501; op ld; ev retired l1d-access; lat total 90; va 0x4a2108; ds 5; ts 2
pc 0x400a14 el=0; ctx el2 500; op ld; ev retired l1d-access; lat total 4; va 0x4a2100; ds 8; ts 3
pc 0x400a18 el=0; ctx el2 500; op ld; ev retired l1d-access; lat total 200; va 0x9000; ds 7; ts 4
SPE
"$armprof" encode -o ampere.raw ampere.spe
"$armprof" decode --format jsonl --cpu-model ampereone ampere.raw > ampere.jsonl
python3 - <<'PY' || fail "decode --cpu-model ampereone: data_source_name"
import json
names = [json.loads(l).get("data_source_name") for l in open("ampere.jsonl")]
assert names == ["LOCAL-CHIP", "REMOTE-CHIP", "L1D", "DRAM"], names
PY
"$armprof" decode --cpu-model ampereone ampere.raw > ampere.txt
grep -q ' ds=5(REMOTE-CHIP) ' ampere.txt || fail "decode text: ds=5(REMOTE-CHIP)"
"$armprof" decode --format csv --cpu-model ampereone ampere.raw > ampere.csv
sed -n 2p ampere.csv | grep -q ',LOCAL-CHIP,,,,,$' || fail "decode csv: data_source_name"
# Without the CPU: values only, no names, no shared line (nothing is known of them).
"$armprof" decode --format jsonl ampere.raw > ampere-raw.jsonl
! grep -q data_source_name ampere-raw.jsonl || fail "decode without a CPU names values"
"$armprof" report ampere.raw > raw.txt
! grep -q 'Shared cache lines' raw.txt || fail "report without a CPU: shared lines from values of no known meaning"
grep -Eq ' 0x0 25% 0x5 25% 0x7 25% ' raw.txt || fail "report without a CPU: raw values: $(cat raw.txt)"
grep -q '^# data sources: raw values (CPU unknown: --cpu-model names it)' raw.txt || fail "report without a CPU: not said"
# Told the CPU: the values as the Neoverse classes perf maps them onto; the
# line another core's cache served is shared.
"$armprof" report --cpu-model ampereone ampere.raw > amp.txt
grep -Eq ' 0x4a2100 +2 +2 false ' amp.txt || fail "report --cpu-model ampereone: shared line 0x4a2100: $(cat amp.txt)"
grep -q 'L1D 25% PEER-CORE 25% REMOTE 25% ' amp.txt || fail "report --cpu-model ampereone: source names"
grep -q '^# data sources: AmpereOne values, as Neoverse classes' amp.txt || fail "report --cpu-model ampereone: not said"
# The same in a perf.data whose CPUID is AmpereOne's MIDR: chosen from it.
"$armprof" convert --midr 0xc00fac40 ampere.raw ampere.data
"$armprof" report ampere.data > ampdata.txt
grep -Eq ' 0x4a2100 +2 +2 false ' ampdata.txt || fail "report of an AmpereOne perf.data: shared line: $(cat ampdata.txt)"
"$armprof" report --format json -o ampdata.json ampere.data
grep -q '"data_source_encoding":"ampereone"' ampdata.json || fail "json: data_source_encoding"
"$armprof" decode --format jsonl ampere.data > ampdata.jsonl 2>/dev/null
grep -q '"data_source_name":"LOCAL-CHIP"' ampdata.jsonl ||
  fail "decode of an AmpereOne perf.data: names"
# A Neoverse V2 perf.data: 0x9 PEER-CORE.
"$armprof" convert --midr 0x410fd4f0 el2.raw v2.data
"$armprof" decode v2.data > v2.txt 2>/dev/null
grep -q ' ds=9(PEER-CORE) ' v2.txt || fail "decode of a Neoverse V2 perf.data: ds=9(PEER-CORE)"
set +e
"$armprof" report --cpu-model m1 ampere.raw 2>err.txt; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "cpu-model 'm1': expected neoverse-n1" err.txt || fail "--cpu-model m1: exit 2 with the names (got $rc)"
echo "report_capture: ok"

#!/usr/bin/env bash
# `armprof record` as a command: the program's output and exit status pass
# through; options program the SPE controls (filters PMSFCR_EL1.FT/FE/FL,
# SPE-3.2.2 Table 4 / CollectRecord; PMSCR_EL1.TS/PA/CX, SPE-3.3 collection
# controls); bad options are refused with exit 2 and no output file.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
pc=$examples/pointer_chase

# Exit status and output pass through.
set +e
"$armprof" record -q -o bad.spe -- "$pc" -5 > out.txt 2> err.txt
rc=$?
set -e
[ $rc -eq 2 ] || fail "exit status $rc, want the program's 2"
grep -q "usage: pointer_chase" err.txt || fail "program stderr did not pass through"
"$armprof" record -o ok.spe -- "$pc" 1000 > out.txt 2> err.txt
grep -q "pointer_chase: 1000 steps" out.txt || fail "program stdout did not pass through"
grep -q "exited with status 0" err.txt || fail "summary"

# A program killed by a signal: its status (128 + signal) passes through,
# and its profile up to the fault is written (record_ended_by_signal.sh
# has the rest).
if command -v aarch64-linux-gnu-gcc >/dev/null; then
  printf 'int main(void) { volatile int *p = 0; *p = 1; return 0; }\n' > seg.c
  aarch64-linux-gnu-gcc -static -O1 -o seg seg.c
  set +e
  "$armprof" record -o seg.data -- ./seg > /dev/null 2> err.txt
  rc=$?
  set -e
  [ $rc -eq 139 ] || fail "killed program: exit $rc, want 139"
  grep -q "was ended by signal 11" err.txt || fail "killed program: message: $(cat err.txt)"
  [ -e seg.data ] || fail "killed program: no profile written"
fi

# Filters: only loads; only operations with total latency >= 100; only
# L1D refills (PMSEVFR_EL1.E[3], SPE-4.3.8-16). Every record written obeys them.
"$armprof" record -q --filter-type load -o ld.spe -- "$pc" 20000 > /dev/null
"$armprof" decode --format jsonl ld.spe > ld.jsonl
[ -s ld.jsonl ] || fail "no records with --filter-type load"
! grep -v '"op":"LD"' ld.jsonl | grep -q . || fail "--filter-type load let other types through"
"$armprof" record -q --min-latency 100 -o lat.spe -- "$pc" 20000 > /dev/null
"$armprof" decode --format jsonl lat.spe | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
assert recs and all(r["lat_total"] >= 100 for r in recs), len(recs)'
"$armprof" record -q --filter-events l1d-refill -o miss.spe -- "$pc" 20000 > /dev/null
"$armprof" decode --format jsonl miss.spe | python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
assert recs and all("l1d-refill" in r["event_names"] for r in recs), len(recs)'

# Collection controls: timestamps on by default, off with --no-timestamps;
# --pa adds the physical address; context (CONTEXTIDR_EL1 = thread id) by default.
"$armprof" decode --format jsonl ok.spe > ok.jsonl
grep -q '"end":"timestamp"' ok.jsonl || fail "no Timestamp packets by default"
grep -q '"ctx_el1"' ok.jsonl || fail "no Context packets by default"
! grep -q '"paddr"' ok.jsonl || fail "PA without --pa"
"$armprof" record -q --no-timestamps --no-context --pa -o pa.spe -- "$pc" 1000 > /dev/null
"$armprof" decode --format jsonl pa.spe > pa.jsonl
! grep -q '"end":"timestamp"' pa.jsonl || fail "--no-timestamps"
! grep -q '"ctx_el1"' pa.jsonl || fail "--no-context"
grep -q '"paddr"' pa.jsonl || fail "--pa"

# perf.data output is read back by report; --no-model writes no SPE file.
"$armprof" record -q -o run.data -- "$pc" 1000 > /dev/null
"$armprof" report --format json run.data | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["format"] == "perf.data" and r["records"] > 0
assert "chase" in {f["function"] for f in r["functions"]}'
# Without FILE.meta the binary comes from the perf.data MMAP2 record.
rm run.data.meta
"$armprof" report --format json run.data | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["binary"].endswith("/pointer_chase"), r["binary"]
assert "chase" in {f["function"] for f in r["functions"]}'
"$armprof" record -q --no-model --counts nm.counts -o nomodel.data -- "$pc" 1000 > /dev/null
[ ! -e nomodel.data ] || fail "--no-model wrote an SPE file"
grep -q ' LD$' nm.counts || fail "--counts"

# Two guest threads: one PE and one buffer each, CONTEXTIDR_EL1 = the
# thread id (SPE-3.3 collection of context), every operation of both fed.
"$armprof" record -q -o fs.spe --counts fs.counts -- "$examples/false_sharing" > /dev/null
python3 - "$armprof" <<'PY'
import json, subprocess, sys
meta = dict(l.strip().split("=", 1) for l in open("fs.spe.meta") if "=" in l and not l.startswith("#"))
assert meta["threads"] == "2", meta
ops = sum(int(l.split()[1]) for l in open("fs.counts") if not l.startswith("#"))
assert int(meta["ops"]) == ops == int(meta["sample_pop"]), (meta, ops)
out = subprocess.run([sys.argv[1], "decode", "--format", "jsonl", "fs.spe"], capture_output=True, text=True).stdout
ctx = {json.loads(l).get("ctx_el1") for l in out.splitlines()}
assert len(ctx - {None}) == 2, ctx
PY
"$armprof" record -q -o fs.data -- "$examples/false_sharing" > /dev/null
tid=$("$armprof" decode --format jsonl fs.data 2>/dev/null | python3 -c '
import json, sys
print(max(json.loads(l)["ctx_el1"] for l in sys.stdin))')
"$armprof" report --format json -o fs-all.json fs.data
"$armprof" report --tid "$tid" --format json -o fs-one.json fs.data
python3 -c '
import json
a, o = json.load(open("fs-all.json")), json.load(open("fs-one.json"))
assert 0 < o["records"] < a["records"], (o["records"], a["records"])'

# Bad options: exit 2, a message, no output file.
for args in "-c 100" "-c abc" "--bogus" "--filter-type jump" "--filter-events nonsense" "--filter-events llc-miss" \
            "--min-latency 0" "--buffer-size 1000" "--set no.such.key=1" "--uarch l1d.ways=3" \
            "--format xml" "--timing-window -5" "--timing-window many"; do
  set +e
  # shellcheck disable=SC2086
  "$armprof" record $args -o badopt.data -- "$pc" 10 > /dev/null 2> err.txt
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "'$args': exit $rc, want 2"
  grep -q "armprof record: " err.txt || fail "'$args': no message"
  [ ! -e badopt.data ] || fail "'$args': output written"
done
set +e
"$armprof" record -o x.data > /dev/null 2> err.txt; [ $? -eq 2 ] || fail "no program"
"$armprof" record -o x.data -- /etc/hostname 2> err.txt; [ $? -eq 2 ] || fail "not a program"
grep -q "not an ELF" err.txt || fail "not-ELF message"
head -c 200 "$pc" > broken.elf && chmod +x broken.elf # the program headers cut off
"$armprof" record -o x.data -- ./broken.elf 2> err.txt; [ $? -eq 2 ] || fail "broken ELF"
grep -q "broken.elf: its ELF program headers or interpreter are broken" err.txt || fail "broken-ELF message: $(cat err.txt)"
[ ! -e x.data ] || fail "broken ELF: output written"
"$armprof" record -o x.data -- no-such-program-here 2> err.txt; [ $? -eq 2 ] || fail "missing program"
set -e
ls -a | grep -q '^\.armprof-record' && fail "temporary directory left behind"

# SIGTERM for armprof (here from `timeout`) goes on to QEMU: the program
# ends, with its profile up to the signal (record_ended_by_signal.sh has
# the rest), armprof cleans up and leaves no QEMU behind; SIGKILL for
# armprof takes QEMU with it (PR_SET_PDEATHSIG).
set +e
timeout 1 "$armprof" record -o term.data -- "$examples/stream" 1000 > /dev/null 2> term.err
rc=$?
set -e
[ $rc -eq 124 ] || fail "timeout: exit $rc"
sleep 0.5
grep -q "was ended by signal 15 .*the profile covers it up to the signal" term.err || fail "SIGTERM: $(cat term.err)"
"$armprof" decode --stats term.data > /dev/null || fail "SIGTERM: the profile does not decode"
ls -a | grep -q '^\.armprof-record' && fail "SIGTERM: temporary directory left behind"
pgrep -f "stream 1000" > /dev/null && fail "SIGTERM: QEMU left running"
set +e
timeout -s KILL 1 "$armprof" record -o kill.data -- "$examples/stream" 1001 > /dev/null 2>&1
set -e
sleep 0.5
pgrep -f "stream 1001" > /dev/null && fail "SIGKILL: QEMU left running"
rm -rf .armprof-record.*
echo "record_cli ok"

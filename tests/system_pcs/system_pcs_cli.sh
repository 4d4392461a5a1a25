#!/usr/bin/env bash
# armprof system --pc-sample / --snapshot-every on the host side, with
# fake_agent_qemu.sh in QEMU's place (no QEMU or kit): QEMU's command line
# (the frames, the agents, -icount shift=0, FEAT_PMUv3_SS in spe-config,
# --cpu-debug's armprof-cpu-debug),
# usage errors, the agent's raw PC samples turned into a perf.data whose
# samples armprof report reads (ip, EL, thread from CONTEXTIDR_EL1, cpu;
# reads without a sample (0xFFFFFFFF) and error responses only counted, as
# the summary says), a malformed raw file (exit 1, the profile not
# written), and the snapshot series as CSV.
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/share" "$work/kit" "$work/tmp" && cd "$work/share"
export TMPDIR=$work/tmp FAKE_QEMU_ARGS=$work/args
fail() { echo "FAIL: $*" >&2; exit 1; }
echo kernel > "$work/kit/vmlinuz" && echo initrd > "$work/kit/initrd.img"
sys() { "$armprof" system --qemu "$src/tests/system_pcs/fake_agent_qemu.sh" --kit "$work/kit" --share "$work/share" "$@"; }
usage() {
  local rc=0
  sys "$@" -- true > out.txt 2> err.txt || rc=$?
  [ "$rc" = 2 ] || fail "$*: exit status $rc, not 2"
  grep -q "^armprof system: " err.txt || fail "$*: $(cat err.txt)"
}
usage --pc-sample 999
usage --pc-sample 5s
usage --pc-sample 1ms --no-spe
usage --snapshot-every 1ms --no-spe
usage --no-niden --no-spe
usage --cpu-debug --no-spe
usage -o x.data
usage --pc-sample 1ms --pc-sample-bus foo
usage --snapshot-out x.csv

# Four reads: an error response (cpu0), 0xFFFFFFFF (cpu1), an EL1 sample of
# thread 9 (PMPCSR NS=1 EL=01, PC 0xffff800008001234) and an EL0 one of
# thread 110 at 0x4007b0.
hdr="b'APPCSRAW'+struct.pack('<IIQII',1,2,50000,0,0)"
rec() { echo "struct.pack('<QIIQQQ',$1,$2,$3,$4,$5,$6)"; }
FAKE_AGENT_PCS="$hdr+$(rec 50000 0 1 0 0 0)+$(rec 50000 1 0 0xffffffff 0 0)+$(rec 100000 0 0 0xa0ff800008001234 9 0)+$(rec 100000 1 0 0x80000000004007b0 110 0)"
export FAKE_AGENT_PCS
sys --pc-sample 50us -o p.data -- 'echo hi' > out.txt 2> err.txt || fail "armprof system: $(cat err.txt)"
grep -qx -- '-icount' "$work/args" && grep -qx 'shift=0' "$work/args" || fail "no -icount shift=0: $(cat "$work/args")"
grep -q '^virt,gic-version=3,armprof-pmu-ext=on,armprof-pcs-period=50000,armprof-pcs-out=.*/pcs.raw$' "$work/args" ||
  fail "machine: $(grep virt "$work/args")"
grep -qx 'neoverse-n1,spe=on,spe-config=uarch=on' "$work/args" || fail "cpu: $(grep neoverse "$work/args")"
want="armprof system: --pc-sample: 4 reads of 2 vCPUs every 50000 ns: 2 samples (EL0 1, EL1 1, EL2 0, EL3 0; 2 with a thread), 1 without a sample, 1 error responses: p.data"
[ "$(cat err.txt)" = "$want" ] || fail "summary: $(cat err.txt)"
"$armprof" report --format json p.data > p.json 2> p.err || fail "report: $(cat p.err)"
python3 - p.json <<'PY' || fail "the samples armprof report read"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["records"] == 2, r["records"]
assert sorted((t["tid"], t["samples"]) for t in r["threads"]) == [(9, 1), (110, 1)], r["threads"]
pcs = sorted(int(i["pc"], 16) for i in r["instructions"])
assert pcs == [0x4007b0, 0xffff800008001234], [hex(p) for p in pcs]
PY
"$armprof" report --tid 110 --format json p.data | python3 -c 'import json,sys; assert json.load(sys.stdin)["records"] == 1' ||
  fail "--tid 110"
if "$armprof" report --cpu 5 p.data > /dev/null 2> cpu.err; then fail "--cpu 5 selected samples"; fi
grep -q "matches none of its samples" cpu.err || fail "--cpu 5: $(cat cpu.err)"
if command -v perf > /dev/null; then
  perf script -i p.data -F cpu,tid,ip 2> /dev/null | tr -s ' ' > perf.txt
  grep -q '^ 110 \[001\] 4007b0$' perf.txt && grep -q '^ 9 \[000\] ffff800008001234$' perf.txt ||
    fail "perf script: $(cat perf.txt)"
fi

# A raw file cut inside a record: exit 1, the profile left as it was.
echo old > q.data
FAKE_AGENT_PCS="$hdr+$(rec 50000 0 0 0x80000000004007b0 1 0)[:-3]"
if sys --pc-sample 50us -o q.data -- true > out.txt 2> err.txt; then fail "a cut raw file was accepted"; fi
grep -q 'pcs.raw: offset 32: a record cut short (37 of 40 bytes)' err.txt || fail "cut: $(cat err.txt)"
[ "$(cat q.data)" = old ] || fail "q.data was replaced"

# --no-niden alone: the frames and the input, no agent, no -icount.
sys --no-niden -- true > /dev/null 2>&1 || fail "--no-niden"
grep -qx 'virt,gic-version=3,armprof-pmu-ext=on,armprof-niden=off' "$work/args" || fail "$(grep virt "$work/args")"
if grep -qx -- '-icount' "$work/args"; then fail "-icount without an agent"; fi

# --cpu-debug: the frames described for coresight-cpu-debug (patch 0011),
# no agent, no -icount.
sys --cpu-debug -- true > /dev/null 2>&1 || fail "--cpu-debug"
grep -qx 'virt,gic-version=3,armprof-pmu-ext=on,armprof-cpu-debug=on' "$work/args" || fail "$(grep virt "$work/args")"
if grep -qx -- '-icount' "$work/args"; then fail "-icount without an agent"; fi

# --el2: EL2 in the CPUs.
sys --el2 -- true > /dev/null 2>&1 || fail "--el2"
grep -qx 'virt,gic-version=3,virtualization=on' "$work/args" || fail "$(grep virt "$work/args")"

# --snapshot-every: FEAT_PMUv3_SS in front of --config, the series as CSV.
export FAKE_AGENT_SS="b'APSSRAW1'+struct.pack('<IIQII',1,1,1000000,2,0)+struct.pack('<QIIQQQQ',1000000,0,2,1<<32,0,0,0)+struct.pack('<QIIQQQQ',2000000,0,0,0,2000000,1999990,7)"
sys --snapshot-every 1ms --config spe.interval=5 -- true > out.txt 2> err.txt || fail "snapshots: $(cat err.txt)"
grep -qx 'neoverse-n1,spe=on,spe-config=snapshot.feat_pmuv3_ss=1;spe.interval=5;uarch=on' "$work/args" ||
  fail "cpu: $(grep neoverse "$work/args")"
grep -q '^virt,gic-version=3,armprof-pmu-ext=on,armprof-ss-period=1000000,armprof-ss-out=.*/ss.raw$' "$work/args" ||
  fail "machine: $(grep virt "$work/args")"
printf '%s\n' 'time_ns,cpu,captured,PMSSCR,PMCCNTSVR,PMEVCNTSVR0,PMEVCNTSVR1' \
  '1000000,0,0,0x100000000,0,0,0' '2000000,0,1,0x0,2000000,1999990,7' | cmp -s - snapshots.csv ||
  fail "snapshots.csv: $(cat snapshots.csv)"
grep -q -- '--snapshot-every: 2 requests of 1 vCPUs every 1000000 ns, 1 captured: snapshots.csv' err.txt ||
  fail "summary: $(cat err.txt)"
[ -z "$(ls "$work/tmp")" ] || fail "left in TMPDIR: $(ls "$work/tmp")"
echo "pc-sample cli: ok"

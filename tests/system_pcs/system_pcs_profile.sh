#!/usr/bin/env bash
# armprof system --pc-sample: an external agent (QEMU's, reading each vCPU's
# external PMU frame through the debug bus) profiles the whole guest, which
# neither knows nor helps.
# - Each read of PMPCSR returns a PC sample and captures its context
#   (PCS-H7.1-3, PMPCSR-33): the samples name the program's thread through
#   CONTEXTIDR_EL1 (Linux's CONFIG_PID_IN_CONTEXTIDR) and its EL.
# - The program's hot loop, chase() in pointer_chase, gets its exact share of
#   the program's executed instructions (from `armprof record --counts` of
#   the same run), within five standard errors: the agent reads every PERIOD
#   of -icount guest time, and the sample is the instruction the vCPU is at
#   (PCS-H7.1-4, PCS-H7.1-6 any instruction, PCS-H7.1-11). One vCPU: -icount
#   time is the instructions of all vCPUs together, so with two a vCPU gets
#   fewer samples per instruction while the other runs (docs/system.md); a
#   guest kernel's work on the other vCPU during one phase of the program
#   (its crypto self-tests did) moves the shares.
# - Each read is made at its instant: every EL0 sample of the program is
#   stamped with the guest time of a deadline, PERIOD apart (under -icount
#   QEMU runs virtual-time timers only in the vCPU thread, stopped at the
#   deadline, and the frame is read there at once).
# - Kernel PCs appear, named with the guest's /proc/kallsyms, the idle loop
#   (cpu_do_idle) among them while a vCPU idles.
# - FEAT_PCSRv8p9: the samplers were suspended at reset (PMPCSCTL.IMP=1,
#   EN=0) and the agent's first read activated them (PCS-H7.1.1.1-1, -5, -6,
#   -7): the guest reads PMPCSCTL.EN = 1; such an activating read returns
#   0xFFFFFFFF (PCS-H7.1.3-4), counted "without a sample" (every vCPU's:
#   system_pcs_ext32, two vCPUs).
# - perf (where installed on the host) reads the perf.data: samples with
#   their CPU and thread.
set -euo pipefail
. "$(dirname "$0")/pcs_common.sh" "$@"
if ! command -v qemu-aarch64 > /dev/null || [ ! -e "$build/armprof-qemu.so" ]; then
  echo "SKIP: needs qemu-aarch64 and armprof-qemu.so (not built with sanitizers) for the exact counts"
  exit 77
fi
cp "$examples/pointer_chase" .
steps=30000000
period=50000   # ns of -icount guest time: instructions
sys --cpus 1 --pc-sample "${period}ns" -o pcs.data -- "./pointer_chase $steps > /dev/null & echo \"pid \$!\"; wait
  cat /proc/kallsyms > kallsyms; devmem $(reg 0 $PMPCSCTL) 32" > out.txt 2> err.txt ||
  fail "armprof system: $(tail -n 20 out.txt err.txt)"
cat err.txt
pid=$(awk '$1 == "pid" { print $2 }' out.txt)
[ -n "$pid" ] || fail "the guest printed no pid: $(cat out.txt)"

# FEAT_PCSRv8p9: the sampler active (IMP [1], EN [0]) after the agent's reads.
[ "$(grep -c '^0x00000003' out.txt)" = 1 ] || fail "PMPCSCTL: $(grep '^0x' out.txt | tr '\n' ' ')"
[ "$(stat err.txt without)" -ge 1 ] || fail "no activating read (0xFFFFFFFF) counted: $(cat err.txt)"
[ "$(stat err.txt EL0)" -gt 0 ] && [ "$(stat err.txt EL1)" -gt 0 ] || fail "EL0 and EL1 samples: $(cat err.txt)"

# 1. The program's functions against its exact instruction counts.
"$armprof" record --no-timing --counts exact.counts -o rec.data -- ./pointer_chase "$steps" > /dev/null 2> rec.err ||
  fail "armprof record: $(cat rec.err)"
python3 "$src/tests/record/counts_by_function.py" pointer_chase exact.counts > exact.txt
"$armprof" report --format json --tid "$pid" --binary pointer_chase pcs.data > prog.json 2> prog.err ||
  fail "armprof report --tid $pid: $(cat prog.err)"
# The exact counts are the program's own instructions: its kernel samples
# (system calls, page faults, interrupts: [unknown] without kallsyms) are
# left out.
python3 - prog.json prog-user.json <<'PY' || fail "the program's samples"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["functions"][0]["function"] == "chase", r["functions"][:2]
r["functions"] = [f for f in r["functions"] if f["function"] != "[unknown]"]
json.dump(r, open(sys.argv[2], "w"))
PY
python3 "$src/tests/system_spe/shares.py" prog-user.json exact.txt

# 2. Kernel PCs, named from the guest's kallsyms; the idle loop among them.
"$armprof" report --format json --kallsyms kallsyms pcs.data > all.json 2> all.err ||
  fail "armprof report --kallsyms: $(cat all.err)"
python3 - all.json <<'PY' || fail "kernel samples"
import json, sys
r = json.load(open(sys.argv[1]))
k = [f for f in r["functions"] if f.get("binary") == "[kernel.kallsyms]"]
ks = sum(f["samples"] for f in k)
assert ks > r["records"] / 4, (ks, r["records"])
idle = [f for f in k if f["function"] == "cpu_do_idle"]
assert idle and idle[0]["samples"] > 100, [f["function"] for f in k[:10]]
print(f"kernel: {ks} of {r['records']} samples named from kallsyms; cpu_do_idle {idle[0]['samples']}")
PY

# 3. perf reads the same file: one sample per read that gave a PC.
if command -v perf > /dev/null; then
  perf script -i pcs.data -F cpu,tid,ip > perf.txt 2> perf.err || fail "perf script: $(cat perf.err)"
  [ "$(wc -l < perf.txt)" = "$(stat err.txt samples)" ] || fail "perf script lists $(wc -l < perf.txt) samples"
  [ "$(awk -v p="$pid" '$1 == p && /\[00[01]\]/' perf.txt | wc -l)" -gt 1000 ] ||
    fail "perf shows too few samples of thread $pid"
  # The program's EL0 samples at their deadlines: one residue of the guest
  # time modulo the period (idle time passes in real time, so only a sample
  # of a running vCPU is bound to the grid).
  perf script -i pcs.data -F tid,time,ip --ns > times.txt 2> perf.err || fail "perf script: $(cat perf.err)"
  python3 - "$pid" "$period" times.txt <<'PY' || fail "reads after their instant"
import sys
pid, period = sys.argv[1], int(sys.argv[2])
residues = {}
for line in open(sys.argv[3]):
    tid, time, ip = line.split()
    if tid != pid or int(ip, 16) >> 55:
        continue
    sec, ns = time.rstrip(":").split(".")
    r = (int(sec) * 10**9 + int(ns)) % period
    residues[r] = residues.get(r, 0) + 1
assert sum(residues.values()) > 1000, residues
assert len(residues) == 1, f"EL0 samples of {pid} by guest time modulo {period} ns: {residues}"
print(f"{sum(residues.values())} EL0 samples of {pid}, each at its deadline")
PY
fi
echo "pc-sample profile: ok"

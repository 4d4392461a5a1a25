#!/usr/bin/env bash
# PC samples for Linux's own reader (issue 29 item 6): with `armprof system
# --cpu-debug` (patch 0011) every vCPU's external debug frame is in the device
# tree as "arm,coresight-cpu-debug", with a FEAT_PCSRv8 PC sampler (EDPCSR,
# EDCIDSR, EDVIDSR in the debug frame: PCS-H7.1.2-2, PCS-H7.1.2-6, PMPCSR-4;
# an Armv8.1 PE since FEAT_PCSRv8 is not permitted from Armv8.2,
# PCS-H7.1.2-5) and a Cortex-A53's EDPIDR. The kernel's unmodified
# coresight-cpu-debug module (with coresight and configfs, from the kit's
# kernel package: system/guest/build-module.sh) probes both CPUs through the
# AMBA IDs (LATER-DBG-1) and EDDEVID/EDDEVID1 (LATER-DBG-2, PCS-H7.1-12);
# armprof_spin.ko (system/guest/cpu_spin) spins with interrupts off in
# armprof_spin_loop() on CPU 1, so the panic's stop IPI cannot move it; then
# `echo c > /proc/sysrq-trigger` on CPU 0. The driver's dump (LATER-DBG-5)
# must show, for CPU 1: EDPRSR powered and unlocked (LATER-DBG-3, after its
# EDPRCR.COREPURQ request, LATER-DBG-4), EDPCSR = armprof_spin_loop
# (Read_EDPCSRlo, PCS-H7.1.4-1: the PC the CPU is at), EDCIDSR = the spinning
# thread's id (CONTEXTIDR_EL1, the kernel's CONFIG_PID_IN_CONTEXTIDR),
# EDVIDSR Non-secure EL1/0 64-bit; for CPU 0 (reading its own frame inside
# the driver) an EDPCSR that the kernel symbolises to a function. The panic
# ends the guest (panic=-1, -no-reboot): armprof system reports 125, no hang.
# Skips (77) without the QEMU, the kit or the modules, or on a kit whose
# kernel has no coresight-cpu-debug module (Debian 12's 6.1).
set -euo pipefail
. "$(dirname "$0")/pcs_common.sh" "$@"
if ! grep -q armprof-cpu-debug "$qemu"; then
  echo "SKIP: $qemu has no armprof-cpu-debug (system/qemu patch 0011): bash system/qemu/build.sh"
  exit 77
fi
release=$(sed -n 's/^kernel=//p' "$kit/VERSION" 2> /dev/null)
mods=${ARMPROF_GUEST_MODULES:-$src/.cache/guest-modules/${release:-current}}
if [ -f "$mods/cpu-debug.none" ]; then
  echo "SKIP: $(cat "$mods/cpu-debug.none")"
  exit 77
fi
if [ ! -f "$mods/armprof_spin.ko" ] || [ ! -f "$mods/cpu-debug.order" ]; then
  echo "SKIP: needs the guest modules for kernel ${release:-?} ($mods: armprof_spin.ko, cpu-debug.order): bash system/guest/build-module.sh $kit"
  exit 77
fi
cp "$mods/armprof_spin.ko" .
order=$(tr "\n" " " < "$mods/cpu-debug.order")
for m in $order; do cp "$mods/$m" .; done
# The shell stays on CPU 0 (CPU 1 will never schedule again); the driver is
# loaded enabled (its `enable` parameter).
cmd="taskset -p 1 \$\$ > /dev/null || exit 3
for m in $order; do
  if [ \$m = coresight-cpu-debug.ko ]; then insmod ./\$m enable=1 || exit 4; else insmod ./\$m || exit 4; fi
done
dmesg | grep -i 'coresight' ; insmod ./armprof_spin.ko cpu=1 || exit 5
dmesg | grep 'armprof-spin:'
echo c > /proc/sysrq-trigger
echo 'the panic did not happen'; exit 6"
start=$(date +%s)
rc=0
sys --cpu-debug --cpus 2 --timeout 300 -- "$cmd" > out.txt 2> err.txt || rc=$?
took=$(($(date +%s) - start))
cat out.txt
echo "--- stderr"
cat err.txt
[ "$rc" = 125 ] || fail "armprof system exited $rc, want 125 (the guest panicked: no status)"
grep -q "QEMU ended while the command was running" err.txt ||
  fail "armprof system did not say the guest ended without a status: $(tail -n 3 err.txt)"
python3 - out.txt << 'PY' || fail "the panic dump of coresight-cpu-debug"
import re, sys
text = open(sys.argv[1], errors="replace").read()
for cpu in (0, 1):
    assert re.search(r"Coresight debug-CPU%d initialized" % cpu, text), "CPU%d's frame did not probe" % cpu
spin = re.search(r"armprof-spin: cpu 1 pid (\d+) spinning", text)
assert spin, "the spinner did not start on CPU 1"
pid = int(spin.group(1))
assert "ARM external debug module:" in text, "no dump (was the driver enabled?)"
dump = {}
cur = None
for line in text.splitlines():
    m = re.search(r"coresight-cpu-debug \S+: CPU\[(\d+)\]:", line)
    if m:
        cur = int(m.group(1)); dump[cur] = {}
        continue
    m = re.search(r"coresight-cpu-debug \S+:\s+(EDPRSR|EDPCSR|EDCIDSR|EDVIDSR):\s+(.*?)\s*$", line)
    if m and cur is not None:
        dump[cur][m.group(1)] = m.group(2)
print("dump:", dump)
assert set(dump) == {0, 1}, dump
sym = re.compile(r"^([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+(\s+\[\w+\])?$")
for cpu, d in dump.items():
    assert d.get("EDPRSR", "").endswith("(Power:On DLK:Unlock)"), (cpu, d)
    assert (int(d["EDPRSR"].split()[0], 16) & 0x61) == 0x1, (cpu, d)   # PU, no OSLK, no DLK
    m = sym.match(d.get("EDPCSR", ""))
    assert m, "CPU%d's EDPCSR is not a kernel function: %r" % (cpu, d.get("EDPCSR"))
    assert d.get("EDVIDSR", "").split()[0:1] and "State:Non-secure Mode:EL1/0 Width:64bits" in d["EDVIDSR"], (cpu, d)
assert sym.match(dump[1]["EDPCSR"]).group(1) == "armprof_spin_loop", dump[1]
assert "[armprof_spin]" in dump[1]["EDPCSR"], dump[1]
assert int(dump[1]["EDCIDSR"], 16) == pid, (dump[1], pid)
assert sym.match(dump[0]["EDPCSR"]).group(1) != "armprof_spin_loop", dump[0]
print("CPU1 in %s (thread %d), CPU0 in %s" % (dump[1]["EDPCSR"], pid, dump[0]["EDPCSR"]))
PY
echo "the panic ended the guest after ${took} s (boot included); armprof system: 125"
echo "ok"

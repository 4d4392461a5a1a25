#!/usr/bin/env bash
# The unmodified arm_spe_pmu driver on armprof's SPE CPU (issue 17): with a
# QEMU that has the spe CPU property (system/qemu/build.sh), Debian's driver
# probes on every vCPU (dmesg "arm_spe_pmu spe: probed for CPUs 0-1 [...]"), perf lists
# arm_spe_0, and a perf record of the SPE event in the guest writes a
# perf.data on the host whose AUX data armprof decode reads without error.
# Skipped (77) without such a QEMU (Debian's stock one has no SPE: see
# system_boot.sh for what runs with it) or without the kit.
set -u
armprof=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
qemu=${ARMPROF_QEMU:-$src/.cache/qemu/current/bin/qemu-system-aarch64}
[ -x "$qemu" ] || {
  echo "SKIP: no QEMU with SPE at $qemu (bash system/qemu/build.sh)"
  exit 77
}
# A QEMU without the property refuses at once; one with it waits (-S).
timeout 5 "$qemu" -M virt -cpu neoverse-n1,spe=on -display none -monitor none -serial none -nic none -S 2> "$work/probe.err" > /dev/null
[ $? -eq 124 ] || {
  echo "SKIP: $qemu has no SPE CPU property: $(cat "$work/probe.err")"
  exit 77
}
kit=${ARMPROF_KIT:-$src/.cache/kit/current}
[ -s "$kit/vmlinuz" ] || {
  echo "SKIP: no guest kit in $kit (bash system/kit/build.sh)"
  exit 77
}
prog=$(dirname "$armprof")/examples/pointer_chase
[ -x "$prog" ] || {
  echo "SKIP: no $prog (needs aarch64-linux-gnu-gcc)"
  exit 77
}
cd "$work" || exit 2
cp "$prog" ./prog
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}
"$armprof" system --qemu "$qemu" --kit "$kit" --cpus 2 --dmesg dmesg.txt -- '
  perf list 2> /dev/null | grep arm_spe_0
  perf record -e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,branch_filter=1/ -o perf.data ./prog
  echo "perf record: $?"' > out.txt 2> err.txt
rc=$?
cat out.txt err.txt
[ $rc -eq 0 ] || bad "armprof system: exit $rc"
grep -Eq 'arm_spe_pmu .*probed for CPUs 0-1 ' dmesg.txt || bad "dmesg: $(grep -i spe dmesg.txt)"
grep -q "arm_spe_0" out.txt || bad "perf list shows no arm_spe_0"
grep -qx "perf record: 0" out.txt || bad "perf record failed"
"$armprof" decode --stats perf.data > decoded.txt 2> decode.err || bad "armprof decode: $(cat decode.err)"
[ -s decoded.txt ] || bad "no SPE records in the guest's perf.data"
[ $fail -eq 0 ] && echo "system_spe_probe: passed"
exit $fail

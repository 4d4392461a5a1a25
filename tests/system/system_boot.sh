#!/usr/bin/env bash
# armprof system for real: the guest kit (system/kit/build.sh) booted by a
# qemu-system-aarch64, with --no-spe so that any QEMU 7.2 does (Debian's
# stock one has no SPE). Skipped (77) without a kit or a QEMU. Shows: the
# share is readable and writable at its host path, the command starts in
# the current directory, perf runs and its perf.data appears on the host,
# the command's output and exit status pass through, --dmesg saves the
# kernel log, a guest that hangs is stopped (124, no QEMU left), and a
# guest whose SPE driver is missing or does not probe gives 122 and says
# which. QEMU: $ARMPROF_SYSTEM_QEMU, else .cache/qemu/current, else
# qemu-system-aarch64 on PATH; kit: $ARMPROF_KIT, else .cache/kit/current.
set -u
armprof=$1 src=$2 work=$3
qemu=${ARMPROF_SYSTEM_QEMU:-}
[ -n "$qemu" ] || { [ -x "$src/.cache/qemu/current/bin/qemu-system-aarch64" ] && qemu=$src/.cache/qemu/current/bin/qemu-system-aarch64; }
[ -n "$qemu" ] || qemu=$(command -v qemu-system-aarch64) || {
  echo "SKIP: no qemu-system-aarch64 (apt-get install qemu-system-arm, or bash system/qemu/build.sh)"
  exit 77
}
kit=${ARMPROF_KIT:-$src/.cache/kit/current}
[ -s "$kit/vmlinuz" ] && [ -s "$kit/initrd.img" ] || {
  echo "SKIP: no guest kit in $kit (bash system/kit/build.sh)"
  exit 77
}
prog=$(dirname "$armprof")/examples/pointer_chase
[ -x "$prog" ] || {
  echo "SKIP: no $prog (needs aarch64-linux-gnu-gcc)"
  exit 77
}
rm -rf "$work"
mkdir -p "$work/share/sub"
cd "$work/share/sub" || exit 2
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}
sys=("$armprof" system --qemu "$qemu" --kit "$kit" --share "$work/share")

# One boot: the share both ways, perf, output, status, dmesg.
cp "$prog" ./prog
head -c 100000 /dev/urandom > in.bin
start=$(date +%s.%N)
"${sys[@]}" --no-spe --dmesg "$work/dmesg.txt" -- '
  pwd
  cat in.bin > copy.bin
  echo "written in the guest" > "'"$work"'/share/from-guest.txt"
  perf list > list.txt 2> /dev/null
  echo "perf list: $? $(grep -c -E "^ *(cpu-clock|task-clock|context-switches|page-faults)([ \t]|$)" list.txt) software events"
  grep -q arm_spe list.txt && echo "arm_spe event: yes" || echo "arm_spe event: no"
  perf record -e cpu-clock -o perf.data ./prog > prog.out 2> record.err
  echo "perf record: $?"
  perf report --stdio -i perf.data 2> /dev/null | grep -w chase | head -n 1
  printf "last line without a newline"
  exit 42' > out.txt 2> err.txt
rc=$?
echo "boot and command: $(echo "$(date +%s.%N) - $start" | bc) s"
cat out.txt
[ $rc -eq 42 ] || bad "exit status $rc, want 42 (the command's); stderr: $(cat err.txt)"
[ "$(head -n 1 out.txt)" = "$work/share/sub" ] || bad "the guest's working directory: $(head -n 1 out.txt)"
cmp -s in.bin copy.bin || bad "a file copied in the guest differs (share read or write)"
[ "$(cat "$work/share/from-guest.txt" 2> /dev/null)" = "written in the guest" ] || bad "a file the guest wrote is not on the host"
grep -Eqx "perf list: 0 [1-9][0-9]* software events" out.txt || bad "perf list in the guest: $(grep "perf list" out.txt)"
grep -qx "arm_spe event: no" out.txt || bad "perf list: $(grep arm_spe out.txt) (no SPE was asked for)"
grep -qx "perf record: 0" out.txt || bad "perf record in the guest failed: $(cat record.err)"
grep -q "pointer_chase: 2000000 steps" prog.out || bad "the program's output: $(cat prog.out)"
[ "$(head -c 8 perf.data 2> /dev/null)" = "PERFILE2" ] || bad "no perf.data on the host"
grep -Eq '%.*prog .*\[\.\] chase$' out.txt || bad "perf report in the guest does not show chase"
[ "$(tail -c 27 out.txt)" = "last line without a newline" ] || bad "the output's end: $(tail -c 40 out.txt | od -c)"
# The kit's own kernel (VERSION kernel=<release>: 6.1.0-N-arm64 of bookworm, 7.x of unstable).
release=$(sed -n 's/^kernel=//p' "$kit/VERSION" 2> /dev/null)
grep -qF "Linux version ${release:-}" "$work/dmesg.txt" && grep -q "9pnet" "$work/dmesg.txt" || bad "--dmesg (kernel ${release:-?}): $(head -c 300 "$work/dmesg.txt")"
[ ! -s err.txt ] || bad "stderr of a clean run: $(cat err.txt)"

# A guest that hangs: 124 and QEMU gone.
"${sys[@]}" --no-spe --timeout 20 -- 'echo started; sleep 600' > out.txt 2> err.txt
rc=$?
[ $rc -eq 124 ] && grep -q "timeout: the guest did not finish the command within 20 s; QEMU was killed" err.txt ||
  bad "timeout: exit $rc, $(cat err.txt)"
grep -qx started out.txt || bad "timeout: the output before it: $(cat out.txt)"
! pgrep -f "path=$work/share," > /dev/null || bad "QEMU still running after the timeout: $(pgrep -af "path=$work/share,")"

# SPE asked for, but the CPU has none (a wrapper drops spe=on): 122.
cat > "$work/nospe-qemu" << EOF
#!/usr/bin/env bash
args=()
for a in "\$@"; do [[ \$a == neoverse-n1,spe=on* ]] && a=neoverse-n1; args+=("\$a"); done
exec "$qemu" "\${args[@]}"
EOF
chmod +x "$work/nospe-qemu"
"$armprof" system --qemu "$work/nospe-qemu" --kit "$kit" --share "$work/share" -- 'echo never' > out.txt 2> err.txt
rc=$?
[ $rc -eq 122 ] && grep -q "the SPE driver did not probe: arm_spe_pmu loaded but did not probe" err.txt ||
  bad "no SPE in the CPU: exit $rc, $(cat err.txt)"
[ ! -s out.txt ] || bad "no SPE in the CPU: the command ran: $(cat out.txt)"

# A kernel without the module: the kit's initramfs without arm_spe_pmu.ko: 122.
mkdir -p "$work/kit-nomod/root"
(cd "$work/kit-nomod/root" && gzip -dc "$kit/initrd.img" | cpio -id --quiet) || bad "cannot unpack $kit/initrd.img"
find "$work/kit-nomod/root" -name arm_spe_pmu.ko -delete
sed -i '/arm_spe_pmu/d' "$work"/kit-nomod/root/lib/modules/*/armprof-load-order
(cd "$work/kit-nomod/root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/kit-nomod/initrd.img"
cp "$kit/vmlinuz" "$work/kit-nomod/vmlinuz"
"$armprof" system --qemu "$work/nospe-qemu" --kit "$work/kit-nomod" --share "$work/share" -- 'echo never' > out.txt 2> err.txt
rc=$?
[ $rc -eq 122 ] && grep -q "the SPE driver did not probe: this kernel has no arm_spe_pmu module" err.txt ||
  bad "a kernel without the module: exit $rc, $(cat err.txt)"
rm -rf "$work/kit-nomod"

[ $fail -eq 0 ] && echo "system_boot: passed"
exit $fail

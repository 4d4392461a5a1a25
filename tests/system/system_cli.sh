#!/usr/bin/env bash
# armprof system's host side, with tests/system/fake_qemu.sh in QEMU's place
# (no QEMU or guest kit needed): QEMU's command line, the command's output
# and exit status passed through, the distinct exit statuses of a missing
# QEMU or kit, a bad share, QEMU failing to start, a guest dying, a guest
# without the SPE driver and a timeout, --dmesg, and that QEMU never
# outlives armprof (timeout, SIGTERM). The real guest: system_boot.sh.
set -u
armprof=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work/share/sub" "$work/kit" "$work/tmp"
cd "$work/share/sub" || exit 2
export TMPDIR=$work/tmp
fake=$src/tests/system/fake_qemu.sh
echo kernel > "$work/kit/vmlinuz"
echo initrd > "$work/kit/initrd.img"
pass=0 fail=0
bad() {
  echo "FAIL: $*"
  fail=$((fail + 1))
}

# expect CODE PATTERN -- CMD...: exit code CODE and stderr matching PATTERN
expect() {
  local code=$1 pattern=$2
  shift 3
  "$@" > out.txt 2> err.txt
  local got=$?
  if [ $got -ne "$code" ] || { [ -n "$pattern" ] && ! grep -Eq -- "$pattern" err.txt; }; then
    bad "$* -> exit $got (want $code), stderr: $(head -c 400 err.txt)"
  else
    pass=$((pass + 1))
  fi
}
sys=("$armprof" system --qemu "$fake" --kit "$work/kit" --share "$work/share")

# The command's output byte for byte (no final newline kept so), its status.
expect 42 "" -- "${sys[@]}" -- 'printf "one\n\ntwo"; pwd; printf last; exit 42'
printf 'one\n\ntwo%s\nlast' "$work/share/sub" | cmp -s - out.txt || bad "output: $(od -c out.txt | head)"
[ ! -s err.txt ] || bad "a clean run printed on stderr: $(cat err.txt)"
expect 0 "" -- "${sys[@]}" -- echo several words
[ "$(cat out.txt)" = "several words" ] || bad "words joined: $(cat out.txt)"
# The control directory is gone afterwards.
[ -z "$(ls "$work/tmp")" ] || bad "left in TMPDIR: $(ls "$work/tmp")"

# QEMU's command line: the machine, SPE, the kernel's command line, both shares.
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --cpus 4 --memory 2048 --config spe.max_size=7 --config spe.align=6 -- true
for want in "virt,gic-version=3" "neoverse-n1,spe=on,spe-config=spe.max_size=7;spe.align=6;uarch=on" \
  "-smp" "4" "2048" "-nographic" "-no-reboot" "$work/kit/vmlinuz" "$work/kit/initrd.img" \
  "local,id=share,path=$work/share,security_model=none" "virtio-9p-device,fsdev=share,mount_tag=armprof" \
  "virtio-9p-device,fsdev=ctl,mount_tag=armprofctl"; do
  grep -qxF -- "$want" "$work/args.txt" || bad "QEMU argument $want missing: $(tr '\n' ' ' < "$work/args.txt")"
done
grep -Eq '^console=ttyAMA0 kpti=off .*armprof\.nonce=[0-9a-f]{16}$' "$work/args.txt" || bad "kernel command line: $(grep console "$work/args.txt")"
# No crypto self-tests beside the programs profiled (docs/system.md).
grep -q '^console=.* cryptomgr\.notests ' "$work/args.txt" || bad "kernel command line without cryptomgr.notests: $(grep console "$work/args.txt")"
# The timing model: on by default (issue 27), --no-timing turns it off,
# --timing says the default; --uarch K=V (checked here, passed as
# uarch.K=V items; docs/system.md).
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" -- true
grep -qxF "neoverse-n1,spe=on,spe-config=uarch=on" "$work/args.txt" || bad "timing by default: $(grep neoverse "$work/args.txt")"
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --timing -- true
grep -qxF "neoverse-n1,spe=on,spe-config=uarch=on" "$work/args.txt" || bad "--timing: $(grep neoverse "$work/args.txt")"
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --no-timing -- true
grep -qxF "neoverse-n1,spe=on" "$work/args.txt" || bad "--no-timing: $(grep neoverse "$work/args.txt")"
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --no-timing --config spe.max_size=7 -- true
grep -qxF "neoverse-n1,spe=on,spe-config=spe.max_size=7" "$work/args.txt" || bad "--no-timing --config: $(grep neoverse "$work/args.txt")"
expect 2 "--uarch configures the timing model: not with --no-timing" -- "${sys[@]}" --no-timing --uarch llc.size=2M -- true
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --config spe.max_size=7 --uarch llc.size=2M --uarch dram.latency=250 -- true
grep -qxF "neoverse-n1,spe=on,spe-config=spe.max_size=7;uarch.llc.size=2M;uarch.dram.latency=250;uarch=on" "$work/args.txt" ||
  bad "--uarch: $(grep neoverse "$work/args.txt")"
expect 2 "--uarch no.such=1: unknown key or bad value" -- "${sys[@]}" --uarch no.such=1 -- true
expect 2 "--uarch l1d.size: want KEY=VALUE" -- "${sys[@]}" --uarch l1d.size -- true
expect 2 "--uarch: inconsistent timing model" -- "${sys[@]}" --uarch l1d.size=3K -- true
expect 2 "not with --no-spe" -- "${sys[@]}" --no-spe --timing -- true
# --cpu NAME: the model's SPE preset of that CPU (LATER-VER-4), passed as
# spe-preset before spe-config; a name the model does not know is a usage
# error naming the presets; not with --no-spe.
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --cpu max --config spe.max_size=7 -- true
grep -qxF "neoverse-n1,spe=on,spe-preset=max,spe-config=spe.max_size=7;uarch=on" "$work/args.txt" ||
  bad "--cpu max: $(grep neoverse "$work/args.txt")"
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --no-timing --cpu neoverse-n2 -- true
grep -qxF "neoverse-n1,spe=on,spe-preset=neoverse-n2" "$work/args.txt" || bad "--cpu neoverse-n2: $(grep neoverse "$work/args.txt")"
expect 2 "--cpu cortex-a53: SPE preset 'cortex-a53' is not one of neoverse-n1, neoverse-v1, neoverse-n2, neoverse-v2, max" -- "${sys[@]}" --cpu cortex-a53 -- true
expect 2 "--cpu, --config, --timing and --uarch configure the SPE CPU: not with --no-spe" -- "${sys[@]}" --no-spe --cpu max -- true
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "${sys[@]}" --no-spe -- true
grep -qx "neoverse-n1" "$work/args.txt" || bad "--no-spe (no timing model either): $(grep neoverse "$work/args.txt")"
# A path with a comma is escaped for QEMU's option syntax.
mkdir -p "$work/a,b"
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "$armprof" system --qemu "$fake" --kit "$work/kit" --share "$work/a,b" -- 'echo x > f'
grep -qxF "local,id=share,path=$work/a,,b,security_model=none" "$work/args.txt" || bad "comma in the share path"

# --kernel IMAGE --modules DIR (docs/system.md, "Your own kernel"): QEMU
# boots IMAGE; its initrd is the kit's, zero-padded to 4 bytes, then a newc
# archive of lib/modules/<release>/ with the modules /init loads and what
# modules.dep says they need, dependencies first, and their load order;
# built-in ones (modules.builtin) are left out; the release goes on the
# kernel's command line for /init to check.
rel=6.99.0-test
m=$work/mods/lib/modules/$rel
mkdir -p "$m/kernel/net/9p" "$m/kernel/fs/9p" "$m/kernel/fs/netfs" "$m/kernel/drivers/perf" "$m/kernel/drivers/virtio"
for f in net/9p/9pnet net/9p/9pnet_virtio fs/9p/9p fs/netfs/netfs drivers/perf/arm_spe_pmu drivers/virtio/virtio_mmio; do
  echo "module $f" > "$m/kernel/$f.ko"
done
cat > "$m/modules.dep" << 'DEP'
kernel/drivers/virtio/virtio_mmio.ko:
kernel/fs/9p/9p.ko: kernel/fs/netfs/netfs.ko kernel/net/9p/9pnet.ko
kernel/fs/netfs/netfs.ko:
kernel/net/9p/9pnet.ko:
kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko
kernel/drivers/perf/arm_spe_pmu.ko:
DEP
printf 'kernel/drivers/virtio/virtio_mmio.ko\n' > "$m/modules.builtin"
echo image > "$work/Image"
FAKE_QEMU_ARGS=$work/args.txt FAKE_QEMU_INITRD=$work/initrd.cat expect 0 "" -- "${sys[@]}" --kernel "$work/Image" --modules "$m" -- true
grep -qxF -- "$work/Image" "$work/args.txt" || bad "--kernel: $(tr '\n' ' ' < "$work/args.txt")"
grep -q " armprof.modules=$rel\$" "$work/args.txt" || bad "--modules: the release on the command line: $(grep console "$work/args.txt")"
[ "$(head -c 8 "$work/initrd.cat" | od -An -c | tr -d ' ')" = 'initrd\n\0' ] || bad "--modules: the kit's initrd first, padded: $(head -c 8 "$work/initrd.cat" | od -c)"
(mkdir -p "$work/unpacked" && cd "$work/unpacked" && tail -c +9 "$work/initrd.cat" | cpio -id --quiet) || bad "--modules: the archive does not unpack"
u=$work/unpacked/lib/modules/$rel
printf '%s\n' kernel/net/9p/9pnet.ko kernel/net/9p/9pnet_virtio.ko kernel/fs/netfs/netfs.ko kernel/fs/9p/9p.ko \
  kernel/drivers/perf/arm_spe_pmu.ko | cmp -s - "$u/armprof-load-order" ||
  bad "--modules: the load order: $(cat "$u/armprof-load-order" 2> /dev/null)"
cmp -s "$m/kernel/fs/9p/9p.ko" "$u/kernel/fs/9p/9p.ko" || bad "--modules: 9p.ko not copied whole"
[ ! -e "$u/kernel/drivers/virtio/virtio_mmio.ko" ] || bad "--modules: a built-in module went in"
[ -z "$(ls "$work/tmp")" ] || bad "--modules: left in TMPDIR: $(ls "$work/tmp")"
# The driver built in: nothing of it goes in (the guest finds arm_spe_0).
echo kernel/drivers/perf/arm_spe_pmu.ko >> "$m/modules.builtin"
FAKE_QEMU_INITRD=$work/initrd.cat expect 0 "" -- "${sys[@]}" --kernel "$work/Image" --modules "$m" -- true
! tail -c +9 "$work/initrd.cat" | cpio -t --quiet 2> /dev/null | grep -q arm_spe_pmu || bad "--modules: the built-in driver went in"
# Refusals: 2, saying what.
expect 2 "--modules goes with --kernel" -- "${sys[@]}" --modules "$m" -- true
expect 2 "--kernel $work/none: not a kernel image" -- "${sys[@]}" --kernel "$work/none" -- true
expect 2 "--modules $work/share: no modules.dep there" -- "${sys[@]}" --kernel "$work/Image" --modules "$work/share" -- true
sed -i '/9pnet_virtio/d' "$m/modules.dep"
expect 2 "this kernel has no 9pnet_virtio, neither built in" -- "${sys[@]}" --kernel "$work/Image" --modules "$m" -- true
echo "kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/gone.ko" >> "$m/modules.dep"
expect 2 "9pnet_virtio.ko depends on kernel/net/9p/gone.ko, which has no line of its own" -- "${sys[@]}" --kernel "$work/Image" --modules "$m" -- true
sed -i 's|^kernel/net/9p/9pnet_virtio.ko: .*|kernel/net/9p/9pnet_virtio.ko.zst:|' "$m/modules.dep"
expect 2 "zstd-compressed" -- "${sys[@]}" --kernel "$work/Image" --modules "$m" -- true
[ -z "$(ls "$work/tmp")" ] || bad "--modules refused: left in TMPDIR: $(ls "$work/tmp")"

# --dmesg: the guest's kernel log, written whole.
expect 0 "" -- "${sys[@]}" --dmesg "$work/dmesg.txt" -- true
grep -q "fake dmesg: Linux version" "$work/dmesg.txt" || bad "--dmesg: $(cat "$work/dmesg.txt")"
expect 2 "nodir/dmesg.txt" -- "${sys[@]}" --dmesg "$work/nodir/dmesg.txt" -- true

# Missing QEMU or kit: 123, saying how to get them.
expect 123 "--qemu /nonexistent/qemu: not an executable file" -- "$armprof" system --qemu /nonexistent/qemu -- true
ARMPROF_SYSTEM_QEMU=/nonexistent/q expect 123 "ARMPROF_SYSTEM_QEMU=/nonexistent/q" -- "$armprof" system -- true
expect 123 "--kit $work/share: no guest kit there .*system/kit/build.sh" -- "$armprof" system --qemu "$fake" --kit "$work/share" -- true
ARMPROF_KIT=$work/share expect 123 "ARMPROF_KIT=$work/share: no guest kit" -- "$armprof" system --qemu "$fake" -- true
# Usage: 2.
expect 2 "no command" -- "${sys[@]}"
expect 2 "unknown option --frob" -- "${sys[@]}" --frob -- true
expect 2 "--cpus 0: want a whole number from 1" -- "${sys[@]}" --cpus 0 -- true
expect 2 "--timeout x" -- "${sys[@]}" --timeout x -- true
expect 2 "--config a=b,c: want KEY=VALUE" -- "${sys[@]}" --config a=b,c -- true
expect 2 "--config a=b;c=d: want KEY=VALUE" -- "${sys[@]}" --config "a=b;c=d" -- true
expect 2 "not with --no-spe" -- "${sys[@]}" --no-spe --config a=1 -- true
expect 2 "--share $work/nonexistent: No such file" -- "${sys[@]}" --share "$work/nonexistent" -- true
expect 2 "hide the guest's /bin" -- "${sys[@]}" --share / -- true
expect 2 "hide the guest's /usr/bin" -- "${sys[@]}" --share /usr -- true
expect 0 "" -- "$armprof" system --help
expect 2 "the current directory /: mounted at the same path in the guest it would hide" -- \
  bash -c 'cd / && exec "$0" system --qemu "$1" --kit "$2" -- true' "$armprof" "$fake" "$work/kit"
# The default share: the current directory, where the command starts.
FAKE_QEMU_ARGS=$work/args.txt expect 0 "" -- "$armprof" system --qemu "$fake" --kit "$work/kit" -- pwd
grep -qxF "local,id=share,path=$work/share/sub,security_model=none" "$work/args.txt" && [ "$(cat out.txt)" = "$work/share/sub" ] ||
  bad "default share: $(grep id=share "$work/args.txt"), pwd $(cat out.txt)"

# QEMU that does not start: 125 with its message; a guest that dies: 125.
FAKE_QEMU_MODE=fail expect 125 "qemu: fake-qemu: cannot start" -- "${sys[@]}" -- true
grep -q "QEMU's exit status 1" err.txt || bad "QEMU's status not reported: $(cat err.txt)"
FAKE_QEMU_MODE=crash expect 125 "ended before the guest started the command" -- "${sys[@]}" -- true
grep -q "Kernel panic" err.txt || bad "the guest's console not shown: $(cat err.txt)"
# The exit marker lost to `poweroff -f` (still in the guest's tty buffer):
# the status from the control share's file, the command's output whole
# (the kernel's power-down line, streamed as the command's, after it).
FAKE_QEMU_MODE=lostmark expect 7 "" -- "${sys[@]}" -- 'echo before; exit 7'
[ "$(head -n 1 out.txt)" = before ] || bad "lost marker: output $(od -c out.txt | head -3)"
[ ! -s err.txt ] || bad "lost marker: stderr $(cat err.txt)"
# A guest whose SPE driver did not probe: 122, with its kernel lines.
FAKE_QEMU_MODE=nospe expect 122 "the SPE driver did not probe: no arm_spe_0" -- "${sys[@]}" -- true
grep -q "arm_spe_pmu: nothing" err.txt || bad "the kernel's SPE lines not shown: $(cat err.txt)"

# Timeout: 124, QEMU gone.
start=$(date +%s)
FAKE_QEMU_PID=$work/pid expect 124 "timeout: the guest did not finish the command within 2 s" -- "${sys[@]}" --timeout 2 -- 'echo started; sleep 60'
[ $(($(date +%s) - start)) -lt 20 ] || bad "timeout took $(($(date +%s) - start)) s"
printf 'started\n' | cmp -s - out.txt || bad "output before the timeout (its last newline too): $(od -c out.txt)"
kill -0 "$(cat "$work/pid")" 2> /dev/null && bad "QEMU still running after the timeout"

# SIGTERM to armprof: QEMU stopped, 128+15.
FAKE_QEMU_PID=$work/pid "${sys[@]}" -- 'echo started; sleep 60' > out.txt 2> err.txt &
apid=$!
for _ in $(seq 50); do [ -s "$work/pid" ] && break; sleep 0.1; done
sleep 0.5
kill -TERM $apid
wait $apid
rc=$?
[ $rc -eq 143 ] && grep -q "stopped by signal 15; QEMU was killed" err.txt || bad "SIGTERM: exit $rc, $(cat err.txt)"
kill -0 "$(cat "$work/pid")" 2> /dev/null && bad "QEMU still running after SIGTERM"
printf 'started\n' | cmp -s - out.txt || bad "output before SIGTERM: $(od -c out.txt)"
[ -z "$(ls "$work/tmp")" ] || bad "left in TMPDIR after SIGTERM: $(ls "$work/tmp")"

echo "system_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]

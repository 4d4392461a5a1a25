#!/usr/bin/env bash
# A stand-in for qemu-system-aarch64 in tests/system/system_cli.sh: it
# speaks the guest side of system/kit/init.sh's protocol, running the
# command on the host, so armprof system's own handling (output, exit
# status, markers, timeout, signals, dmesg) is tested without QEMU or a kit.
# FAKE_QEMU_MODE: run (default), fail (QEMU refuses to start), crash (the
# guest dies before the command), nospe (init reports no SPE driver),
# lostmark (the command ran, its exit marker never reached the console).
# FAKE_QEMU_ARGS / FAKE_QEMU_PID: files for its arguments / process id.
[ -z "${FAKE_QEMU_ARGS:-}" ] || printf '%s\n' "$@" > "$FAKE_QEMU_ARGS"
[ -z "${FAKE_QEMU_PID:-}" ] || echo $$ > "$FAKE_QEMU_PID"
# FAKE_QEMU_INITRD: where to copy the -initrd file (it is gone afterwards).
if [ -n "${FAKE_QEMU_INITRD:-}" ]; then
  prev=""
  for a in "$@"; do [ "$prev" != -initrd ] || cp "$a" "$FAKE_QEMU_INITRD"; prev=$a; done
fi
nonce="" ctl=""
prev=""
for a in "$@"; do
  case "$prev:$a" in
    -append:*) nonce=$(sed -n 's/.*armprof\.nonce=\([0-9a-f]*\).*/\1/p' <<< "$a") ;;
    -fsdev:local,id=ctl,path=*)
      ctl=${a#local,id=ctl,path=}
      ctl=${ctl%,security_model=none}
      ctl=${ctl//,,/,} ;;
  esac
  prev=$a
done
mark="ARMPROF-$nonce"
case "${FAKE_QEMU_MODE:-run}" in
  fail) echo "fake-qemu: cannot start" >&2; exit 1 ;;
  crash) printf 'Booting\r\nKernel panic - not syncing\r\n'; exit 0 ;;
  nospe) printf 'Booting\r\narmprof guest:   [ 1.0] arm_spe_pmu: nothing\r\n%s error spe no arm_spe_0\r\n' "$mark"; exit 0 ;;
esac
cwd=$(sed -n 's/^cwd=//p' "$ctl/config")
printf 'Booting Linux\r\n[    0.5] fake kernel line\r\n%s start\n' "$mark"
trap 'kill $child 2> /dev/null; exit 143' TERM
(cd "$cwd" && exec sh -c "$(cat "$ctl/command")" < /dev/null 2>&1) &
child=$!
wait $child
status=$?
echo "fake dmesg: Linux version 6.1" > "$ctl/dmesg"
echo "exit $status" > "$ctl/status" # init.sh's finish(), before it powers off
if [ "${FAKE_QEMU_MODE:-run}" = lostmark ]; then
  # poweroff -f stopped the guest while the marker line was still in its
  # tty buffer: the kernel's own line (printed synchronously) overtakes it
  printf '\n[ 3.0] reboot: Power down\r\n'
  exit 0
fi
printf '\n%s exit %d\n[ 3.0] reboot: Power down\r\n' "$mark" "$status"
exit 0

#!/usr/bin/env bash
# perf's own Arm SPE tests, unmodified, in the guest: the shell test
# test_arm_spe.sh (recording, snapshot mode -S with SIGUSR2, system-wide -a,
# synthesized samples), which skips when `perf list` shows no arm_spe event,
# must report Ok, not Skip; and the attr tests test-record-spe-period and
# test-record-spe-physical-address (perf's tests/attr.py) must pass: the
# perf_event_attr perf builds for arm_spe. They need the kit with perf's
# test dependencies (docs/system.md, "Extra packages"): dash, coreutils, gcc,
# python3; skipped without it.
# test_arm_spe_fork.sh ("Check Arm SPE doesn't hang when there are forks")
# must report Ok too, run by an unprivileged user (uid 65534, with
# kernel.perf_event_paranoid=2, Linux's default; Debian's is 3). The test
# passes when perf record -vvv's log grows between 1 s and 2 s after perf
# starts, and after its start-up lines only a read of the AUX buffer adds to
# it, which perf does when the driver wakes it: at the wakeup point, half the
# AUX buffer. As root perf maps 4 MiB, so a wakeup every 2 MiB: about 54000
# of the model's records (39 bytes on average), 3.6 G instructions at the
# test's period of 65536, which the emulated CPU (0.3-0.8 G instructions a
# second here) runs in 5-11 s; root's result is then decided by whether
# perf's own start-up (1-2 s under emulation) is still printing at 1 s, and
# is only printed. Unprivileged, perf maps 128 KiB (its default for users),
# a wakeup every 64 KiB: about 110 M instructions, a few per second. The
# mechanism itself, without the wall clock, is system_spe_fork's test.
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
kit=${ARMPROF_KIT_TESTS:-$src/.cache/kit-tests/current}
if [ ! -f "$kit/initrd.img" ] || ! grep -q "python3" "$kit/VERSION" 2> /dev/null; then
  echo "SKIP: needs the kit with perf's test dependencies ($kit): see docs/system.md, Extra packages"
  exit 77
fi
attr=/usr/lib/perf-core/tests
# The fork test as uid 65534 (python3 drops root: busybox has no su); perf's
# start-up can outlast the test's first second on a loaded host, so a failed
# run is run once more (both outputs are kept).
cat > fork-user.sh <<'SH'
sysctl -w kernel.perf_event_paranoid=2 > /dev/null
mkdir -p /tmp/user && chown 65534:65534 /tmp/user
asuser() {
  HOME=/tmp/user python3 -c 'import os, sys; os.setgroups([]); os.setgid(65534); os.setuid(65534); os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
asuser perf test -v "there are forks" > fork-user.txt 2>&1
grep -q "forks: Ok" fork-user.txt || { cp fork-user.txt fork-user.first.txt; asuser perf test -v "there are forks" > fork-user.txt 2>&1; }
SH
# test_arm_spe.sh's snapshot part signals perf one second after starting it:
# a loaded host can slow the emulated perf's own start-up past that, so a
# failed run is run once more (both outputs are kept).
sys --cpus 2 --memory 2048 -- "perf test -v 'Arm SPE' > perf-test.txt 2>&1;
  grep -q 'synthesized samples: Ok' perf-test.txt || { cp perf-test.txt perf-test.first.txt; perf test -v 'Arm SPE' > perf-test.txt 2>&1; };
  python3 $attr/attr.py -d $attr/attr -p /usr/bin/perf -v -t test-record-spe-period > attr1.txt 2>&1; echo \$? > attr1.status;
  python3 $attr/attr.py -d $attr/attr -p /usr/bin/perf -v -t test-record-spe-physical-address > attr2.txt 2>&1; echo \$? > attr2.status;
  sh fork-user.sh" \
  > out.txt || fail "armprof system: $(tail -20 out.txt)"
echo "as root: $(grep -F "Check Arm SPE doesn't hang when there are forks: " perf-test.txt | tail -n 1)"
t="Check Arm SPE doesn't hang when there are forks"
grep -qxF "$t: Ok" fork-user.txt ||
  fail "perf test '$t' as a user did not pass: $(tail -30 fork-user.txt)"
for t in "Check Arm SPE trace data recording and synthesized samples"; do
  grep -qxF "$t: Ok" perf-test.txt ||
    fail "perf test '$t' did not pass: $(grep -F "$t" perf-test.txt; tail -30 perf-test.txt)"
done
for n in 1 2; do
  [ "$(cat attr$n.status)" = 0 ] || fail "attr test $n: $(tail -20 attr$n.txt)"
  grep -q "test-record-spe" attr$n.txt || fail "attr test $n ran no SPE test: $(tail -5 attr$n.txt)"
done
echo "perf tests: ok"

#!/usr/bin/env bash
# perf's own Arm SPE tests, unmodified, in the guest: the shell test
# test_arm_spe.sh (recording, snapshot mode -S with SIGUSR2, system-wide -a,
# synthesized samples), which skips when `perf list` shows no arm_spe event,
# must report Ok, not Skip; and the attr tests test-record-spe-period and
# test-record-spe-physical-address (perf's tests/attr.py) must pass: the
# perf_event_attr perf builds for arm_spe. They need the kit with perf's
# test dependencies (docs/system.md, "Extra packages"): dash, coreutils, gcc,
# python3; skipped without it.
# test_arm_spe_fork.sh runs too and its result is printed, not required: it
# wants perf's log to grow within a second of a forking program's run, which
# needs an AUX wakeup (half of the 4 MiB buffer, about 3 G instructions at its
# period of 65536) that an emulated CPU does not reach in a second.
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
kit=${ARMPROF_KIT_TESTS:-$src/.cache/kit-tests/current}
if [ ! -f "$kit/initrd.img" ] || ! grep -q "python3" "$kit/VERSION" 2> /dev/null; then
  echo "SKIP: needs the kit with perf's test dependencies ($kit): see docs/system.md, Extra packages"
  exit 77
fi
attr=/usr/lib/perf-core/tests
sys --cpus 2 --memory 2048 -- "perf test -v 'Arm SPE' > perf-test.txt 2>&1;
  python3 $attr/attr.py -d $attr/attr -p /usr/bin/perf -v -t test-record-spe-period > attr1.txt 2>&1; echo \$? > attr1.status;
  python3 $attr/attr.py -d $attr/attr -p /usr/bin/perf -v -t test-record-spe-physical-address > attr2.txt 2>&1; echo \$? > attr2.status" \
  > out.txt || fail "armprof system: $(tail -20 out.txt)"
grep -F "Check Arm SPE doesn't hang when there are forks: " perf-test.txt | tail -n 1 || true
for t in "Check Arm SPE trace data recording and synthesized samples"; do
  grep -qxF "$t: Ok" perf-test.txt ||
    fail "perf test '$t' did not pass: $(grep -F "$t" perf-test.txt; tail -30 perf-test.txt)"
done
for n in 1 2; do
  [ "$(cat attr$n.status)" = 0 ] || fail "attr test $n: $(tail -20 attr$n.txt)"
  grep -q "test-record-spe" attr$n.txt || fail "attr test $n ran no SPE test: $(tail -5 attr$n.txt)"
done
echo "perf tests: ok"

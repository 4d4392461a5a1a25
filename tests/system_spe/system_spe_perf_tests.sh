#!/usr/bin/env bash
# perf's own Arm SPE tests, unmodified, in the guest: the shell test
# test_arm_spe.sh (recording, snapshot mode -S with SIGUSR2, system-wide -a,
# synthesized samples; perf 7.x adds discard mode, which runs where the
# driver offers the discard format and reports SKIPPED otherwise), which
# skips when `perf list` shows no arm_spe event, must report Ok, not Skip
# (or FAILED with only its snapshot part failing, which is then run with
# a wait that covers perf's start-up: see snapshot.sh below);
# and every SPE attr test the kit's perf has (perf's attr.py, in tests/ up
# to 6.x, tests/shell/ from 6.10 on: test-record-spe-period and
# test-record-spe-physical-address, and from 6.13 on
# test-record-spe-period-term) must pass: the perf_event_attr perf builds
# for arm_spe. They need a kit with perf's test dependencies
# (`bash system/kit/build.sh --suite SUITE --tests`: bash, dash, coreutils,
# gcc, python3): $ARMPROF_KIT when it is one, else $ARMPROF_KIT_TESTS, else
# the kit's suite's .cache/kit/<suite>-tests; skipped without one.
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
if ! grep -qx "tests=1" "$kit/VERSION" 2> /dev/null; then
  suite=$(sed -n 's/^suite=//p' "$kit/VERSION" 2> /dev/null)
  kit=${ARMPROF_KIT_TESTS:-$(dirname "$kit")/${suite:-bookworm}-tests}
fi
if [ ! -f "$kit/initrd.img" ] || ! grep -qx "tests=1" "$kit/VERSION" 2> /dev/null; then
  echo "SKIP: needs a kit with perf's test dependencies ($kit): bash system/kit/build.sh --suite SUITE --tests"
  exit 77
fi
# The attr tests: where the kit's perf keeps them, all the SPE ones.
root=$work/kit-root
mkdir -p "$root"
(cd "$root" && gzip -dc "$kit/initrd.img" | cpio -id --quiet 'usr/lib/perf-core/tests/*attr*' 2> /dev/null) || true
attr=/usr/lib/perf-core/tests
[ -d "$root$attr/attr" ] || attr=/usr/lib/perf-core/tests/shell
[ -f "$root$attr/attr.py" ] || [ -f "$root$attr/lib/attr.py" ] || fail "no attr.py in $kit's perf"
attrpy=$attr/attr.py
[ -f "$root$attrpy" ] || attrpy=$attr/lib/attr.py
mapfile -t spe_attr < <(cd "$root$attr/attr" && ls test-record-spe* 2> /dev/null)
[ ${#spe_attr[@]} -ge 2 ] || fail "the kit's perf has fewer than 2 SPE attr tests: ${spe_attr[*]}"
perf_major=$(sed -n 's/^package=linux-perf=\([0-9]*\)\..*/\1/p' "$kit/VERSION")
if [ "${perf_major:-0}" -ge 7 ]; then
  printf '%s\n' "${spe_attr[@]}" | grep -qx test-record-spe-period-term ||
    fail "perf $perf_major has no test-record-spe-period-term attr test: ${spe_attr[*]}"
fi
rm -rf "$root"
attr_cmds=""
for t in "${spe_attr[@]}"; do
  attr_cmds+="python3 $attrpy -d $attr/attr -p /usr/bin/perf -v -t $t > attr-$t.txt 2>&1; echo \$? > attr-$t.status; "
done
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
grep -Eq "forks *: Ok" fork-user.txt || { cp fork-user.txt fork-user.first.txt; asuser perf test -v "there are forks" > fork-user.txt 2>&1; }
SH
# test_arm_spe.sh's snapshot part starts `perf record -S -- dd ...` in the
# background, sends it SIGUSR2 one second later and requires the snapshot's
# samples in perf script and perf report. perf 7.x's start-up under
# emulation takes 4-9 s here (perf 6.1's 1-2 s), so perf has not started dd
# when signalled and that part fails: a speed limit of emulation, like the
# fork test's (above). When perf's -v output shows that exactly that part
# failed (every other part PASS or SKIPPED), snapshot.sh runs the same
# commands in the same guest with the waits taken from progress, not the
# host's clock: until dd, perf's workload, exists and has read 1 MiB, and
# SIGTERM once perf has written the snapshot; the host requires what
# test_arm_spe.sh requires of its output.
cat > snapshot.sh <<'SH'
grep -q "SPE snapshot testing: FAIL" perf-test.txt || exit 0
data=/tmp/snapshot.perf.data
t0=$(cut -d' ' -f1 /proc/uptime)
perf record -o $data -e arm_spe// -S -- dd if=/dev/zero of=/dev/null > /dev/null 2>&1 &
PERFPID=$!
started=""
n=0
while [ -z "$started" ] && [ $n -lt 1200 ]; do
  # Shell builtins only: a cat per process would slow perf's start-up.
  for p in /proc/[0-9]*; do
    c=""
    { read -r c < "$p/comm"; } 2> /dev/null || continue
    [ "$c" = dd ] || continue
    { while read -r k v; do
      [ "$k" != PPid: ] || [ "$v" != "$PERFPID" ] || started=${p#/proc/}
    done < "$p/status"; } 2> /dev/null || true
  done
  [ -n "$started" ] || { sleep 0.1; n=$((n + 1)); }
done
t1=$(cut -d' ' -f1 /proc/uptime)
echo "dd=${started:-none} after $(awk "BEGIN { print $t1 - $t0 }") s" > snapshot.txt
# Then dd's progress, not the clock (the guest's time is the host's: on a
# busy host a second is little work): 1 MiB read (rchar in /proc/PID/io).
n=0 r=0
while [ -n "$started" ] && [ "$r" -lt 1048576 ] && [ $n -lt 600 ]; do
  { while read -r k v; do [ "$k" != rchar: ] || r=$v; done < "/proc/$started/io"; } 2> /dev/null || true
  [ "$r" -ge 1048576 ] || { sleep 0.1; n=$((n + 1)); }
done
echo "dd read $r bytes" >> snapshot.txt
# perf stopped once it has written the snapshot (the file grows), or after
# 30 s: perf's own test sends SIGTERM right after SIGUSR2, and a perf slowed
# by emulation on a busy host may not have taken the snapshot yet.
size() { s=$(wc -c < $data 2> /dev/null || echo 0); }
size; s0=$s
kill -USR2 $PERFPID
n=0
while [ $n -lt 300 ]; do size; [ "$s" -gt "$s0" ] && break; sleep 0.1; n=$((n + 1)); done
echo "perf.data $s0 -> $s bytes at the snapshot" >> snapshot.txt
kill $PERFPID
wait $PERFPID
perf script -F,-time -i $data > snapshot-script.txt 2>&1
perf report --stdio -i $data > snapshot-report.txt 2>&1
ls -l $data >> snapshot.txt
SH
# --no-timing: perf's tests are about the driver and perf, not latencies,
# and the timing model doubles the emulated perf's start-up. The whole run
# takes 5-10 minutes under load (perf 7.x's start-up is about twice 6.1's).
sys --no-timing --timeout 1500 --cpus 2 --memory 2048 -- "perf test -v 'Arm SPE' > perf-test.txt 2>&1;
  sh snapshot.sh;
  $attr_cmds
  sh fork-user.sh" \
  > out.txt || fail "armprof system: $(tail -20 out.txt)"
# A test's verdict line: "NAME: Ok" (perf 6.1), " 129: NAME<padding> : Ok" (7.x).
ok() { grep -Eq "^( *[0-9]+: )?$1 *: Ok\$" "$2"; }
echo "as root: $(grep -F "Check Arm SPE doesn't hang when there are forks" perf-test.txt | grep -E ': (Ok|FAILED|Skip)' | tail -n 1)"
t="Check Arm SPE doesn't hang when there are forks"
ok "$t" fork-user.txt ||
  fail "perf test '$t' as a user did not pass: $(tail -30 fork-user.txt)"
t="Check Arm SPE trace data recording and synthesized samples"
if ! ok "$t" perf-test.txt; then
  # Only the snapshot part may fail, and only with perf's verdict FAILED
  # (not Skip): its parts' lines are "NAME: PASS|SKIPPED|FAIL" ("SPE hang
  # test" is the fork test's, as root only printed: above).
  parts=$(grep -E '^SPE .*: (PASS|SKIPPED|FAIL)$' perf-test.txt | grep -v '^SPE hang test:' || true)
  if ! grep -Eq "^( *[0-9]+: )?$t *: FAILED" perf-test.txt ||
    ! grep -qx "SPE snapshot testing: FAIL" <<< "$parts" ||
    ! grep -qx "SPE system-wide testing: PASS" <<< "$parts" ||
    [ "$(grep -c ': FAIL$' <<< "$parts")" != 1 ]; then
    fail "perf test '$t' did not pass: $(grep -F "$t" perf-test.txt; tail -30 perf-test.txt)"
  fi
  echo "perf test '$t': snapshot part FAIL (perf signalled before its start-up was over), the rest: $(grep -v snapshot <<< "$parts" | tr '\n' ' ')"
  [ -f snapshot.txt ] || fail "snapshot.sh did not run: $(tail -20 out.txt)"
  echo "snapshot.sh: perf started $(cat snapshot.txt)"
  grep -q "^dd=[0-9]" snapshot.txt || fail "perf record -S never started dd"
  # test_arm_spe.sh's perf_script_samples dd and perf_report_samples dd.
  events="(ld1-miss|ld1-access|llc-miss|lld-access|tlb-miss|tlb-access|branch-miss|remote-access|memory)"
  grep -Eq " +dd +[0-9]+ .* +${events}:(.*:)? +" snapshot-script.txt ||
    fail "snapshot.sh: perf script shows no SPE sample of dd: $(head -20 snapshot-script.txt)"
  grep -Eq " +[0-9]+\.[0-9]+% +[0-9]+\.[0-9]+% +dd " snapshot-report.txt ||
    fail "snapshot.sh: perf report shows no dd: $(head -30 snapshot-report.txt)"
  echo "snapshot.sh: SPE snapshot testing: PASS ($(grep -Ec " +dd +[0-9]+ .* +${events}:" snapshot-script.txt) samples of dd)"
fi
grep -F "SPE discard mode" perf-test.txt || true
for t in "${spe_attr[@]}"; do
  [ "$(cat "attr-$t.status")" = 0 ] || fail "attr test $t: $(tail -20 "attr-$t.txt")"
  grep -q "$t" "attr-$t.txt" || fail "attr test $t did not run: $(tail -5 "attr-$t.txt")"
  echo "attr $t: ok"
done
echo "perf tests: ok"

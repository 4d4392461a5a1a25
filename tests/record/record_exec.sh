#!/usr/bin/env bash
# A program that replaces itself with another (execve;
# tests/record/progs/exec_after_work.c). A successful exec replaces QEMU's
# process image, plugin and all, with no exit callback: the plugin writes
# its outputs as the program enters execve (plugins/qemu/plugin.c
# exec_checkpoint), so the profile covers the program up to the exec, with
# every operation counted (SPE-2.2-1), and the new program's exit status
# passes through. An exec that fails (an aarch64 program the host kernel
# cannot run without a binfmt_misc handler) changes nothing: the program
# goes on and its exit writes the whole profile. A forked child that execs
# (as system() does) keeps its profile up to its exec.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
[ -x /bin/false ] && [ -x /bin/true ] || { echo "SKIP: needs /bin/true and /bin/false"; exit 77; }
aarch64-linux-gnu-gcc -O1 -static -o execer "$src/tests/record/progs/exec_after_work.c"

samples_of() { # JSON report, function: its samples (0 when absent)
  python3 -c "import json, sys; print(sum(f['samples'] for f in json.load(open(sys.argv[1]))['functions'] if f['function'] == sys.argv[2]))" "$1" "$2"
}

# 1. The program becomes /bin/false (a host program: QEMU's execve hands
# it to the host kernel). Its status, 1, is armprof record's.
set +e
timeout 120 "$armprof" record --counts self.counts -o self.data -- ./execer self /bin/false > self.out 2> self.err
rc=$?
set -e
[ $rc -eq 1 ] || fail "exec: exit status $rc, want /bin/false's 1: $(cat self.err)"
grep -q "replaced itself with another program (execve), which exited with status 1" self.err ||
  fail "exec: the summary does not say so: $(cat self.err)"
grep -qx "ended_by_exec=1" self.data.meta || fail "exec: no ended_by_exec=1 in the metadata"
every_op_counted self.data.meta self.counts "exec"
"$armprof" report --format json -o self.json self.data
before=$(samples_of self.json work_before_exec)
records=$(sed -n 's/^records=//p' self.data.meta)
# work_before_exec is nearly all of the program's 10+ M operations.
[ "$before" -gt $((records * 9 / 10)) ] || fail "exec: work_before_exec has $before of $records samples"

# 2. The exec fails: an aarch64 program, which the host kernel cannot run
# unless a binfmt_misc handler would hand it to QEMU.
if ! grep -qs "^enabled" /proc/sys/fs/binfmt_misc/qemu-aarch64; then
  set +e
  timeout 120 "$armprof" record --counts failed.counts -o failed.data -- ./execer self ./execer > failed.out 2> failed.err
  rc=$?
  set -e
  [ $rc -eq 3 ] || fail "failed exec: exit status $rc, want 3: $(cat failed.err)"
  grep -q "execer exited with status 3" failed.err || fail "failed exec: summary: $(cat failed.err)"
  grep -qx "ended_by_exec=0" failed.data.meta || fail "failed exec: ended_by_exec is not 0"
  every_op_counted failed.data.meta failed.counts "failed exec"
  "$armprof" report --format json -o failed.json failed.data
  [ "$(samples_of failed.json work_before_exec)" -gt 0 ] && [ "$(samples_of failed.json work_after_failed_exec)" -gt 0 ] ||
    fail "failed exec: the work before and after the exec attempt should both have samples"
  # The summary says why, which "Exec format error" does not: also for
  # a forked child's exec (as system() makes it), counted in its process.
  want="1 exec of an aarch64 program failed with ENOEXEC (\"Exec format error\"; the first: ./execer): this host has no binfmt_misc handler"
  grep -qF "$want" failed.err || fail "failed exec: the summary does not say why: $(cat failed.err)"
  "$armprof" record -o failedchild.data -- ./execer child ./execer > failedchild.out 2> failedchild.err ||
    fail "failed exec in a child: $(cat failedchild.err)"
  grep -qF "$want" failedchild.err || fail "failed exec in a child: the summary does not say why: $(cat failedchild.err)"
fi
# An exec that succeeds, or fails for another reason than an aarch64
# file, says nothing of it.
! grep -q "failed with ENOEXEC" self.err || fail "exec of /bin/false: an ENOEXEC line: $(cat self.err)"
"$armprof" record -o nofile.data -- ./execer self ./no-such-program > nofile.out 2> nofile.err || true
! grep -q "failed with ENOEXEC" nofile.err || fail "exec of a missing file: an ENOEXEC line: $(cat nofile.err)"

# 3. A forked child execs /bin/true; the parent waits and works on.
set +e
timeout 120 "$armprof" record --counts child.counts -o child.data -- ./execer child /bin/true > child.out 2> child.err
rc=$?
set -e
[ $rc -eq 0 ] || fail "child exec: exit status $rc: $(cat child.err)"
grep -q "exec_after_work: child status 0" child.out || fail "child exec: the parent's output: $(cat child.out)"
grep -q "1 of the child processes replaced their program (execve)" child.err ||
  fail "child exec: the summary does not say so: $(cat child.err)"
[ "$(sed -n 's/^processes=//p' child.data.meta)" = 2 ] || fail "child exec: not 2 processes"
every_op_counted child.data.meta child.counts "child exec"
"$armprof" report --format json -o child.json child.data
[ "$(samples_of child.json work_in_parent)" -gt 0 ] || fail "child exec: no samples in work_in_parent"
echo "record_exec: ok"

#!/usr/bin/env bash
# armprof record's outputs (docs/outputs.md): to a symbolic link (its
# target replaced, the link kept, the summary says where the profile went);
# on a full file system (a tmpfs mounted here, where the test may): the
# reason ("No space left on device"), exit status 2, the summary says that
# nothing was written, the file that was there is kept and no temporary
# file or directory is left -- whether the plugin's own outputs or the
# final perf.data do not fit.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -g -static -o ebs "$src/tests/record/progs/ended_by_signal.c"
run_status() { set +e; "$@"; rc=$?; set -e; }

# A symbolic link: the target replaced, the link kept.
mkdir real
echo old > real/target.data
chmod 640 real/target.data
ln -s real/target.data link.data
"$armprof" record -o link.data -- ./ebs raise 00 > /dev/null 2> link.err
[ -L link.data ] || fail "the link was replaced"
[ "$(stat -c %a real/target.data)" = 640 ] || fail "the target's mode was not kept"
"$armprof" decode --stats link.data > /dev/null 2> link.stats || fail "the target is not a profile"
grep -q "records (.*) in link.data (a link to real/target.data)" link.err || fail "summary: $(cat link.err)"
ls -A real | grep -q armprof && fail "a temporary file was left beside the target"

# A full file system.
mkdir full
if ! mount -t tmpfs -o size=200k armprof-test full 2> /dev/null; then
  echo "SKIP: cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN)"
  exit 77
fi
trap 'umount "$work/full" 2> /dev/null || true' EXIT
# 200 KiB: the plugin's SPE data (~500 KiB) does not fit.
echo precious > full/out.data
run_status "$armprof" record -o full/out.data -- ./ebs raise 00 > /dev/null 2> full1.err
[ $rc -eq 2 ] || fail "plugin out of space: exit status $rc: $(cat full1.err)"
grep -q "armprof plugin: .*: cannot write: No space left on device" full1.err || fail "no reason: $(cat full1.err)"
grep -q "no profile written" full1.err || fail "no summary: $(cat full1.err)"
[ "$(cat full/out.data)" = precious ] || fail "the old file was changed"
[ "$(ls -A full)" = out.data ] || fail "left behind: $(ls -A full)"
umount full
# 700 KiB: the plugin's outputs fit, the perf.data beside them does not.
mount -t tmpfs -o size=700k armprof-test full
echo precious > full/out.data
run_status "$armprof" record -o full/out.data -- ./ebs raise 00 > /dev/null 2> full2.err
[ $rc -eq 2 ] || fail "perf.data out of space: exit status $rc: $(cat full2.err)"
grep -q "armprof record: full/out.data: write failed: No space left on device" full2.err || fail "no reason: $(cat full2.err)"
grep -q "records (.*) NOT written to full/out.data (perf.data, 1 thread): see the error above" full2.err ||
  fail "the summary does not say that nothing was written: $(cat full2.err)"
[ "$(cat full/out.data)" = precious ] || fail "the old file was changed"
[ "$(ls -A full)" = out.data ] || fail "left behind: $(ls -A full)"
echo "record_outputs: ok"

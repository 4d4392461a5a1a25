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

# --counts that cannot be written: exit 2 with the reason, said before the
# program runs (it prints nothing), nothing written.
run_status "$armprof" record -o ok.data --counts nodir/c.txt -- ./ebs raise 00 > counts.out 2> counts.err
[ $rc -eq 2 ] || fail "--counts nodir/c.txt: exit status $rc"
grep -q "nodir/c.txt: No such file or directory" counts.err || fail "--counts: no reason: $(cat counts.err)"
[ -s counts.out ] && fail "--counts nodir/c.txt: the program ran first: $(cat counts.out)"
[ -e ok.data ] && fail "--counts nodir/c.txt: a profile was written"

# A FIFO: the perf.data is spooled (it seeks) and copied to it. A SIGTERM
# while armprof writes it (the reader waits) is held until the output is
# written and the temporary directory (in $TMPDIR: never beside a FIFO)
# is gone, then ends armprof (143).
mkfifo out.fifo
mkdir fifo-tmp
TMPDIR=$work/fifo-tmp "$armprof" record -q -o out.fifo -- ./ebs raise 00 > /dev/null 2> fifo.err &
pid=$!
for _ in $(seq 100); do ls -A fifo-tmp | grep -q '^\.armprof-record' && break; sleep 0.1; done
sleep 0.5 # the program ran; armprof now waits for the FIFO's reader
kill -TERM "$pid"
sleep 0.3
cat out.fifo > got.data
run_status wait "$pid"
[ $rc -eq 143 ] || fail "SIGTERM while writing to a FIFO: exit status $rc: $(cat fifo.err)"
[ -p out.fifo ] || fail "the FIFO was replaced"
"$armprof" decode --stats got.data > /dev/null 2> got.err || fail "the FIFO's reader got no whole profile: $(cat got.err)"
ls -A . fifo-tmp | grep -q '^\.armprof-record' && fail "SIGTERM left the temporary directory: $(ls -A . fifo-tmp)"
[ -e out.fifo.meta ] && fail "a .meta was written beside the FIFO"

# The plugin run by hand (qemu-aarch64 -plugin ...,cfg=FILE) writes its
# SPE data where the file says: through a link (kept, the target replaced)
# or into a FIFO (kept, its reader gets the data).
decoded() { "$armprof" decode "$1" | sed 's/ ctx1=0x[0-9a-f]*//'; }
echo old > plugin-real.spe
ln -s plugin-real.spe plugin-link.spe
printf 'out=plugin-link.spe\ncounts=\nstats=plugin1.txt\n' > plugin1.cfg
qemu-aarch64 -plugin "$build/armprof-qemu.so,cfg=plugin1.cfg" ./ebs raise 00 > /dev/null
[ -L plugin-link.spe ] || fail "plugin: the link was replaced"
[ "$(decoded plugin-real.spe | wc -l)" -gt 10000 ] || fail "plugin: the link's target holds no profile"
mkfifo plugin.fifo
timeout 60 cat plugin.fifo > plugin-fifo.got &
reader=$!
printf 'out=plugin.fifo\ncounts=\nstats=plugin2.txt\n' > plugin2.cfg
qemu-aarch64 -plugin "$build/armprof-qemu.so,cfg=plugin2.cfg" ./ebs raise 00 > /dev/null
wait $reader
[ -p plugin.fifo ] || fail "plugin: the FIFO was replaced"
cmp -s <(decoded plugin-real.spe) <(decoded plugin-fifo.got) || fail "plugin: the FIFO's reader got another profile"
ls -A | grep -q '\.tmp$' && fail "plugin: a temporary file was left: $(ls -A)"

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
# 1600 KiB: the plugin's outputs fit (0.5 MiB of SPE data and 0.55 MiB of
# call stacks), the perf.data beside them does not (2.3 MiB: each record's
# sample with its call chain besides the AUX data).
mount -t tmpfs -o size=1600k armprof-test full
echo precious > full/out.data
run_status "$armprof" record -o full/out.data -- ./ebs raise 00 > /dev/null 2> full2.err
[ $rc -eq 2 ] || fail "perf.data out of space: exit status $rc: $(cat full2.err)"
grep -q "armprof record: full/out.data: write failed: No space left on device" full2.err || fail "no reason: $(cat full2.err)"
grep -q "records (.*) NOT written to full/out.data (perf.data, 1 thread): see the error above" full2.err ||
  fail "the summary does not say that nothing was written: $(cat full2.err)"
[ "$(cat full/out.data)" = precious ] || fail "the old file was changed"
[ "$(ls -A full)" = out.data ] || fail "left behind: $(ls -A full)"
echo "record_outputs: ok"

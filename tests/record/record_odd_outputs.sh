#!/usr/bin/env bash
# armprof record's outputs that are not a regular file, outputs it cannot
# write, signals to armprof, and concurrent runs into one output
# (docs/outputs.md "record"; record/record_meta.h):
#  - -o -: the perf.data alone on standard output, the program's own
#    output on standard error (or --program-output FILE); no ./-.meta, no
#    temporary directory in the working directory;
#  - -o DEVICE (a private node made with mknod, 1,3 like /dev/null) and a
#    FIFO: nothing created beside them (no .meta, no temporary directory:
#    that goes to $TMPDIR); the metadata is inside the perf.data, so that
#    report of what the FIFO's reader got says how the program ended;
#  - -o DIR, a dangling link, a directory that does not exist: exit 2
#    with the reason before the program runs;
#  - SIGINT sent to armprof (kill -INT PID, not the terminal's ^C) goes to
#    the program, like SIGTERM: exit 130, the profile of what ran written;
#  - two runs into one output at once, repeated: the perf.data and its
#    .meta are always one run's (records= is the perf.data's count, and
#    data_size= its size); report does not use a .meta of another run.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -g -static -pthread -o ebs "$src/tests/record/progs/ended_by_signal.c"
run_status() { set +e; "$@"; rc=$?; set -e; }
mkdir tmp
export TMPDIR=$work/tmp
no_tmp() { # no temporary directory or file left in the working directory or $TMPDIR
  ! ls -A . tmp | grep -q 'armprof' || fail "$1: left behind: $(ls -A . tmp | tr '\n' ' ')"
}

# 1. -o -
run_status "$armprof" record -q -o - -- ./ebs raise 00 > dash.data 2> dash.err
[ $rc -eq 0 ] || fail "-o -: exit status $rc: $(cat dash.err)"
[ "$(head -c 8 dash.data)" = PERFILE2 ] || fail "-o -: standard output does not start with the perf.data: $(head -c 16 dash.data | od -c | head -2)"
grep -qx survived dash.err || fail "-o -: the program's output is not on standard error: $(cat dash.err)"
"$armprof" decode --stats dash.data > /dev/null 2>&1 || fail "-o -: the perf.data does not decode"
[ -e ./-.meta ] && fail "-o -: ./-.meta was written"
no_tmp "-o -"
# into a pipe whose reader stops early: ended by SIGPIPE, nothing left behind
set +o pipefail
"$armprof" record -q -o - -- ./ebs raise 00 2> /dev/null | head -c 100 > /dev/null
set -o pipefail
no_tmp "-o - | head -c 100"
run_status "$armprof" record -q -o - --program-output prog.txt -- ./ebs raise 00 > dash2.data 2> dash2.err
[ $rc -eq 0 ] && [ "$(cat prog.txt)" = survived ] || fail "--program-output: $rc, $(cat prog.txt): $(cat dash2.err)"
grep -q survived dash2.err && fail "--program-output: the program's output also went to standard error"
cmp -s <("$armprof" decode dash.data | sed 's/ ctx1=0x[0-9a-f]*//') <("$armprof" decode dash2.data | sed 's/ ctx1=0x[0-9a-f]*//') ||
  fail "--program-output: another profile"

# 2. A device and a FIFO: nothing beside them; the metadata inside.
mkdir dev
mknod dev/null c 1 3
run_status "$armprof" record -q -o dev/null -- ./ebs raise 00 > /dev/null 2> null.err
[ $rc -eq 0 ] || fail "-o dev/null: exit status $rc: $(cat null.err)"
[ -c dev/null ] && [ "$(ls -A dev)" = null ] || fail "-o dev/null: beside the device: $(ls -A dev)"
no_tmp "-o dev/null"
mkfifo dev/fifo
timeout 120 cat dev/fifo > fifo.data &
reader=$!
run_status "$armprof" record -q -o dev/fifo -- ./ebs raise 15 > /dev/null 2> fifo.err
wait $reader
[ $rc -eq 143 ] || fail "-o FIFO: exit status $rc: $(cat fifo.err)"
[ -p dev/fifo ] && [ "$(ls -A dev | tr '\n' ' ')" = "fifo null " ] || fail "-o FIFO: beside the FIFO: $(ls -A dev)"
no_tmp "-o FIFO"
"$armprof" report -o fifo.txt fifo.data 2> fifo-report.err || fail "report of the FIFO's data: $(cat fifo-report.err)"
grep -q "^# the program was ended by signal 15 " fifo.txt || fail "the perf.data does not carry its metadata: $(head -5 fifo.txt)"

# 3. Outputs that cannot be written: said before the program runs.
mkdir adir
ln -s nowhere/x.data dangling
for spec in "adir|is a directory" "dangling|a symbolic link to a file that does not exist" \
            "nodir/x.data|No such file or directory"; do
  out=${spec%%|*} why=${spec#*|}
  run_status "$armprof" record -o "$out" -- ./ebs raise 00 > early.out 2> early.err
  [ $rc -eq 2 ] || fail "-o $out: exit status $rc"
  grep -q "armprof record: $out: $why" early.err || fail "-o $out: no reason: $(cat early.err)"
  [ -s early.out ] && fail "-o $out: the program ran first"
done
no_tmp "outputs refused"

# 4. SIGINT sent to armprof alone: to the program, the profile written.
set -m # a background job of its own, SIGINT at its default action
"$armprof" record -o int.data -- ./ebs spin > int.out 2> int.err &
pid=$!
for _ in $(seq 300); do grep -q ready int.out 2> /dev/null && break; sleep 0.1; done
sleep 0.3
kill -INT "$pid"
for _ in $(seq 200); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2> /dev/null; then
  kill -TERM "$pid"
  run_status wait "$pid"
  fail "SIGINT to armprof: ignored (armprof and the program still ran 20 s later)"
fi
run_status wait "$pid"
set +m
[ $rc -eq 130 ] || fail "SIGINT to armprof: exit status $rc: $(cat int.err)"
[ "$(sed -n 's/^stopped_by_signal=//p' int.data.meta)" = 2 ] || fail "SIGINT: the program was not ended by it: $(cat int.data.meta)"
"$armprof" decode --stats int.data > /dev/null 2>&1 || fail "SIGINT: the profile does not decode"

# 5. Two runs into one output, at once: one run's pair, every time.
rounds=30
for i in $(seq $rounds); do
  "$armprof" record -q -c 1024 -o same.data -- ./ebs raise 00 > /dev/null 2>&1 &
  p1=$!
  "$armprof" record -q -c 4096 -o same.data -- ./ebs raise 00 > /dev/null 2>&1 &
  p2=$!
  wait $p1 || fail "round $i: run 1 failed"
  wait $p2 || fail "round $i: run 2 failed"
  n=$("$armprof" decode --format jsonl same.data 2> /dev/null | wc -l)
  m=$(sed -n 's/^records=//p' same.data.meta)
  [ "$n" = "$m" ] || fail "round $i: the perf.data ($n records) and the .meta (records=$m) are of two runs"
  [ "$(sed -n 's/^data_size=//p' same.data.meta)" = "$(stat -c %s same.data)" ] ||
    fail "round $i: the .meta's data_size is not the perf.data's"
done
# A .meta that is not of its file (what a reader meets when it reads the
# pair while a run replaces it) is not used, with a warning; a copied pair
# keeps its tag.
cp same.data copy.data && cp same.data.meta copy.data.meta
"$armprof" report -o copy.txt copy.data 2> copy.err
grep -q "is of another recording" copy.err && fail "a copied pair: its .meta was not used: $(cat copy.err)"
sed -i 's/^data_size=.*/data_size=12/' copy.data.meta
"$armprof" report -o copy.txt copy.data 2> copy.err
grep -q "warning: copy.data.meta is of another recording than copy.data (its data_size=12" copy.err ||
  fail "a .meta of another run: no warning: $(cat copy.err)"
no_tmp "concurrent runs"
echo "record_odd_outputs: ok"

#!/usr/bin/env bash
# A program ended by a signal keeps its profile (plugins/qemu/stop_signal.h):
# QEMU runs no plugin exit handler then, so the plugin writes a checkpoint
# when a signal at its default action arrives, and passes the signal on.
# The program (tests/record/progs/ended_by_signal.c) is ended by raise(),
# abort(), ^C to its process group (four threads), SIGTERM to armprof (a
# `timeout`), and a closed pipe; each time the exit status passes through,
# the profile covers the run up to the signal, with every operation counted
# once (ops = SAMPLE_POP = the exact counts), and report says where it ends.
# Faults (SIGSEGV with four threads, SIGTRAP) too, through
# armprof-qemu-preload.so, which the program never sees in its environment.
# The checkpoint holds exactly the records up to the signal (the first
# ones of a run the signal does not end). A program that handles or
# blocks the signal runs on as without the plugin. Without the preload a
# fault still loses the profile, with a message that says why.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -g -static -pthread -o ebs "$src/tests/record/progs/ended_by_signal.c"

# meta_is FILE KEY VALUE
meta_is() {
  [ "$(sed -n "s/^$2=//p" "$1")" = "$3" ] || fail "$1: $2 is '$(sed -n "s/^$2=//p" "$1")', expected '$3'"
}
# top_function DATA NAME: the function with the most samples.
top_function() {
  "$armprof" report --format json -o top.json "$1"
  python3 -c 'import json,sys; f=json.load(open("top.json"))["functions"]; sys.exit(f[0]["function"] != sys.argv[1])' "$2" ||
    fail "$1: top function is not $2"
}
# wait_for FILE TEXT: until the program printed TEXT (at most 60 s).
wait_for() {
  for _ in $(seq 600); do
    grep -q "^$2" "$1" 2> /dev/null && return 0
    sleep 0.1
  done
  fail "the program never printed '$2'"
}
# run_status NAME CMD...: run, keep the exit status in $rc.
run_status() {
  set +e
  "$@"
  rc=$?
  set -e
}

# raise() and abort(): the checkpoint is written in the system call.
for how in "raise 15:143:15" "abort:134:6"; do
  mode=${how%%:*} rest=${how#*:} want_rc=${rest%%:*} sig=${rest#*:}
  # shellcheck disable=SC2086 # $mode is the mode and its argument
  run_status "$armprof" record -o r.data --counts r.counts -- ./ebs $mode > r.out 2> r.err
  [ $rc -eq "$want_rc" ] || fail "$mode: exit status $rc, expected $want_rc: $(cat r.err)"
  grep -q "was ended by signal $sig .*the profile covers it up to the signal" r.err || fail "$mode: $(cat r.err)"
  ! grep -q survived r.out || fail "$mode: the program went on after the signal"
  meta_is r.data.meta stopped_by_signal "$sig"
  meta_is r.data.meta checkpoints 1
  meta_is r.data.meta exit_status "$want_rc"
  every_op_counted r.data.meta r.counts "$mode"
  top_function r.data work
  "$armprof" report -o r.txt r.data
  grep -q "^# the program was ended by signal $sig " r.txt || fail "$mode: report does not say so"
done

# ^C: SIGINT to the process group, while four threads spin, with model
# threads and with the models on the program's threads. Job control gives
# each background job a process group of its own, and leaves SIGINT at its
# default action (a script's background jobs otherwise ignore it).
set -m
for extra in "" --no-pipeline; do
  rm -f int.out
  # shellcheck disable=SC2086 # $extra is empty or one option
  "$armprof" record $extra -o int.data --counts int.counts -- ./ebs spin 4 > int.out 2> int.err &
  pid=$!
  wait_for int.out ready
  sleep 0.5
  kill -INT -- -"$pid"
  run_status wait "$pid"
  [ $rc -eq 130 ] || fail "^C $extra: exit status $rc: $(cat int.err)"
  meta_is int.data.meta stopped_by_signal 2
  meta_is int.data.meta threads 4
  every_op_counted int.data.meta int.counts "^C $extra"
  top_function int.data spin_loop
  "$armprof" decode --stats int.data > /dev/null || fail "^C $extra: the profile does not decode"
done

# SIGTERM to armprof (what `timeout` does): passed on to QEMU.
"$armprof" record -o term.data -- ./ebs spin > term.out 2> term.err &
pid=$!
wait_for term.out ready
sleep 0.3
kill -TERM "$pid"
run_status wait "$pid"
[ $rc -eq 143 ] || fail "SIGTERM: exit status $rc: $(cat term.err)"
meta_is term.data.meta stopped_by_signal 15
top_function term.data spin_loop

# A signal the program inherited as ignored (a script's background job
# ignores SIGINT) is no reason for a checkpoint: QEMU drops it.
set +m
"$armprof" record -o ign.data -- ./ebs spin > ign.out 2> ign.err &
pid=$!
wait_for ign.out ready
qemu_pid=$(pgrep -P "$pid")
kill -INT "$qemu_pid"
sleep 0.5
kill -TERM "$pid"
run_status wait "$pid"
[ $rc -eq 143 ] || fail "ignored SIGINT: exit status $rc: $(cat ign.err)"
meta_is ign.data.meta checkpoints 1
meta_is ign.data.meta stopped_by_signal 15
set -m

# A handled signal reaches the program's handler; no checkpoint.
"$armprof" record -o h.data --counts h.counts -- ./ebs handled > h.out 2> h.err &
pid=$!
wait_for h.out ready
sleep 0.3
kill -INT -- -"$pid"
run_status wait "$pid"
[ $rc -eq 0 ] || fail "handled: exit status $rc: $(cat h.err)"
grep -q "^caught" h.out || fail "handled: the handler did not run"
meta_is h.data.meta checkpoints 0
meta_is h.data.meta stopped_by_signal 0
every_op_counted h.data.meta h.counts handled
set +m

# A one-shot handler (SA_RESETHAND): the first SIGTERM runs it (the program
# goes on), the second kills, and finds a checkpoint: the default action
# comes back inside QEMU, unseen, so both are taken as at the default.
"$armprof" record -o once.data -- ./ebs oneshot > once.out 2> once.err &
pid=$!
wait_for once.out ready
kill -TERM "$pid"
wait_for once.out "handled once"
sleep 0.3
kill -TERM "$pid"
run_status wait "$pid"
[ $rc -eq 143 ] || fail "one-shot: exit status $rc: $(cat once.err)"
meta_is once.data.meta stopped_by_signal 15
meta_is once.data.meta checkpoints 2
top_function once.data spin_loop

# A blocked signal (sigwait): QEMU blocks it on the host as the program
# does, so the kernel holds it and no handler runs: no checkpoint, and the
# program takes it from sigwait() as without the plugin. When it comes
# changes nothing in the profile.
for when in early late; do
  "$armprof" record -o "b-$when.spe" --counts "b-$when.counts" -- ./ebs blocked > "b-$when.out" 2> "b-$when.err" &
  pid=$!
  if [ $when = early ]; then wait_for "b-$when.out" ready; else wait_for "b-$when.out" waiting; fi
  kill -TERM "$pid"
  run_status wait "$pid"
  [ $rc -eq 5 ] || fail "blocked ($when): exit status $rc: $(cat "b-$when.err")"
  grep -q "^waited 15" "b-$when.out" || fail "blocked ($when): sigwait did not get SIGTERM"
  meta_is "b-$when.spe.meta" checkpoints 0
  every_op_counted "b-$when.spe.meta" "b-$when.counts" "blocked ($when)"
done
# Thread ids (CONTEXTIDR_EL1) differ from run to run: compare the rest.
decoded() { "$armprof" decode "$1" | sed 's/ ctx1=0x[0-9a-f]*//'; }
cmp -s <(decoded b-early.spe) <(decoded b-late.spe) || fail "blocked: the records depend on when the signal came"
cmp -s b-early.counts b-late.counts || fail "blocked: the counts depend on when the signal came"

# The checkpoint holds exactly the records of the run up to the signal:
# those of raise(15) are the first ones of raise(17) (SIGCHLD, whose
# default action is to ignore it: the program goes on), which goes the
# same way until then, instruction for instruction: "17" parses as "15"
# does. ("00" does not: strtol's branch for a leading zero is one
# instruction longer, which moved every later operation number by one, so
# that a sample taken between atoi() and the signal named the instruction
# before; the exact counts check that premise first.)
"$armprof" record -q -o r15.spe --counts r15.counts -- ./ebs raise 15 > /dev/null || true
"$armprof" record -q -o r17.spe --counts r17.counts -- ./ebs raise 17 | grep -q "^survived" || fail "raise 17: the program did not go on"
awk '!/^#/ { if (FILENAME == ARGV[1]) ref[$1] = $2; else if ($2 > ref[$1] + 0) { print $1; exit 1 } }' r17.counts r15.counts > ahead.txt ||
  fail "raise 17 does not go the way of raise 15: it runs $(cat ahead.txt) fewer times"
decoded r15.spe > r15.txt
decoded r17.spe > r17.txt
n=$(wc -l < r15.txt)
[ "$n" -gt 10000 ] && [ "$(wc -l < r17.txt)" -gt "$n" ] || fail "raise: $n records at the signal, $(wc -l < r17.txt) without"
# (On a failure, the first differing records and both runs' summaries, for
# whoever meets it: the stress test record_under_load repeats this beside
# CPU hogs.)
head -n "$n" r17.txt | cmp -s - r15.txt ||
  fail "the checkpoint's records are not those of the run up to the signal: $(head -n "$n" r17.txt | diff - r15.txt | head -8); r15: $(grep -E '^(ops|sample_pop|records|checkpoints)=' r15.spe.meta | tr '\n' ' '); r17: $(grep -E '^(ops|sample_pop|records)=' r17.spe.meta | tr '\n' ' ')"

# A closed pipe: SIGPIPE.
set +o pipefail
"$armprof" record -o pipe.data -- ./ebs pipe 2> pipe.err | head -1 > /dev/null
rc=${PIPESTATUS[0]}
set -o pipefail
[ "$rc" -eq 141 ] || fail "pipe: exit status $rc: $(cat pipe.err)"
meta_is pipe.data.meta stopped_by_signal 13

# Faults: QEMU stops the other threads and kills itself with the signal,
# running no exit handler; armprof-qemu-preload.so (LD_PRELOAD in QEMU,
# plugins/qemu/fatal_preload.c) has the plugin write its outputs first.
# A null store (SIGSEGV) with three other threads spinning, and a BRK
# (SIGTRAP).
for how in "fault 4:139:11:4" "trap:133:5:1"; do
  mode=${how%%:*} rest=${how#*:}
  want_rc=${rest%%:*} rest=${rest#*:}
  sig=${rest%%:*} threads=${rest#*:}
  # shellcheck disable=SC2086 # $mode is the mode and its argument
  run_status "$armprof" record -o f.data --counts f.counts -- ./ebs $mode > /dev/null 2> f.err
  [ $rc -eq "$want_rc" ] || fail "$mode: exit status $rc, expected $want_rc: $(cat f.err)"
  grep -q "was ended by signal $sig .*the profile covers it up to the signal" f.err || fail "$mode: $(cat f.err)"
  meta_is f.data.meta stopped_by_signal "$sig"
  meta_is f.data.meta threads "$threads"
  every_op_counted f.data.meta f.counts "$mode"
  "$armprof" report --format json -o top.json f.data
  python3 -c 'import json,sys; f={r["function"] for r in json.load(open("top.json"))["functions"][:3]}; sys.exit("work" not in f)' ||
    fail "$mode: work is not among the top functions"
done

# The preload is QEMU's: the program's environment has LD_PRELOAD as armprof
# found it, unset or the user's.
"$armprof" record -q -o env.data -- ./ebs env > env.out
grep -qx "LD_PRELOAD=(unset)" env.out || fail "the program sees LD_PRELOAD: $(cat env.out)"
LD_PRELOAD=/nonexistent/user-lib.so "$armprof" record -q -o env.data -- ./ebs env > env.out 2> /dev/null
grep -qx "LD_PRELOAD=/nonexistent/user-lib.so" env.out || fail "the user's LD_PRELOAD is lost: $(cat env.out)"

# Without the preload (a plugin given from elsewhere, or QEMU run by hand)
# a fault still loses the profile, and the message says why.
mkdir -p alone && cp "$build/armprof-qemu.so" alone/
run_status "$armprof" record --plugin alone/armprof-qemu.so -o fault.data -- ./ebs fault > /dev/null 2> fault.err
[ $rc -eq 139 ] || fail "fault without the preload: exit status $rc"
[ ! -e fault.data ] || fail "fault without the preload: an output file was written"
grep -q "no profile written.*SIGKILL, or a fault without armprof-qemu-preload.so" fault.err || fail "fault without the preload: $(cat fault.err)"
ls -a | grep -q "^\.armprof-record" && fail "a temporary directory was left behind"
echo "record_ended_by_signal: ok"

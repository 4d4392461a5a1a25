#!/usr/bin/env bash
# The model threads change nothing the models compute (plugins/qemu/
# event_ring.h): a single-threaded program recorded with a model thread and
# with --no-pipeline (models replayed on the program's thread) gives the
# same SPE bytes and the same exact per-PC counts. Batches of 16384 events
# hand over many times in these runs, so a replay out of order, a lost or
# a doubled batch would show. A multi-threaded program (whose interleaving
# differs from run to run) must still count every operation it ran.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

for run in "stream 1" "branchy 1"; do
  for mode in pipe nopipe; do
    extra=""
    [ $mode = nopipe ] && extra=--no-pipeline
    # shellcheck disable=SC2086 # $run and $extra are word lists
    "$armprof" record -q --no-context --format raw -o $mode.raw --counts $mode.counts \
      $extra -- "$examples"/$run > $mode.out
  done
  cmp -s pipe.raw nopipe.raw || fail "[$run] SPE bytes differ between the model thread and --no-pipeline"
  cmp -s pipe.counts nopipe.counts || fail "[$run] exact counts differ between the model thread and --no-pipeline"
  cmp -s pipe.out nopipe.out || fail "[$run] program output differs"
  [ "$(wc -c < pipe.raw)" -gt 100000 ] || fail "[$run] too few SPE bytes to mean anything"
done

# The summary says where the models ran and what CPU time they took (a
# figure for the reader; its value is not judged here).
t0=$(date +%s%N)
"$armprof" record -o s.raw -- "$examples/stream" 1 2> pipe.err > /dev/null
wall_ns=$(($(date +%s%N) - t0))
"$armprof" record --no-pipeline -o s.raw -- "$examples/stream" 1 2> nopipe.err > /dev/null
where="on model threads"
[ "$(nproc)" -gt 1 ] || where="on the program's threads" # no model threads on one CPU
grep -Eq "^armprof record: the models took [0-9]+\.[0-9]{2} s of CPU time \($where" pipe.err ||
  fail "no models' CPU time ($where) in the summary: $(cat pipe.err)"
grep -Eq "^armprof record: the models took [0-9]+\.[0-9]{2} s of CPU time \(on the program's threads\)" nopipe.err ||
  fail "no models' CPU time (--no-pipeline) in the summary: $(cat nopipe.err)"

# Both threads busy (issue 30): with model threads, how often and how long
# the program's threads waited for the models (ring full, drains) and the
# model threads for events (plugins/qemu/ring_wait.h). Each is a count and a
# duration within the run's wall time, and a duration only with a wait;
# stream 1 hands over dozens of batches, so somebody waited.
if [ "$(nproc)" -gt 1 ]; then
  line=$(grep "^armprof record: ring waits: " pipe.err) || fail "no ring waits in the summary: $(cat pipe.err)"
  re='^armprof record: ring waits: the program.s threads waited for the models ([0-9]+) times, ([0-9]+\.[0-9]{3}) s '
  re+='\(ring full\), and ([0-9]+) times, ([0-9]+\.[0-9]{3}) s \(drains\); the model threads waited for events '
  re+='([0-9]+) times, ([0-9]+\.[0-9]{3}) s$'
  [[ $line =~ $re ]] || fail "ring waits not as expected: $line"
  waited=0
  for k in 1 3 5; do
    n=${BASH_REMATCH[$k]} s=${BASH_REMATCH[$((k + 1))]}
    ns=$((10#${s%.*} * 1000000000 + 10#${s#*.} * 1000000))
    [ "$ns" -le "$wall_ns" ] || fail "a wait of $s s in a run of $wall_ns ns: $line"
    [ "$n" -gt 0 ] || [ "$ns" -eq 0 ] || fail "a duration without a wait: $line"
    waited=$((waited + n))
  done
  [ "$waited" -gt 0 ] || fail "no waits at all in dozens of hand-overs: $line"
fi
grep -q "ring waits" nopipe.err && fail "ring waits without model threads: $(cat nopipe.err)"

# Two threads, each with its own model thread: every operation is counted
# once (SAMPLE_POP = operations fed = the sum of the exact counts).
"$armprof" record -q -o fs.data --counts fs.counts -- "$examples/false_sharing" 200000 > /dev/null
every_op_counted fs.data.meta fs.counts false_sharing
grep -q "^threads=2\$" fs.data.meta || fail "false_sharing: expected 2 threads in meta"
echo "record_pipeline: ok"

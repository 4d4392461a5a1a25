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
"$armprof" record -o s.raw -- "$examples/stream" 1 2> pipe.err > /dev/null
"$armprof" record --no-pipeline -o s.raw -- "$examples/stream" 1 2> nopipe.err > /dev/null
where="on model threads"
[ "$(nproc)" -gt 1 ] || where="on the program's threads" # no model threads on one CPU
grep -Eq "^armprof record: the models took [0-9]+\.[0-9]{2} s of CPU time \($where" pipe.err ||
  fail "no models' CPU time ($where) in the summary: $(cat pipe.err)"
grep -Eq "^armprof record: the models took [0-9]+\.[0-9]{2} s of CPU time \(on the program's threads\)" nopipe.err ||
  fail "no models' CPU time (--no-pipeline) in the summary: $(cat nopipe.err)"

# Two threads, each with its own model thread: every operation is counted
# once (SAMPLE_POP = operations fed = the sum of the exact counts).
"$armprof" record -q -o fs.data --counts fs.counts -- "$examples/false_sharing" 200000 > /dev/null
every_op_counted fs.data.meta fs.counts false_sharing
grep -q "^threads=2\$" fs.data.meta || fail "false_sharing: expected 2 threads in meta"
echo "record_pipeline: ok"

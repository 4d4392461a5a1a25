#!/usr/bin/env bash
# Loop runs (plugins/qemu/plugin.c replay_run) change nothing the models
# compute: a program of one-block loops (tests/record/progs/loop_runs.c: a
# string scan, a fill, a sum round one line, a pointer chase round one
# line, a store after a slow load, a loop with no access, an indirect
# branch, atomics) and the examples give the same SPE bytes, exact counts
# and summary with runs (the default) as with --no-loop-runs (every
# iteration through the models). Samples land inside the loops (-c 256),
# so a run that went past a selected operation, or left a wrong access,
# latency or count behind, would show in the records. The summary says how
# many operations were in runs: most of them here, none with the option.
# Also with timing windows (--timing-window).
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

aarch64-linux-gnu-gcc -O1 -static -march=armv8.1-a -o loops "$src/tests/record/progs/loop_runs.c"

# The timing model set up so that an L1D hit is slower than a miss: the
# pointer chase waits in its loop though its first iteration in a line did
# not (plugin.c replay_run's dependency conditions). A run taken there
# would show only when a sample falls on the load that ends it: 16
# repetitions make that likely.
odd="--uarch issue.latency=0 --uarch l1d.latency=40 --uarch l2.latency=1 --uarch llc.latency=1"
odd="$odd --uarch dram.latency=1 --uarch walk.latency=1 --uarch l2tlb.latency=1"

compare() { # LABEL PROGRAM-AND-ARGS... (record options in $opts)
  local label=$1 mode extra
  shift
  for mode in runs each; do
    extra=""
    [ $mode = each ] && extra=--no-loop-runs
    # shellcheck disable=SC2086 # $opts and $extra are word lists
    "$armprof" record --no-context --format raw -o $mode.raw --counts $mode.counts $opts $extra \
      -- "$@" > $mode.out 2> $mode.err
    sed -n 's/.*; \([0-9.]*\)% of the operations were in loop runs.*/\1/p' $mode.err > $mode.share
    # The models' line holds a CPU time (different in every run) and the share;
    # the ring waits are measured too.
    sed -i '/^armprof record: the models took /d; /^armprof record: ring waits: /d; s/ in [^ ]*\.raw / in OUT /' $mode.err
  done
  cmp -s runs.raw each.raw || fail "[$label] SPE bytes differ with and without loop runs"
  cmp -s runs.counts each.counts || fail "[$label] exact counts differ with and without loop runs"
  cmp -s runs.out each.out || fail "[$label] program output differs"
  cmp -s runs.err each.err || fail "[$label] summaries differ: $(diff runs.err each.err)"
  [ "$(cat each.share)" = "0.0" ] || fail "[$label] --no-loop-runs still ran loops a run at a time"
  [ "$(wc -c < runs.raw)" -gt 20000 ] || fail "[$label] too few SPE bytes to mean anything"
}

opts="-c 256"
compare loops ./loops 3
awk '{ exit !($1 > 80) }' runs.share || fail "loops: only $(cat runs.share)% of the operations in runs"
opts="-c 512 -j --seed 3"
compare "loops, jitter" ./loops 3
opts="-c 256 $odd"
compare "loops, slow L1D" ./loops 16
# Timing windows: outside them the runs are only counted, and a run must
# stop before the first execution inside one.
opts="-c 512 --timing-window 200"
compare "loops, windows" ./loops 3
awk '{ exit !($1 > 50) }' runs.share || fail "loops, windows: only $(cat runs.share)% of the operations in runs"
opts="-c 256"
compare "stream" "$examples/stream" 1
awk '{ exit !($1 > 50) }' runs.share || fail "stream: only $(cat runs.share)% of the operations in runs"
compare "pointer chase" "$examples/pointer_chase" 100000
echo "record_loop_runs: ok"

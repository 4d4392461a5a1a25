#!/usr/bin/env bash
# exit() while other threads still run (tests/record/progs/exit_while_running.c):
# the exit handler replays every thread's logged events and writes the
# profile while those threads are stopped mid-loop. QEMU 7.2 stops every
# other vCPU's callbacks before it calls the plugin's exit handler (checked
# on 2026-11-22: no vCPU's log moved during a 20 ms wait in the handler), so
# each run must give a consistent profile: exit status 0, SAMPLE_POP = the
# operations fed = the sum of the exact per-PC counts, a clean decode. Run
# several times with the exit at different points of the threads' loops.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O2 -static -pthread -o ewr "$src/tests/record/progs/exit_while_running.c"

for i in 1 2 3 4 5 6 7 8; do
  for mode in "" --no-pipeline; do
    # shellcheck disable=SC2086 # $mode is empty or one word
    "$armprof" record -q $mode -o ewr.data --counts ewr.counts -- ./ewr 4 $((i * 25000)) > ewr.out ||
      fail "run $i $mode: exit status $?"
    grep -q "exit with 4 threads running" ewr.out || fail "run $i $mode: program output"
    every_op_counted ewr.data.meta ewr.counts "run $i $mode"
    grep -q "^threads=5\$" ewr.data.meta || fail "run $i $mode: expected 5 threads"
    "$armprof" decode --stats ewr.data > /dev/null || fail "run $i $mode: the profile does not decode cleanly"
  done
done
echo "record_exit_race: ok"

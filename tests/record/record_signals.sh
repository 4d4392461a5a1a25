#!/usr/bin/env bash
# A program that takes a timer signal every millisecond while it computes
# (tests/record/progs/timer_signals.c). The kernel may give such a
# process-directed signal to any thread that does not block it; the
# plugin's model threads block them all, so QEMU's handler always runs on
# a thread of the program (on a model thread it crashed QEMU: exit 139).
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -static -o timer "$src/tests/record/progs/timer_signals.c"
for i in 1 2 3; do
  set +e
  timeout 120 "$armprof" record -q -o tm.data -- ./timer 200 > tm.out
  rc=$?
  set -e
  [ $rc -eq 0 ] || fail "run $i: exit status $rc"
  awk '$1 == "ticks" && $2 >= 200 { ok = 1 } END { exit !ok }' tm.out || fail "run $i: the program did not see its signals"
  "$armprof" decode --stats tm.data > /dev/null || fail "run $i: the profile does not decode"
done
echo "record_signals: ok"

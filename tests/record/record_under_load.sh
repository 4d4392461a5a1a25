#!/usr/bin/env bash
# Host timing never changes what the model records for a single-threaded
# program: the same program recorded beside CPU hogs (busy loops on every
# host CPU, so that QEMU's thread, the plugin's model thread and its
# checkpoint thread are preempted at random) decodes byte for byte as it
# does on an idle host -- for a run that exits, and for one a signal ends
# (raise(SIGTERM): the plugin's checkpoint, plugins/qemu/stop_signal.h),
# whose records are the first ones of the run that exits (raise(SIGCHLD),
# ignored: the same instructions until then; the test
# record_ended_by_signal compares that once and says why 17; here it is
# repeated under load). With --jitter: the sampling interval's random part comes from the
# seeded PRNG, never from the host. Thread ids (CONTEXTIDR_EL1) differ from
# run to run: not compared.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -g -static -pthread -o ebs "$src/tests/record/progs/ended_by_signal.c"
runs=${ARMPROF_LOAD_RUNS:-8}
decoded() { "$armprof" decode "$1" | sed 's/ ctx1=0x[0-9a-f]*//'; }
record_pair() { # record_pair TAG: TAG-exit.txt and TAG-signal.txt
  "$armprof" record -q --jitter -o "$1-exit.spe" -- ./ebs raise 17 > /dev/null
  "$armprof" record -q --jitter -o "$1-signal.spe" -- ./ebs raise 15 > /dev/null || true
  decoded "$1-exit.spe" > "$1-exit.txt"
  decoded "$1-signal.spe" > "$1-signal.txt"
}

record_pair idle
n=$(wc -l < idle-signal.txt)
[ "$n" -gt 10000 ] && [ "$(wc -l < idle-exit.txt)" -gt "$n" ] || fail "idle: $n records at the signal, $(wc -l < idle-exit.txt) without"
head -n "$n" idle-exit.txt | cmp -s - idle-signal.txt || fail "idle: the checkpoint's records are not those of the run up to the signal"

hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2> /dev/null || true; }
trap stop_hogs EXIT
for _ in $(seq "$(nproc)"); do
  ( while :; do :; done ) &
  hogs+=($!)
done
for i in $(seq "$runs"); do
  record_pair "load$i"
  cmp -s idle-exit.txt "load$i-exit.txt" ||
    fail "run $i beside CPU hogs: the records of the run that exits differ from an idle host's: $(diff idle-exit.txt "load$i-exit.txt" | head -6)"
  cmp -s idle-signal.txt "load$i-signal.txt" ||
    fail "run $i beside CPU hogs: the checkpoint's records differ from an idle host's: $(diff idle-signal.txt "load$i-signal.txt" | head -6); $(grep -E '^(ops|checkpoints)=' "load$i-signal.spe.meta" | tr '\n' ' ')"
done
stop_hogs
echo "record_under_load: $runs pairs beside $(nproc) CPU hogs, byte-identical: ok"

#!/usr/bin/env bash
# A program that forks (tests/record/progs/fork_child.c). qemu-user forks the
# host process, plugin and all; the child has no model threads (event_ring.h)
# and must neither hang waiting for one nor write the parent's profile. The
# profile is the parent's: the same with model threads as with
# --no-pipeline, SAMPLE_POP = operations fed = the exact counts, and the
# parent's exit status passes through.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-gcc > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-gcc"; exit 77; }
aarch64-linux-gnu-gcc -O1 -static -o forker "$src/tests/record/progs/fork_child.c"

for mode in pipe nopipe; do
  extra=""
  [ $mode = nopipe ] && extra=--no-pipeline
  set +e
  # shellcheck disable=SC2086 # $extra is empty or one word
  timeout 120 "$armprof" record -q $extra --no-context --format raw -o $mode.raw --counts $mode.counts \
    -- ./forker > $mode.out
  rc=$?
  set -e
  [ $rc -ne 124 ] || fail "$mode: armprof record hung after the fork"
  [ $rc -eq 5 ] || fail "$mode: exit status $rc, want the parent's 5"
  grep -q "child done" $mode.out || fail "$mode: the child's output is missing"
  grep -q "parent: child exited with 3" $mode.out || fail "$mode: the parent's output is missing"
  every_op_counted $mode.raw.meta $mode.counts "$mode"
done
cmp -s pipe.raw nopipe.raw || fail "the profile differs between model threads and --no-pipeline"
cmp -s pipe.counts nopipe.counts || fail "the counts differ between model threads and --no-pipeline"
echo "record_fork: ok"

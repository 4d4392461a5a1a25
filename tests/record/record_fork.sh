#!/usr/bin/env bash
# A program that forks (tests/record/progs/fork_child.c). qemu-user forks the
# host process, plugin and all; each child is profiled as a process of its
# own, as perf record's inherited events do (plugins/qemu/plugin.c
# after_fork_in_child), and armprof record merges the children's outputs
# with the program's: perf.data has every process's threads and mappings,
# the exact counts and SAMPLE_POP cover them all, a child ended by a signal
# is there up to the signal (plugins/qemu/stop_signal.h), and the samples
# fall in each process's own function in proportion to its operations. The
# child has no model threads of the parent's to wait for: no hang, and the
# same profile with model threads as with --no-pipeline. The parent's exit
# status passes through.
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
  grep -q "parent: child exited with 3, the other was ended by signal 15" $mode.out ||
    fail "$mode: the parent's output is missing"
  [ "$(sed -n 's/^processes=//p' $mode.raw.meta)" = 3 ] || fail "$mode: not 3 processes: $(cat $mode.raw.meta)"
  every_op_counted $mode.raw.meta $mode.counts "$mode"
done
# The processes' outputs are merged in pid order, and pids grow with each
# fork here: the same bytes either way.
cmp -s pipe.raw nopipe.raw || fail "the profile differs between model threads and --no-pipeline"
cmp -s pipe.counts nopipe.counts || fail "the counts differ between model threads and --no-pipeline"

"$armprof" record -o fork.data -- ./forker > /dev/null 2> fork.err && rc=0 || rc=$?
[ $rc -eq 5 ] || fail "perf.data run: exit status $rc: $(cat fork.err)"
grep -q "3 threads in 3 processes" fork.err || fail "the summary does not count the processes: $(cat fork.err)"
"$armprof" report --format json -o fork.json fork.data
counts_by_function forker pipe.counts > exact.txt
python3 - fork.json exact.txt <<'PY'
import json, sys
rows = {f["function"]: f["samples"] for f in json.load(open(sys.argv[1]))["functions"]}
exact = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[2]))
total_s, total_e = sum(rows.values()), sum(exact.values())
for fn in ("work", "child_work", "doomed_child_work"):
    assert fn in rows, (fn, rows)
    s, e = rows[fn] / total_s, exact[fn] / total_e
    # within 5 standard errors of the exact share
    sd = (e * (1 - e) / total_s) ** 0.5
    assert abs(s - e) <= 5 * sd + 1e-3, (fn, s, e, sd)
PY
if command -v perf > /dev/null; then
  # (one table per event perf synthesizes from SPE: count each pid once)
  n=$(perf report -i fork.data --stdio --sort pid 2> /dev/null | grep -o "[0-9]*:forker" | sort -u | wc -l)
  [ "$n" -eq 3 ] || fail "perf report sees $n processes, not 3"
fi
echo "record_fork: ok"

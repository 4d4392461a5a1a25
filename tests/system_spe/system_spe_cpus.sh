#!/usr/bin/env bash
# Two vCPUs profiled at once, each with its own model PE and profiling
# buffer: a CPU-wide recording (perf record -a) of two programs pinned one to
# each CPU holds records of both, each with its own PID (Context packet,
# SPE-5.3.3-3). A program that migrates between CPUs while it is recorded
# keeps being sampled: its records number its operations over the interval.
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
cp "$examples/pointer_chase" .
sys --cpus 2 -- "perf record -q -a -e arm_spe_0/ts_enable=1/u -o both.data -- \
          sh -c 'taskset 1 ./pointer_chase 200000 > /dev/null & taskset 2 ./pointer_chase 200000 > /dev/null; wait' &&
        perf record -q -e arm_spe_0/ts_enable=1/u -o moved.data -- \
          sh -c 'taskset 1 ./pointer_chase 300000 > /dev/null & p=\$!; sleep 0.2; taskset -p 2 \$p > /dev/null; wait \$p' &&
        perf record -q -e arm_spe_0/ts_enable=1/u -o still.data -- taskset 1 ./pointer_chase 300000 > /dev/null" \
  > out.txt || fail "armprof system: $(tail -20 out.txt)"
# Each CPU's AUX buffer (decode --cpu N) holds records of the program pinned
# to it: one PID each, the two different.
for cpu in 0 1; do
  "$armprof" decode --cpu $cpu --format jsonl both.data > cpu$cpu.jsonl 2> cpu$cpu.err ||
    fail "decode --cpu $cpu: $(cat cpu$cpu.err)"
done
python3 - cpu0.jsonl cpu1.jsonl <<'PY'
import collections, json, sys
top = []
for path in sys.argv[1:]:
    pids = collections.Counter(json.loads(l).get("ctx_el1") for l in open(path))
    print(path, dict(pids))
    assert pids, f"{path}: no records"
    top.append(pids.most_common(1)[0][0])
assert top[0] != top[1], f"the same PID leads both CPUs' buffers: {top}"
PY
records() { "$armprof" decode --stats "$1" 2>&1 | sed -n 's/.* \([0-9]*\) records (0 with errors.*/\1/p'; }
moved=$(records moved.data) still=$(records still.data)
python3 -c "
import math, sys
moved, still = $moved, $still
print(f'records: migrated {moved}, pinned {still}')
assert abs(moved - still) <= 5 * math.sqrt(still) + 50, (moved, still)"
echo "cpus: ok"

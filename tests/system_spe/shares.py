"""Each function's share of the SPE samples is its exact share of the
executed operations, within five standard errors (SPE-2.2-1, spec/002 2.2:
every operation of the population is equally likely to be sampled).

usage: shares.py REPORT.json EXACT.txt [TOP]

REPORT.json: `armprof report --format json` of the guest's perf.data (user
space only); EXACT.txt: "function count" lines, the exact operations of the
same program run (tests/record/counts_by_function.py on `armprof record
--counts`). Checks the TOP (default 2) functions by exact count. The
samplers checked with it pick operations, not moments: SPE counts
operations, and armprof system --pc-sample reads every vCPU every N ns of
-icount guest time, which is N instructions of a guest with one vCPU (with
more, the instructions of all vCPUs together: docs/system.md).
"""
import json
import math
import sys

report = json.load(open(sys.argv[1]))
top = int(sys.argv[3]) if len(sys.argv) > 3 else 2
exact = {}
for line in open(sys.argv[2]):
    name, count = line.split()
    exact[name] = int(count)
total_ops = sum(exact.values())
samples = {f["function"]: f["samples"] for f in report["functions"]}
n = sum(samples.values())
assert n >= 1000, f"only {n} samples"
for name, count in sorted(exact.items(), key=lambda kv: -kv[1])[:top]:
    p = count / total_ops
    got = samples.get(name, 0) / n
    sigma = math.sqrt(p * (1 - p) / n)
    print(f"{name}: {100 * got:.2f}% of {n} samples, exact {100 * p:.2f}% (sigma {100 * sigma:.2f}%)")
    assert abs(got - p) <= 5 * sigma, f"{name}: sample share {got:.4f} vs exact {p:.4f}"

"""Check armprof report's functions of a stripped program against binutils.

usage: fde_fidelity.py REPORT.json FDES.txt COUNTS.txt LOAD_BIAS [TOP]

REPORT.json: `armprof report --format json` of a recording of a stripped
program; FDES.txt: `readelf --debug-dump=frames` of that program; COUNTS.txt:
the recording's exact per-PC operation counts (`armprof record --counts`).

A stripped program's own functions are named sub_<ELF address>, each an FDE's
start (lib/report/elf_functions.c); and each of the TOP (default 5) functions'
share of the samples is its exact share of the operations, within five
standard errors of the number of samples (SPE-2.2-1, spec/002 2.2: every
operation equally likely to be sampled).
"""
import bisect
import json
import math
import re
import sys

report, fdes_txt, counts, bias = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4], 16)
top = int(sys.argv[5]) if len(sys.argv) > 5 else 5
r = json.load(open(report))
# binutils' reading of the FDEs: pc=START..END
fdes = sorted({(int(a, 16), int(b, 16)) for a, b in re.findall(r"pc=([0-9a-f]+)\.\.([0-9a-f]+)", open(fdes_txt).read())})
starts = [a for a, _ in fdes]
total_samples = sum(f["samples"] for f in r["functions"])
assert total_samples == r["records"], (total_samples, r["records"])
own = [f for f in r["functions"] if "binary" not in f and not f["function"].endswith("@plt") and f["function"] != ".plt"]
# Its PLT stubs, <symbol>@plt, and the PLT's header, .plt (where a lazily
# bound call's first trip goes), may take a sample or not.
assert own and all(f["function"].startswith("sub_") for f in own), [f["function"] for f in own]
for f in own:
    start = int(f["function"][4:], 16)
    assert start in starts and int(f["addr"], 16) == start + bias, f
assert any(f.get("binary") == "libc.so.6" for f in r["functions"])
# Exact operations per function, from the counts and binutils' extents.
ops = {}
total_ops = 0
for line in open(counts):
    if line.startswith("#"):
        continue
    pc, n, _ = line.split()
    pc, n = int(pc, 16) - bias, int(n)
    total_ops += n
    i = bisect.bisect_right(starts, pc) - 1
    if i >= 0 and pc < fdes[i][1]:
        ops[fdes[i][0]] = ops.get(fdes[i][0], 0) + n
for f in own[:top]:
    start = int(f["function"][4:], 16)
    p = ops[start] / total_ops
    share = f["samples"] / total_samples
    sigma = math.sqrt(p * (1 - p) / total_samples)
    assert abs(share - p) <= 5 * sigma + 1e-9, (f["function"], share, p, sigma)
    print(f"{f['function']}: {share:.4f} of the samples, {p:.4f} of the operations (sigma {sigma:.4f})")

"""Exact operations per function: "function count" lines.

usage: counts_by_function.py BINARY COUNTS

COUNTS: `armprof record --counts` (pc count kind lines); each PC is given to
the function of BINARY's symbol table (aarch64-linux-gnu-nm) that holds it.
Used by the record tests (record_common.sh) and the full-system SPE tests.
"""
import subprocess, sys, bisect
binary, counts = sys.argv[1], sys.argv[2]
syms = []
for line in subprocess.run(["aarch64-linux-gnu-nm", binary], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in "tTwW":
        syms.append((int(f[0], 16), f[2]))
syms.sort()
addrs = [a for a, _ in syms]
per = {}
for line in open(counts):
    if line.startswith("#"):
        continue
    pc, n, _ = line.split()
    i = bisect.bisect_right(addrs, int(pc, 16)) - 1
    name = syms[i][1] if i >= 0 else "[unknown]"
    per[name] = per.get(name, 0) + int(n)
for k, v in per.items():
    print(k, v)

"""Which of type_mix's loop instructions a recording holds records at.

usage: type_mix_check.py BINARY JSONL MUST [ALSO]

BINARY is tests/system_spe/progs/type_mix.c built for aarch64; its
mix_loop is found in `aarch64-linux-gnu-objdump -d` and each instruction
named by its mnemonic ("add_v" for the vector add): fmov (once, before the
loop), add, ldr, str, ldadd, fadd, add_v, subs, b.ne. MUST (comma-separated
names) are the loop instructions the recording's filter lets through: each
must have records (at least 20 each), and no other instruction of
mix_loop may have one but those in ALSO (fmov, which runs once, where the
filter lets it through). Records outside mix_loop (start-up code) are not
looked at. JSONL: `armprof decode --spe-later --format jsonl`. Exit 1
naming the difference; prints the records per instruction.
"""
import json
import re
import subprocess
import sys

binary, jsonl, must = sys.argv[1], sys.argv[2], set(sys.argv[3].split(","))
also = set(sys.argv[4].split(",")) if len(sys.argv) > 4 and sys.argv[4] else set()
dump = subprocess.run(["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn", binary],
                      capture_output=True, text=True, check=True).stdout
pcs, inside = {}, False
for line in dump.splitlines():
    if re.match(r"^[0-9a-f]+ <", line):
        inside = re.match(r"^[0-9a-f]+ <mix_loop(\.[^>]*)?>:", line) is not None
        continue
    m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(\S*)", line)
    if inside and m:
        name = m.group(2) + ("_v" if m.group(3).startswith("v") else "")
        pcs[name] = int(m.group(1), 16)
names = ["fmov", "add", "ldr", "str", "ldadd", "fadd", "add_v", "subs", "b.ne"]
if not all(k in pcs for k in names):
    sys.exit(f"type_mix_check: mix_loop of {binary} is not the expected loop: {pcs}")
unknown = (must | also) - set(names)
if unknown:
    sys.exit(f"type_mix_check: no instruction {sorted(unknown)} in mix_loop")
lo, hi = pcs["fmov"], pcs["b.ne"] + 4
by_pc = {v: k for k, v in pcs.items()}
got = {}
for line in open(jsonl):
    if not line.strip():
        continue
    pc = int(json.loads(line).get("pc", "0"), 16)
    if lo <= pc < hi:
        got[by_pc[pc]] = got.get(by_pc[pc], 0) + 1
extra = set(got) - must - also
thin = {k for k in must if got.get(k, 0) < 20}
if extra or thin:
    sys.exit(f"type_mix_check: {jsonl}: records at {got}; want each of {sorted(must)} (20 or more)"
             + (f" and no other but {sorted(also)}" if also else " and no other"))
print(" ".join(f"{k}={got[k]}" for k in names if k in got))

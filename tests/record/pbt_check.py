"""Previous branch targets of a recording against the program's own code.

usage: pbt_check.py BINARY FUNCTION JSONL

FUNCTION (a symbol of BINARY, a prefix: "count_above" matches
"count_above.constprop.0") is disassembled (aarch64-linux-gnu-objdump) and
its control flow followed from its entry, which a branch reaches (a call or
a tail call): at each instruction, the set of targets the most recently
taken branch can have (LATER-PBT-2: the target of the last taken branch
before the operation in program order). A taken branch (b, b.cond, cbz,
cbnz, tbz, tbnz to X) makes it {X} on its taken edge; a not-taken
conditional branch and every other instruction leave it as it was; ret,
br, blr leave the function. Every record of JSONL (`armprof decode
--spe-later --format jsonl`) whose PC is in the function must carry a
prev_br_tgt of that set (with EL 0 and NS 1: the program runs at EL0
Non-secure); exit 1 naming the first that does not. Prints the records
checked and the distinct (pc, prev_br_tgt) pairs seen.
"""
import json
import re
import subprocess
import sys

binary, function, jsonl = sys.argv[1], sys.argv[2], sys.argv[3]

insns = {}  # pc -> (mnemonic, operands)
start = None
dump = subprocess.run(["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn", binary],
                      capture_output=True, text=True, check=True).stdout
inside = False
for line in dump.splitlines():
    m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
    if m:
        name = m.group(2)
        inside = name == function or name.startswith(function + ".")
        if inside:
            if start is not None:
                sys.exit(f"pbt_check: {function} named twice in {binary}")
            start = int(m.group(1), 16)
        continue
    m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*([^/]*)", line)
    if inside and m:
        insns[int(m.group(1), 16)] = (m.group(2), m.group(3).strip())
if start is None or not insns:
    sys.exit(f"pbt_check: no function {function} in {binary}")
end = max(insns) + 4

COND = re.compile(r"^(b\.\w+|cbn?z|tbn?z)$")


def direct_target(ops):
    m = re.search(r"(?:^|,\s*)([0-9a-f]+)(?:\s+<|$)", ops)
    return int(m.group(1), 16) if m else None


# Forward data flow to a fixed point: possible[pc] = the set of last taken
# branch targets when pc executes.
possible = {pc: set() for pc in insns}
possible[start] = {start}
work = [start]
while work:
    pc = work.pop()
    mnem, ops = insns[pc]
    here = possible[pc]
    edges = []  # (successor, its set)
    if mnem in ("ret", "br", "blr", "eret") or mnem.startswith("ret"):
        pass  # leaves the function (a return comes back through a taken branch)
    elif mnem in ("b", "bl") or COND.match(mnem):
        x = direct_target(ops)
        if mnem == "bl":
            edges.append((pc + 4, None))  # the return's target: the call's next
        elif x is not None and start <= x < end:
            edges.append((x, {x}))
        if COND.match(mnem):
            edges.append((pc + 4, here))
    else:
        edges.append((pc + 4, here))
    for succ, s in edges:
        if succ not in possible:
            continue
        s = {succ} if s is None else s
        if not s <= possible[succ]:
            possible[succ] |= s
            work.append(succ)

checked = 0
pairs = set()
with open(jsonl) as f:
    for n, line in enumerate(f, 1):
        r = json.loads(line)
        pc = int(r["pc"], 16)
        if not start <= pc < end:
            continue
        checked += 1
        if "prev_br_tgt" not in r:
            sys.exit(f"pbt_check: {jsonl}:{n}: record at {r['pc']} in {function} has no prev_br_tgt")
        t = int(r["prev_br_tgt"], 16)
        if t not in possible.get(pc, set()):
            want = ", ".join(hex(x) for x in sorted(possible.get(pc, set())))
            sys.exit(f"pbt_check: {jsonl}:{n}: record at {r['pc']}: prev_br_tgt {hex(t)}, "
                     f"the code allows {{{want}}}")
        if r.get("prev_br_tgt_el") != 0 or r.get("prev_br_tgt_ns") != 1:
            sys.exit(f"pbt_check: {jsonl}:{n}: prev_br_tgt EL {r.get('prev_br_tgt_el')} "
                     f"NS {r.get('prev_br_tgt_ns')}, want EL0 NS 1")
        pairs.add((pc, t))
print(f"checked {checked} pairs {len(pairs)} targets {len({t for _, t in pairs})}")

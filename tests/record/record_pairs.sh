#!/usr/bin/env bash
# A sampled load pair's record holds its lowest address (SPE-2.3.2-16): an
# LDP of Q registers makes several accesses, logged one after the other,
# and the replay combines them (plugins/qemu/replay.c keep_access: a later
# one is a further access of the same instruction, told apart by the event
# before it). tests/record/progs/pairs.c loads its pairs 8 bytes past a
# multiple of 32, where its later accesses are not: a record with a later
# access's address, as when a further access is taken for a first one,
# would show. Samples land on the pairs' loads often (-c 256).
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

aarch64-linux-gnu-gcc -O1 -static -o pairs "$src/tests/record/progs/pairs.c"
"$armprof" record -c 256 -o pairs.data -- ./pairs > pairs.out 2> pairs.err ||
  fail "record: $(tail -3 pairs.err)"
read -r base size _ < pairs.out
"$armprof" decode --format jsonl pairs.data > pairs.jsonl || fail "decode"
python3 - "$base" "$size" pairs.jsonl <<'PY'
import json, sys
base, size = int(sys.argv[1], 16), int(sys.argv[2])
n = wrong = 0
for line in open(sys.argv[3]):
    r = json.loads(line)
    if r.get("op") != "LD" or "vaddr" not in r:
        continue
    off = int(r["vaddr"], 16) - base
    if 0 <= off < size:
        n += 1
        wrong += off % 32 != 8
if n < 100:
    sys.exit(f"FAIL: only {n} sampled loads in the pairs' buffer")
if wrong:
    sys.exit(f"FAIL: {wrong} of {n} sampled pairs record an address other than their lowest (SPE-2.3.2-16)")
print(f"{n} sampled pairs, each with its lowest address")
PY

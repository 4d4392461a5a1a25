#!/usr/bin/env bash
# A real distribution program: Debian's own arm64 gzip (stripped, dynamically
# linked against Debian's arm64 glibc), from the root that
# scripts/debian-arm64-root.sh unpacks into .cache/debian-arm64 (skipped
# without it). armprof record runs it with --sysroot, its output passes
# through byte for byte, every executed operation is one member of the
# sampled population (SPE-2.2-1), and armprof report names its functions
# from their FDEs (lib/report/elf_functions.c): checked against binutils'
# own reading of the FDEs, and each function's share of the samples against
# its exact share of the operations, within the statistical error of the
# number of samples (spec/002 2.2: every operation equally likely sampled).
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

need_debian_root bin/gzip gzip

# 400 KB of text that compresses like text (not random bytes).
python3 -c "
import random
r = random.Random(1)
words = ['profile', 'sample', 'operation', 'latency', 'cache', 'branch', 'record', 'buffer']
print(' '.join(r.choice(words) + str(r.randrange(100)) for _ in range(60000)))" > in.txt

qemu-aarch64 -L "$root" "$root/bin/gzip" -c in.txt > plain.gz
"$armprof" record -j --sysroot "$root" --counts counts.txt -o gz.data -- "$root/bin/gzip" -c in.txt > rec.gz 2> rec.err ||
  fail "record: $(cat rec.err)"
cmp -s plain.gz rec.gz || fail "gzip's output under armprof record differs from plain QEMU's"
# By name, as in a chroot: PATH is searched inside the root first (the
# host's gzip is an x86-64 program).
"$armprof" record -q --sysroot "$root" -o byname.data -- gzip -c in.txt > byname.gz 2> byname.err ||
  fail "record by name: $(cat byname.err)"
cmp -s plain.gz byname.gz || fail "gzip by name: output differs"
grep -qx "binary=$(realpath "$root")/bin/gzip" byname.data.meta || fail "gzip by name: not the root's gzip"
set +e
"$armprof" record --sysroot "$root" -o none.data -- no-such-program > /dev/null 2> none.err
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "no-such-program: not found on PATH, neither under the root $root nor on the host" none.err ||
  fail "a name found nowhere: exit $rc, $(cat none.err)"
[ ! -e none.data ] || fail "a name found nowhere: output written"
every_op_counted gz.data.meta counts.txt "gzip"
# (The metadata names the root resolved, as sysroot= below: $root may be
# spelled through a link, a worktree's .cache.)
grep -q "^library=0x[0-9a-f]* $(realpath "$root")/lib/aarch64-linux-gnu/libc.so.6$" gz.data.meta ||
  fail "Debian's libc is not among the libraries: $(grep library gz.data.meta)"
# The root, for armprof report's debug files under its usr/lib/debug.
grep -qx "sysroot=$(realpath "$root")" gz.data.meta || fail "no sysroot= in the metadata"

# perf.data's BUILD_ID feature: each file with code and its build ID, as
# Linux perf lists them (and checks the files against them).
if command -v perf > /dev/null; then
  id=$(aarch64-linux-gnu-readelf -n "$root/bin/gzip" | awk '/Build ID:/ { print $3 }')
  perf buildid-list -i gz.data 2> /dev/null > ids.txt || fail "perf buildid-list failed on gz.data"
  grep -qx "$id $(realpath "$root/bin/gzip")" ids.txt || fail "perf buildid-list: no $id for gzip: $(cat ids.txt)"
  grep -q " .*/libc.so.6$" ids.txt || fail "perf buildid-list: no libc: $(cat ids.txt)"
fi

"$armprof" report --format json -o gz.json gz.data
aarch64-linux-gnu-readelf --debug-dump=frames "$root/bin/gzip" > fdes.txt
bias=$(sed -n 's/^load_bias=//p' gz.data.meta)
python3 "$src/tests/record/fde_fidelity.py" gz.json fdes.txt counts.txt "$bias" ||
  fail "gzip: its functions, or their shares of the samples"
echo "record_debian: ok"

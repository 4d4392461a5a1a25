#!/usr/bin/env bash
# perf's memory tools on the perf.data `armprof record` writes (Debian's
# perf 6.1): `perf c2c report` needs the CPU_TOPOLOGY and NUMA_TOPOLOGY
# header features (without them it stops with "Failed setup nodes"; without
# MEM_TOPOLOGY it warns "No memory nodes"), and
# `perf mem report` names a global variable only when the binary's data
# segment is mapped (MMAP2 of every PT_LOAD segment). The false_sharing
# example's two threads each bump their own word of one 64-byte line
# `shared` (SPE Data Source 0x9 PEER-CORE on the other's stores: spec/002
# 5.3.5, SPE-5.3.5-1, Neoverse N1's encoding, which perf decodes by the
# CPUID feature).
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
if ! command -v perf >/dev/null || ! perf version >/dev/null 2>&1; then
  echo "SKIP: needs perf (Debian's linux-perf)"
  exit 77
fi
fs=$examples/false_sharing
shared=$(aarch64-linux-gnu-nm "$fs" 2>/dev/null | awk '$3 == "shared" {print $1}') || true
[ -n "$shared" ] || { echo "SKIP: needs aarch64-linux-gnu-nm for false_sharing's symbols"; exit 77; }
line=$(printf '0x%x' $((0x$shared & ~63)))
"$armprof" record -q -o fs.data -- "$fs" > /dev/null

# The header carries the topology features perf c2c reads.
perf report --header-only -I -i fs.data > header.txt 2>&1 || fail "perf report --header-only: $(cat header.txt)"
grep -q '^# sibling sockets : 0-1$' header.txt || fail "CPU_TOPOLOGY: not one socket of CPUs 0-1: $(cat header.txt)"
grep -q '^# CPU 1: Core ID 1, Die ID 0, Socket ID 0$' header.txt || fail "CPU_TOPOLOGY: CPU 1"
grep -q '^# node0 cpu list : 0-1$' header.txt || fail "NUMA_TOPOLOGY: node0 of CPUs 0-1: $(cat header.txt)"
grep -q '^# memory nodes (nr 1, block size 0x1000000000000):' header.txt || fail "MEM_TOPOLOGY: one node"


# perf c2c report: exit 0, the false-sharing line in its shared line table,
# with loads that hit a peer core's cache, from bump_shared.
set +e
perf c2c report --stdio -i fs.data > c2c.txt 2> c2c.err
rc=$?
set -e
[ $rc -eq 0 ] || fail "perf c2c report: exit $rc: $(cat c2c.err)"
! grep -q 'Failed setup nodes\|No memory nodes' c2c.err || fail "perf c2c report: $(cat c2c.err)"
grep -Eq "Total Shared Cache Lines +: +1$" c2c.txt || fail "perf c2c: not one shared line: $(cat c2c.txt)"
grep -Eq "^ +0 +$line " c2c.txt || fail "perf c2c: the shared line is not $line: $(cat c2c.txt)"
grep -Eq "Load HIT Local Peer +: +[1-9]" c2c.txt || fail "perf c2c: no peer-core loads"
grep -q 'bump_shared' c2c.txt || fail "perf c2c: bump_shared not among the line's code"

# perf mem report: exit 0, the data symbol is the global `shared`.
set +e
perf mem report --stdio -i fs.data > mem.txt 2> mem.err
rc=$?
set -e
[ $rc -eq 0 ] || fail "perf mem report: exit $rc: $(cat mem.err)"
grep -q 'bump_shared .*\[\.\] shared+0x0 ' mem.txt || fail "perf mem: shared+0x0 not named: $(head -30 mem.txt)"
grep -q 'bump_shared .*\[\.\] shared+0x8 ' mem.txt || fail "perf mem: shared+0x8 not named"
grep -Eq 'L2 or L2 hit .* Peer ' mem.txt || fail "perf mem: no peer-core loads"
# and functions still resolve (the data mapping does not cover the code)
perf report --stdio -i fs.data > report.txt 2>/dev/null || fail "perf report: exit $?"
grep -q 'bump_padded' report.txt || fail "perf report: bump_padded lost"
echo "record_perf_mem: ok"

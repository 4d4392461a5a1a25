#!/usr/bin/env bash
# A real multi-threaded distribution program: Debian's own arm64 sort
# (coreutils; stripped, dynamically linked against Debian's glibc) sorting
# with two threads (--parallel=2: the main thread reads the input and
# sorts one half, a second thread the other, then they merge), from the
# root scripts/debian-arm64-root.sh unpacks into .cache/debian-arm64
# (skipped without it). Under armprof record:
#  - its output passes through byte for byte;
#  - every operation of both threads is one member of the sampled
#    population (SPE-2.2-1), and each function's share of the samples is
#    its exact share of the operations within the statistical error
#    (spec/002 2.2), with the functions named from their FDEs;
#  - both threads have their samples, under their own thread IDs in
#    armprof report and in Linux perf's reading of the perf.data
#    (a Context packet with CONTEXTIDR_EL1 in every record, SPE-5.3.3-3);
#  - the threads meet in the model's caches as they do on hardware (the
#    interleaved replay, plugins/qemu/replay_hub.c): the second thread's
#    loads of the lines the main thread read in and wrote come from the
#    other core's cache (Data Source PEER-CORE) in both threads' samples.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

need_debian_root usr/bin/sort coreutils

# More lines than sort's threshold for a second thread (coreutils'
# SUBTHREAD_LINES_HEURISTIC, 128 Ki lines).
python3 -c "
import random
r = random.Random(2)
for _ in range(140000):
    print('%08x %s' % (r.getrandbits(32), 'x' * r.randrange(20)))" > lines.txt
export LC_ALL=C
sort_args=(--parallel=2 -S 64M lines.txt)
qemu-aarch64 -L "$root" "$root/usr/bin/sort" "${sort_args[@]}" > plain.txt
"$armprof" record -j --sysroot "$root" --counts counts.txt -o sort.data -- sort "${sort_args[@]}" > rec.txt 2> rec.err ||
  fail "record: $(cat rec.err)"
cmp -s plain.txt rec.txt || fail "sort's output under armprof record differs from plain QEMU's"
grep -qx "binary=$(realpath "$root")/usr/bin/sort" sort.data.meta || fail "not the root's sort"
grep -qx "threads=2" sort.data.meta || fail "sort ran $(sed -n 's/^threads=//p' sort.data.meta) threads, not 2"
every_op_counted sort.data.meta counts.txt "sort"

"$armprof" report --format json -o sort.json sort.data
aarch64-linux-gnu-readelf --debug-dump=frames "$root/usr/bin/sort" > fdes.txt
bias=$(sed -n 's/^load_bias=//p' sort.data.meta)
python3 "$src/tests/record/fde_fidelity.py" sort.json fdes.txt counts.txt "$bias" ||
  fail "sort: its functions, or their shares of the samples"

# Both threads: each has a good part of the samples (they sort a half
# each), and each took some loads from the other's cache when they were
# interleaved (the default on a host with more than one CPU; on one CPU
# they are replayed on their own threads, and meet only by chance).
interleaved=0
grep -q "the threads were replayed in model-clock order" rec.err && interleaved=1
python3 - sort.json $interleaved > tids.txt <<'PY' || fail "sort: the threads in the report"
import json, sys
r = json.load(open(sys.argv[1]))
threads = r["threads"]
assert len(threads) == 2, threads
assert sum(t["samples"] for t in threads) == r["records"]
for t in threads:
    assert t["samples"] > r["records"] // 5, (t["tid"], t["samples"], r["records"])
    if sys.argv[2] == "1":
        assert t["data_source"].get("PEER-CORE", 0) > 0, (t["tid"], t["data_source"])
    print(t["tid"])
PY
[ $interleaved = 1 ] || echo "note: the threads were not interleaved (one host CPU?): PEER-CORE not checked"
if command -v perf > /dev/null; then
  perf script -i sort.data -F tid 2> /dev/null | awk '{ print $1 }' | sort -u > perf-tids.txt ||
    fail "perf script failed on sort.data"
  sort -u tids.txt | cmp -s - perf-tids.txt ||
    fail "perf script's threads ($(tr '\n' ' ' < perf-tids.txt)) are not armprof report's ($(tr '\n' ' ' < tids.txt))"
fi
echo "record_debian_threads: ok"

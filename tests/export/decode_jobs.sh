#!/usr/bin/env bash
# armprof decode -j N of a perf.data (issue 31): the path it takes is the
# documented one (decode_perf.h, docs/PERFORMANCE.md "decode -j"): on this
# thread for -j 1 and for less than 2 MiB of AUX data selected (threads do
# not pay for themselves there), on N threads from 2 MiB on; the default -j
# is between 1 and the CPUs; and the output of -j 2 and -j 3 is byte for
# byte -j 1's in every format (jsonl, csv, text, --packets, parquet,
# spe-parser's three files), on buffers cut into many segments and on small
# ones. --stats names the path.
# Args: $1 armprof, $2 scratch dir, $3 perfdata_spe_gen.
set -euo pipefail
A=$1; WORK=$2; GEN=$3
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
path() { # ARGS... -> the line --stats gives the path on
	"$A" decode --stats "$@" 2>&1 > /dev/null | sed -n 's/^armprof decode: \(-j [0-9]*: .*\)$/\1/p'
}

# 1. The path. small.data: 2 buffers of 2000 records (about 170 KiB);
# big1.data: 3 of 30000 (about 1.3 MB each: many 64 KiB segments);
# big2.data: 40 of 1300 (about 57 KB each: a segment each, 2.3 MB in all).
"$GEN" --perf-many small.data 2 2000
"$GEN" --perf-many big1.data 3 30000
"$GEN" --perf-many big2.data 40 1300
[ "$(path -j 1 small.data)" = "-j 1: decoding on this thread" ] || fail "-j 1: $(path -j 1 small.data)"
p=$(path -j 2 small.data)
[ "$p" = "-j 2: decoding on this thread (under 2 MiB of AUX data: threads would not pay)" ] ||
	fail "-j 2 under 2 MiB: '$p'"
for f in big1 big2; do
	for j in 2 3; do
		p=$(path -j $j $f.data)
		[ "$p" = "-j $j: decoding on that many threads" ] || fail "$f -j $j over 2 MiB: '$p'"
	done
done
p=$(path big1.data)
n=$(echo "$p" | sed -n 's/^-j \([0-9]*\): .*/\1/p')
[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le "$(nproc)" ] || fail "the default -j: '$p' on $(nproc) CPUs"
# The default counts the CPUs this process may use: one CPU, one thread
# (how many others leave idle now depends on the machine: not checked).
if command -v taskset > /dev/null; then
	p=$(taskset -c 0 "$A" decode --stats big1.data 2>&1 > /dev/null | sed -n 's/^armprof decode: \(-j [0-9]*\): .*$/\1/p')
	[ "$p" = "-j 1" ] || fail "the default -j on one CPU (taskset -c 0): '$p'"
fi
echo "ok: -j 1 and under 2 MiB on this thread, over it on N threads; the default -j $n of $(nproc) CPUs"

# 2. The bytes of -j 1, every format, on both files.
for f in big1 big2 small; do
	for j in 1 2 3; do
		for fmt in jsonl csv text; do "$A" decode --format $fmt -j $j $f.data > $f.$j.$fmt 2> /dev/null; done
		"$A" decode --packets -j $j $f.data > $f.$j.packets 2> /dev/null
		"$A" decode --format parquet -j $j -o $f.$j.parquet $f.data 2> /dev/null
		"$A" decode --format spe-parser -j $j -o $f.$j.sp $f.data 2> /dev/null
	done
	for j in 2 3; do
		for out in jsonl csv text packets parquet sp-ldst.parquet sp-br.parquet sp-other.parquet; do
			cmp -s $f.1.$out $f.$j.$out || fail "$f -j $j: $out differs from -j 1"
		done
	done
	[ "$(wc -l < $f.1.jsonl)" -gt 0 ] || fail "$f: no records"
done
echo "decode_jobs: ok (-j 2 and -j 3 give -j 1's bytes: jsonl, csv, text, packets, parquet, spe-parser)"

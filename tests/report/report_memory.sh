# Memory of `armprof decode` and `armprof report` (issues 31 and 32 item
# 11), by peak RSS (getrusage through /usr/bin/time): decode holds the same
# memory for a perf.data (or raw stream) three times larger, in every format
# and at -j 1 and -j 2 (the mapped AUX data is given back as it is fed; -j's
# jobs are cut at record ends and batches bounded); report's memory grows by
# a bounded amount per distinct PC, not per record. Skipped (77) without /usr/bin/time.
# Args: $1 armprof, $2 scratch dir, $3 pcs_gen, $4 bench_gen_perfdata-like
# generator (perfdata_spe_gen: --perf-many OUT BUFFERS RECORDS).
set -euo pipefail
A=$1; WORK=$2; GEN=$3; PERFGEN=$4
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
[ -x /usr/bin/time ] || { echo "SKIP: no /usr/bin/time (GNU time) to read the peak RSS"; exit 77; }
[ -z "${ARMPROF_SANITIZED:-}" ] || { echo "SKIP: a sanitizer build: its quarantine and shadow memory hide armprof's own peak RSS"; exit 77; }
peak_kb() { # CMD... -> the command's peak RSS in KiB (its output discarded)
	/usr/bin/time -f '%M' -o rss.txt "$@" > /dev/null 2> /dev/null || true
	tail -1 rss.txt
}

# 1. decode: a perf.data of 4 and of 12 buffers of 2.5 MB (100k records each).
"$PERFGEN" --perf-many small.data 4 100000
"$PERFGEN" --perf-many large.data 12 100000
"$GEN" small.spe 400000 1000
"$GEN" large.spe 1200000 1000
for fmt in jsonl csv parquet spe-parser; do
	for j in 1 2; do
		out=(); [ $fmt = parquet ] || [ $fmt = spe-parser ] && out=(-o "o.$fmt")
		s=$(peak_kb "$A" decode --format $fmt -j $j "${out[@]}" small.data)
		l=$(peak_kb "$A" decode --format $fmt -j $j "${out[@]}" large.data)
		echo "decode --format $fmt -j $j: perf.data ${s} KiB, 3x larger ${l} KiB"
		[ "$l" -le $((s + 8192)) ] || fail "decode --format $fmt -j $j: $l KiB for 3x the input ($s KiB)"
	done
	s=$(peak_kb "$A" decode --format $fmt "${out[@]}" small.spe)
	l=$(peak_kb "$A" decode --format $fmt "${out[@]}" large.spe)
	echo "decode --format $fmt: raw ${s} KiB, 3x larger ${l} KiB"
	[ "$l" -le $((s + 8192)) ] || fail "decode --format $fmt: raw $l KiB for 3x the input ($s KiB)"
done

# 2. report: 3x the records over the same PCs costs nothing more; 250k more
# distinct PCs (400k records) cost at most 100 bytes each (was 3.8 KiB, then
# 1.1 KiB): 2 M distinct PCs within 200 MB, under issue 32's 300 MB.
s=$(peak_kb "$A" report small.spe)
l=$(peak_kb "$A" report large.spe)
echo "report: 1000 PCs, 400k records ${s} KiB, 1.2M records ${l} KiB"
[ "$l" -le $((s + 8192)) ] || fail "report: $l KiB for 3x the records ($s KiB)"
"$GEN" many.spe 400000 250000
m=$(peak_kb "$A" report many.spe)
per=$(( (m - s) * 1024 / 249000 ))
echo "report: 250k distinct PCs ${m} KiB: ${per} bytes per PC"
[ "$per" -le 100 ] || fail "report: $per bytes per distinct PC (bound 100)"
# The same bound whatever is shown: every instruction row written (JSON)
# is made whole as it is written, not kept.
j=$(peak_kb "$A" report --format json many.spe)
per=$(( (j - s) * 1024 / 249000 ))
echo "report --format json (all 250k rows): ${j} KiB: ${per} bytes per PC"
[ "$per" -le 100 ] || fail "report --format json: $per bytes per distinct PC (bound 100)"

# 3. report: the same 20000 PCs with 10 records each and with 100 each (so
# that every PC has passed its few digests in both): the memory follows the
# PCs, not the records (a PC's state is bounded: a small summary to 255
# records); text and pprof, raw and perf.data. Was 40 MiB more for 10x (a
# pool of digests up to 64 per PC, its freed blocks kept, then 920 bytes).
"$GEN" pcs1.spe 200000 20000
"$GEN" pcs10.spe 2000000 20000
"$A" convert --to perf pcs1.spe pcs1.data > /dev/null
"$A" convert --to perf pcs10.spe pcs10.data > /dev/null
for in in spe data; do
	for fmt in text pprof; do
		args=(); [ $fmt = text ] || args=(--format pprof -o o.pb.gz)
		s=$(peak_kb "$A" report "${args[@]}" pcs1.$in)
		l=$(peak_kb "$A" report "${args[@]}" pcs10.$in)
		echo "report $fmt, 20000 PCs ($in): 200k records ${s} KiB, 2M records ${l} KiB"
		[ "$l" -le $((s + 4096)) ] || fail "report $fmt ($in): $l KiB for 10x the records over the same PCs ($s KiB)"
	done
done
# 4. report --format pprof when nearly every record is a distinct sample
# (pcs_gen mixed: the events, data source and operation drawn at random, as
# bench_gen_perfdata's): the same 20000 PCs with 10 and with 100 records
# each. The profile is written as the records are read, its distinct
# samples held in a bounded table (report_pprof.h): 10x the records cost at
# most 4 MiB more (measured: 12.9 and 12.8 MiB). The build before held
# every distinct sample to the end: 23.1 and 91.7 MiB, the check fails.
"$GEN" mix1.spe 200000 20000 mixed
"$GEN" mix10.spe 2000000 20000 mixed
s=$(peak_kb "$A" report --format pprof -o o.pb.gz mix1.spe)
l=$(peak_kb "$A" report --format pprof -o o.pb.gz mix10.spe)
echo "report pprof, 20000 PCs, a distinct sample a record: 200k records ${s} KiB, 2M records ${l} KiB"
[ "$l" -le $((s + 4096)) ] || fail "report pprof (distinct samples): $l KiB for 10x the records ($s KiB)"
echo "report_memory: ok"

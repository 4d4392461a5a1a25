#!/usr/bin/env bash
# Parquet output and parallel decode (issue 21): figures for docs/PERFORMANCE.md.
#  1. armprof decode to a file, per input byte: --format jsonl against
#     --format parquet, on a raw stream of MIB MiB (bench_decode --write);
#  2. the peer: DuckDB (npm @duckdb/node-api, as the tests install it)
#     converting armprof's JSONL to Parquet, the same columns where the
#     JSONL has them, in the same run;
#  3. -j 1 against -j 2 on a perf.data of MIB MiB in 4 MiB AUX buffers
#     (bench_gen_perfdata), jsonl and parquet;
#  4. peak RSS of --format parquet on a stream of BIG_MIB MiB (the raw stream
#     of step 1 repeated: raw SPE streams concatenate).
# usage: bench/bench_parquet.sh [BUILD_DIR] [MIB] [BIG_MIB]   (run it niced)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
mib=${2:-256}
big_mib=${3:-1024}
src=$(cd "$(dirname "$0")/.." && pwd)
A=$build/armprof
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# run LABEL INPUT_BYTES CMD...: elapsed, CPU, MB/s of input, peak RSS
run() {
	local label=$1 bytes=$2
	shift 2
	/usr/bin/time -f "%e %U %S %M" -o t.out "$@" 2> /dev/null > /dev/null || true
	read -r e u s m < t.out
	printf '%-44s %6.2f s elapsed %6.2f s CPU %7.0f MB/s  peak RSS %6.0f MiB\n' "$label" "$e" \
		"$(echo "$u + $s" | bc -l)" "$(echo "$bytes / $e / 1000000" | bc -l)" "$(echo "$m / 1024" | bc -l)"
}

"$build/bench/bench_decode" --write stream.spe "$mib" > /dev/null
size=$(stat -c %s stream.spe)
echo "raw stream: $size bytes"
for i in 1 2; do
	run "decode --format jsonl -o FILE" "$size" "$A" decode --format jsonl -o out.jsonl stream.spe
	run "decode --format parquet -o FILE" "$size" "$A" decode --format parquet -o out.parquet stream.spe
done
echo "output: jsonl $(stat -c %s out.jsonl) bytes, parquet $(stat -c %s out.parquet) bytes"

ddir=$src/.cache/npm
if command -v node > /dev/null && [ -d "$ddir/node_modules/@duckdb/node-api" ]; then
	# the columns given (not inferred): what the JSONL schema documents
	cols="{'offset': 'BIGINT', 'pc': 'VARCHAR', 'el': 'INTEGER', 'ns': 'INTEGER', 'op': 'VARCHAR',
	       'target': 'VARCHAR', 'vaddr': 'VARCHAR', 'paddr': 'VARCHAR', 'events': 'BIGINT',
	       'event_names': 'VARCHAR[]', 'lat_total': 'INTEGER', 'lat_issue': 'INTEGER',
	       'lat_xlat': 'INTEGER', 'ts': 'UBIGINT', 'ctx_el1': 'BIGINT', 'data_source': 'INTEGER',
	       'end': 'VARCHAR'}"
	sql="copy (select \"offset\", pc::ubigint as pc, el, ns, op, target::ubigint as br_tgt,
	      vaddr::ubigint as vaddr, paddr::ubigint as paddr, events,
	      array_to_string(event_names, ':') as event, lat_total as total_lat,
	      lat_issue as issue_lat, lat_xlat as xlat_lat, ts, ctx_el1 as context, data_source,
	      \"end\"
	      from read_json('out.jsonl', format = 'newline_delimited', columns = $cols))
	      to 'duck.parquet' (format parquet, compression zstd)"
	run "peer: DuckDB, armprof's JSONL to Parquet" "$size" node "$src/tests/export/duckdb.mjs" "$ddir" "$sql"
	run "  (node and DuckDB starting: select 1)" "$size" node "$src/tests/export/duckdb.mjs" "$ddir" "select 1"
	echo "output: DuckDB's parquet $(stat -c %s duck.parquet) bytes ($(node "$src/tests/export/duckdb.mjs" "$ddir" "select count(*) from parquet_schema('duck.parquet')") - 1 columns; armprof's $(node "$src/tests/export/duckdb.mjs" "$ddir" "select count(*) from parquet_schema('out.parquet')") - 1)"
else
	echo "peer: DuckDB not installed (bash scripts/install-deps.sh): skipped"
fi
rm -f out.jsonl duck.parquet

"$build/bench/bench_gen_perfdata" multi.data "$mib" > /dev/null
psize=$(stat -c %s multi.data)
echo "perf.data: $psize bytes, $("$A" decode --stats -j 1 --format jsonl multi.data 2>&1 > /dev/null | sed -n 's/.*: perf.data: \([0-9]*\) of.*/\1/p') AUX buffers"
for i in 1 2 3; do
	for fmt in jsonl parquet; do
		for j in 1 2; do
			# jsonl to /dev/null: writing and syncing 2 GB to a file would be most of it
			dest=out.$fmt; [ $fmt = jsonl ] && dest=/dev/null
			run "perf.data --format $fmt -j $j -o $dest" "$psize" "$A" decode --format $fmt -j $j -o "$dest" multi.data
		done
	done
done
rm -f multi.data out.*

reps=$(( (big_mib + mib - 1) / mib ))
for _ in $(seq "$reps"); do cat stream.spe; done > big.spe
bsize=$(stat -c %s big.spe)
echo "large stream: $bsize bytes ($reps copies)"
run "decode --format parquet -o FILE (large)" "$bsize" "$A" decode --format parquet -o big.parquet big.spe
run "decode --format jsonl -o /dev/null (large)" "$bsize" "$A" decode --format jsonl -o /dev/null big.spe
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

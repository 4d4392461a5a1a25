#!/usr/bin/env bash
# The fleet example of docs/fleet.md: many captures (here: the example
# programs recorded under qemu-aarch64, two runs each, standing in for
# hosts), each decoded to Parquet with its symbols into one directory, then
# one SQL query over all of them: the hottest functions by total latency and
# the data-source mix of their loads and stores. DuckDB is the npm package
# the tests use (scripts/install-deps.sh); its CLI or Spark read the same
# directory.
# usage: scripts/fleet-example.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out=${2:-fleet}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/captures" "$out/parquet"
run=0
for prog in pointer_chase stream branchy false_sharing; do
	for host in a b; do
		run=$((run + 1))
		cap=$out/captures/$prog-$host.data
		# one capture per host (in a fleet: perf record -e arm_spe_0// on each)
		"$build/armprof" record -q -c 512 -o "$cap" -- "$build/examples/$prog" > /dev/null
		# each to its own Parquet file, PCs named from the binary
		"$build/armprof" decode --format parquet --binary "$build/examples/$prog" \
			-o "$out/parquet/$prog-$host.parquet" "$cap" 2> /dev/null
	done
done
echo "$run captures: $(du -ch "$out"/captures/*.data | tail -1 | cut -f1) of perf.data," \
	"$(du -ch "$out"/parquet/*.parquet | tail -1 | cut -f1) of Parquet"
sql="
select symbol,
       count(*)                                                   as samples,
       sum(total_lat)                                             as total_latency,
       count(distinct filename)                                   as captures,
       round(100 * avg((data_source_name = 'L1D')::int), 1)       as l1d_pct,
       round(100 * avg((data_source_name = 'L2')::int), 1)        as l2_pct,
       round(100 * avg((data_source_name in ('SYS-CACHE', 'LOCAL-CLUSTER', 'PEER-CORE',
                                             'PEER-CLUSTER', 'REMOTE'))::int), 1) as shared_pct,
       round(100 * avg((data_source_name = 'DRAM')::int), 1)      as dram_pct
from read_parquet('$out/parquet/*.parquet', filename = true)
where class = 'ldst' and symbol is not null
group by symbol
order by total_latency desc
limit 8"
echo "$sql"
echo "symbol	samples	total_latency	captures	l1d_pct	l2_pct	shared_pct	dram_pct"
node "$src/tests/export/duckdb.mjs" "$src/.cache/npm" "$sql"

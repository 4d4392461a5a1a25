# armprof decode --format parquet (issue 21), read by DuckDB: the rows, the
# sums of the latencies (spec/002 5.3.4 Counter packets) and the counts per
# operation class (5.3.8) and per data source (5.3.5) equal the JSONL
# output's, for a large generated stream, a multi-buffer perf.data and a
# recorded example (examples/pointer_chase under qemu-aarch64, when
# available); the schema is docs/parquet-schema.md's; --split's files
# partition the rows by class; -j N gives the bytes of -j 1 in every format;
# bad input and a killed run leave no file.
# Args: $1 armprof, $2 source dir, $3 scratch dir, $4 perfdata_spe_gen.
set -euo pipefail
A=$1; SRC=$2; WORK=$3; GEN=$4
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
. "$SRC/tests/export/duckdb_setup.sh"
fail() { echo "FAIL: $*"; exit 1; }

# The same aggregates from the Parquet file, by DuckDB, in jsonl_aggregates.py's lines.
parquet_aggregates() {
	duckdb_sql "select 'totals', count(*), coalesce(sum(total_lat), 0), coalesce(sum(issue_lat), 0),
	                   coalesce(sum(xlat_lat), 0), count(pc) from $1"
	duckdb_sql "select 'op', coalesce(op, 'NULL'), count(*) from $1 group by op order by op nulls last" |
		LC_ALL=C sort
	duckdb_sql "select 'ds', coalesce(data_source::varchar, 'NULL'), count(*) from $1
	            group by data_source order by data_source nulls last"
	duckdb_sql "select 'dsn', coalesce(data_source_name, 'NULL'), count(*) from $1
	            group by data_source_name" | LC_ALL=C sort
}
same_aggregates() { # JSONL PARQUET_SQL_SOURCE LABEL
	python3 "$SRC/tests/export/jsonl_aggregates.py" "$1" > "$3.want"
	LC_ALL=C sort -o "$3.want.sorted" <(grep '^op' "$3.want")
	{ grep '^totals' "$3.want"; cat "$3.want.sorted"; grep '^ds	' "$3.want"
	  grep '^dsn' "$3.want" | LC_ALL=C sort; } > "$3.want2"
	parquet_aggregates "$2" > "$3.got"
	diff "$3.want2" "$3.got" > "$3.diff" || fail "$3: parquet differs from jsonl: $(cat "$3.diff")"
	echo "ok: $3: $(head -1 "$3.got")"
}

# 1. A large generated raw stream (spe_stream.h: every class, data source, latency).
"$GEN" big.spe 300000 7
"$A" decode --format jsonl big.spe > big.jsonl
"$A" decode --format parquet -o big.parquet big.spe
same_aggregates big.jsonl "'big.parquet'" big
rows=$(duckdb_sql "select count(*) from 'big.parquet'")
[ "$rows" = 300000 ] || fail "big: $rows rows, want 300000"
groups=$(duckdb_sql "select count(distinct row_group_id) from parquet_metadata('big.parquet')")
[ "$groups" = 5 ] || fail "big: $groups row groups, want 5 (65536 rows each)"
# row by row: offsets, PCs and addresses as the JSONL has them
python3 -c '
import json, sys
for i, l in enumerate(open("big.jsonl")):
    if i % 9973 == 0:
        r = json.loads(l)
        print("\t".join(str(int(r[k], 16)) if k in r else "NULL" for k in ("pc", "vaddr", "paddr")), r["offset"], sep="\t")
' > rows.want
duckdb_sql "select pc, vaddr, paddr, \"offset\" from 'big.parquet' where \"offset\" in
            (select \"offset\" from 'big.parquet' qualify (row_number() over () - 1) % 9973 = 0)
            order by \"offset\"" > rows.got
diff rows.want rows.got > /dev/null || fail "big: rows differ: $(diff rows.want rows.got | head -5)"

# 2. The schema is the documented one.
python3 -c '
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"\| `(\w+)` \| ([A-Z0-9_]+)(?: ([A-Z0-9_]+))? \| (REQUIRED|OPTIONAL) \|", line)
    if m:
        print(m[1], m[2], m[4], m[3] or "-", sep="\t")
' "$SRC/docs/parquet-schema.md" > schema.want
[ "$(wc -l < schema.want)" -ge 30 ] || fail "docs/parquet-schema.md: column table not found"
duckdb_sql "select name, type, repetition_type, coalesce(converted_type, '-')
            from parquet_schema('big.parquet') where name <> 'schema'" > schema.got
diff schema.want schema.got > schema.diff || fail "schema differs from docs/parquet-schema.md: $(cat schema.diff)"
echo "ok: schema: $(wc -l < schema.got) columns as documented"

# 3. --split: one file per class, the same columns, the rows partitioned.
"$A" decode --format parquet --split -o split big.spe
[ "$(ls split)" = "$(printf 'br.parquet\nldst.parquet\nother.parquet')" ] || fail "split: files $(ls split)"
got=$(duckdb_sql "select count(*), count(distinct class), min(class), max(class) from 'split/ldst.parquet'")
[ "${got%%	*}" -gt 0 ] && [ "$(echo "$got" | cut -f2-)" = "$(printf '1\tldst\tldst')" ] ||
	fail "split: ldst.parquet holds $got"
duckdb_sql "select class, count(*) from read_parquet('split/*.parquet') group by 1 order by 1" > split.got
duckdb_sql "select class, count(*) from 'big.parquet' group by 1 order by 1" > split.want
diff split.want split.got > /dev/null || fail "split: per-class counts differ"
same_aggregates big.jsonl "read_parquet('split/*.parquet')" split
ops=$(duckdb_sql "select string_agg(distinct op, ',' order by op) from 'split/ldst.parquet'")
[ "$ops" = "LD,ST" ] || fail "split: ldst.parquet ops $ops"

# 4. A multi-buffer perf.data: cpu and tid from the buffers, -j N identical to -j 1.
"$GEN" --perf-many many.data 6 9000 # over the 2 MiB -j needs to use threads (decode_jobs.sh)
"$A" decode --format jsonl -j 1 many.data > many.jsonl 2> /dev/null
for j in 1 2 3; do
	"$A" decode --format parquet -j $j -o many.$j.parquet many.data 2> /dev/null
	for f in jsonl csv text; do "$A" decode --format $f -j $j many.data > many.$j.$f 2> /dev/null; done
	"$A" decode --packets -j $j many.data > many.$j.packets 2> /dev/null
done
for j in 2 3; do
	for f in parquet jsonl csv text packets; do
		cmp -s many.1.$f many.$j.$f || fail "-j $j: $f output differs from -j 1"
	done
done
echo "ok: -j 2 and -j 3 give the bytes of -j 1 (parquet, jsonl, csv, text, packets)"
same_aggregates many.jsonl "'many.1.parquet'" many
got=$(duckdb_sql "select cpu, tid, count(*) from 'many.1.parquet' group by all order by all" | tr '\t\n' ' ')
[ "$got" = "0 501 9000 1 502 9000 2 503 9000 3 501 9000 0 502 9000 1 503 9000 " ] ||
	[ "$got" = "0 501 9000 0 502 9000 1 502 9000 1 503 9000 2 503 9000 3 501 9000 " ] ||
	fail "many: per-buffer cpu/tid counts $got"

# 5. A recorded example with --binary: the symbol column names chase().
if command -v qemu-aarch64 > /dev/null && [ -x "$(dirname "$A")/examples/pointer_chase" ] &&
   [ -e "$(dirname "$A")/armprof-qemu.so" ]; then
	prog=$(dirname "$A")/examples/pointer_chase
	"$A" record -q -c 256 -o chase.data -- "$prog" 100000 > /dev/null
	"$A" decode --format jsonl chase.data > chase.jsonl 2> /dev/null
	"$A" decode --format parquet --binary "$prog" -o chase.parquet chase.data 2> /dev/null
	same_aggregates chase.jsonl "'chase.parquet'" chase
	# the dependent loads of chase() miss the caches: the slowest loads on average
	top=$(duckdb_sql "select symbol from 'chase.parquet' where op = 'LD' group by 1
	                  having count(*) >= 100 order by avg(total_lat) desc limit 1")
	[ "$top" = chase ] || fail "chase: the slowest loads are in '$top', want chase"
else
	echo "note: no qemu-aarch64 or examples: the recorded example is not checked"
fi

# 6. Bad input: the exit code, no output file, an existing file untouched.
echo old > keep.parquet
printf 'PERFILE2 and then nothing' > bad.data
set +e
"$A" decode --format parquet -o keep.parquet bad.data 2> bad.err; rc=$?
"$A" decode --format parquet -o none.parquet does-not-exist 2> /dev/null; rc2=$?
"$A" decode --format parquet --split -o nodir bad.data 2> /dev/null; rc3=$?
set -e
[ $rc = 1 ] && [ $rc2 = 2 ] && [ $rc3 = 1 ] || fail "bad input: exit $rc, $rc2, $rc3 (want 1, 2, 1): $(cat bad.err)"
[ "$(cat keep.parquet)" = old ] || fail "bad input replaced keep.parquet"
[ ! -e none.parquet ] || fail "a missing input left none.parquet"
[ -z "$(ls nodir 2> /dev/null)" ] || fail "bad input left files in nodir: $(ls nodir)"
[ -z "$(ls -a | grep -i 'tmp\|\.armprof' || true)" ] || fail "temporary files left: $(ls -a)"

# 7. Killed mid-run: the input is a FIFO that stalls after a row group's worth
# of records; SIGTERM then leaves neither the file nor a temporary one.
mkfifo stall.fifo
(cat big.spe; sleep 30) > stall.fifo &
feeder=$!
"$A" decode --format parquet -o killed.parquet stall.fifo 2> killed.err &
dec=$!
for _ in $(seq 50); do
	[ -n "$(ls -a | grep -v 'killed.err' | grep killed || true)" ] && break
	sleep 0.1
done
sleep 1
kill -TERM $dec
set +e; wait $dec; rc=$?; set -e
kill $feeder 2> /dev/null || true
wait $feeder 2> /dev/null || true
[ $rc -ne 0 ] || fail "the killed decode exited 0"
left=$(ls -a | grep killed | grep -v 'killed.err' || true)
[ -z "$left" ] || fail "a killed decode left $left"
echo "ok: bad input and a killed run leave no file"
echo "decode_parquet: ok"

# armprof's Parquet writer (include/armprof/parquet.h) read back by an
# independent reader, DuckDB: values, nulls, strings (dictionary pages),
# several row groups with a partial last one, zstd and uncompressed pages,
# and the schema (physical types, repetition, UTF8) as written.
# Args: $1 armprof (unused), $2 source dir, $3 scratch dir, $4 parquet_sample.
set -euo pipefail
SRC=$2; WORK=$3; SAMPLE=$4
rm -rf "$WORK"; mkdir -p "$WORK"
. "$SRC/tests/export/duckdb_setup.sh"
fail() { echo "FAIL: $*"; exit 1; }

# The expected aggregates, from the formula parquet_sample.c documents.
expected() {
	python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
rows = range(n)
small = [i * 7 - 1000 for i in rows if i % 3]
flag = [i % 2 for i in rows if i % 5]
name = [("" if i % 13 == 5 else "s%d" % (i % 13)) for i in rows if i % 7]
big = [(-1 if i % 2 else 1) * (i << 40) for i in rows if i % 11 != 3]
tot = lambda v, f=lambda x: x: sum(map(f, v)) if v else "NULL"  # SQL: sum of nothing is NULL
print("\t".join(str(x) for x in [n, tot(rows), len(small), tot(small), len(flag), tot(flag),
      len(name), len(set(name)), tot(name, len), len(big), tot(big), "k", "k",
      (0xffff000000000000 * n + tot(rows)) if n else "NULL",
      sum(1 for i in rows if i % 4), tot([len(("red", "green", "blue")[i % 3]) for i in rows if i % 4])]))
PY
}
AGG="count(*), sum(id), count(small), sum(small), count(flag), sum(flag::int), count(name),
     count(distinct name), sum(length(name)), count(big), sum(big), min(k), max(k),
     sum(addr::hugeint), count(colour), sum(length(colour))"

for spec in "200003 10000 3" "200003 65536 0" "1 65536 3" "17 8 1"; do
	set -- $spec
	f="$WORK/sample_$1_$2_$3.parquet"
	"$SAMPLE" "$f" "$1" "$2" "$3" || fail "parquet_sample $spec"
	got=$(duckdb_sql "select $AGG from read_parquet('$f')")
	want=$(expected "$1")
	[ "$got" = "$want" ] || fail "aggregates of $spec: got '$got', want '$want'"
	groups=$(duckdb_sql "select count(distinct row_group_id), min(compression), max(compression)
	                     from parquet_metadata('$f')")
	ng=$(( ($1 + $2 - 1) / $2 ))
	codec=$([ "$3" = 0 ] && echo UNCOMPRESSED || echo ZSTD)
	[ "$groups" = "$(printf '%s\t%s\t%s' "$ng" "$codec" "$codec")" ] ||
		fail "row groups/codec of $spec: got '$groups', want $ng $codec"
	echo "ok: $spec: $got"
done

# Row by row, one group: the first rows' values and nulls.
got=$(duckdb_sql "select id, small, flag, name, big from read_parquet('$WORK/sample_17_8_1.parquet')
                  where id in (0, 1, 5, 10, 14) order by id")
want=$(printf '%s\n' "0	NULL	NULL	NULL	0" "1	-993	true	s1	-1099511627776" \
	"5	-965	NULL		-5497558138880" "10	-930	NULL	s10	10995116277760" \
	"14	-902	false	NULL	NULL")
[ "$got" = "$want" ] || fail "rows: got
$got
want
$want"

# The schema as Parquet types.
got=$(duckdb_sql "select name, type, repetition_type, coalesce(converted_type, '-')
                  from parquet_schema('$WORK/sample_17_8_1.parquet') where name <> 'schema'")
want=$(printf '%s\n' "id	INT64	REQUIRED	-" "small	INT32	OPTIONAL	-" \
	"flag	BOOLEAN	OPTIONAL	-" "name	BYTE_ARRAY	OPTIONAL	UTF8" \
	"big	INT64	OPTIONAL	-" "k	BYTE_ARRAY	REQUIRED	UTF8" "addr	INT64	REQUIRED	UINT_64" \
	"colour	BYTE_ARRAY	OPTIONAL	UTF8")
[ "$got" = "$want" ] || fail "schema: got
$got
want
$want"
echo "parquet_duckdb: ok"

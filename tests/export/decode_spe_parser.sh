# armprof decode --format spe-parser -o PREFIX (issue 31): Arm spe-parser's
# three files (github.com/ARM-software/telemetry-solution, tools/spe_parser),
# read by DuckDB: each file's DESCRIBE is the column list of spe-parser's
# schema.py with its types; records written by hand (spe-parser's own unit
# test cases, tests/unit/test_payload.py, re-encoded) give spe-parser's
# values; the rows of a large stream are those of our own decode, less the
# records spe-parser drops; -j N gives the bytes of -j 1; usage errors.
# Args: $1 armprof, $2 source dir, $3 scratch dir, $4 perfdata_spe_gen.
set -euo pipefail
A=$1; SRC=$2; WORK=$3; GEN=$4
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
. "$SRC/tests/export/duckdb_setup.sh"
fail() { echo "FAIL: $*"; exit 1; }

# 1. The columns: spe_parser/schema.py LDST_COLS, BRANCH_COLS, OTHER_COLS in
# their order, each typed as __spe_parser_schema says (int -> BIGINT, bool ->
# BOOLEAN, str -> VARCHAR: pandas' int64, bool and object columns as pyarrow
# writes them). Data taken from schema.py (telemetry-solution a848841).
cat > ldst.want << 'EOF'
cpu BIGINT
op VARCHAR
pc VARCHAR
el BIGINT
atomic BOOLEAN
excl BOOLEAN
ar BOOLEAN
subclass VARCHAR
sve_evl BIGINT
sve_pred BOOLEAN
sve_sg BOOLEAN
event VARCHAR
issue_lat BIGINT
total_lat BIGINT
vaddr VARCHAR
xlat_lat BIGINT
paddr VARCHAR
data_source VARCHAR
context VARCHAR
ts BIGINT
EOF
cat > br.want << 'EOF'
cpu BIGINT
op VARCHAR
pc VARCHAR
el BIGINT
condition BOOLEAN
indirect BOOLEAN
event VARCHAR
issue_lat BIGINT
total_lat BIGINT
br_tgt VARCHAR
br_tgt_lvl BIGINT
pbt VARCHAR
pbt_lvl BIGINT
context VARCHAR
ts BIGINT
EOF
cat > other.want << 'EOF'
cpu BIGINT
op VARCHAR
pc VARCHAR
el BIGINT
subclass VARCHAR
sve_evl BIGINT
sve_pred BOOLEAN
sve_fp BOOLEAN
condition BOOLEAN
event VARCHAR
issue_lat BIGINT
total_lat BIGINT
context VARCHAR
ts BIGINT
EOF

# 2. Records of spe-parser's unit tests (test_payload.py), and the cases
# around them: the EL2 "ff" fix-up, SVE forms, events it leaves out or
# sorts, data sources it cannot name, records it drops.
cat > hand.txt << 'EOF'
# test_payload TestLoadStore[0]: an EL2 load, its VA fixed up with ff
pc 0xffbbf3da99a6a0 el=2; ctx el2 0x86854480; op ld; ev retired l1d-access tlb-access; lat issue 24; lat total 38; va 0xff083e7fccbca8; lat xlat 1; ds 0; ts 20685196991554
# an atomic acquire store to a PA from DRAM, an unnamed event (bit 12) left out
pc 0x400a10 el=0; op st at ar; ev retired l1d-refill e12; lat total 300; va 0x1000; pa 0x8ab00; ds 14; end
# a data source spe-parser has no name for: its number
pc 0x400a14 el=0; op ld simd; ev retired; va 0x2000; ds 5; end
# TestBranch[0]: an EL2 conditional branch, its target fixed up
pc 0xffc0c28685447c el=2; ctx el2 0x86854480; op b cond; ev retired not-taken; lat issue 32; lat total 33; tgt 0xffc0c286854480 el=2; ts 13196304034575
# an indirect branch at EL0
pc 0x400a18 el=0; op b ind; ev retired mispredicted; tgt 0x400000 el=0; end
# TestOtherPacket[0]: other at EL2
pc 0xff8000084072ac el=2; op other; ev retired; lat issue 7; lat total 8; ts 192683490484967
# a conditional select whose events spe-parser sorts and strips of memory events
pc 0x400a1c el=0; op other cond; ev retired mispredicted exception-gen l1d-access alignment; end
# dropped: no Operation Type packet, the reserved class, an unfinished tail
pc 0x400a20 el=0; ev retired; end
pc 0x400a24 el=0; op raw 3 0; end
pc 0x400a28 el=0; op ld; ev retired
EOF
"$A" encode -o hand.spe hand.txt
# the reserved class and the unfinished tail are errors of the stream: exit 1, files written
set +e; "$A" decode --format spe-parser -o hand hand.spe 2> hand.err; rc=$?; set -e
[ $rc = 1 ] || fail "hand.spe: exit $rc, want 1 (two records with errors): $(cat hand.err)"
for c in ldst br other; do
	duckdb_sql "select column_name, column_type from (describe select * from 'hand-$c.parquet')" |
		tr '\t' ' ' > $c.got
	diff $c.want $c.got > $c.diff || fail "hand-$c.parquet: columns differ from schema.py: $(cat $c.diff)"
done
echo "ok: the three files' columns are schema.py's, in its order, with its types"

cat > hand-ldst.want << 'EOF'
0 LD 0xffffbbf3da99a6a0 2 false false false GP-REG 0 false false RETIRED:L1D-ACCESS:TLB-ACCESS 24 38 0xffff083e7fccbca8 1  L1D 0x86854480 20685196991554
0 ST 0x400a10 0 true false true  0 false false RETIRED:L1D-REFILL 0 300 0x1000 0 0x8ab00 DRAM  0
0 LD 0x400a14 0 false false false SIMD-FP 0 false false RETIRED 0 0 0x2000 0  5  0
EOF
cat > hand-br.want << 'EOF'
0 B 0xffffc0c28685447c 2 true false RETIRED:NOT-TAKEN 32 33 0xffffc0c286854480 2  0 0x86854480 13196304034575
0 B 0x400a18 0 false true RETIRED:MISPRED 0 0 0x400000 0  0  0
EOF
cat > hand-other.want << 'EOF'
0 OTHER 0xffff8000084072ac 2 OTHER 0 false false false RETIRED 7 8  192683490484967
0 OTHER 0x400a1c 0 OTHER 0 false false true ALIGNMENT:EXCEPTION-GEN:MISPRED:RETIRED 0 0  0
EOF
for c in ldst br other; do
	duckdb_sql "select * from 'hand-$c.parquet'" | tr '\t' ' ' > hand-$c.got
	diff hand-$c.want hand-$c.got > hand-$c.diff || fail "hand-$c.parquet: rows differ: $(cat hand-$c.diff)"
done
echo "ok: spe-parser's values: hex strings, EL2 fix-ups, event and data source names, defaults"

# SVE operations (FEAT_SVE forms of the Operation Type packet, DDI 0487
# D17.3): written as spe-parser writes them once the decoder knows them (an
# SPEv1 decoder reports their payloads as reserved values: no row, as
# spe-parser has none for a record without an operation).
cat > sve.txt << 'EOF'
# TestLoadStore[3]: an SVE store, EVLEN 128, predicated (payload 0x2d)
pc 0xaaaae4c10f90 el=0; ctx el1 0x86854480; op raw 1 0x2d; ev retired tlb-access; lat issue 18; lat total 25; va 0xaaaaec29f150; lat xlat 1; ts 196770407750105
# TestOtherPacket[3]: SVE other, EVLEN 32, FP (payload 0x0a)
pc 0xaaaae4c10e50 el=0; op raw 0 0x0a; ev retired; lat issue 17; lat total 19; ts 196770407753590
EOF
"$A" encode -o sve.spe sve.txt
"$A" decode --format spe-parser -o sve sve.spe 2> /dev/null || true
if "$A" decode --format jsonl sve.spe 2> /dev/null | grep -q '"op"'; then
	[ "$(duckdb_sql "select subclass, sve_evl, sve_pred, sve_sg from 'sve-ldst.parquet'")" = "$(printf 'SVE\t128\ttrue\tfalse')" ] ||
		fail "sve-ldst: $(duckdb_sql "select * from 'sve-ldst.parquet'")"
	[ "$(duckdb_sql "select subclass, sve_evl, sve_pred, sve_fp from 'sve-other.parquet'")" = "$(printf 'SVE\t32\tfalse\ttrue')" ] ||
		fail "sve-other: $(duckdb_sql "select * from 'sve-other.parquet'")"
	echo "ok: SVE rows"
else
	rows=$(duckdb_sql "select count(*) from read_parquet('sve-*.parquet')")
	[ "$rows" = 0 ] || fail "sve: $rows rows of records without a decoded operation"
	echo "note: the decoder does not decode SVE operations yet: their rows are not checked"
fi

# 3. A large generated stream: each file's rows are our own decode's of its
# class (docs/parquet-schema.md), less the records spe-parser drops, with the
# same latencies and PCs.
"$GEN" big.spe 300000 7
"$A" decode --format spe-parser -o big big.spe
"$A" decode --format parquet --split -o own big.spe
for c in ldst br other; do
	got=$(duckdb_sql "select count(*), sum(total_lat), sum(issue_lat), count(distinct pc),
	                         sum(ts) from 'big-$c.parquet'")
	want=$(duckdb_sql "select count(*), sum(coalesce(total_lat, 0)), sum(coalesce(issue_lat, 0)),
	                          count(distinct pc), sum(coalesce(ts, 0)::hugeint) from 'own/$c.parquet'
	                   where op in ('LD', 'ST', 'B', 'OTHER') and \"end\" <> 'truncated'")
	[ "$got" = "$want" ] || fail "big-$c: rows, latency sums, distinct PCs, ts sum $got, want $want"
	[ "${got%%	*}" -gt 1000 ] || fail "big-$c: only $got rows"
	echo "ok: big-$c: $got"
done
nulls=$(duckdb_sql "select count(*) from 'big-ldst.parquet' where pc is null or vaddr is null
                    or paddr is null or data_source is null or event is null or context is null")
[ "$nulls" = 0 ] || fail "big-ldst: $nulls rows with a null (spe-parser writes defaults)"

# 4. A multi-buffer perf.data: cpu from the buffers, -j N the bytes of -j 1.
"$GEN" --perf-many many.data 6 4000
for j in 1 3; do "$A" decode --format spe-parser -j $j -o many.$j many.data 2> /dev/null; done
for c in ldst br other; do
	cmp -s many.1-$c.parquet many.3-$c.parquet || fail "-j 3: many-$c.parquet differs from -j 1"
done
"$A" decode --format parquet -o many.own.parquet many.data 2> /dev/null
got=$(duckdb_sql "select cpu, count(*) from read_parquet('many.1-*.parquet') group by all order by all")
want=$(duckdb_sql "select cpu, count(*) from 'many.own.parquet' where op in ('LD', 'ST', 'B', 'OTHER')
                   and \"end\" <> 'truncated' group by all order by all")
[ "$got" = "$want" ] || fail "many: rows per cpu $got, want $want"
echo "ok: perf.data: cpu per buffer, -j 3 gives the bytes of -j 1"

# 5. Usage: spe-parser's files need a prefix; --split and --binary are parquet's.
for args in "--format spe-parser hand.spe" "--format spe-parser -o - hand.spe" \
            "--format spe-parser --split -o x hand.spe" "--format spe-parser --binary /bin/sh -o x hand.spe"; do
	set +e; "$A" decode $args > /dev/null 2> usage.err; rc=$?; set -e
	[ $rc = 2 ] || fail "decode $args: exit $rc, want 2"
done
[ -z "$(ls x-* - 2> /dev/null || true)" ] || fail "usage errors left files"
echo "decode_spe_parser: ok"

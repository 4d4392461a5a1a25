#!/usr/bin/env bash
# LATER-PBT-3, LATER-CRR-3, LATER-OUT-1: `armprof decode --spe-later` reads
# the previous-branch-target Address packet (INDEX 0b00100) and the branch
# GCS/CR subclass bits as perf 7.x does and names them in jsonl and text;
# without the option they stay reserved values of SPEv1 (SPE-5.3.1-15,
# SPE-5.3.8-12) and decode exits 1.
set -u
armprof=$1 work=$3
rm -rf "$work" && mkdir -p "$work"
cat >"$work/in.txt" <<'TXT'
pc 0x1000 el=1 ns=1; op b bl; ev retired; tgt 0x5000 el=1 ns=1; pbt 0xffff800000123440 el=1 ns=1; end
pc 0x2000 el=0 ns=1; op b ind ret gcs; tgt 0x1004 el=0 ns=1; end
TXT
fail=0 n=0
check() { n=$((n + 1)); grep -qF -- "$2" <<<"$1" || { echo "FAIL: lacks $2"; fail=$((fail + 1)); }; }
"$armprof" encode "$work/in.txt" -o "$work/in.bin" || { echo "FAIL: encode"; exit 1; }
j=$("$armprof" decode --spe-later --format jsonl "$work/in.bin") || { echo "FAIL: decode --spe-later exit $?"; exit 1; }
check "$j" '"br_cr":"BL","target":"0x5000","target_el":1,"target_ns":1,"prev_br_tgt":"0xffff800000123440","prev_br_tgt_el":1,"prev_br_tgt_ns":1'
check "$j" '"indirect":true,"br_gcs":true,"br_cr":"RET"'
t=$("$armprof" decode --spe-later "$work/in.bin")
check "$t" 'B-bl tgt=0x5000 pbt=0xffff800000123440'
check "$t" 'B-ind-gcs-ret tgt=0x1004'
v1=$("$armprof" decode --format jsonl "$work/in.bin" 2>/dev/null); rc=$?
n=$((n + 1)); [ $rc -eq 1 ] || { echo "FAIL: v1 decode exit $rc, want 1"; fail=$((fail + 1)); }
check "$v1" '"errors":[{"kind":"reserved-value","offset":9},{"kind":"reserved-value","offset":22}]'
n=$((n + 1)); ! grep -q prev_br_tgt <<<"$v1" || { echo "FAIL: v1 decode shows prev_br_tgt"; fail=$((fail + 1)); }
# --packets names the previous branch target's Address packet (INDEX 4) as
# perf 7.x does, RESERVED without --spe-later, and the CR subclass.
pk=$("$armprof" decode --packets --spe-later "$work/in.bin")
check "$pk" 'PBT 0xff800000123440 el1 ns=1'
n=$((n + 1)); ! grep -q RESERVED <<<"$pk" || { echo "FAIL: --packets --spe-later shows RESERVED: $pk"; fail=$((fail + 1)); }
check "$pk" 'B BL'
pk1=$("$armprof" decode --packets "$work/in.bin" 2>/dev/null)
check "$pk1" 'PBT 0xff800000123440 el1 ns=1 RESERVED'
check "$pk1" 'B BL RESERVED 0x08'
# The same fields as csv columns and Parquet columns (docs/jsonl-schema.md,
# docs/parquet-schema.md; LATER-OUT-1).
c=$("$armprof" decode --spe-later --format csv "$work/in.bin")
check "$c" ',data_source_name,prev_br_tgt,prev_br_tgt_el,prev_br_tgt_ns,br_gcs,br_cr'
check "$(sed -n 2p <<<"$c")" ',0xffff800000123440,1,1,,BL'
check "$(sed -n 3p <<<"$c")" ',,,,1,RET'
if command -v node > /dev/null && [ -d "$2/.cache/npm/node_modules/@duckdb/node-api" ]; then
  "$armprof" decode --spe-later --format parquet -o "$work/in.parquet" "$work/in.bin" || { echo "FAIL: parquet"; fail=$((fail + 1)); }
  p=$(node "$2/tests/export/duckdb.mjs" "$(cd "$2" && pwd)/.cache/npm" "select coalesce(prev_br_tgt::varchar, 'NULL'), coalesce(prev_br_tgt_el::varchar, 'NULL'), coalesce(br_gcs::varchar, 'NULL'), coalesce(br_cr, 'NULL') from '$work/in.parquet' order by \"offset\"")
  check "$p" "$(printf '%s\t%s\t%s\t%s' 18446603336222389312 1 NULL BL)"
  check "$p" "$(printf '%s\t%s\t%s\t%s' NULL NULL true RET)"
else
  echo "note: no DuckDB (node, .cache/npm): the Parquet columns are not read here (tests/export reads the schema)"
fi
# armprof report --spe-later: branch pairs, most samples first (LATER-OUT-1);
# without --spe-later (or without PBT packets) no such section.
cat >"$work/pairs.txt" <<'TXT'
pc 0x1000 el=1 ns=1; op b bl; tgt 0x5000 el=1 ns=1; pbt 0x800 el=1 ns=1; end
pc 0x1000 el=1 ns=1; op b bl; tgt 0x5000 el=1 ns=1; pbt 0x800 el=1 ns=1; end
pc 0x2000 el=1 ns=1; op b ret; tgt 0x1004 el=1 ns=1; pbt 0x5000 el=1 ns=1; end
pc 0x3000 el=1 ns=1; op ld; va 0x9000; end
TXT
"$armprof" encode "$work/pairs.txt" -o "$work/pairs.bin"
r=$("$armprof" report --spe-later "$work/pairs.bin")
check "$r" 'Branch pairs (2 of 2, by samples'
check "$r" "$(printf '%10s  %s' 2 '0x800 => 0x1000 -> 0x5000')"
check "$r" "$(printf '%10s  %s' 1 '0x5000 => 0x2000 -> 0x1004')"
rj=$("$armprof" report --spe-later --format json "$work/pairs.bin")
check "$rj" '{"samples":2,"prev_br_tgt":"0x800","prev_br_tgt_function":null,"pc":"0x1000","pc_function":null,"target":"0x5000"'
r1=$("$armprof" report "$work/pairs.bin" 2>/dev/null)
n=$((n + 1)); ! grep -q "Branch pairs" <<<"$r1" || { echo "FAIL: branch pairs without --spe-later"; fail=$((fail + 1)); }
echo "$((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]

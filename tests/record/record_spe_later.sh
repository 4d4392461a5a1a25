#!/usr/bin/env bash
# armprof record with the filters of SPE after v1, spelled as perf's arm_spe
# formats (docs/requirements-later.md): each needs its feature in the model
# (exit 2 and a message naming the --set keys otherwise), and every record
# written obeys it: --inv-event-filter (LATER-FNE-4), --simd-filter /
# --float-filter / *-filter-mask (LATER-EFT-2), --discard (LATER-DIS-2);
# and spe.pbt's previous branch targets (LATER-PBT-2).
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
pc=$examples/pointer_chase
V12="--set spe.version=v1p2 --set spe.fne=1"
V14="--set spe.version=v1p4 --set spe.fne=1 --set spe.fds=1 --set spe.eft=1 --config spe.crr=1"

# Without the feature: refused, no output.
for args in "--inv-event-filter l1d-refill" "--discard" "--simd-filter" "--load-filter-mask" \
            "--data-source-filter 1" "--inv-data-src-filter 0x5" "$V12 --float-filter" \
            "--set spe.version=v1p4 --set spe.fne=1 --data-source-filter 1" "$V12 --inv-event-filter nonsense" \
            "--set spe.fne=1"; do
  set +e
  # shellcheck disable=SC2086
  "$armprof" record $args -o bad.data -- "$pc" 10 > /dev/null 2> err.txt
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "'$args': exit $rc, want 2"
  grep -q "armprof record: " err.txt || fail "'$args': no message"
  [ ! -e bad.data ] || fail "'$args': output written"
done

# Inverted event filter: no record has an L1D refill, and there are records.
# shellcheck disable=SC2086
"$armprof" record -q $V12 --inv-event-filter l1d-refill -o nev.spe -- "$pc" 20000 > /dev/null
"$armprof" decode --format jsonl nev.spe > nev.jsonl
[ -s nev.jsonl ] || fail "no records with --inv-event-filter"
! grep -q '"l1d-refill"' nev.jsonl || fail "--inv-event-filter l1d-refill let a refill through"
"$armprof" record -q -o all.spe -- "$pc" 20000 > /dev/null
"$armprof" decode --format jsonl all.spe > all.jsonl
grep -q '"l1d-refill"' all.jsonl || fail "the unfiltered run has no refill to filter"

# AND masks (EFT): loads AND not branches == loads; store-filter-mask alone
# (ST = 0, STm = 1): everything but stores.
# shellcheck disable=SC2086
"$armprof" record -q $V14 --store-filter-mask -o nost.spe -- "$pc" 20000 > /dev/null
"$armprof" decode --spe-later --format jsonl nost.spe > nost.jsonl
[ -s nost.jsonl ] || fail "no records with --store-filter-mask"
! grep -q '"op":"ST"' nost.jsonl || fail "--store-filter-mask let a store through"

# The type filters at instruction level (tests/system_spe/progs/type_mix.c,
# type_mix_check.py; the same as system_spe_later_filters.sh checks in a
# Linux 7.x guest): the AND masks of B/LD/ST and EFT's SIMD and FP filters
# (LATER-EFT-1, LATER-EFT-2) with the FP/SIMD attributes the plugin takes
# from the A64 decode (LATER-EFT-3).
aarch64-linux-gnu-gcc -O1 -static -march=armv8.1-a -o type_mix "$src/tests/system_spe/progs/type_mix.c"
tm_all=add,ldr,str,ldadd,fadd,add_v,subs,b.ne
tm() { # NAME MUST ALSO OPTIONS...
  local name=$1 must=$2 also=$3
  shift 3
  # shellcheck disable=SC2086
  "$armprof" record -q $V14 "$@" -o "$name.spe" -- ./type_mix 100000 > /dev/null
  "$armprof" decode --spe-later --format jsonl "$name.spe" > "$name.jsonl"
  python3 "$src/tests/record/type_mix_check.py" type_mix "$name.jsonl" "$must" "$also" > /dev/null ||
    fail "type_mix with $*"
}
tm tm_all "$tm_all" fmov
tm tm_ls ldr,str,ldadd "" --filter-type load,store
tm tm_lsm ldadd "" --filter-type load,store --store-filter-mask
tm tm_lmsm ldr "" --filter-type load --load-filter-mask --store-filter-mask
tm tm_bm "${tm_all/,b.ne/}" fmov --branch-filter-mask
tm tm_fp fadd fmov --float-filter
tm tm_simd add_v "" --simd-filter
tm tm_fpsimd fadd,add_v fmov --float-filter --simd-filter
tm tm_simdm "${tm_all/,add_v/}" fmov --simd-filter-mask
tm tm_fpm "${tm_all/,fadd/}" "" --float-filter-mask

# Call/return classes (LATER-CRR-2): with spe.crr the program's calls are
# recorded as BL and its returns as RET (decoded with --spe-later; a v1
# decoder reports those subclass bits as reserved values, SPE-5.3.8-12).
# shellcheck disable=SC2086
"$armprof" record -q $V14 --filter-type branch -c 256 -o crr.spe -- "$examples/call_tree" > /dev/null
"$armprof" decode --spe-later --format jsonl crr.spe > crr.jsonl
set +e; "$armprof" decode --format jsonl crr.spe > /dev/null 2>&1; rc=$?; set -e
[ $rc -eq 1 ] || fail "v1 decode of CRR records: exit $rc, want 1 (reserved values)"
grep -q '"br_cr":"BL"' crr.jsonl || fail "no call recorded as BL with spe.crr"
grep -q '"br_cr":"RET"' crr.jsonl || fail "no return recorded as RET with spe.crr"
"$armprof" decode --spe-later --format jsonl all.spe > v1.jsonl
! grep -q '"br_cr"' v1.jsonl || fail "br_cr without spe.crr"

# Previous branch target (LATER-PBT-2): with spe.pbt every record of branchy's
# count_above carries the target of the last taken branch before it, one its
# code allows at that PC (pbt_check.py follows the function's control flow),
# among them both targets of its loop (the random data takes both paths).
# A v1 decoder reads INDEX 4 as reserved (LATER-PBT-3); without spe.pbt no
# record has one.
"$armprof" record -q $V12 --set spe.pbt=1 -c 256 -o pbt.spe -- "$examples/branchy" > /dev/null
"$armprof" decode --spe-later --format jsonl pbt.spe > pbt.jsonl
out=$(python3 "$src/tests/record/pbt_check.py" "$examples/branchy" count_above pbt.jsonl) ||
  fail "previous branch targets: $out"
echo "$out" | grep -Eq '^checked [0-9]{3,} pairs [0-9]+ targets ([2-9]|[1-9][0-9])' ||
  fail "previous branch targets: too few checked: $out"
# Blocks that branch to each other (progs/branch_blocks.c): each block's
# operations have exactly the other's start, never their own branch's target
# (pbt_check.py checks every pair against the control flow). The three
# branch targets of the loops are all met; a fourth, the function's own
# entry (the call's target, for the first block's first pass of a call),
# only when a sample falls there, which a helper saw once in many runs.
aarch64-linux-gnu-gcc -O1 -static -o bb "$src/tests/record/progs/branch_blocks.c"
"$armprof" record -q $V12 --set spe.pbt=1 -c 256 -o bb.spe -- ./bb 50000 > /dev/null
"$armprof" decode --spe-later --format jsonl bb.spe > bb.jsonl
out=$(python3 "$src/tests/record/pbt_check.py" bb branch_blocks bb.jsonl) || fail "branch_blocks: $out"
echo "$out" | grep -Eq '^checked [0-9]{3,} pairs [0-9]+ targets [34]$' || fail "branch_blocks: $out"
set +e; "$armprof" decode --format jsonl pbt.spe > /dev/null 2>&1; rc=$?; set -e
[ $rc -eq 1 ] || fail "v1 decode of PBT records: exit $rc, want 1 (reserved values)"
! grep -q '"prev_br_tgt"' v1.jsonl || fail "prev_br_tgt without spe.pbt"

# Discard mode: the run samples (SAMPLE_FEED in the stats) but writes no record.
# shellcheck disable=SC2086
"$armprof" record $V12 --discard --format raw -o disc.spe -- "$pc" 20000 > /dev/null 2> err.txt
[ ! -s disc.spe ] || fail "--discard wrote records: $(stat -c %s disc.spe) bytes"
grep -Eq ' [1-9][0-9]* sampled, 0 records' err.txt || fail "--discard: no samples taken: $(cat err.txt)"
grep -Eq ' [1-9][0-9]* records discarded' err.txt || fail "--discard: records not counted as discarded"
# perf.data's SPE attr says what the filters were (LATER-OUT-2), as Linux 7.x's arm_spe_pmu
# format defines its config words (drivers/perf/arm_spe_pmu.c ATTR_CFG_FLD_*:
# ts_enable config:0, pa_enable 1, pct_enable 2 (the plugin programs PCT),
# jitter 16, branch/load/store_filter 32-34, discard 35, the *_filter_mask
# 36-38, simd_filter 39, simd_filter_mask 40, float_filter 41,
# float_filter_mask 42, event_filter config1, min_latency config2,
# inv_event_filter config3, inv_data_src_filter config4), in the smallest
# attr that holds them (LATER-OUT-3): 128 bytes (perf 6.1's) unless config3
# (136) or config4 (144) is set.
attr() { python3 "$src/tests/record/spe_attr_check.py" "$@" || fail "perf.data attr: $*"; }
"$armprof" record -q -o v1.data -- "$pc" 2000 > /dev/null
attr v1.data 128 config=0x5 config1=0 config2=0
"$armprof" record -q -j --pa --filter-type load --filter-events retired --min-latency 20 -o v1f.data \
  -- "$pc" 2000 > /dev/null
attr v1f.data 128 config=$((1 << 33 | 1 << 16 | 7)) config1=0x2 config2=20
# shellcheck disable=SC2086
"$armprof" record -q $V12 --inv-event-filter l1d-refill -o nev.data -- "$pc" 2000 > /dev/null
attr nev.data 136 config=0x5 config3=0x8 config4=0
# shellcheck disable=SC2086
"$armprof" record -q $V14 --inv-data-src-filter 0x5 --load-filter-mask --simd-filter --float-filter-mask \
  --inv-event-filter tlb-walk --no-timestamps -o eft.data -- "$pc" 2000 > /dev/null
attr eft.data 144 config=$((1 << 42 | 1 << 39 | 1 << 37 | 4)) config3=0x20 config4=0x5
# shellcheck disable=SC2086
"$armprof" record -q $V12 --discard -o disc.data -- "$pc" 2000 > /dev/null
attr disc.data 128 config=$((1 << 35 | 5))
# Debian's perf (6.1 here) reads the v1 ones, config words and all.
if command -v perf > /dev/null; then
  export HOME=$PWD
  perf evlist -v -i v1f.data > v1f.evlist 2>&1 || fail "perf evlist of a v1 recording: $(cat v1f.evlist)"
  grep -q "config: 0x200010007.*{ bp_addr, config1 }: 0x2, { bp_len, config2 }: 0x14" v1f.evlist ||
    fail "perf evlist: $(cat v1f.evlist)"
fi
# perf 7.2 (the unstable kit's, run under qemu-aarch64 with the kit's
# libraries) reads the 136- and 144-byte attrs and decodes the records.
kit=${ARMPROF_KIT:-$src/.cache/kit/unstable}
qemu=${ARMPROF_QEMU:-$src/.cache/qemu/current/bin/qemu-aarch64}
if [ -f "$kit/initrd.img" ] && [ -x "$qemu" ] && grep -q '^package=linux-perf=7' "$kit/VERSION" 2> /dev/null; then
  mkdir -p kitroot
  (cd kitroot && zcat "$kit/initrd.img" | cpio -idm --quiet 'usr/bin/perf' 'lib/*' 'usr/lib/*' 2> /dev/null) || true
  [ -x kitroot/usr/bin/perf ] || fail "no perf in $kit/initrd.img"
  perf7() { HOME=$PWD "$qemu" -L kitroot kitroot/usr/bin/perf "$@"; }
  for f in nev eft; do
    perf7 evlist -v -i $f.data > $f.evlist 2>&1 || fail "perf 7 evlist $f.data: $(cat $f.evlist)"
  done
  grep -q "^arm_spe_0//: .*size: 136, config: 0x5," nev.evlist || fail "perf 7 evlist: $(cat nev.evlist)"
  grep -q "^arm_spe_0//: .*size: 144, config: 0x4a000000004," eft.evlist || fail "perf 7 evlist: $(cat eft.evlist)"
  "$armprof" decode --spe-later --format jsonl nev.data > nev7.jsonl 2> /dev/null
  n=$(perf7 report -D -i nev.data 2> /dev/null | grep -cE ' PC 0x[0-9a-f]+ el0 ns=1$' || true)
  [ "$n" -gt 0 ] && [ "$n" -eq "$(grep -c '"pc"' nev7.jsonl)" ] ||
    fail "perf 7 report -D of the 136-byte attr's file: $n PC packets, armprof $(grep -c '"pc"' nev7.jsonl)"
fi
echo "record_spe_later: ok"

#!/usr/bin/env bash
# perf.data written by armprof, read by Debian's Linux perf 6.1 (issue 5):
#  - `perf report -D` lists exactly the packets armprof decodes, in order,
#    with the same fields (perfdata_compare dump: offsets, raw bytes, type,
#    address/EL/NS, counters, context, events, op type, data source, TS;
#    spec/002 5.3.x);
#  - `perf script --itrace=i1i` gives one sample per SPE record with the
#    record's PC and data VA and the symbol of the profiled aarch64 binary;
#  - `perf report --stdio` exits 0 and attributes samples to its symbols;
#  - armprof converts the file back to the same raw bytes, per CPU too.
# perf is required: CI installs linux-perf (scripts/install-deps.sh). A
# missing perf FAILS this test rather than skipping it.
# Args: ARMPROF SRC_DIR WORK_DIR SPE_GEN COMPARE
set -euo pipefail
ARMPROF=$1 SRC=$2 WORK=$3 GEN=$4 CMP=$5
PERF=${PERF:-/usr/bin/perf}
if ! [ -x "$PERF" ]; then
  echo "FAIL: $PERF not found; install linux-perf (bash scripts/install-deps.sh)" >&2
  exit 1
fi
ELF=$SRC/tests/perfdata/data/tiny-aarch64.elf
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
cd -- "$WORK"
export HOME=$WORK # perf's build-id cache and config stay in the scratch dir

fail() { echo "FAIL: $*" >&2; exit 1; }

# Symbols of the profiled binary (readelf reads any ELF): "ADDR SIZE NAME".
readelf -sW "$ELF" | awk '$4 == "FUNC" && $3 > 0 { print $2, $3, $8 }' > syms.txt
[ "$(wc -l < syms.txt)" -ge 3 ] || fail "no symbols read from $ELF"
# PCs: every instruction of every function, plus one outside any symbol.
pcs=""
while read -r addr size name; do
  for ((i = 0; i < size; i += 4)); do pcs+="$(printf '0x%x ' $((16#$addr + i)))"; done
done < syms.txt
pcs+="0x400000"

# 1. raw -> perf.data, several AUX buffers (split at record boundaries)
SPE_GEN_CTX=4243 "$GEN" s.spe 400 7 $pcs # Context = the thread id perf attributes by
"$ARMPROF" convert --binary "$ELF" --pid 4242 --tid 4243 --buffer-size 4096 s.spe s.data
"$PERF" report -D -i s.data > dump.txt 2> dump.err || fail "perf report -D failed: $(cat dump.err)"
grep -q "ARM SPE data" dump.txt || fail "perf did not decode the AUX data as Arm SPE"
"$CMP" dump s.data dump.txt

# 2. perf script: one instructions sample per record, PCs, VAs and symbols
"$PERF" script -i s.data --itrace=i1i -F addr,ip,sym > script.txt 2> script.err \
  || fail "perf script failed: $(cat script.err)"
"$CMP" script s.data script.txt syms.txt | tee script.cmp
named=$(sed -n 's/.*(\([0-9]*\) in named symbols).*/\1/p' script.cmp)
[ "${named:-0}" -gt 300 ] || fail "too few samples attributed to symbols ($named)"

# 2b. perf script with perf's default synthesis: one sample per kind each
#     record gives (l1d/llc/tlb miss and access, branch-miss, remote-access,
#     memory), in perf's order, with the record's PC, address and symbol
#     (one CPU: with several, perf interleaves queues by timestamp)
"$PERF" script -i s.data -F event,addr,ip,sym > synth.txt 2> synth.err \
  || fail "perf script failed: $(cat synth.err)"
"$CMP" synth s.data synth.txt syms.txt

# 2c. the CPUID feature carries the MIDR: with Neoverse N1's (the default)
#     perf decodes Data Source packets with its Neoverse table (peer-core and
#     peer-cluster sources become "SNP Peer"); with a Cortex-A57 MIDR it
#     falls back to the events and never says so
"$PERF" script -i s.data -F event,data_src > ds-n1.txt 2> /dev/null
"$ARMPROF" convert --midr 0x410fd070 --binary "$ELF" --pid 4242 --tid 4243 s.spe a57.data
"$PERF" script -i a57.data -F event,data_src > ds-a57.txt 2> /dev/null
grep -q "SNP Peer" ds-n1.txt || fail "perf did not decode Data Source with the Neoverse table"
if grep -q "SNP Peer" ds-a57.txt; then fail "the MIDR in CPUID made no difference to perf"; fi

# 2d. per-thread mode (--cpu -1: AUXTRACE cpu -1, idx 0), records without
#     Context packets (perf 6.1 keys the current thread by CPU, so it drops
#     Context-carrying records of a per-thread queue; see docs/perfdata.md)
"$GEN" nc.spe 300 9 $pcs
"$ARMPROF" convert --cpu -1 --binary "$ELF" --pid 4242 --tid 4243 nc.spe nc.data
"$PERF" report -D -i nc.data > nc.dump 2> /dev/null || fail "perf report -D failed on per-thread data"
"$CMP" dump nc.data nc.dump
"$PERF" script -i nc.data --itrace=i1i -F addr,ip,sym > nc.script 2> /dev/null || fail "perf script failed on per-thread data"
"$CMP" script nc.data nc.script syms.txt

# 3. perf report --stdio runs and attributes samples to the binary's symbols
"$PERF" report --stdio -i s.data --itrace=i1i > report.txt 2> report.err \
  || fail "perf report --stdio failed: $(cat report.err)"
for f in load_loop store_loop branchy; do
  grep -q "$f" report.txt || fail "perf report does not show $f"
done

# 4. back to raw: the same bytes (perf record's 8-byte padding removed)
"$ARMPROF" convert s.data back.spe
cmp s.spe back.spe || fail "perf.data -> raw did not give back the original stream"

# 5. several CPUs, AUX flags: perf agrees on every buffer; --cpu selects
"$GEN" --perf multi.data
"$PERF" report -D -i multi.data > mdump.txt 2> mdump.err || fail "perf report -D failed on multi.data"
"$CMP" dump multi.data mdump.txt
grep -q "PERF_RECORD_AUX offset: .* flags: 0x1 \[T\]" mdump.txt || fail "perf does not see the truncated flag"
# perf 6.1 names only the T, O and P flags; collision (0x8) shows in the hex
grep -q "PERF_RECORD_AUX offset: .* flags: 0xc " mdump.txt || fail "perf does not see the collision flag"
"$ARMPROF" convert --cpu 1 multi.data cpu1.spe
cmp multi.data.buf1.spe cpu1.spe || fail "--cpu 1 did not select cpu 1's buffer"
"$ARMPROF" convert --cpu 0 multi.data cpu0.spe
cat multi.data.buf0.spe multi.data.buf2.spe | cmp - cpu0.spe || fail "--cpu 0 did not give cpu 0's buffers in order"

# 6. armprof decode reads perf.data transparently: the same records as the
#    raw streams, --cpu/--tid selection, a line per flagged buffer on stderr
"$ARMPROF" decode --format jsonl multi.data > m.jsonl 2> m.err
cat multi.data.buf0.spe multi.data.buf1.spe multi.data.buf2.spe > mall.spe
"$ARMPROF" decode --format jsonl mall.spe > mall.jsonl
[ "$(wc -l < m.jsonl)" -eq "$(wc -l < mall.jsonl)" ] || fail "decode of perf.data and of its raw streams differ in records"
grep -q "aux buffer 1: cpu 1 .* AUX truncated" m.err || fail "decode does not report the truncated buffer"
grep -q "aux buffer 2: cpu 0 .* AUX collision" m.err || fail "decode does not report the collision"
grep -q "3 of 3 AUX buffers selected, 1 truncated, 1 with collisions" m.err || fail "decode summary missing"
"$ARMPROF" decode --format jsonl --cpu 1 multi.data > c1.jsonl 2> /dev/null
"$ARMPROF" decode --format jsonl --cpu-model neoverse-n1 multi.data.buf1.spe > b1.jsonl
cmp c1.jsonl b1.jsonl || fail "decode --cpu 1 is not cpu 1's buffer"
# a selection that selects nothing is an error (exit 1) that names what is there
rc=0
"$ARMPROF" decode --stats --tid 9999 multi.data > /dev/null 2> t.err || rc=$?
[ $rc -eq 1 ] || fail "decode --tid 9999: exit $rc, expected 1"
grep -q "0 of 3 AUX buffers selected" t.err || fail "decode --tid did not select by thread"
grep -q "the selection (--tid 9999) matches none of its 3 AUX buffers (their CPUs: 0, 1; threads: " t.err ||
  fail "decode --tid 9999: $(cat t.err)"
"$ARMPROF" decode --stats multi.data > /dev/null 2> s.err
[ "$(grep -c "aux buffer" s.err)" -eq 3 ] || fail "decode --stats does not list every buffer"

# 7. the golden streams (tests/golden/streams, SPE text format) whose packets
#    perf's packet layer reads as the architecture does: records, Padding,
#    End/Timestamp framing, every event bit, every op type, both contexts,
#    PCs in every EL (the IDs listed in perf_compare.c, e.g. SPE-5.1.2-1,
#    SPE-5.3.1-19, SPE-5.3.3-4, SPE-5.3.7-15, SPE-5.3.8-11, SPE-5.3.10-2). Not
#    compared: framing (perf aligns by host address, SPE-5.3.2-10), garbage and
#    unknown-packets (perf moves 1 byte on an undefined header, SPE-5.1.4-4),
#    truncated (a cut packet then perf record's zero padding).
for g in basic-records every-event no-end; do
  "$ARMPROF" encode -o "$g.spe" "$SRC/tests/golden/streams/$g.spe"
  "$ARMPROF" convert --to perf "$g.spe" "$g.data"
  "$PERF" report -D -i "$g.data" > "$g.dump" 2> /dev/null || fail "perf report -D failed on $g"
  "$CMP" dump "$g.data" "$g.dump"
done

# 8. the comparison can fail: perf's dump of another file must not match
"$GEN" other.spe 400 8 $pcs
"$ARMPROF" convert --buffer-size 4096 other.spe other.data
"$PERF" report -D -i other.data > odump.txt 2> /dev/null
if "$CMP" dump s.data odump.txt > /dev/null 2>&1; then
  fail "perfdata_compare accepted the dump of a different file"
fi
echo "perf interop: ok"

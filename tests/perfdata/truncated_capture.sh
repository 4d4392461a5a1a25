#!/usr/bin/env bash
# A record cut short at the end of an AUX buffer is an error of the stream
# (spec/002 5.1.2, SPE-5.1.2-1: a record ends with an End or Timestamp
# packet), unless the capture says why it was cut: perf marked the AUX data
# TRUNCATED (the profiling buffer filled and the driver stopped it) or
# OVERWRITE (snapshot mode, perf record -S: the ring wrapped). Then `armprof
# decode` and `armprof report` print a note and exit 0; a raw stream, or a
# buffer without those flags, cut in the middle keeps exit status 1.
# Args: ARMPROF SRC_DIR WORK_DIR SPE_GEN
set -euo pipefail
ARMPROF=$1 WORK=$3 GEN=$4
rm -rf -- "$WORK" && mkdir -p -- "$WORK" && cd -- "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }
cat > s.spe <<'SPE'
pc 0x400a10 el=0; ctx el1 500; op ld; ev retired l1d-access; lat total 12; va 0x1000; ds 0; ts 1
pc 0x400a14 el=0; ctx el1 500; op ld; ev retired l1d-access; lat total 14; va 0x1008; ds 0; ts 2
pc 0x400a18 el=0; ctx el1 500; op ld; ev retired l1d-access; lat total 16; va 0x1010; ds 0; ts 3
SPE
"$ARMPROF" encode -o whole.raw s.spe
size=$(stat -c %s whole.raw)
# cut in the middle of the last record's data-address packet (its last 14
# bytes: the VA packet's tail, Data Source and Timestamp)
head -c $((size - 14)) whole.raw > cut.raw
"$GEN" --aux truncated.data 0x1 cut.raw  # PERF_AUX_FLAG_TRUNCATED
"$GEN" --aux snapshot.data 0x2 cut.raw   # PERF_AUX_FLAG_OVERWRITE
"$GEN" --aux plain.data 0 cut.raw
"$GEN" --aux collision.data 0x8 cut.raw  # COLLISION says nothing of a cut
"$GEN" --aux whole.data 0x1 whole.raw

run() { # run CMD ARGS...: stdout to out.txt, stderr to err.txt, exit status in rc
  set +e; "$@" > out.txt 2> err.txt; rc=$?; set -e
}
for f in truncated snapshot; do
  run "$ARMPROF" decode --format jsonl $f.data
  [ $rc -eq 0 ] || fail "decode $f.data: exit $rc: $(cat err.txt)"
  [ "$(wc -l < out.txt)" -eq 3 ] || fail "decode $f.data: not 3 records"
  tail -1 out.txt | grep -q '"truncated":true' || fail "decode $f.data: the last record is not shown truncated"
  grep -q "note: 1 last record of AUX buffers perf marked truncated (the buffer filled) or overwritten (snapshot mode) cut short: not counted as errors" err.txt ||
    fail "decode $f.data: no note: $(cat err.txt)"
  run "$ARMPROF" report --format json $f.data
  [ $rc -eq 0 ] || fail "report $f.data: exit $rc: $(cat err.txt)"
  grep -q "note: 1 last record" err.txt || fail "report $f.data: no note"
  python3 -c 'import json,sys; r=json.load(open("out.txt")); assert r["records"] == 3 and r["decode_errors"] == 0, r' ||
    fail "report $f.data: records/decode_errors"
done
for f in plain collision; do
  run "$ARMPROF" decode --format jsonl $f.data
  [ $rc -eq 1 ] || fail "decode $f.data (no reason for the cut): exit $rc, want 1"
  ! grep -q "note:" err.txt || fail "decode $f.data: a note without a reason"
  run "$ARMPROF" report $f.data
  [ $rc -eq 1 ] || fail "report $f.data: exit $rc, want 1"
done
run "$ARMPROF" decode cut.raw
[ $rc -eq 1 ] || fail "decode of a raw stream cut in the middle: exit $rc, want 1"
run "$ARMPROF" report cut.raw
[ $rc -eq 1 ] || fail "report of a raw stream cut in the middle: exit $rc, want 1"
run "$ARMPROF" decode whole.data
[ $rc -eq 0 ] && ! grep -q "note:" err.txt || fail "decode whole.data: a note without a cut record"
# A truncated buffer whose cut record also held another error still fails.
printf 'pc 0x400a10 el=0; op ld; ev retired; bytes 0x20 0x05; lat total 1; ts 1\n' > bad.spe
"$ARMPROF" encode -o bad.raw bad.spe
head -c $(($(stat -c %s bad.raw) - 4)) bad.raw > badcut.raw
"$GEN" --aux badcut.data 0x1 badcut.raw
run "$ARMPROF" decode badcut.data
[ $rc -eq 1 ] || fail "decode badcut.data (an unknown packet in the cut record): exit $rc, want 1"
echo "truncated_capture: ok"

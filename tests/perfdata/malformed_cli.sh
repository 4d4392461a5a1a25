#!/usr/bin/env bash
# Malformed perf.data on the command line (issue 5): `armprof convert --to raw`
# and `armprof decode` refuse each file of perf_bytes.h with exit status 1 (docs/perfdata.md),
# one message naming FILE:OFFSET, the record type or header part, and what is
# wrong, and leaves no output file; nothing crashes (signals give 128+).
# Args: ARMPROF SRC_DIR WORK_DIR SPE_GEN
set -euo pipefail
ARMPROF=$1 WORK=$3 GEN=$4
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
cd -- "$WORK"
"$GEN" --malformed .
n=0
while read -r name offset rest; do
  where=${rest%%|*} msg=${rest#*|}
  set +e
  "$ARMPROF" convert --to raw "$name.data" "$name.spe" 2> err.txt
  rc=$?
  set -e
  cat err.txt
  [ "$rc" -eq 1 ] || { echo "FAIL: $name: exit status $rc, want 1" >&2; exit 1; }
  [ "$(wc -l < err.txt)" -eq 1 ] || { echo "FAIL: $name: want one error line" >&2; exit 1; }
  grep -qF "armprof convert: $name.data:$offset: $where" err.txt \
    || { echo "FAIL: $name: message does not name $name.data:$offset: $where" >&2; exit 1; }
  grep -qF "$msg" err.txt || { echo "FAIL: $name: message does not say '$msg'" >&2; exit 1; }
  [ ! -e "$name.spe" ] || { echo "FAIL: $name: an output file was left" >&2; exit 1; }
  # armprof decode says the same (a file without the magic is not perf.data:
  # decode reads it as raw SPE)
  # in every format, and before any output: standard output stays empty
  # (no CSV header, issue 32), no file or --split directory is made
  if [ "$name" != bad_magic ]; then
    for fmt in text jsonl csv "csv --packets" "parquet -o out.parquet" "parquet --split -o out.dir" \
               "spe-parser -o out"; do
      set +e
      # shellcheck disable=SC2086
      "$ARMPROF" decode --format $fmt "$name.data" > dout.txt 2> derr.txt
      rc=$?
      set -e
      [ "$rc" -eq 1 ] || { echo "FAIL: decode --format $fmt $name: exit status $rc, want 1" >&2; exit 1; }
      grep -qF "armprof decode: $name.data:$offset: $where" derr.txt \
        || { echo "FAIL: decode --format $fmt $name: $(cat derr.txt)" >&2; exit 1; }
      [ ! -s dout.txt ] || { echo "FAIL: decode --format $fmt $name: wrote $(head -c 80 dout.txt)" >&2; exit 1; }
      left=$(ls -A | grep -E '^(\.)?out' || true)
      [ -z "$left" ] || { echo "FAIL: decode --format $fmt $name: left $left" >&2; exit 1; }
    done
  fi
  n=$((n + 1))
done < expect.txt
[ "$n" -ge 9 ] || { echo "FAIL: only $n malformed files" >&2; exit 1; }
# The good file converts, and a missing file is an I/O error (2).
"$ARMPROF" convert --to raw good.data good.spe
set +e
"$ARMPROF" convert --to raw no-such.data x.spe 2> /dev/null
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "FAIL: missing input: exit status $rc, want 2" >&2; exit 1; }
echo "malformed perf.data: $n files refused as documented"

#!/usr/bin/env bash
# perf.data files written by Linux perf itself (issue 5: "read captures"):
# `perf record` of a small busy loop with a software event (no SPE on this
# host), as a plain file, compressed with -z (zstd PERF_RECORD_COMPRESSED,
# one frame flushed but never ended), in pipe mode (-o -), and both. armprof's
# reader must accept each (exit 0) and count, type by type, the records perf
# counts in `perf report -D`'s "Aggregated stats" (perfdata_compare stats),
# COMPRESSED records and the events inside them included.
# perf is required (FAIL if missing); if this host forbids perf_event_open
# (containers, perf_event_paranoid) the test is reported as skipped (77).
# Args: ARMPROF SRC_DIR WORK_DIR SPE_GEN COMPARE
set -euo pipefail
ARMPROF=$1 WORK=$3 CMP=$5
PERF=${PERF:-/usr/bin/perf}
[ -x "$PERF" ] || { echo "FAIL: $PERF not found; install linux-perf (bash scripts/install-deps.sh)" >&2; exit 1; }
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
cd -- "$WORK"
export HOME=$WORK
fail() { echo "FAIL: $*" >&2; exit 1; }
busy=(sh -c 'i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done')

if ! "$PERF" record -q -e cpu-clock -F 5000 -o plain.data -- "${busy[@]}" 2> rec.err; then
  echo "SKIPPED: perf record cannot open events here: $(tail -1 rec.err)" >&2
  exit 77
fi
"$PERF" record -q -z -e cpu-clock -F 5000 -o z.data -- "${busy[@]}" 2> /dev/null
"$PERF" record -q -e cpu-clock -F 5000 -o - -- "${busy[@]}" > pipe.data 2> /dev/null
"$PERF" record -q -z -e cpu-clock -F 5000 -o - -- "${busy[@]}" > pipez.data 2> /dev/null

for f in plain z pipe pipez; do
  "$ARMPROF" decode --stats "$f.data" > /dev/null 2> "$f.err" || fail "armprof decode $f.data: $(cat "$f.err")"
  "$PERF" report -D -i "$f.data" > "$f.dump" 2> /dev/null || fail "perf report -D $f.data"
  "$CMP" stats "$f.data" "$f.dump"
done
grep -q "COMPRESSED events" z.dump || fail "perf record -z did not compress (perf without zstd?)"
grep -q "ATTR events" pipe.dump || fail "perf -o - did not write pipe mode"
echo "real perf files: ok"

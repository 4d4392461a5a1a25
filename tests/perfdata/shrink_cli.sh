#!/usr/bin/env bash
# A perf.data that shrinks while armprof reads it (issue 32, item 1):
# decode, report and convert end with "armprof CMD: FILE: the file shrank
# while being read (offset N)" and exit status 2 (an I/O error), not
# SIGBUS, and leave no output or temporary file. The shim truncates the
# file deterministically: right after armprof maps it (the parse finds the
# end gone) or once the parse is done (the AUX data is being read).
# Args: ARMPROF SRC_DIR WORK_DIR SPE_GEN SHIM
set -euo pipefail
ARMPROF=$1 WORK=$3 GEN=$4 SHIM=$5
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
cd -- "$WORK"
"$GEN" --perf-many big.data 16 20000 # 14 MB, 16 AUX buffers
size=$(stat -c %s big.data)
# ASan wants to be first in the list of libraries; the shim comes before it
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
fail() { echo "FAIL: $*" >&2; exit 1; }
n=0
for when in map read; do
  for cmd in "decode -j 1 -o out.txt" "decode -j 2 --format csv -o out.csv" "decode --format parquet -o out.parquet" \
             "report -o out.txt" "report --html out.html" "convert --to raw in.data out.spe"; do
    mkdir run
    cp big.data run/in.data
    # shellcheck disable=SC2086
    set -- $cmd
    [ "$1" = convert ] || set -- "$@" in.data
    set +e
    (cd run && AP_SHRINK_PATH=in.data AP_SHRINK_SIZE=$((size / 2)) AP_SHRINK_WHEN=$when LD_PRELOAD=$SHIM \
      "$ARMPROF" "$@" > stdout.txt 2> err.txt)
    rc=$?
    set -e
    cat run/err.txt
    [ -e run/in.data.done ] || fail "$when $cmd: the shim did not truncate the file"
    [ "$rc" -eq 2 ] || fail "$when $cmd: exit status $rc, want 2"
    grep -qE "^armprof $1: in.data: the file shrank while being read \(offset [0-9]+\)$" run/err.txt \
      || fail "$when $cmd: no 'the file shrank' message"
    left=$(cd run && ls -A | grep -vxE 'in.data|in.data.done|stdout.txt|err.txt' || true)
    [ -z "$left" ] || fail "$when $cmd: left $left"
    rm -rf run
    n=$((n + 1))
  done
done
echo "ok: $n runs on a shrinking perf.data ended with the message, status 2 and no file left"

#!/usr/bin/env bash
# A perf.data (or raw SPE data) that shrinks while armprof reads it (issue 32, item 1):
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
# ASan wants to be first in the list of libraries; the shim comes before it
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
fail() { echo "FAIL: $*" >&2; exit 1; }
n=0
# shrinks WHEN INPUT CMD...: CMD, run in run/ on a copy of INPUT truncated to
# half by the shim at WHEN, says so, exits 2 and leaves no file
shrinks() {
  local when=$1 input=$2; shift 2
  rm -rf run; mkdir run
  cp "$input" run/in.data
  local half=$(($(stat -c %s "$input") / 2))
  set +e
  (cd run && AP_SHRINK_PATH=in.data AP_SHRINK_SIZE=$half AP_SHRINK_WHEN=$when LD_PRELOAD=$SHIM \
    "$ARMPROF" "$@" > stdout.txt 2> err.txt)
  local rc=$?
  set -e
  cat run/err.txt
  [ -e run/in.data.done ] || fail "$when $*: the shim did not truncate the file"
  [ "$rc" -eq 2 ] || fail "$when $*: exit status $rc, want 2"
  grep -qE "^armprof $1: in.data: the file shrank while being read \(offset [0-9]+\)$" run/err.txt \
    || fail "$when $*: no 'the file shrank' message"
  local left; left=$(cd run && ls -A | grep -vxE 'in.data|in.data.done|stdout.txt|err.txt' || true)
  [ -z "$left" ] || fail "$when $*: left $left"
  n=$((n + 1))
}
for when in map read; do
  shrinks $when big.data decode -j 1 -o out.txt in.data
  shrinks $when big.data decode -j 2 --format csv -o out.csv in.data
  shrinks $when big.data decode --format parquet -o out.parquet in.data
  shrinks $when big.data report -o out.txt in.data
  shrinks $when big.data report --html out.html in.data
  shrinks $when big.data convert --to raw in.data out.spe
done
# raw SPE data, which decode maps too (right after it maps it)
"$GEN" raw.spe 200000 7
shrinks map raw.spe decode -o out.txt in.data
shrinks map raw.spe decode --format parquet -o out.parquet in.data
echo "ok: $n runs on a shrinking input ended with the message, status 2 and no file left"

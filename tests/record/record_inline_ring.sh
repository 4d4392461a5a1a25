#!/usr/bin/env bash
# The two ways the plugin sees a program run give the same profile
# (plugins/qemu/inline_ring.c): under armprof's own qemu-aarch64
# (system/qemu/build.sh, QEMU 10.2 with patch 0007) QEMU logs each TB start
# and data access inline into the plugin's event batches; with
# --no-inline-ring, or under a QEMU without the patch, the plugin's
# callbacks log them. One program recorded both ways under armprof's QEMU
# gives the same SPE bytes, the same exact per-PC counts, the same
# SAMPLE_POP and the same timing-model summary (SPE-2.2-1: every executed
# operation is one member of the population, spec/002 2.2). The runs are
# under one QEMU: QEMU 10.2's default CPU has features 7.2's lacks (glibc
# then takes other routines), so 7.2's profile of the same program
# differs; Debian's qemu-aarch64 7.2 (the fallback) is checked to use the
# callbacks. Also a program with two threads, whose counts are compared
# in total (the threads' interleaving differs from run to run), and one
# whose TB makes more accesses than a TB may append inline (the
# callbacks' appends). Skips (77) without armprof's qemu-aarch64.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

ours=${ARMPROF_INLINE_QEMU:-$src/.cache/qemu/current/bin/qemu-aarch64}
if [ ! -x "$ours" ]; then
  echo "SKIP: needs armprof's qemu-aarch64 at $ours (bash system/qemu/build.sh)"
  exit 77
fi
deb=$(command -v qemu-aarch64) || { echo "SKIP: needs Debian's qemu-aarch64 (qemu-user) on PATH"; exit 77; }
[ "$(readlink -f "$deb")" != "$(readlink -f "$ours")" ] ||
  fail "qemu-aarch64 on PATH is armprof's own: the test needs Debian's there"
meta_of() { sed -n "s/^$2=//p" "$1.raw.meta"; }

# record LABEL QEMU [OPTIONS...] -- PROG ARGS: raw SPE bytes, counts, summary.
record() {
  local label=$1 qemu=$2
  shift 2
  "$armprof" record --qemu "$qemu" --no-context --format raw -o "$label.raw" --counts "$label.counts" "$@" \
    > "$label.out" 2> "$label.err" || fail "[$label] armprof record failed: $(cat "$label.err")"
  # The summary without the host's CPU time and waits, and the file name.
  sed -e '/^armprof record: the models took /d' -e '/^armprof record: ring waits: /d' \
    -e "s/ in [^ ]*\\.raw / in OUT /" "$label.err" > "$label.sum"
}

record deb "$deb" -- "$examples"/stream 1
[ "$(meta_of deb inline_ring)" = 0 ] || fail "Debian's qemu-aarch64: events not from the callbacks"
every_op_counted deb.raw.meta deb.counts "stream under Debian's QEMU"

for run in "pointer_chase 300000" "stream 2" "branchy 1"; do
  # shellcheck disable=SC2086 # $run is a word list
  record ours "$ours" -- "$examples"/$run
  # shellcheck disable=SC2086
  record calls "$ours" --no-inline-ring -- "$examples"/$run
  [ "$(meta_of ours inline_ring)" = 1 ] || fail "[$run] armprof's qemu-aarch64: events not logged inline"
  [ "$(meta_of calls inline_ring)" = 0 ] || fail "[$run] --no-inline-ring: events logged inline"
  grep -q "events logged inline by QEMU" ours.err || fail "[$run] the summary does not say how events were logged"
  cmp -s calls.raw ours.raw || fail "[$run] SPE bytes differ: callbacks against inline"
  cmp -s calls.counts ours.counts || fail "[$run] exact counts differ: callbacks against inline"
  cmp -s calls.out ours.out || fail "[$run] program output differs: callbacks against inline"
  for k in ops sample_pop sample_feed records threads; do
    [ "$(meta_of calls $k)" = "$(meta_of ours $k)" ] ||
      fail "[$run] $k: $(meta_of calls $k) from the callbacks, $(meta_of ours $k) inline"
  done
  diff calls.sum ours.sum > /dev/null || fail "[$run] summaries differ: $(diff calls.sum ours.sum)"
  every_op_counted ours.raw.meta ours.counts "$run inline"
  [ "$(wc -c < ours.raw)" -gt 10000 ] || fail "[$run] too few SPE bytes to mean anything"
done

# Two threads: every operation counted on both paths, and about the same
# numbers of operations and data accesses (thread start-up's atomics are
# made by QEMU's helpers when two threads run: QEMU's C code logs those).
# Both vary a little between any two runs, on either QEMU (glibc's thread
# start-up and join wait on each other: 24 runs gave 7229730-7229747
# operations and 2408521-2408523 accesses on a quiet machine; on one at a
# load of 15-20, two runs differed by 116 operations: the spin-waits spin
# longer), so the totals agree within 1024 operations (0.015%) and 256
# accesses. Each path's own exactness is every_op_counted's.
record deb "$ours" --no-inline-ring -- "$examples/false_sharing" 300000
record ours "$ours" -- "$examples/false_sharing" 300000
[ "$(meta_of ours threads)" = 2 ] || fail "false_sharing: $(meta_of ours threads) threads, want 2"
every_op_counted deb.raw.meta deb.counts "false_sharing callbacks"
every_op_counted ours.raw.meta ours.counts "false_sharing inline"
d=$(( $(meta_of deb ops) - $(meta_of ours ops) ))
[ "${d#-}" -le 1024 ] ||
  fail "false_sharing: $(meta_of deb ops) operations from the callbacks, $(meta_of ours ops) inline"
accesses() { sed -n 's/.*timing model: \([0-9]*\) accesses.*/\1/p' "$1.err"; }
[ -n "$(accesses ours)" ] && [ -n "$(accesses deb)" ] || fail "false_sharing: no timing-model summary"
d=$(( $(accesses deb) - $(accesses ours) ))
[ "${d#-}" -le 256 ] || fail "false_sharing: $(accesses deb) accesses from the callbacks, $(accesses ours) inline"
echo "record_inline_ring: ok"

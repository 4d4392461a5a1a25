#!/usr/bin/env bash
# perf.data benchmark (issue 5): a perf.data holding MIB MiB of SPE data
# (default 256), decoded by armprof and by Linux perf in the same run:
#   armprof decode --format jsonl FILE > /dev/null          (one JSON line per record)
#   perf script --itrace=i1i -F ip,addr,... FILE > /dev/null (one sample per record)
#   perf script FILE > /dev/null         (perf's default: l1d/llc/tlb/branch/memory... samples)
#   perf report -D FILE > /dev/null      (perf's packet dump)
# and the library alone (bench_gen_perfdata --read: open + decode, no output).
# Each perf command first runs on a 16 MiB slice; when that time scaled to MIB
# exceeds MAX_FULL seconds (default 60) it is not rerun on the full file but
# extrapolated linearly (printed as "extrapolated from 16 MiB").
# Usage: bash bench/bench_perfdata.sh BUILD_DIR [MIB]
set -euo pipefail
B=${1:-build}
MIB=${2:-256}
SLICE=16
MAX_FULL=${MAX_FULL:-60}
PERF=${PERF:-perf}
W=${TMPDIR:-/tmp}/armprof-bench-perfdata.$$
mkdir -p "$W"
trap 'rm -rf -- "$W"' EXIT

"$B/bench/bench_gen_perfdata" "$W/full.data" "$MIB"
"$B/bench/bench_gen_perfdata" "$W/slice.data" "$SLICE"

# seconds of the best of N runs of a command, output to /dev/null
best() {
  local n=$1; shift
  local b=999999
  for ((i = 0; i < n; i++)); do
    local s e t
    s=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if (( $(echo "$t < $b" | bc -l) )); then b=$t; fi
  done
  echo "$b"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$B/bench/bench_gen_perfdata" --read "$W/full.data"
a=$(best 3 "$B/armprof" decode --format jsonl "$W/full.data")
printf '%-58s %8.2f s  %7.1f MB/s\n' "armprof decode --format jsonl ($MIB MiB)" "$a" \
  "$(echo "$MIB * 1.048576 / $a" | bc -l)"

run_perf() { # label, then the perf command's arguments before -i
  local label=$1; shift
  local t scale=1 how="measured"
  t=$(best 1 "$PERF" "$@" -i "$W/slice.data")
  if (( $(echo "$t * $MIB / $SLICE <= $MAX_FULL" | bc -l) )); then
    t=$(best 1 "$PERF" "$@" -i "$W/full.data")
  else
    t=$(echo "$t * $MIB / $SLICE" | bc -l)
    how="extrapolated from $SLICE MiB"
  fi
  printf '%-58s %8.2f s  %7.1f MB/s  armprof %5.1fx faster (%s)\n' "$label" "$t" \
    "$(echo "$MIB * 1.048576 / $t" | bc -l)" "$(echo "$t / $a" | bc -l)" "$how"
}
run_perf "perf script --itrace=i1i -F ip,addr" script --itrace=i1i -F ip,addr
run_perf "perf script --itrace=i1i -F ip,addr,phys_addr,data_src,weight,time,cpu,tid,event,sym" \
  script --itrace=i1i -F ip,addr,phys_addr,data_src,weight,time,cpu,tid,event,sym
run_perf "perf script (default synthesized events and fields)" script
run_perf "perf report -D" report -D

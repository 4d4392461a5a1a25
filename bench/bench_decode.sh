#!/usr/bin/env bash
# Decoder benchmarks: the library into a counting sink (bench_decode), and the
# CLI `armprof decode --format jsonl > /dev/null` on the same 256 MiB stream.
# usage: bench/bench_decode.sh [BUILD_DIR] [MiB]
set -euo pipefail
build=${1:-build}
mib=${2:-256}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bench/bench_decode" "$mib"
"$build/bench/bench_decode" --write "$tmp/stream.spe" "$mib"
size=$(stat -c %s "$tmp/stream.spe")
for fmt in jsonl text; do
  t0=$(date +%s.%N)
  "$build/armprof" decode --format $fmt "$tmp/stream.spe" > /dev/null
  t1=$(date +%s.%N)
  echo "armprof decode --format $fmt: $(echo "$size / ($t1 - $t0) / 1000000" | bc -l | xargs printf '%.0f') MB/s ($(echo "$t1 - $t0" | bc -l | xargs printf '%.2f') s)"
done

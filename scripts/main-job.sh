#!/usr/bin/env bash
# The main job on the built-in default input: record the pointer-chasing
# example (examples/pointer_chase.c, built for aarch64 during set-up) under
# QEMU with the SPE model, then report where the time and the misses go,
# and show the function that holds the latency instruction by instruction.
# Without the aarch64 tool chain or qemu-user, it falls back to `armprof demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
example=build/examples/pointer_chase
if [ -x "$example" ] && command -v qemu-aarch64 >/dev/null; then
  mkdir -p out
  ./build/armprof record -o out/pointer_chase.data -- "$example"
  ./build/armprof report --top 10 out/pointer_chase.data
  echo
  # The hottest function by latency, instruction by instruction.
  ./build/armprof report --annotate chase out/pointer_chase.data
else
  echo "main-job: $example or qemu-aarch64 missing; running the built-in decoder demo instead" >&2
  ./build/armprof demo
fi

#!/usr/bin/env bash
# The README's test command: the whole suite, three times over:
#   1. release build, warnings as errors: ctest
#   2. ASan + UBSan build: ctest
#   0. docs/conformance.md is up to date with the tests
#   3. libFuzzer build (clang): each fuzz target for FUZZ_SECONDS (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
fuzz_seconds=${FUZZ_SECONDS:-20}

echo "== conformance map (docs/conformance.md against the tests' citations)"
python3 scripts/conformance.py --check

echo "== release build"
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== ASan+UBSan build"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DARMPROF_WERROR=ON -DARMPROF_SANITIZE=ON >/dev/null
cmake --build build-asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"

if [ "$fuzz_seconds" -gt 0 ] && command -v clang >/dev/null; then
  echo "== fuzzing (${fuzz_seconds}s per target)"
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DARMPROF_FUZZ=ON >/dev/null
  cmake --build build-fuzz
  for t in build-fuzz/fuzz/fuzz_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    work=$(mktemp -d)
    cp -r "fuzz/corpus/$name/." "$work/" 2>/dev/null || true
    echo "-- $name"
    if ! "$t" -max_total_time="$fuzz_seconds" -max_len=65536 "$work" > "$work.log" 2>&1; then
      tail -n 60 "$work.log"
      echo "FAIL: $name found a crash or a broken invariant (the input is in the log above)"
      exit 1
    fi
    grep -E '^Done|cov:' "$work.log" | tail -n 2
    rm -rf "$work" "$work.log"
  done
fi
echo "== all suites passed"

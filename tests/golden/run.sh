#!/usr/bin/env bash
# Golden corpus: each streams/NAME.spe (SPE text format) is encoded with
# `armprof encode`, then decoded in every output format; the outputs and the
# exit code must equal expected/NAME.*. Every stream is also decoded fed one
# byte at a time (--chunk-size 1), which must give identical output.
# UPDATE=1 rewrites the expected files (review the diff before committing).
set -u
armprof=$1 src=$2 work=$3
here=$src/tests/golden
mkdir -p "$work"
fail=0 count=0
for spe in "$here"/streams/*.spe; do
  name=$(basename "$spe" .spe)
  bin=$work/$name.bin
  if ! "$armprof" encode -o "$bin" "$spe"; then
    echo "FAIL $name: encode"; fail=$((fail + 1)); continue
  fi
  for fmt in packets jsonl text csv; do
    if [ $fmt = packets ]; then args=(--packets); else args=(--format $fmt); fi
    "$armprof" decode "${args[@]}" "$bin" > "$work/$name.$fmt" 2>/dev/null
    echo $? > "$work/$name.exit"
    "$armprof" decode "${args[@]}" --chunk-size 1 "$bin" > "$work/$name.$fmt.bytewise" 2>/dev/null
    if ! cmp -s "$work/$name.$fmt" "$work/$name.$fmt.bytewise"; then
      echo "FAIL $name: $fmt output differs when fed one byte at a time"; fail=$((fail + 1))
    fi
    if [ "${UPDATE:-0}" = 1 ]; then
      cp "$work/$name.$fmt" "$here/expected/$name.$fmt"
      cp "$work/$name.exit" "$here/expected/$name.exit"
    elif ! diff -u "$here/expected/$name.$fmt" "$work/$name.$fmt"; then
      echo "FAIL $name: $fmt output differs from expected/$name.$fmt"; fail=$((fail + 1))
    fi
    count=$((count + 1))
  done
  if ! diff -q "$here/expected/$name.exit" "$work/$name.exit" >/dev/null; then
    echo "FAIL $name: exit code $(cat "$work/$name.exit"), expected $(cat "$here/expected/$name.exit")"
    fail=$((fail + 1))
  fi
done
echo "$((count - fail)) passed, $fail failed"
[ $fail -eq 0 ]

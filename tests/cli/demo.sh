#!/usr/bin/env bash
# The README's main job on the built-in input decodes without errors and shows
# each record kind.
set -u
armprof=$1
out=$("$armprof" demo) || { echo "FAIL: demo exit $?"; exit 1; }
fail=0
for want in '"op":"LD"' '"op":"B"' '"op":"ST"' '"op":"OTHER"' 'ALIGN 64' 'llc-miss'; do
  grep -qF "$want" <<<"$out" || { echo "FAIL: demo output lacks $want"; fail=$((fail+1)); }
done
echo "$((6 - fail)) passed, $fail failed"
[ $fail -eq 0 ]

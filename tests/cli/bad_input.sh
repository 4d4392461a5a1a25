#!/usr/bin/env bash
# Bad input to decode and encode: a clear message naming what and where, the
# documented exit code, never a crash, and no partial output file.
set -u
armprof=$1 src=$2 work=$3
mkdir -p "$work"; cd "$work" || exit 2
pass=0 fail=0

# expect CODE PATTERN -- CMD...: exit code CODE and stderr matching PATTERN
expect() {
  local code=$1 pattern=$2; shift 3
  "$@" > out.txt 2> err.txt
  local got=$?
  if [ $got -ne "$code" ] || { [ -n "$pattern" ] && ! grep -Eq "$pattern" err.txt; }; then
    echo "FAIL: $* -> exit $got (want $code), stderr: $(head -c 300 err.txt)"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

printf 'pc 0x10; op ld; end\n' > ok.spe
"$armprof" encode -o ok.bin ok.spe

expect 2 "no such file|No such file" -- "$armprof" decode missing.bin
expect 2 "is a directory" -- "$armprof" decode .
expect 2 "unknown format 'xml'" -- "$armprof" decode --format xml ok.bin
expect 2 "unknown option '--frob'" -- "$armprof" decode --frob ok.bin
expect 2 "bad --chunk-size" -- "$armprof" decode --chunk-size 0 ok.bin
expect 2 "usage" -- "$armprof" decode
expect 2 "unknown command" -- "$armprof" frobnicate
if [ "$(id -u)" -ne 0 ]; then
  cp ok.bin unreadable.bin; chmod 000 unreadable.bin
  expect 2 "Permission denied" -- "$armprof" decode unreadable.bin
fi

# a header that claims a payload past the end: truncated, with its offset
printf '\xb0\x10\x00' > cut.bin
expect 1 "1 of 1 records held errors" -- "$armprof" decode cut.bin
grep -q '"offset":0' <("$armprof" decode --format jsonl cut.bin 2>/dev/null) || { echo "FAIL: truncated offset"; fail=$((fail+1)); }
# random bytes: exit 1, records still printed, no crash
head -c 65536 /dev/urandom > random.bin
"$armprof" decode --format jsonl random.bin > random.jsonl 2> random.err
rc=$?
if [ $rc -ne 1 ] && [ $rc -ne 0 ]; then echo "FAIL: random bytes exit $rc"; fail=$((fail+1)); else pass=$((pass+1)); fi
# the empty stream is fine
: > empty.bin
expect 0 "" -- "$armprof" decode empty.bin

# encode: errors name FILE:LINE, exit 1, and leave no output file
printf 'pc 0x10\nop frob\n' > bad.spe
expect 1 "bad.spe:2: op: unknown class 'frob'" -- "$armprof" encode -o bad.bin bad.spe
[ ! -e bad.bin ] && ls | grep -vq 'bad.bin.tmp' && pass=$((pass+1)) || { echo "FAIL: partial output left"; fail=$((fail+1)); }
expect 2 "No such file" -- "$armprof" encode -o x.bin missing.spe
expect 2 "No such file|Is a directory|Not a directory" -- "$armprof" encode -o /nonexistent/dir/x.bin ok.spe

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# A signal while armprof writes an output (SIGINT, SIGTERM, SIGHUP, SIGPIPE:
# tools/armprof/common/cli_tmpfiles.h): the temporary file is removed, a file
# already at the output path is left as it was, and armprof ends by the
# signal (exit status 128 + its number). The output is a large convert
# from an input that never ends, so the signal comes mid-write.
set -u
armprof=$1 src=$2 work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

for i in $(seq 2000); do printf 'pc 0x%x; op ld; end\n' $((i * 4)); done > s.spe
"$armprof" encode -o s.bin s.spe || exit 2
for _ in $(seq 200); do cat s.bin; done > block.bin # 4.8 MB

# Job control: background jobs get SIGINT at its default action (a
# script's background jobs otherwise ignore it), each in its own group.
set -m
for sig in INT TERM HUP; do
  num=$(kill -l "$sig")
  echo precious > "out-$sig.data"
  ( while :; do cat block.bin || exit 0; done ) | "$armprof" convert --to perf - "out-$sig.data" 2> err.txt &
  pid=$!
  # until the temporary file has grown (the write is under way)
  for _ in $(seq 300); do
    tmp=$(ls -A | grep -E "^\.out-$sig\.data\.armprof-" | head -1)
    [ -n "$tmp" ] && [ "$(stat -c %s "$tmp" 2> /dev/null || echo 0)" -gt 10000000 ] && break
    sleep 0.1
  done
  [ -n "$tmp" ] && ok || bad "$sig: no temporary file appeared: $(ls -A | tr '\n' ' ') $(cat err.txt)"
  kill -"$sig" "$pid"
  wait "$pid"
  rc=$?
  [ $rc -eq $((128 + num)) ] && ok || bad "$sig: exit status $rc, expected $((128 + num))"
  [ "$(cat "out-$sig.data")" = precious ] && ok || bad "$sig: the file at the output path was changed"
  if ls -A | grep -q '\.armprof-'; then bad "$sig: temporary file left: $(ls -A | tr '\n' ' ')"; else ok; fi
done
# An ignored signal (nohup) stays ignored: the convert finishes.
set +m
trap '' HUP
(for _ in 1 2 3 4 5; do cat block.bin; done) | "$armprof" convert --to perf - hup.data &
pid=$!
sleep 0.2
kill -HUP "$pid" 2> /dev/null
wait "$pid" && [ -s hup.data ] && ok || bad "an ignored SIGHUP ended the convert"
trap - HUP

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# Inputs as shells give them (tools/armprof/common/cli_stream.h, docs/outputs.md):
#  - a perf.data through a pipe is recognised by its magic, as a named file
#    is: decode, report and convert give what they give for the file;
#  - raw SPE data through a pipe streams, its first bytes not lost;
#  - an input that never ends and holds no record (/dev/zero) stops with a
#    message and exit 1 (under a timeout: no hang), in bounded memory;
#  - an empty input: a warning, exit 0;
#  - a --cpu/--tid selection that selects nothing: exit 1, and the message
#    names the CPUs and threads the file has.
set -u
armprof=$1 src=$2 work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
expect() { # expect CODE PATTERN CMD...
  local code=$1 pattern=$2; shift 2
  "$@" > out.txt 2> err.txt
  local got=$?
  if [ $got -ne "$code" ] || { [ -n "$pattern" ] && ! grep -Eq -- "$pattern" err.txt; }; then
    bad "$* -> exit $got (want $code), stderr: $(head -c 300 err.txt)"
  else
    ok
  fi
}

for i in $(seq 500); do printf 'pc 0x%x; op ld; lat total 30; end\n' $((0x400000 + i * 4 % 64)); done > s.spe
"$armprof" encode -o s.bin s.spe || exit 2
"$armprof" convert --cpu 3 --tid 77 s.bin s.data || exit 2

# 1. perf.data through a pipe: the same as the file.
"$armprof" decode s.data > file.txt 2> /dev/null
cat s.data | "$armprof" decode - > pipe.txt 2> pipe.err
cmp -s file.txt pipe.txt && ok || bad "decode - of a perf.data: $(head -3 pipe.txt) $(cat pipe.err)"
[ "$(wc -l < pipe.txt)" -eq 500 ] && ok || bad "decode - of a perf.data: $(wc -l < pipe.txt) records, expected 500"
"$armprof" report --format csv s.data > file.csv
cat s.data | "$armprof" report --format csv - > pipe.csv
cmp -s file.csv pipe.csv && ok || bad "report - of a perf.data differs from the file's"
grep -q "perf.data" <(cat s.data | "$armprof" report -) && ok || bad "report - does not say perf.data"
cat s.data | "$armprof" convert - back.raw
cmp -s back.raw s.bin && ok || bad "convert - of a perf.data: not the raw bytes"
cat s.data | "$armprof" decode --cpu 3 - > /dev/null && ok || bad "decode --cpu 3 - of a perf.data"
# through a FIFO too (a named pipe: not seekable either)
mkfifo in.fifo
cat s.data > in.fifo &
"$armprof" decode in.fifo > fifo.txt 2> /dev/null
wait
cmp -s file.txt fifo.txt && ok || bad "decode of a perf.data through a FIFO"

# 2. Raw data through a pipe: streamed, the magic bytes read first not lost.
"$armprof" decode s.bin > rawfile.txt
cat s.bin | "$armprof" decode - > rawpipe.txt
cmp -s rawfile.txt rawpipe.txt && ok || bad "decode - of raw data differs from the file's"
cat s.bin | "$armprof" convert --to perf - piped.data
cmp -s <("$armprof" decode piped.data 2> /dev/null) rawfile.txt && ok || bad "convert - of raw data"
head -c 5 s.bin | "$armprof" decode - > /dev/null 2>&1
[ $? -le 1 ] && ok || bad "decode - of 5 bytes"

# 3. An input that never ends and holds no record: a clear stop, exit 1.
for cmd in decode report; do
  expect 1 "/dev/zero: 64 MiB read and not one SPE record.*stopping" timeout 60 "$armprof" $cmd /dev/zero
done
expect 1 "/dev/zero: 64 MiB read and not one SPE record.*stopping" timeout 60 "$armprof" convert --to perf /dev/zero z.data
[ ! -e z.data ] && ok || bad "convert of /dev/zero left z.data"
# Bounded memory: an address-space limit (not under ASan, which reserves
# terabytes of it).
if ldd "$armprof" 2> /dev/null | grep -q asan; then
  limit=""
  echo "not run: the memory bounds (an ASan build)"
else
  limit="ulimit -v 150000;"
fi
# zeros through a pipe stop as /dev/zero does
expect 1 "-: 64 MiB read and not one SPE record" bash -c "$limit"' head -c 100000000 /dev/zero | timeout 60 "$1" convert --to perf - z.data' _ "$armprof"
[ ! -e z.data ] && ok || bad "convert of zeros left z.data"
# a stream of records: cut into AUX buffers of at most 16 MiB, every record kept
for _ in $(seq 1000); do cat s.bin; done > block.bin # 6 MB
expect 0 "" bash -c "$limit"' for i in 1 2 3 4; do cat "$2"; done | timeout 120 "$1" convert --to perf - long.data' _ "$armprof" block.bin
"$armprof" decode --stats long.data > /dev/null 2> long.err
grep -q "2000000 records (0 with errors" long.err && ok || bad "the long stream's records: $(tail -1 long.err)"
grep -q "2 of 2 AUX buffers" long.err && ok || bad "the long stream's AUX buffers: $(grep AUX long.err)"
# 300 MB, twice the memory allowed, into a private /dev/null (mknod; never
# the machine's own): the whole stream is never held
mkdir dev
if [ -n "$limit" ] && mknod dev/null c 1 3 2> /dev/null && echo probe > dev/null 2> /dev/null; then
  expect 0 "" bash -c "$limit"' for i in $(seq 50); do cat "$2"; done | timeout 300 "$1" convert --to perf - dev/null' _ "$armprof" block.bin
  [ -c dev/null ] && ok || bad "dev/null replaced"
else
  echo "not run: the 300 MB stream (needs mknod and no ASan)"
fi

# 4. An empty input: a warning.
: > empty.bin
expect 0 "empty.bin: warning: the input is empty" "$armprof" decode empty.bin
expect 0 "-: warning: the input is empty" sh -c '"$1" decode - < /dev/null' _ "$armprof"
expect 0 "empty.bin: warning: the input is empty" "$armprof" report empty.bin
expect 0 "empty.bin: warning: the input is empty" "$armprof" convert empty.bin empty.data
expect 0 "empty.data: warning: the perf.data holds no AUX buffer" "$armprof" decode empty.data

# 5. A selection that selects nothing: exit 1, naming what is there.
expect 1 "the selection \(--cpu 99\) matches none of its 1 AUX buffers \(their CPUs: 3; threads: 77\)" "$armprof" decode --cpu 99 s.data
expect 1 "the selection \(--tid 5\) matches none" "$armprof" report --tid 5 s.data
expect 1 "the selection \(--cpu 0 --tid 77\) matches none" "$armprof" convert --cpu 0 --tid 77 s.data none.raw
[ ! -e none.raw ] && ok || bad "an empty selection wrote none.raw"
expect 0 "" "$armprof" decode --cpu 3 --tid 77 s.data

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

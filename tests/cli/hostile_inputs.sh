#!/usr/bin/env bash
# Inputs that are not what a command reads (issue 32): a --binary that is not
# an AArch64 ELF file, one cut short or with broken section headers, a FIFO as
# --binary, a directory as a sim script, and convert given bytes that are no
# SPE stream. Each is refused with a message naming the file and why, and the
# same exit code in every command (2: --binary is an option's file, a usage
# error; 1: an input that holds no SPE data), never a hang or an output.
set -u
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 2
pass=0 fail=0

# expect CODE PATTERN -- CMD...: exit code CODE and stderr matching PATTERN, within 20 s
expect() {
  local code=$1 pattern=$2; shift 3
  timeout 20 "$@" > out.txt 2> err.txt
  local got=$?
  if [ $got -ne "$code" ] || { [ -n "$pattern" ] && ! grep -Eq -- "$pattern" err.txt; }; then
    echo "FAIL: $* -> exit $got (want $code), stderr: $(head -c 400 err.txt)"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

printf 'pc 0x400010 el=0; op ld; ev retired; lat total 9; end\n' > p.spe
"$armprof" encode -o p.raw p.spe || exit 1

# 1. --binary: report, decode and convert take and refuse the same files the
# same way: exit 2, "--binary: FILE: why", and no output file.
bins=()
if [ "$(od -An -tu2 -j18 -N2 "$armprof" | tr -d ' ')" != 183 ]; then
  cp "$armprof" host.elf; bins+=("host.elf:not AArch64 \\(183\\)")
fi
aarch64=$(dirname "$armprof")/examples/pointer_chase
if [ -f "$aarch64" ]; then
  head -c 5000 "$aarch64" > cut.elf; bins+=("cut.elf:section header table .* lies past the end of the file")
  cp "$aarch64" badsh.elf
  python3 - badsh.elf <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28); ent, = struct.unpack_from("<H", b, 0x3a)
struct.pack_into("<Q", b, shoff + 1 * ent + 0x18, 1 << 40)   # section 1's sh_offset: 1 TiB
open(sys.argv[1], "wb").write(b)
PY
  bins+=("badsh.elf:section 1 .* lies past the end of the file")
fi
mkfifo fifo.elf; bins+=("fifo.elf:not a regular file")
mkdir dir.elf; bins+=("dir.elf:is a directory")
for entry in "${bins[@]}"; do
  b=${entry%%:*} why=${entry#*:}
  rm -f r.out d.parquet c.data
  expect 2 "armprof report: --binary: $b: .*$why" -- "$armprof" report --binary "$b" -o r.out p.raw
  expect 2 "armprof decode: --binary: $b: .*$why" -- "$armprof" decode --format parquet --binary "$b" -o d.parquet p.raw
  expect 2 "armprof convert: --binary: $b: .*$why" -- "$armprof" convert --binary "$b" p.raw c.data
  for o in r.out d.parquet c.data; do
    [ ! -e $o ] || { echo "FAIL: $o written with --binary $b"; fail=$((fail + 1)); }
  done
done
# The AArch64 program itself is taken by all three.
if [ -f "$aarch64" ]; then
  expect 0 "" -- "$armprof" report --binary "$aarch64" -o r.out p.raw
  expect 0 "" -- "$armprof" decode --format parquet --binary "$aarch64" -o d.parquet p.raw
  expect 0 "" -- "$armprof" convert --binary "$aarch64" p.raw c.data
fi

# 2. sim: a directory as the script says so (not "Input/output error").
mkdir scriptdir
expect 2 "scriptdir: is a directory" -- "$armprof" sim scriptdir

# 3. convert: bytes that are no SPE stream are refused (exit 1, the output
# removed) whatever their size: not one record (zeros are Padding,
# SPE-5.1.2-1: a record ends with End or Timestamp), or most records holding
# header bytes that encode no packet (SPE-5.1.1-3, SPE-5.1.4-4).
python3 -c 'import random, sys; r = random.Random(32); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(65536)))' > random.bin
cp "$src/README.md" readme.txt
cp "$armprof" elf.bin
head -c 1 /dev/zero > zero1.bin
head -c 1048576 /dev/zero > zero1m.bin
for f in random.bin readme.txt elf.bin; do
  rm -f c.data
  expect 1 "armprof convert: $f: [0-9]+ of its [0-9]+ records hold bytes that are no SPE packet .*: not SPE data" -- \
    "$armprof" convert "$f" c.data
  [ ! -e c.data ] || { echo "FAIL: convert $f left c.data"; fail=$((fail + 1)); }
done
for f in zero1.bin zero1m.bin; do
  rm -f c.data
  expect 1 "armprof convert: $f: [0-9]+ bytes and not one SPE record \(padding only\): not SPE data" -- \
    "$armprof" convert "$f" c.data
  [ ! -e c.data ] || { echo "FAIL: convert $f left c.data"; fail=$((fail + 1)); }
done
# 63 MiB of zeros (under the 64 MiB early stop) and 64 MiB: both exit 1, not SPE data.
expect 1 "-: 66060288 bytes and not one SPE record \(padding only\): not SPE data" -- \
  bash -c 'head -c 66060288 /dev/zero | "$1" convert --to perf - c.data' _ "$armprof"
expect 1 "-: 64 MiB read and not one SPE record \(padding only\): not SPE data" -- \
  bash -c 'head -c 67108864 /dev/zero | "$1" convert --to perf - c.data' _ "$armprof"
[ ! -e c.data ] || { echo "FAIL: convert of zeros left c.data"; fail=$((fail + 1)); }
# A real stream with one record in three cut short is still SPE data.
printf 'pc 0x10; op ld; end\npc 0x14; op ld; ts 5\npc 0x18; op other; bytes 0x07\n' > mostly.spe
"$armprof" encode -o mostly.bin mostly.spe
expect 0 "" -- "$armprof" convert mostly.bin c.data

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

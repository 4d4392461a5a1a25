#!/usr/bin/env bash
# armprof report --format pprof (issue 31): the label sets stay bounded
# whatever the records' event words (5.3.7: a 64-bit Events payload, most of
# whose bits no architecture version names yet; hostile or unusual input
# may set any). Records whose event words are all distinct: the profile's
# labels are an `events` label per event set (a key repeated: at most 64
# strings), and its label sets are emptied with the samples they name
# (report_pprof_samples.h), so that 10x the distinct words costs at most
# 4 MiB more peak RSS (both with a table of 4096 samples, which both fill:
# the default 65536 costs up to 4.5 MiB whatever the input) (the build before kept every word's label set and its
# comma-joined name: 200 000 words, tens of MiB more); Go's pprof reads the
# profile, its samples and each event's count the records'.
# Skipped (77) without go; the RSS check is skipped in sanitizer builds.
# Args: $1 armprof, $2 scratch dir.
set -euo pipefail
A=$1; WORK=$2
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
gen() { # OUT N: N records at 8 PCs, each its own random 64-bit event word (header 0x72: 8 bytes)
	python3 - "$1" "$2" << 'PY'
import random, struct, sys
r = random.Random(31)
out = bytearray()
for i in range(int(sys.argv[2])):
    out += b"\xb0" + struct.pack("<Q", 0x400a10 + 4 * (i % 8))
    out += b"\x72" + struct.pack("<Q", r.getrandbits(64)) + b"\x01"
open(sys.argv[1], "wb").write(out)
PY
}
gen small.spe 20000
gen large.spe 200000
if [ -z "${ARMPROF_SANITIZED:-}" ] && [ -x /usr/bin/time ]; then
	rss() { ARMPROF_PPROF_SAMPLES=4096 /usr/bin/time -f %M "$A" report --format pprof -o "$2" "$1" 2>&1 > /dev/null | tail -1; }
	s=$(rss small.spe small.pb.gz); l=$(rss large.spe large.pb.gz)
	[ $((l - s)) -le 4096 ] || fail "peak RSS $s KiB for 20 000 distinct event words, $l KiB for 200 000: more than 4 MiB more"
	echo "ok: peak RSS $s KiB (20 000 distinct event words), $l KiB (200 000)"
else
	"$A" report --format pprof -o small.pb.gz small.spe
	echo "note: a sanitizer build: peak RSS not checked"
fi
command -v go > /dev/null || { echo "SKIP: go is not installed (golang-go: scripts/install-deps.sh)"; exit 77; }
export HOME=$WORK GOCACHE=$WORK/gocache PPROF_TMPDIR=$WORK
go tool pprof -top small.pb.gz > top.txt 2> /dev/null || fail "go tool pprof cannot read the profile"
grep -q 'of 20000 total' top.txt || fail "samples: $(grep total top.txt), want 20000"
# each event's samples: the records with its bit set, counted here
python3 - > want.txt << 'PY'
import random
r = random.Random(31)
n = [0] * 64
for i in range(20000):
    w = r.getrandbits(64)
    for b in range(64):
        n[b] += (w >> b) & 1
print(n[1], n[12], n[63])
PY
go tool pprof -tags small.pb.gz > tags.txt 2> /dev/null
got=$(for name in retired e12 e63; do
	awk -v n="$name" '$NF == n { print $1; exit }' tags.txt | sed 's/\.0$//'
done | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$(cat want.txt)" ] || fail "events retired, e12, e63: $got samples, want $(cat want.txt)"
echo "report_pprof_labels: ok (events retired e12 e63: $got)"

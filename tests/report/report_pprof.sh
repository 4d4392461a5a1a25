# armprof report --format pprof -o FILE (issue 31): a gzipped profile.proto
# that Go's own pprof (Debian's golang-go, `go tool pprof`) reads: every
# sample type's total is the records' (samples, total latency, E[3] L1D
# refill, E[9] LLC miss, E[5] TLB walk, E[7] mispredicted: spec/002 5.3.4,
# 5.3.7); the labels op, data_source and events; on the main job's
# recording (scripts/main-job.sh: examples/pointer_chase under
# qemu-aarch64) -sample_index=latency names the pointer chase's load
# function, chase, first, with its call stack and source lines.
# Skipped (77) without go.
# Args: $1 armprof, $2 scratch dir, $3 perfdata_spe_gen.
set -euo pipefail
A=$1; WORK=$2; GEN=$3
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
command -v go > /dev/null || { echo "SKIP: go is not installed (golang-go: scripts/install-deps.sh)"; exit 77; }
export HOME=$WORK GOCACHE=$WORK/gocache PPROF_TMPDIR=$WORK
total() { # FILE SAMPLE_INDEX -> the total pprof shows
	go tool pprof -top -sample_index="$2" "$1" 2> /dev/null |
		sed -n 's/^Showing nodes accounting for .* of \([0-9.]*\)[a-z]* total$/\1/p'
}
totals() { # FILE -> the exact sums of every sample type over pprof's samples (-raw)
	go tool pprof -raw "$1" 2> /dev/null | awk '/^Samples:/ { s = 1; getline; next } /^Locations/ { s = 0 }
		s && /^ +[0-9]/ { sub(/:.*/, ""); for (i = 1; i <= NF; i++) t[i] += $i }
		END { for (i = 1; i <= 6; i++) printf "%s%.0f", (i > 1 ? " " : ""), t[i]; print "" }'
}
file_samples() { # FILE -> the Sample elements in the file itself (pprof merges equal ones as it reads)
	python3 - "$1" << 'PY'
import gzip, sys
d = gzip.open(sys.argv[1]).read()
def varint(i):
    v = s = 0
    while True:
        b = d[i]; i += 1; v |= (b & 127) << s; s += 7
        if b < 128:
            return v, i
i = n = 0
while i < len(d):
    k, i = varint(i)
    if k & 7 == 2:
        l, i = varint(i); i += l
    elif k & 7 == 0:
        i = varint(i)[1]
    else:
        sys.exit("wire type %d" % (k & 7))
    n += k >> 3 == 2
print(n)
PY
}
# A profile written in parts (ARMPROF_PPROF_SAMPLES=N: at most N distinct
# samples held, then written into the profile) against one written whole:
# every sample type's exact total, -top (each function's flat and cum, by
# latency) and -tags the same. $3: the least Sample elements the parts'
# file must hold (the table was written more than once).
same_in_parts() { # IN N MIN_FILE_SAMPLES [report options...]
	local in=$1 n=$2 min=$3; shift 3
	"$A" report "$@" --format pprof -o whole.pb.gz "$in"
	ARMPROF_PPROF_SAMPLES=$n "$A" report "$@" --format pprof -o parts.pb.gz "$in"
	local w p
	w=$(totals whole.pb.gz); p=$(totals parts.pb.gz)
	[ "$w" = "$p" ] || fail "$in in parts of $n: totals $p, written whole $w"
	go tool pprof -top -nodecount=1000000 -sample_index=latency whole.pb.gz > whole.top 2> /dev/null
	go tool pprof -top -nodecount=1000000 -sample_index=latency parts.pb.gz > parts.top 2> /dev/null
	diff whole.top parts.top > /dev/null || fail "$in in parts of $n: -top differs: $(diff whole.top parts.top | head)"
	go tool pprof -tags whole.pb.gz > whole.tags 2> /dev/null
	go tool pprof -tags parts.pb.gz > parts.tags 2> /dev/null
	diff whole.tags parts.tags > /dev/null || fail "$in in parts of $n: -tags differ"
	local fw fp
	fw=$(file_samples whole.pb.gz); fp=$(file_samples parts.pb.gz)
	[ "$fp" -ge "$min" ] || fail "$in in parts of $n: $fp samples in the file (written whole: $fw), want at least $min"
	echo "ok: $in in parts of $n: totals $p; $fp samples in the file (whole: $fw)"
}

# 1. Records written by hand: the totals of every sample type and the labels.
cat > hand.txt << 'EOF'
pc 0x400a10 el=0; op ld; ev retired l1d-access l1d-refill tlb-access tlb-walk llc-access llc-miss; lat total 300; va 0x1000; ds 14; end
pc 0x400a10 el=0; op ld; ev retired l1d-access l1d-refill tlb-access tlb-walk llc-access llc-miss; lat total 200; va 0x1040; ds 14; end
pc 0x400a14 el=0; op ld; ev retired l1d-access tlb-access; lat total 4; va 0x2000; ds 0; end
pc 0x400a18 el=0; op b cond; ev retired mispredicted; lat total 7; tgt 0x400a00 el=0; end
pc 0x400a1c el=0; op st; ev retired l1d-access e12; lat total 2; va 0x3000; end
EOF
"$A" encode -o hand.spe hand.txt
"$A" report --cpu-model neoverse-n1 --format pprof -o hand.pb.gz hand.spe
gzip -t hand.pb.gz || fail "hand.pb.gz is not gzip"
got="$(total hand.pb.gz samples) $(total hand.pb.gz latency) $(total hand.pb.gz l1d_miss) $(total hand.pb.gz llc_miss)"
got="$got $(total hand.pb.gz tlb_walk) $(total hand.pb.gz mispredict)"
[ "$got" = "5 513 2 2 2 1" ] || fail "hand: totals samples latency l1d llc tlb mispredict: $got, want 5 513 2 2 2 1"
go tool pprof -tags hand.pb.gz > tags.txt 2> /dev/null
for want in "3.0 (60.00%): LD" "1.0 (20.00%): B" "2.0 (66.67%): DRAM" "1.0 (33.33%): L1D" \
            "5.0 (22.73%): retired" "2.0 ( 9.09%): llc-miss" "1.0 ( 4.55%): e12" \
            "1.0 ( 4.55%): mispredicted"; do
	grep -qF "$want" tags.txt || fail "hand: no label '$want' in: $(cat tags.txt)"
done
# an events label per event (a key repeated): of the 22 events of the 5 records
grep -qF "events: Total 22.0" tags.txt || fail "hand: not an events label per event: $(cat tags.txt)"
echo "ok: hand: totals $got; op, data_source and events labels"

# 2. A large generated stream: the totals are those of `report --format json`.
"$GEN" big.spe 200000 7
"$A" report --format pprof -o big.pb.gz big.spe
"$A" decode --format jsonl big.spe | python3 -c '
import json, sys
n = lat = 0
for l in sys.stdin:
    r = json.loads(l)
    if "pc" in r:
        n += 1; lat += r.get("lat_total", 0)
print(n, lat)' > big.want
echo "$(total big.pb.gz samples) $(total big.pb.gz latency)" > big.got
diff big.want big.got > /dev/null || fail "big: samples, latency $(cat big.got), want $(cat big.want)"
echo "ok: big: samples and latency $(cat big.got)"

# 3. Written in parts: the hand-written records 50 times over (4 distinct
# samples: whole, 4 in the file; in parts of 2, each written again and again),
# and the large stream in parts of 1000 (200 and more writes).
for i in $(seq 50); do cat hand.spe; done > hand50.spe
same_in_parts hand50.spe 2 100 --cpu-model neoverse-n1
[ "$(totals parts.pb.gz)" = "250 25650 100 100 100 50" ] || fail "hand50: totals $(totals parts.pb.gz)"
[ "$(file_samples whole.pb.gz)" = 4 ] || fail "hand50 written whole: $(file_samples whole.pb.gz) samples, want 4"
same_in_parts big.spe 1000 1
# The table's size is checked. The profile's first 64 KiB and more go to a
# temporary file until the output is opened (big.spe's: its first parts),
# unlinked at once: never left; one that cannot be made is an I/O error (2).
set +e; ARMPROF_PPROF_SAMPLES=0 "$A" report --format pprof -o env.pb.gz hand.spe 2> env.err; rc=$?; set -e
[ $rc = 2 ] && grep -q ARMPROF_PPROF_SAMPLES env.err || fail "ARMPROF_PPROF_SAMPLES=0: exit $rc, $(cat env.err)"
mkdir tmp
TMPDIR=$WORK/tmp ARMPROF_PPROF_SAMPLES=1000 "$A" report --format pprof -o tmpdir.pb.gz big.spe
[ -z "$(ls -A tmp)" ] || fail "a temporary file left in TMPDIR: $(ls -A tmp)"
cmp tmpdir.pb.gz parts.pb.gz || fail "the profile through TMPDIR differs"
set +e; TMPDIR=$WORK/nodir ARMPROF_PPROF_SAMPLES=1000 "$A" report --format pprof -o y.pb.gz big.spe 2> tmp.err; rc=$?; set -e
[ $rc = 2 ] && grep -q "cannot create a temporary file in $WORK/nodir" tmp.err && [ ! -e y.pb.gz ] ||
	fail "TMPDIR missing: exit $rc, $(cat tmp.err)"
if mknod full c 1 7 2> /dev/null; then # a private /dev/full: every write fails (ENOSPC)
	set +e; ARMPROF_PPROF_SAMPLES=2 "$A" report --format pprof -o full hand50.spe 2> full.err; rc=$?; set -e
	[ $rc = 2 ] && grep -q "full: .*No space left" full.err || fail "-o a full device: exit $rc, $(cat full.err)"
fi
echo "ok: ARMPROF_PPROF_SAMPLES checked, the temporary file never left, its failures and the output's exit 2"

# 4. The main job's recording: chase first by latency, under main.
prog=$(dirname "$A")/examples/pointer_chase
if command -v qemu-aarch64 > /dev/null && [ -x "$prog" ] && [ -e "$(dirname "$A")/armprof-qemu.so" ]; then
	"$A" record -q -o chase.data -- "$prog" > /dev/null
	"$A" report --format pprof -o chase.pb.gz chase.data
	go tool pprof -top -sample_index=latency chase.pb.gz > chase.top 2> /dev/null
	first=$(awk '/flat%/ { getline; print $NF; exit }' chase.top)
	[ "$first" = chase ] || fail "chase: the first function by latency is '$first': $(cat chase.top)"
	grep -q ' main$' chase.top || fail "chase: no call stack (main) in $(cat chase.top)"
	go tool pprof -top -lines -sample_index=latency chase.pb.gz 2> /dev/null | grep -q 'chase pointer_chase.c:[0-9]' ||
		fail "chase: no source line for chase"
	echo "ok: chase: $(sed -n '/flat%/{n;p;q}' chase.top)"
	# with call stacks, in parts of 8 (a few dozen distinct samples)
	same_in_parts chase.data 8 $(( $(file_samples chase.pb.gz) + 1 ))
else
	echo "note: no qemu-aarch64 or examples: the main job's recording is not checked"
fi

# 5. Usage: a file, not a terminal or another view.
for args in "--format pprof hand.spe" "--format pprof --flame -o x.pb.gz hand.spe"; do
	set +e; "$A" report $args > /dev/null 2> usage.err; rc=$?; set -e
	[ $rc = 2 ] || fail "report $args: exit $rc, want 2"
done
[ ! -e x.pb.gz ] || fail "a usage error left x.pb.gz"
echo "report_pprof: ok"

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
            "1.0 (20.00%): retired,l1d-access,e12" "1.0 (20.00%): retired,mispredicted"; do
	grep -qF "$want" tags.txt || fail "hand: no label '$want' in: $(cat tags.txt)"
done
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

# 3. The main job's recording: chase first by latency, under main.
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
else
	echo "note: no qemu-aarch64 or examples: the main job's recording is not checked"
fi

# 4. Usage: a file, not a terminal or another view.
for args in "--format pprof hand.spe" "--format pprof --flame -o x.pb.gz hand.spe"; do
	set +e; "$A" report $args > /dev/null 2> usage.err; rc=$?; set -e
	[ $rc = 2 ] || fail "report $args: exit $rc, want 2"
done
[ ! -e x.pb.gz ] || fail "a usage error left x.pb.gz"
echo "report_pprof: ok"

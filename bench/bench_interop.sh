#!/usr/bin/env bash
# Interop at size (issue 31; issue 32 item 11): time and peak RSS of
#   armprof decode --format jsonl / spe-parser, per -j (1, 2, the default)
#   armprof report, text and --format pprof (its wall also as a ratio to
#   the text report's: the same reading, its profile written as it goes)
# against `perf script` and `perf report --stdio` in the same run, on
# perf.data files of SIZES MiB of SPE data (bench_gen_perfdata, 4 CPUs'
# buffers; default 80 and 800), and armprof report against perf report on
# streams of PCS distinct PCs (tests/report/pcs_gen, one record per PC,
# made a perf.data by `armprof convert` for perf). Wall is the best of RUNS
# (default 3; 1 above 200 MiB), peak RSS (/usr/bin/time %M) that run's.
# A perf command whose 16 MiB time, scaled, passes MAX_FULL seconds
# (default 300) is extrapolated, marked so, its RSS not measured; a
# report whose PCs would not fit in the memory available (about 100 bytes a
# distinct PC for armprof, 2 KiB for perf report) is skipped, said so.
# Usage: bash bench/bench_interop.sh BUILD_DIR ["80 800"] ["250000 2000000 20000000"]
set -euo pipefail
B=${1:-build}
SIZES=${2:-"80 800"}
PCS=${3:-"250000 2000000 20000000"}
MAX_FULL=${MAX_FULL:-300}
PERF=${PERF:-perf}
tmp=${TMPDIR:-/tmp}/armprof-bench-interop.$$
mkdir -p "$tmp"
trap 'rm -rf -- "$tmp"' EXIT
command -v /usr/bin/time > /dev/null || { echo "needs /usr/bin/time (GNU time)"; exit 2; }

run() { # RUNS CMD... -> "wall_s peak_kib" of the best run
	local n=$1 bw="" br=""
	shift
	for _ in $(seq "$n"); do
		/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" > /dev/null 2> "$tmp/err" || true
		read -r w r < <(tail -1 "$tmp/t")
		if [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$w; br=$r; fi
	done
	echo "$bw $br"
}
row() { # LABEL "wall rss" [REFERENCE_WALL [REFERENCE_NAME]]
	local w r
	read -r w r <<< "$2"
	if [ -n "${3:-}" ]; then
		printf '%-62s %8.2f s %9.1f MiB  %6.2fx %s\n' "$1" "$w" "$(echo "$r / 1024" | bc -l)" \
			"$(echo "$w / $3" | bc -l)" "${4:-armprof}"
	else
		printf '%-62s %8.2f s %9.1f MiB\n' "$1" "$w" "$(echo "$r / 1024" | bc -l)"
	fi
}
perf_row() { # LABEL FILE SLICE_FILE SIZE_MIB ARMPROF_WALL PERF_ARGS...
	local label=$1 file=$2 slice=$3 mib=$4 ref=$5
	shift 5
	local t w
	t=$(run 1 "$PERF" "$@" -i "$slice")
	w=${t% *}
	if awk -v w="$w" -v m="$mib" -v max="$MAX_FULL" 'BEGIN { exit !(w * m / 16 > max) }'; then
		w=$(echo "$w * $mib / 16" | bc -l)
		printf '%-62s %8.2f s %13s  %6.2fx armprof (extrapolated from 16 MiB)\n' "$label" "$w" "n/a" \
			"$(echo "$w / $ref" | bc -l)"
	else
		row "$label" "$(run 1 "$PERF" "$@" -i "$file")" "$ref"
	fi
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); CPUs: $(nproc) (decode -j default: those the load average leaves idle, at least 1)"
"$B/bench/bench_gen_perfdata" "$tmp/slice.data" 16 4 > /dev/null
for mib in $SIZES; do
	f=$tmp/$mib.data
	"$B/bench/bench_gen_perfdata" "$f" "$mib" 4
	runs=${RUNS:-$([ "$mib" -gt 200 ] && echo 1 || echo 3)}
	ref=""
	for j in 1 2 default; do
		jarg=(); [ $j = default ] || jarg=(-j $j)
		t=$(run "$runs" "$B/armprof" decode --format jsonl "${jarg[@]}" "$f")
		[ -n "$ref" ] || ref=${t% *}
		row "armprof decode --format jsonl -j $j ($mib MiB)" "$t"
	done
	for j in 1 default; do
		jarg=(); [ $j = default ] || jarg=(-j $j)
		row "armprof decode --format spe-parser -j $j ($mib MiB)" \
			"$(run "$runs" "$B/armprof" decode --format spe-parser "${jarg[@]}" -o "$tmp/sp" "$f")"
	done
	perf_row "perf script ($mib MiB)" "$f" "$tmp/slice.data" "$mib" "$ref" script
	t=$(run "$runs" "$B/armprof" report "$f")
	row "armprof report ($mib MiB)" "$t"
	row "armprof report --format pprof ($mib MiB)" "$(run "$runs" "$B/armprof" report --format pprof -o "$tmp/p.pb.gz" "$f")" \
		"${t% *}" "armprof report"
	perf_row "perf report --stdio ($mib MiB)" "$f" "$tmp/slice.data" "$mib" "${t% *}" report --stdio
	rm -f "$f" "$tmp"/sp-*.parquet
done

for n in $PCS; do
	avail=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
	if [ $((n / 10)) -gt $((avail / 2)) ]; then
		echo "armprof report, $n distinct PCs: skipped (about $((n / 10 / 1024)) MiB; $((avail / 1024)) MiB available)"
		continue
	fi
	"$B/tests/report/pcs_gen" "$tmp/pcs.spe" "$n" "$n"
	"$B/armprof" convert --to perf "$tmp/pcs.spe" "$tmp/pcs.data" 2> /dev/null
	t=$(run 1 "$B/armprof" report "$tmp/pcs.data")
	row "armprof report ($n distinct PCs, $n records)" "$t"
	row "armprof report --format pprof ($n distinct PCs)" \
		"$(run 1 "$B/armprof" report --format pprof -o "$tmp/p.pb.gz" "$tmp/pcs.data")" "${t% *}" "armprof report"
	if [ $((n * 2)) -gt $((avail / 2)) ]; then
		echo "perf report --stdio, $n distinct PCs: skipped (about $((n * 2 / 1024)) MiB; $((avail / 1024)) MiB available)"
	else
		row "perf report --stdio ($n distinct PCs)" "$(run 1 "$PERF" report --stdio -i "$tmp/pcs.data")" "${t% *}"
	fi
	rm -f "$tmp/pcs.spe" "$tmp/pcs.data"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

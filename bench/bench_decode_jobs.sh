#!/usr/bin/env bash
# armprof decode -j (issue 31): every decode format at -j 1, -j 2 and the
# default -j, on bench_gen_perfdata perf.data files of SIZES MiB (4 CPUs'
# buffers; default "1 8 80 800"; 1 MiB: the smallest that -j decodes on
# threads, decode_perf.c), and `armprof report` beside them (one thread:
# it has no -j). Each line: wall, CPU (user+system, all threads), peak RSS
# (/usr/bin/time -f '%e s %U+%S s %M KB'), the best wall of RUNS (default 5;
# 1 above 200 MiB), and its wall and CPU as ratios to -j 1's in the same
# run; under 16 MiB a run is 20 commands in a row (time's 10 ms steps), its
# figures per command; the load average at the start and the end. Text formats write to
# /dev/null, Parquet and spe-parser to files here.
# Usage: bash bench/bench_decode_jobs.sh BUILD_DIR ["1 8 80 800"] [FORMATS]
set -euo pipefail
B=${1:-build}
SIZES=${2:-"1 8 80 800"}
FORMATS=${3:-"jsonl csv text parquet spe-parser"}
tmp=${TMPDIR:-/tmp}/armprof-bench-jobs.$$
mkdir -p "$tmp"
trap 'rm -rf -- "$tmp"' EXIT
command -v /usr/bin/time > /dev/null || { echo "needs /usr/bin/time (GNU time)"; exit 2; }

run() { # RUNS CMD... -> "wall user sys rss" of the run with the best wall (per command of REPS)
	local n=$1 best=""
	shift
	for _ in $(seq "$n"); do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" sh -c 'n=$1; shift; for i in $(seq "$n"); do "$@" || exit 1; done' \
			sh "$REPS" "$@" > /dev/null 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		local t; t=$(tail -1 "$tmp/t" | awk -v n="$REPS" '{ printf "%.4f %.4f %.4f %d", $1 / n, $2 / n, $3 / n, $4 }')
		if [ -z "$best" ] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}
line() { # LABEL "wall user sys rss" [REF "wall user sys rss"]
	local w u s r rw ru rs
	read -r w u s r <<< "$2"
	if [ -n "${3:-}" ]; then
		read -r rw ru rs _ <<< "$3"
		printf '%-52s %7.3f s %6.3f+%.3f s %8d KB   wall %5.2fx  CPU %5.2fx -j 1\n' "$1" "$w" "$u" "$s" "$r" \
			"$(echo "$w / ($rw + 0.000001)" | bc -l)" "$(echo "($u + $s) / ($ru + $rs + 0.000001)" | bc -l)"
	else
		printf '%-52s %7.3f s %6.3f+%.3f s %8d KB\n' "$1" "$w" "$u" "$s" "$r"
	fi
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); CPUs: $(nproc)"
for mib in $SIZES; do
	f=$tmp/$mib.data
	"$B/bench/bench_gen_perfdata" "$f" "$mib" 4 > /dev/null
	runs=${RUNS:-$([ "$mib" -gt 200 ] && echo 1 || echo 5)}
	REPS=$([ "$mib" -lt 16 ] && echo 20 || echo 1)
	for fmt in $FORMATS; do
		out=(); case $fmt in parquet) out=(-o "$tmp/o.parquet") ;; spe-parser) out=(-o "$tmp/sp") ;; esac
		ref=$(run "$runs" "$B/armprof" decode --format "$fmt" -j 1 "${out[@]}" "$f")
		line "decode --format $fmt -j 1 ($mib MiB)" "$ref"
		line "decode --format $fmt -j 2 ($mib MiB)" "$(run "$runs" "$B/armprof" decode --format "$fmt" -j 2 "${out[@]}" "$f")" "$ref"
		jd=$("$B/armprof" decode --stats --format "$fmt" "${out[@]}" "$f" 2>&1 > /dev/null | sed -n 's/^armprof decode: -j \([0-9]*\):.*/\1/p')
		line "decode --format $fmt (default: -j $jd now) ($mib MiB)" "$(run "$runs" "$B/armprof" decode --format "$fmt" "${out[@]}" "$f")" "$ref"
	done
	line "report -o /dev/null ($mib MiB)" "$(run "$runs" "$B/armprof" report -o /dev/null "$f")"
	rm -f "$f" "$tmp"/o.parquet "$tmp"/sp-*.parquet
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

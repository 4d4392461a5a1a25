#!/usr/bin/env bash
# Per-event cost of the timing model (lib/uarch), two builds side by side:
# bench_record_uarch of an old and a new build on the same fixed trace, with
# three cores (the directory, same-line sharing, invalidations) and with one
# (a single-threaded program's paths). For each it prints
#   - host instructions per access and per branch under callgrind
#     (deterministic: the figure to trust on a busy machine), counted from
#     the self cost of lib/uarch's functions (ap_uarch_branch's for branches,
#     the rest for accesses; the driver's own loop and hashing left out);
#   - the CPU ns per access+branch bench_record_uarch prints, best of RUNS,
#     the two builds alternated run by run;
#   - whether the result hashes agree (a speed-up must leave them alone).
#
# usage: bench/bench_uarch_cost.sh OLD_BENCH NEW_BENCH [RUNS] [MILLION_STEPS]   (5, 3)
# OLD_BENCH/NEW_BENCH: bench_record_uarch binaries that take "cores N" (this
# tree's driver), built the same way (scripts/build.sh) against the old and
# the new lib/uarch: for the old one, a tree of the commit to compare with
# (git archive REV | tar -x -C DIR) with this tree's
# bench/bench_record_uarch.c copied in, then
#   cmake -S DIR -B DIR/build -G Ninja && ninja -C DIR/build bench/bench_record_uarch
# Needs valgrind and callgrind_annotate.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_BENCH NEW_BENCH [RUNS] [MILLION_STEPS]" >&2; exit 2; }
old=$1 new=$2 runs=${3:-5} steps=${4:-3}
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "bench_uarch_cost: $b: not an executable" >&2; exit 2; }
done
command -v valgrind > /dev/null && command -v callgrind_annotate > /dev/null ||
  { echo "bench_uarch_cost: needs valgrind (callgrind_annotate)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# instructions per access and per branch of one callgrind run ($1: output,
# $2: accesses, $3: branches)
per_event() {
  callgrind_annotate --auto=no --threshold=100 "$1" 2> /dev/null | awk -v na="$2" -v nb="$3" '
    /^ *[0-9,]+ .*:/ && !/PROGRAM TOTALS/ {
      n = $1; gsub(",", "", n)
      if ($0 ~ /lib\/uarch\// && $0 ~ /:ap_uarch_branch/) br += n
      else if ($0 ~ /lib\/uarch\// && $0 !~ /_create|_init|_destroy|_fini/) acc += n
    }
    END { printf "%.1f %.1f\n", acc / na, br / nb }'
}

echo "<!-- $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) -->"
echo "bench_record_uarch $steps (M steps); callgrind on 1 M steps; CPU ns best of $runs, alternated."
echo
echo "| cores | old instr/access | new instr/access | old instr/branch | new instr/branch | old ns/event | new ns/event | new/old ns | same hash |"
echo "|---|---|---|---|---|---|---|---|---|"
for cores in 3 1; do
  for which in old new; do
    bin=$old
    [ $which = new ] && bin=$new
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$which" "$bin" 1 cores $cores > "$tmp/out.$which" 2> /dev/null
    acc=$(sed -n 's/^\([0-9]*\) accesses and \([0-9]*\) branches.*/\1/p' "$tmp/out.$which")
    br=$(sed -n 's/^\([0-9]*\) accesses and \([0-9]*\) branches.*/\2/p' "$tmp/out.$which")
    per_event "$tmp/cg.$which" "$acc" "$br" > "$tmp/ipe.$which"
    echo 1e9 > "$tmp/best.$which"
  done
  for ((i = 0; i < runs; i++)); do
    for which in old new; do
      bin=$old
      [ $which = new ] && bin=$new
      "$bin" "$steps" cores $cores > "$tmp/run.$which"
      ns=$(sed -n 's/.* CPU: \([0-9.]*\) ns per access+branch mix/\1/p' "$tmp/run.$which")
      sed -n 's/^result hash //p' "$tmp/run.$which" > "$tmp/hash.$which"
      awk -v a="$ns" '{ print (a < $1 ? a : $1) }' "$tmp/best.$which" > "$tmp/best.tmp"
      mv "$tmp/best.tmp" "$tmp/best.$which"
    done
  done
  read -r oa ob < "$tmp/ipe.old"
  read -r na nb < "$tmp/ipe.new"
  bo=$(cat "$tmp/best.old") bn=$(cat "$tmp/best.new")
  same=no
  cmp -s "$tmp/hash.old" "$tmp/hash.new" && same="yes ($(cat "$tmp/hash.new"))"
  echo "| $cores | $oa | $na | $ob | $nb | $bo | $bn |" \
       "$(awk -v a="$bn" -v b="$bo" 'BEGIN { printf "%.2fx", a / b }') | $same |"
done
echo "<!-- load average at end: $(cut -d' ' -f1-3 /proc/loadavg) -->"

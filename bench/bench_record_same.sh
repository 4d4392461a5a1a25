#!/usr/bin/env bash
# Check that a change to the QEMU plugin or the timing model left what it
# computes alone: record the single-threaded examples with two plugin builds
# (e.g. before and after a speed-up) and compare the raw SPE bytes, the exact
# per-PC counts, the program's output and armprof's summary byte for byte.
# Context packets are off (--no-context): they hold the thread id, which
# differs from run to run. Multi-threaded programs are not compared: their
# interleaving, and so the shared LLC and directory, differ between runs.
#
# usage: bench/bench_record_same.sh BUILD_DIR OLD_PLUGIN.so NEW_PLUGIN.so
# NEW_OPTS: record options added to the new plugin's runs only, e.g.
#   NEW_OPTS=--no-pipeline bench/bench_record_same.sh build P.so P.so
# checks that replaying on the program's threads gives what the model
# threads give.
# Exit status 0 when every run matched, 1 otherwise (each difference named).
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR OLD_PLUGIN.so NEW_PLUGIN.so" >&2; exit 2; }
build=$1 old=$2 new=$3
armprof=$build/armprof ex=$build/examples
for f in "$armprof" "$old" "$new" "$ex/pointer_chase"; do
  [ -e "$f" ] || { echo "bench_record_same: $f: missing" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
# compare SYSROOT PROGRAM ARGS...: every option set, the two plugins
compare() {
  local sysroot=$1 opts which plugin extra f
  shift
  local run=("$@")
  # Default settings, the sampling controls, a filter, timing off, and a
  # timing-model setting, previous branch targets (the replay's general loop), so
  # that each part of the hand-off is compared.
  for opts in "" "-c 256 --pa" "-j --seed 7 -c 512" "--filter-type load --no-timing" \
              "--uarch prefetch.degree=0 -c 256" "--set spe.sample_next_op=0 -c 768 -j" "no-counts" \
              "no-counts --timing-window 256" "no-counts --set spe.version=v1p2 --set spe.fne=1 --set spe.pbt=1 -c 256"; do
    for which in old new; do
      plugin=$old extra=""
      [ $which = new ] && plugin=$new extra=${NEW_OPTS:-}
      # "no-counts": without --counts, which the plugin then does not keep
      # (its replay has a loop of its own for that case).
      counts=(--counts "$tmp/$which.counts") record_opts=$opts
      if [ "${opts%%no-counts*}" != "$opts" ]; then
        counts=() record_opts=${opts#no-counts}
        echo "# no counts asked for" > "$tmp/$which.counts"
      fi
      # shellcheck disable=SC2086 # $record_opts is a word list
      "$armprof" record --plugin "$plugin" --no-context --format raw -o "$tmp/out.raw" ${sysroot:+--sysroot "$sysroot"} \
        "${counts[@]}" $record_opts $extra -- "${run[@]}" > "$tmp/$which.stdout" 2> "$tmp/$which.stderr"
      echo "exit $?" >> "$tmp/$which.stdout"
      # The models' CPU time and the ring waits are measurements, different
      # in every run.
      sed -i -e '/^armprof record: the models took /d' -e '/^armprof record: ring waits: /d' "$tmp/$which.stderr"
      if ! mv "$tmp/out.raw" "$tmp/$which.raw" 2> /dev/null; then
        echo "bench_record_same: [${run[*]##*/}] [$opts]: no output with $plugin:" >&2
        cat "$tmp/$which.stderr" >&2
        exit 2
      fi
    done
    for f in raw counts stdout stderr; do
      if ! cmp -s "$tmp/old.$f" "$tmp/new.$f"; then
        echo "bench_record_same: [${run[*]##*/}] [$opts]: $f differs"
        rc=1
      fi
    done
  done
}
for run in "pointer_chase 200000" "stream 1" "branchy 1"; do
  [ -x "$ex/${run%% *}" ] || continue
  # shellcheck disable=SC2086 # $run is a word list
  compare "" "$ex"/$run
done
root=${ARMPROF_DEBIAN_ROOT:-$(dirname "$0")/../.cache/debian-arm64/root}
if [ -x "$root/bin/gzip" ]; then
  python3 -c "
import random, sys
r = random.Random(1)
words = ['profile', 'sample', 'operation', 'latency', 'cache', 'branch', 'record', 'buffer', 'thread', 'line']
out, n = [], 0
while n < 200 * 1024:
    w = r.choice(words) + str(r.randrange(1000))
    out.append(w); n += len(w) + 1
sys.stdout.write(' '.join(out))" > "$tmp/in.txt"
  for p in "bin/gzip -c" "bin/bzip2 -c" "usr/bin/xz -T1 -c"; do
    set -- $p
    [ -x "$root/$1" ] || continue
    prog=$root/$1
    shift
    compare "$root" "$prog" "$@" "$tmp/in.txt"
  done
else
  echo "bench_record_same: no Debian arm64 root in $root: real programs not compared" >&2
fi
[ $rc -eq 0 ] && echo "bench_record_same: all runs identical"
exit $rc

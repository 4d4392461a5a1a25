#!/usr/bin/env bash
# Outputs that are several files, and standard output that fills
# (tools/armprof/common/cli_outset.h, cli_output.c; docs/outputs.md):
#  - decode --format parquet --split -o DIR: the three files are replaced as
#    a whole (a new directory swapped in with one rename): two concurrent
#    runs of different inputs into one DIR, repeated, always leave one run's
#    three files, and a reader that enters DIR meanwhile finds one run's
#    files or none, never a mixture;
#  - a DIR holding other files is refused (they would go with it), exit 2;
#    a link to a directory: the target replaced, the link kept;
#  - --split -o - is refused with a message, exit 2, and makes nothing;
#  - report, encode and convert --to raw writing to a full standard output
#    (a private node made with mknod, 1,7 like /dev/full): the error once,
#    with its reason, exit 2.
set -u
armprof=$1 work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 2
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Two inputs with every class of operation, at different PCs.
for tag in 1 2; do
  awk -v t=$tag 'BEGIN { split("ld b other", op, " ");
    for (i = 0; i < 20000; i++) printf "pc 0x%x; op %s; end\n", t * 4194304 + i * 4, op[i % 3 + 1] }' > in$tag.txt
  "$armprof" encode -o in$tag.spe in$tag.txt || exit 2
  "$armprof" decode --format parquet --split -o ref$tag in$tag.spe || exit 2
done
cmp -s ref1/br.parquet ref2/br.parquet && { echo "FAIL: the two inputs give the same files"; exit 1; }
# which run a directory's files are of: "1", "2", or what mixed
whose() {
  local d=$1 f got=""
  for f in br ldst other; do
    if cmp -s "$d/$f.parquet" "ref1/$f.parquet"; then got="${got}1"
    elif cmp -s "$d/$f.parquet" "ref2/$f.parquet"; then got="${got}2"
    else got="${got}?"; fi
  done
  echo "$got"
}

# 1. Concurrent runs into one directory, and a reader.
mixed=0 seen_mixed=0 rounds=40
reader() {
  while [ ! -e stop ]; do
    (cd D 2> /dev/null && for f in br ldst other; do cat $f.parquet 2> /dev/null | md5sum; done) > snap.txt
    n=$(grep -c -v d41d8cd98f00b204e9800998ecf8427e snap.txt)
    [ "$n" = 3 ] || continue
    for s in 1 2; do (for f in br ldst other; do md5sum < ref$s/$f.parquet; done) > want$s.txt; done
    cmp -s snap.txt want1.txt || cmp -s snap.txt want2.txt || { echo x >> reader-mixed; }
  done
}
for s in 1 2; do (for f in br ldst other; do md5sum < ref$s/$f.parquet; done) > want$s.txt; done
rm -f stop reader-mixed
reader &
rpid=$!
for i in $(seq $rounds); do
  "$armprof" decode --format parquet --split -o D in1.spe &
  p1=$!
  "$armprof" decode --format parquet --split -o D in2.spe &
  p2=$!
  wait $p1 || bad "round $i: run 1 failed"
  wait $p2 || bad "round $i: run 2 failed"
  w=$(whose D)
  [ "$w" = 111 ] || [ "$w" = 222 ] || mixed=$((mixed + 1))
done
touch stop
wait $rpid
[ $mixed -eq 0 ] || bad "--split: $mixed of $rounds concurrent pairs left a mixture of two runs' files"
[ -e reader-mixed ] && bad "--split: a reader saw a mixture of two runs' files $(wc -l < reader-mixed) times"
ls -A | grep -q '\.armprof-' && bad "--split: a temporary directory was left: $(ls -A)"
[ "$(ls D)" = "$(printf 'br.parquet\nldst.parquet\nother.parquet')" ] || bad "--split: D holds $(ls D)"

# 2. A directory with other files: refused, untouched.
mkdir other && echo mine > other/notes.txt
"$armprof" decode --format parquet --split -o other in1.spe 2> other.err
rc=$?
[ $rc -eq 2 ] || bad "--split into a directory with other files: exit $rc"
grep -q "other: holds notes.txt, which is not one of its files" other.err || bad "--split: no reason: $(cat other.err)"
[ "$(ls other)" = notes.txt ] || bad "--split: the directory was changed: $(ls other)"
# A link to a directory: its target replaced, the link kept.
mkdir real && ln -s real link
"$armprof" decode --format parquet --split -o link in2.spe || bad "--split to a link: failed"
[ -L link ] || bad "--split: the link was replaced"
[ "$(whose real)" = 222 ] || bad "--split: the link's target does not hold the files: $(ls -A real)"
ls -A | grep -q '\.armprof-' && bad "--split to a link: a temporary directory was left: $(ls -A)"

# 3. --split -o -: refused, nothing made.
"$armprof" decode --format parquet --split -o - in1.spe > dash.out 2> dash.err
rc=$?
[ $rc -eq 2 ] || bad "--split -o -: exit $rc"
grep -q "split writes a directory" dash.err || bad "--split -o -: no message: $(cat dash.err)"
[ -e ./- ] && bad "--split -o -: a directory named - was made"

# 4. Standard output on a full device: the error once, with its reason.
mknod full c 1 7 || { echo "FAIL: cannot mknod"; exit 1; }
"$armprof" convert --to perf in1.spe in1.data || exit 2
once() { # once LABEL CMD...: exit 2, one "write failed" line, with ENOSPC's reason
  local label=$1; shift
  "$@" > full 2> once.err
  local rc=$?
  [ $rc -eq 2 ] || bad "$label >full: exit $rc: $(cat once.err)"
  [ "$(grep -c 'write failed' once.err)" = 1 ] || bad "$label >full: the error is not said once: $(cat once.err)"
  grep -q 'standard output: write failed: No space left on device' once.err || bad "$label >full: no reason: $(cat once.err)"
}
once report "$armprof" report in1.spe
once encode "$armprof" encode in1.txt
once "convert --to raw" "$armprof" convert --to raw in1.data -
once "decode" "$armprof" decode in1.spe
[ $fail -eq 0 ] && echo "io_output_sets: ok"
exit $fail

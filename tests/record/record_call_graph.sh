#!/usr/bin/env bash
# Call stacks of `armprof record` (issue 20) on examples/call_tree.c, whose
# call tree is known (one leaf called from two callers in the ratio 3:1,
# recursion, a longjmp, a signal handler, a tail call, two threads, a forked
# child):
#  - the plugin's exact operation counts per call path (--stack-counts) are
#    the truth: they cover every operation (= SAMPLE_POP: each executed
#    instruction is one member of the population, SPE-2.2-1) and have the
#    program's call tree (call_graph_check.py);
#  - armprof report --flame, from the samples' call stacks in perf.data,
#    gives each call path its share of the operations within the
#    statistical error;
#  - the same stacks with --no-pipeline and --interleave 0;
#  - --call-graph=off: no stacks (one frame per sample); --call-graph-depth
#    bounds the frames; bad values are usage errors;
#  - Debian's perf 6.1 on the same perf.data (--no-itrace: armprof's samples
#    alone, not the ones perf synthesises from the AUX data): perf report -g
#    and --children show the call chains, perf script lists them, perf mem
#    report shows the weights, and each sample's data_src is the one perf
#    gives the same record (skipped, 77, without perf).
set -euo pipefail
source "$(dirname "$0")/record_common.sh"
command -v aarch64-linux-gnu-nm > /dev/null || { echo "SKIP: needs aarch64-linux-gnu-nm"; exit 77; }
prog=$examples/call_tree
[ -x "$prog" ] || { echo "SKIP: needs the call_tree example"; exit 77; }

"$armprof" record -c 256 -o ct.data --stack-counts ct.counts -- "$prog" 400 > ct.out 2> ct.err ||
  fail "armprof record: exit $?"
# The summary: every sample found its stack; the 400 signal handlers each
# pushed a signal frame and returned to the restorer, no frame's return
# address (the stack resynchronised at its sigreturn).
records=$(sed -n 's/^records=//p' ct.data.meta)
grep -q "call stacks: $records sampled operations with theirs; 400 returns to no frame on the stack, 400 signal frames, 0 frames beyond" ct.err ||
  fail "summary: $(grep 'call stacks' ct.err)"
! grep -q "found no call stack" ct.err || fail "$(grep 'found no call stack' ct.err)"
grep -q "call_tree: 400 rounds" ct.out || fail "the program's output is missing"
ops=$(sed -n 's/^ops=//p' ct.data.meta)
sum=$(awk '!/^#/ { s += $1 } END { print s }' ct.counts)
[ -n "$ops" ] && [ "$ops" = "$sum" ] || fail "per-path counts sum to $sum, not the $ops operations"
"$armprof" report --flame ct.data > ct.folded 2> report.err || fail "report --flame: $(cat report.err)"
python3 "$src/tests/record/call_graph_check.py" "$prog" ct.counts ct.folded > check.txt ||
  fail "$(tail -1 check.txt)"
grep -q "main;caller_a;leaf" ct.folded || fail "report --flame has no main;caller_a;leaf"

# The same stacks whether the models run on a model thread (interleaved or
# a thread each) or on the program's threads: the exact counts of the
# program's own functions on each path (the C library's waits, in
# pthread_join and exit, depend on how the host ran the threads).
for m in "" --no-pipeline "--interleave 0"; do
  # shellcheck disable=SC2086 # $m is zero, one or two words
  "$armprof" record -q $m -c 256 --stack-counts "m$m.counts" -o "m$m.data" -- "$prog" 50 > /dev/null ||
    fail "record $m"
  python3 "$src/tests/record/call_graph_check.py" "$prog" "m$m.counts" --own > "m$m.own"
  [ -s "m$m.own" ] && cmp -s m.own "m$m.own" || fail "$m: other stacks than with a model thread: $(diff m.own "m$m.own" | head -4)"
done

# Off: no call chains, one frame per stack. A bound on the depth.
"$armprof" record -q -c 256 --call-graph=off -o off.data -- "$prog" 20 > /dev/null || fail "--call-graph=off"
"$armprof" report --flame off.data > off.folded
[ -s off.folded ] && ! grep -q ";" off.folded || fail "--call-graph=off: stacks with frames: $(head -2 off.folded)"
"$armprof" record -c 256 --call-graph-depth 2 --stack-counts d2.counts -o d2.data -- "$prog" 20 > /dev/null 2> d2.err ||
  fail "--call-graph-depth 2"
grep -q "call stacks: .*, [1-9][0-9]* frames beyond --call-graph-depth" d2.err || fail "--call-graph-depth 2: none dropped"
awk '!/^#/ && NF > 4 { bad = 1 } END { exit bad }' d2.counts || fail "--call-graph-depth 2: deeper stacks kept"
for bad in --call-graph=maybe "--call-graph-depth 0" "--call-graph-depth 1025"; do
  # shellcheck disable=SC2086 # two words for the depth
  "$armprof" record -q $bad -o bad.data -- "$prog" 1 > /dev/null 2> bad.err && rc=0 || rc=$?
  [ $rc -eq 2 ] || fail "$bad: exit $rc, want 2"
  [ ! -e bad.data ] || fail "$bad: an output was written"
done

# perf 6.1 on the same file.
PERF=${PERF:-/usr/bin/perf}
if ! [ -x "$PERF" ]; then
  echo "SKIP: $PERF not found (the perf part of this test)"
  exit 77
fi
export HOME=$work
"$PERF" report --no-itrace -g --stdio -i ct.data > perf-report.txt 2> perf.err || fail "perf report -g: $(tail -2 perf.err)"
grep -q "of event 'arm_spe_0/callchain/'" perf-report.txt || fail "perf report: no call chain event"
grep -q -- "--caller_a" perf-report.txt && grep -q -- "--after_jump" perf-report.txt ||
  fail "perf report -g shows no call chain through caller_a and jumper"
# Without --no-itrace too: the call chain event beside the ones perf
# synthesises from the AUX data.
"$PERF" report -g --stdio -i ct.data > perf-report-all.txt 2> perf.err || fail "perf report -g (AUX too): $(tail -2 perf.err)"
grep -q "of event 'arm_spe_0/callchain/'" perf-report-all.txt && grep -q "of event 'memory'" perf-report-all.txt &&
  grep -q -- "--caller_a" perf-report-all.txt || fail "perf report -g with the AUX data: no call chains beside its events"
"$PERF" report --no-itrace --children --stdio -i ct.data > perf-children.txt 2> perf.err ||
  fail "perf report --children: $(tail -2 perf.err)"
# main holds (inclusively) every sample of its thread: most of them
awk '/\[\.\] main *$/ { sub("%", "", $1); if ($1 + 0 > 50) ok = 1 } END { exit !ok }' perf-children.txt ||
  fail "perf report --children: main not inclusive of most samples"
"$PERF" script --no-itrace -F tid,ip,sym -i ct.data > perf-script.txt 2> perf.err || fail "perf script: $(tail -2 perf.err)"
heads=$(grep -c "^ *[0-9]" perf-script.txt || true)
[ "$heads" = "$records" ] || fail "perf script lists $heads samples, not one per record ($records)"
grep -q "caller_a" perf-script.txt && grep -q "jumper" perf-script.txt || fail "perf script lists no chains"
"$PERF" mem report --no-itrace --stdio -i ct.data > perf-mem.txt 2> perf.err || fail "perf mem report: $(tail -2 perf.err)"
grep -q "Local Weight" perf-mem.txt || fail "perf mem report: no weights"
awk '/\[\.\] leaf/ && $3 + 0 > 0 { ok = 1 } END { exit !ok }' perf-mem.txt ||
  fail "perf mem report: no weight for leaf"
# data_src: armprof's sample of each record against perf's memory sample of it.
"$PERF" script -i ct.data --ns -F event,tid,time,addr,data_src > both.txt 2> /dev/null
join <(grep " memory:" both.txt | awk '{ print $1 "_" $2, $4, $5 }' | sort) \
     <(grep "callchain/:" both.txt | awk '{ print $1 "_" $2, $4, $5 }' | sort) > joined.txt
[ -s joined.txt ] || fail "no record has both perf's memory sample and armprof's"
! awk '$2 != $4 || $3 != $5' joined.txt | grep -q . ||
  fail "data_src differs from perf's: $(awk '$2 != $4 || $3 != $5' joined.txt | head -2)"
echo "record_call_graph: ok ($(tail -1 check.txt); $(wc -l < joined.txt) data sources as perf's)"

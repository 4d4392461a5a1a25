#!/usr/bin/env bash
# PERF_RECORD_SAMPLE (issue 20 item 2; issue 22 writes PC samples this way):
#  1. armprof's writer, sample events only (no SPE attr, no AUX): its reader
#     lists exactly the samples written (perfdata_samples write/print), and
#     Debian's perf 6.1 reads the same file: `perf script` gives each
#     sample's event, tid, cpu, time, period and symbol, the call chain's
#     symbols (cpu-clock) and ADDR, DATA_SRC, WEIGHT, PHYS_ADDR (mem-lat);
#     `perf report --stdio -g` shows the chains;
#  2. the same samples beside the SPE attr (spe): read back the same;
#  3. files `perf record -g` writes on this host (cpu-clock with call
#     chains, kernel and user): armprof lists the samples perf script
#     prints with the same tid, time, period and number of call chain
#     entries (skipped, 77, where perf_event_open is forbidden).
# perf is required (FAIL if missing).
# Args: ARMPROF SRC_DIR WORK_DIR SAMPLES_TOOL
set -euo pipefail
SRC=$2 WORK=$3 TOOL=$4
PERF=${PERF:-/usr/bin/perf}
[ -x "$PERF" ] || { echo "FAIL: $PERF not found; install linux-perf (bash scripts/install-deps.sh)" >&2; exit 1; }
ELF=$SRC/tests/perfdata/data/tiny-aarch64.elf
rm -rf -- "$WORK"
mkdir -p -- "$WORK"
cd -- "$WORK"
export HOME=$WORK
fail() { echo "FAIL: $*" >&2; exit 1; }

readelf -sW "$ELF" | awk '$4 == "FUNC" && $3 > 0 { print $2, $3, $8 }' > syms.txt

# 1. sample events only
"$TOOL" write s.data "$ELF" > written.txt || fail "write"
[ "$(wc -l < written.txt)" -eq 40 ] || fail "the writer did not report 40 samples"
"$TOOL" print s.data > read.txt || fail "print"
diff written.txt read.txt > /dev/null || fail "armprof reads back other samples: $(diff written.txt read.txt | head -5)"

# What perf must show, from the samples read (= written): symbols by address.
"$TOOL" expect s.data syms.txt > want.txt || fail "expect"
"$PERF" script -i s.data --ns -F sw:tid,cpu,time,event,ip,sym,period \
  -F raw:tid,cpu,time,event,ip,sym,addr,weight,data_src,phys_addr > script.txt 2> script.err ||
  fail "perf script: $(tail -2 script.err)"
# perf script: "TID [CPU] SEC.NS: PERIOD cpu-clock:" then one line per chain
# entry "ADDR SYM" (the sampled ip first) and a blank line; "TID [CPU]
# SEC.NS: mem-lat: ADDR DATA_SRC |decoded...| WEIGHT IP SYM PHYS".
awk '
function flush() { if (h != "") print h, first, chain; h = "" }
/^ *[0-9]+ \[[0-9]+\]/ { flush(); gsub(/\[|\]|:/, " ")
  if ($5 == "cpu-clock") { h = "cpu-clock " $1 " " ($2 + 0) " " $3 " " $4; chain = ""; nch = 0 }
  else print "mem-lat", $1, $2 + 0, $3, $5, $6, $(NF - 3), $(NF - 1), $NF
  next }
/^\t/ { if (nch++ == 0) first = $2; else chain = chain (nch > 2 ? ";" : "") $2; next }
/^$/ { flush() }
END { flush() }' script.txt > got.txt
[ "$(wc -l < got.txt)" -eq 40 ] || fail "perf script lists $(wc -l < got.txt) samples, not 40: $(head -5 script.txt)"
diff want.txt got.txt > diff.txt || fail "perf script differs from the samples written: $(head -6 diff.txt)"
# The written file mentions the call chains' callers: perf report -g shows them.
"$PERF" report --stdio -g -i s.data > report.txt 2> report.err || fail "perf report: $(tail -2 report.err)"
grep -q "of event 'cpu-clock'" report.txt || fail "perf report: no cpu-clock samples"
grep -q -- "---_start" report.txt || fail "perf report -g shows no call chain"
grep -q "of event 'mem-lat'" report.txt || fail "perf report: no mem-lat samples"

# 2. the same samples beside the SPE attr
"$TOOL" write spe.data "$ELF" spe > written-spe.txt || fail "write with SPE"
"$TOOL" print spe.data > read-spe.txt || fail "print with SPE"
diff written-spe.txt read-spe.txt > /dev/null || fail "with the SPE attr, other samples are read back"
"$PERF" script -i spe.data -F sw:tid,time,event,sym > spe-script.txt 2> spe-script.err || fail "perf script (SPE attr): $(tail -2 spe-script.err)"
[ "$(grep -c 'cpu-clock' spe-script.txt)" -eq 20 ] || fail "perf script (SPE attr): not 20 cpu-clock samples"

# 3. perf record's own samples with call chains
busy=(sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done')
if ! "$PERF" record -q -g -e cpu-clock -F 5000 -o g.data -- "${busy[@]}" 2> rec.err; then
  echo "SKIPPED (part 3): perf record cannot open events here: $(tail -1 rec.err)" >&2
  exit 77
fi
"$PERF" record -q -z -g -e cpu-clock -F 5000 -o gz.data -- "${busy[@]}" 2> /dev/null
for f in g gz; do
  "$TOOL" print "$f.data" > /dev/null || fail "print $f.data"
  # perf script gives the samples in time order, the file holds them in
  # the order perf record's per-CPU buffers were written: both sorted.
  "$TOOL" counts "$f.data" | sort > "$f.mine" || fail "counts $f.data"
  "$PERF" script -i "$f.data" --ns -F tid,time,ip,period 2> /dev/null |
    awk '/^ *[0-9]+ +[0-9]+\.[0-9]+:/ { if (h != "") print h, n; gsub(/:/, ""); h = $1 " " $2 " " $3; n = 0; next }
         /^\t/ { n++ } END { if (h != "") print h, n }' | sort > "$f.perf"
  [ -s "$f.perf" ] || fail "perf script printed no sample of $f.data"
  diff "$f.perf" "$f.mine" > "$f.diff" || fail "$f.data: armprof's samples differ from perf script's: $(head -4 "$f.diff")"
done
echo "samples: ok ($(wc -l < g.perf) + $(wc -l < gz.perf) samples of perf record, 40 of armprof's writer)"

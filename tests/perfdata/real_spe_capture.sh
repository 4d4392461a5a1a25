#!/usr/bin/env bash
# The first real arm_spe captures in the suite (issue 17), recorded by Debian's
# perf 6.1 through Linux 6.1's unmodified arm_spe_pmu driver, in a guest of
# armprof's full-system machine (system/qemu, -M virt,gic-version=3 -cpu
# neoverse-n1,spe=on, 2 vCPUs):
#   data/guest-arm-spe.data: the kernel at EL1; it writes the PID to
#     CONTEXTIDR_EL1 (Context packets of index 0):
#     perf record -c 16384 -e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,branch_filter=1/u \
#       -o f.data ./pointer_chase 300000
#   data/guest-arm-spe-el2.data: -M virt,virtualization=on, the kernel at EL2
#     with VHE, as on Neoverse servers; the PID in CONTEXTIDR_EL2 (index 1
#     only), physical timestamps allowed (pct_enable=1, PMSCR_EL2.PCT):
#     the same with ts_enable=1,pa_enable=1,pct_enable=1,...
#   data/guest-arm-spe-{a,s,z}.data: the kernel at EL1, and perf's other modes:
#     a: system-wide on both CPUs (-a -c 65536), two programs pinned one to each;
#     s: snapshot mode (-S -c 4096, two SIGUSR2), AUX records flagged overwrite;
#     z: compressed (-z);
#     p: pipe mode (perf record -o - | cat > p.data). perf 6.1 reads such a
#     file only through a real pipe (cat p.data | perf report -i -): given
#     the file itself, it seeks to "offset + record size" past an AUXTRACE
#     record with an offset that leaves out the 16-byte pipe header, takes
#     the last 16 bytes of the record as the payload's start and stops with
#     "bad event header size" (on a pipe the seek fails and does nothing).
#     So perf is given this one through a pipe (PERF_PIPE=yes); armprof
#     reads the file either way.
# armprof's reader must read it as perf does: every record type perf counts
# (perfdata_compare stats), every AUXTRACE record and every packet of the AUX
# data, field by field (dump), and one record per perf instructions sample,
# PC and address (script); and decode it without an error: 340 records, each
# with its PID in a Context packet (SPE-5.3.3-3), timestamps (SPE-5.3.6-1) and
# physical addresses (pa_enable, SPE-5.3.1-6).
# Args: ARMPROF SRC_DIR WORK_DIR SPE_GEN COMPARE
set -euo pipefail
ARMPROF=$1 SRC=$2 WORK=$3 CMP=$5
PERF=${PERF:-/usr/bin/perf}
[ -x "$PERF" ] || { echo "FAIL: $PERF not found; install linux-perf (bash scripts/install-deps.sh)" >&2; exit 1; }
rm -rf -- "$WORK" && mkdir -p -- "$WORK" && cd -- "$WORK"
export HOME=$WORK
fail() { echo "FAIL: $*" >&2; exit 1; }
check() { # FILE RECORDS CONTEXT_FIELD PIDS (distinct Context values at least)
data=$SRC/tests/perfdata/data/$1

"$ARMPROF" decode --stats "$data" > stats.txt 2>&1 || fail "armprof decode --stats: $(cat stats.txt)"
grep -q "$2 records (0 with errors, 0 truncated), 0 unknown and 0 reserved packets" stats.txt ||
  fail "unexpected decode: $(cat stats.txt)"
if [ "${PERF_CMP:-yes}" = yes ]; then
  perf_in() { # perf's input: the file, or the file through a pipe
    if [ "${PERF_PIPE:-no}" = yes ]; then cat -- "$data" | "$@" -i -; else "$@" -i "$data"; fi
  }
  perf_in "$PERF" report -D > dump.txt 2> /dev/null || fail "perf report -D"
  "$CMP" stats "$data" dump.txt
  "$CMP" dump "$data" dump.txt
  : > syms.txt # perf sees no symbols of the guest's program here: both sides say [unknown]
  # One buffer: perf's samples in the buffer's order, as armprof decodes it
  # (perf interleaves several CPUs' buffers by time). An empty --symfs: no
  # file of the host may stand in for the guest's program.
  mkdir -p nosyms
  if [ "$(grep -c "PERF_RECORD_AUXTRACE size" dump.txt)" = 1 ]; then
    perf_in "$PERF" script --symfs nosyms --itrace=i1i -F addr,ip,sym > script.txt 2> script.err ||
      fail "perf script: $(cat script.err)"
    "$CMP" script "$data" script.txt syms.txt
  fi
fi
"$ARMPROF" decode --format jsonl "$data" > recs.jsonl
python3 - recs.jsonl "$2" "$3" "${4:-1}" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == int(sys.argv[2]), len(recs)
# Every record: the guest program's PID (CONTEXTIDR_EL1, PID_IN_CONTEXTIDR), a
# timestamp, EL0; loads and stores a physical address.
pids = {r.get(sys.argv[3]) for r in recs}
assert len(pids) >= int(sys.argv[4]) and None not in pids, pids
assert all("ts" in r for r in recs)
# (a first touch of a page faults: that record has E[0], exception-gen, and
# no physical address, the translation having failed: SPE-5.3.1-11).
mem = [r for r in recs if "vaddr" in r]
done = [r for r in mem if "exception-gen" not in r["event_names"]]
assert done and all("paddr" in r for r in done), [r for r in done if "paddr" not in r][:2]
print("records", len(recs), "pids", pids, "memory", len(mem))
PY
}
check guest-arm-spe.data 340 ctx_el1
check guest-arm-spe-el2.data 339 ctx_el2
check guest-arm-spe-a.data 157 ctx_el1 2
check guest-arm-spe-s.data 2480 ctx_el1
check guest-arm-spe-z.data 337 ctx_el1
PERF_PIPE=yes check guest-arm-spe-p.data 339 ctx_el1
echo "real arm_spe captures: ok"

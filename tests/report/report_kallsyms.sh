#!/usr/bin/env bash
# armprof report --kallsyms on an SPE stream written with `armprof encode`
# (docs/spe-text-format.md) whose PCs are the kernel's (EL1, canonical
# addresses from the PC packet's bits [55:0]: spec/002 5.3.1, SPE-5.3.1-5,
# SPE-5.3.1-19, SPE-5.3.1-23):
# functions and modules named from a hand-made /proc/kallsyms text, and bad
# files refused with the file and line (exit 2). The guest's own kernel:
# tests/system_spe/system_spe_kallsyms.sh.
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > kallsyms <<'K'
0000000000000000 A __per_cpu_start
ffff800008011000 T do_el0_svc
ffff800008011400 t el0_svc_common
0000000000000000 t hidden_by_kptr_restrict
ffff800008012000 T _etext
ffff800000a00200 t arm_spe_pmu_start	[arm_spe_pmu]
K
{
  for i in 1 2 3; do echo "pc 0xffff800008011410 el=1; op other; ev retired; end"; done
  echo "pc 0xffff800008011004 el=1; op other; ev retired; end"
  echo "pc 0xffff800000a00208 el=1; op other; ev retired; end"
} > k.txt
"$armprof" encode -o k.spe k.txt
"$armprof" report --kallsyms kallsyms k.spe > k.txt.out 2> k.err || fail "report: $(cat k.err)"
grep -q ' el0_svc_common (\[kernel.kallsyms\])$' k.txt.out || fail "no el0_svc_common row: $(cat k.txt.out)"
grep -q ' do_el0_svc (\[kernel.kallsyms\])$' k.txt.out || fail "no do_el0_svc row: $(cat k.txt.out)"
grep -q ' arm_spe_pmu_start (\[arm_spe_pmu\])$' k.txt.out || fail "no module row: $(cat k.txt.out)"
! grep -q 'unknown' k.txt.out || fail "an unnamed row: $(cat k.txt.out)"
# --annotate a kernel function: its PCs with their samples (no code to disassemble).
"$armprof" report --format json --kallsyms kallsyms --annotate el0_svc_common k.spe > ann.json 2> ann.err ||
  fail "annotate: $(cat ann.err)"
python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
rows = a["instructions"]
hot = [r for r in rows if r["samples"]]
assert a["binary"] == "[kernel.kallsyms]" and len(rows) == 0xc00 // 4 and len(hot) == 1 and hot[0]["samples"] == 3 and hot[0]["pc"] == "0xffff800008011410", hot
' ann.json || fail "annotate el0_svc_common: $(head -c 600 ann.json)"
# Without the option the same PCs are unnamed.
"$armprof" report k.spe > plain.out 2> /dev/null
grep -q '\[unknown\]' plain.out || fail "kernel PCs named without --kallsyms: $(cat plain.out)"
! grep -q 'el0_svc_common' plain.out || fail "kernel PCs named without --kallsyms"
# A file of another boot (KASLR: the kernel elsewhere) names none: a warning.
sed 's/^ffff8000/ffffa000/' kallsyms > other-boot
"$armprof" report --kallsyms other-boot k.spe > other.out 2> other.err || fail "report: $(cat other.err)"
grep -q "warning: other-boot names none of k.spe's 5 kernel samples" other.err || fail "no warning: $(cat other.err)"
# --format pprof says it too, counted as the profile is written (report_pprof.h)
"$armprof" report --format pprof -o other.pb.gz --kallsyms other-boot k.spe 2> other-pprof.err ||
	fail "report --format pprof: $(cat other-pprof.err)"
grep -q "warning: other-boot names none of k.spe's 5 kernel samples" other-pprof.err ||
	fail "no warning from --format pprof: $(cat other-pprof.err)"
"$armprof" report --format pprof -o k.pb.gz --kallsyms kallsyms k.spe 2> k-pprof.err
[ ! -s k-pprof.err ] || fail "--format pprof warned with the right kallsyms: $(cat k-pprof.err)"
! grep -q warning k.err || fail "a warning with the right file: $(cat k.err)"

# Bad files: exit 2, the message naming the file and the line.
bad() { # TEXT EXPECTED-MESSAGE
  printf '%b' "$1" > bad.kallsyms
  rc=0
  "$armprof" report --kallsyms bad.kallsyms k.spe > /dev/null 2> bad.err || rc=$?
  [ "$rc" = 2 ] || fail "exit $rc for $1"
  grep -qF "armprof report: --kallsyms: bad.kallsyms$2" bad.err || fail "message for $1: $(cat bad.err)"
}
bad 'ffff800008011000 T a\nxyz T b\n' ":2: the address is not 1 to 16 hexadecimal digits: 'xyz'"
bad 'ffff800008011000 T a\nffff800008011000 T b [mod\n' ":2: the module is not a name in brackets: '[mod'"
bad '0000000000000000 T a\n' ": every function's address is 0: kptr_restrict"
bad 'ffff800008011000 D jiffies\n' ": no function"
# A device with no end: read until its first NUL byte, not forever.
rc=0
timeout 20 "$armprof" report --kallsyms /dev/zero k.spe > /dev/null 2> zero.err || rc=$?
[ "$rc" = 2 ] && grep -qF -- "--kallsyms: /dev/zero:1: a NUL byte" zero.err || fail "/dev/zero: exit $rc, $(cat zero.err)"
rc=0
"$armprof" report --kallsyms missing.kallsyms k.spe > /dev/null 2> miss.err || rc=$?
[ "$rc" = 2 ] && grep -q "missing.kallsyms: cannot open" miss.err || fail "missing file: exit $rc, $(cat miss.err)"
"$armprof" report --help > help.txt # not into grep -q, whose early exit would cut the write (SIGPIPE)
grep -q -- '--kallsyms FILE' help.txt || fail "--help does not tell --kallsyms"
echo "kallsyms: ok"

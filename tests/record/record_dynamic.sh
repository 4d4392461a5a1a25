#!/usr/bin/env bash
# A dynamically linked program (tests/record/progs/dynamic.c): armprof
# record finds its interpreter and libraries in Debian's aarch64 root
# (/usr/aarch64-linux-gnu, QEMU's -L) and learns where QEMU loaded the
# program and its libraries (plugins/qemu/guest_maps.c); armprof report then
# names the program's functions (a PIE's load address is not its ELF's) and
# says which library the rest ran in; perf.data carries a mapping for each
# library. A root without the interpreter is refused before the run, with
# exit 2, a message naming the interpreter, and no output file.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

if [ ! -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
  echo "SKIP: needs Debian's libc6-arm64-cross"
  exit 77
fi
aarch64-linux-gnu-gcc -O1 -g -o dyn "$src/tests/record/progs/dynamic.c"
file -b dyn | grep -q "dynamically linked" || fail "the test program is not dynamically linked"

"$armprof" record -o dyn.data -- ./dyn 20 > dyn.out 2> dyn.err || fail "record: $(cat dyn.err)"
grep -q "^dynamic: " dyn.out || fail "the program's output did not pass through"
bias=$(sed -n 's/^load_bias=//p' dyn.data.meta)
# A PIE is loaded at a page, not at 0 (and not where QEMU's entry point,
# the dynamic loader's, would put it).
[ -n "$bias" ] && [ $((bias)) -ne 0 ] && [ $((bias & 0xfff)) -eq 0 ] || fail "load bias $bias: not a PIE's page"
grep -q "^library=0x[0-9a-f]* /usr/aarch64-linux-gnu/lib/libc.so.6$" dyn.data.meta ||
  fail "no libc in the metadata: $(cat dyn.data.meta)"

"$armprof" report --format json -o dyn.json dyn.data
python3 - dyn.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fns = d["functions"]
top = fns[0]
assert top["function"] == "sum_bytes" and "binary" not in top, top
assert any(f.get("binary") == "libc.so.6" for f in fns), [(f["function"], f.get("binary")) for f in fns]
# Every sample is in the program or a named library.
assert all(f["function"] != "[unknown]" or f.get("binary") for f in fns), fns
PY
"$armprof" report dyn.data > dyn.txt
grep -q " sum_bytes$" dyn.txt || fail "text report: no sum_bytes row"
grep -q "(libc.so.6)$" dyn.txt || fail "text report: no libc row"
"$armprof" report --format csv dyn.data > dyn.csv
head -1 dyn.csv | grep -q ",disasm,binary$" || fail "CSV: no binary column last: $(head -1 dyn.csv)"
grep -q "^function,.*,libc.so.6$" dyn.csv || fail "CSV: no function row of libc.so.6"

# --annotate finds a library's function too (printf: in libc's dynamic
# symbols), at the address the library was loaded at.
"$armprof" report --annotate printf --format json -o printf.json dyn.data
python3 - printf.json <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
assert a["function"] == "printf" and a.get("binary") == "libc.so.6", a
assert len(a["instructions"]) == a["size"] // 4 > 0, (len(a["instructions"]), a["size"])
assert int(a["start"], 16) > 0x1000000, a["start"]  # where QEMU put libc, not the ELF address
PY

# perf.data: a mapping of libc beside the program's (perf report's DSOs).
if command -v perf > /dev/null; then
  perf report -i dyn.data --stdio --sort dso 2> /dev/null | grep -q "libc.so.6" ||
    fail "perf report sees no libc.so.6 mapping"
fi

# No interpreter in the given root: refused before the run.
for how in "--sysroot /nonexistent" "env"; do
  set +e
  if [ "$how" = env ]; then
    QEMU_LD_PREFIX=/nonexistent "$armprof" record -o bad.data -- ./dyn 1 > /dev/null 2> bad.err
  else
    # shellcheck disable=SC2086 # $how is an option and its value
    "$armprof" record $how -o bad.data -- ./dyn 1 > /dev/null 2> bad.err
  fi
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "[$how] exit $rc, want 2"
  grep -q "ld-linux-aarch64.so.1" bad.err || fail "[$how] the message does not name the interpreter: $(cat bad.err)"
  [ ! -e bad.data ] || fail "[$how] output written"
done
echo "record_dynamic: ok"

#!/usr/bin/env bash
# armprof report on a stripped program, as distributions ship them
# (lib/report/elf_functions.c, debug_file.c): without a symbol table the
# functions still come apart, from the FDEs of .eh_frame_hdr (named
# sub_<ELF address>, each exactly its function's extent) and the PLT stubs
# (<symbol>@plt) and the PLT's header (.plt, as perf 6.3+ names it: the
# lazy binding's jump to the dynamic linker); with the separate debug file (found by build ID under
# --debug-dir, or by .gnu_debuglink beside the file) the real names and
# source lines come back, and a debug file of another build is refused.
# The samples are an encoded SPE stream (spec/002 5.3.1: the Address packet
# of INDEX 0, the PC, SPE-5.3.1-5) at addresses of the program's own functions.
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-objcopy aarch64-linux-gnu-strip aarch64-linux-gnu-nm \
            aarch64-linux-gnu-objdump; do
  command -v "$tool" >/dev/null || { echo "SKIP: needs $tool"; exit 77; }
done
prog=$src/tests/record/progs/dynamic.c
aarch64-linux-gnu-gcc -O1 -g -Wl,--build-id -o full "$prog" 2>cc.err || { echo "SKIP: no aarch64 libc to link: $(head -1 cc.err)"; exit 77; }
aarch64-linux-gnu-objcopy --only-keep-debug full full.debug
cp full stripped && aarch64-linux-gnu-strip --strip-all stripped
aarch64-linux-gnu-nm stripped 2>&1 | grep -q "no symbols" || fail "strip left a symbol table"

# Where the functions are, from the unstripped build.
sym() { aarch64-linux-gnu-nm -S full | awk -v n="$1" '$4 == n { print $1, $2 }'; }
read -r sum_at sum_size < <(sym sum_bytes)
read -r main_at main_size < <(sym main)
plt_at=$(aarch64-linux-gnu-objdump -d full | awk '/<memcpy@plt>:$/ { print $1 }')
[ -n "$sum_at" ] && [ -n "$main_at" ] && [ -n "$plt_at" ] || fail "cannot find sum_bytes, main, memcpy@plt in the build"
sum_pc=$(printf '0x%x' $((0x$sum_at + 8)))
main_pc=$(printf '0x%x' $((0x$main_at + 4)))
plt_pc=$(printf '0x%x' $((0x$plt_at)))
plt0_at=$(aarch64-linux-gnu-readelf -SW full | awk '$2 == ".plt" { print $4 }')
[ -n "$plt0_at" ] || fail "no .plt section in the build"
plt0_pc=$(printf '0x%x' $((0x$plt0_at + 12)))
{
  for i in 1 2 3 4 5; do echo "pc $sum_pc el=0; op ld; ev retired l1d-access tlb-access; lat total 7; va 0x1000; ds 0; end"; done
  for i in 1 2; do echo "pc $main_pc el=0; op other; ev retired; lat total 3; end"; done
  echo "pc $plt_pc el=0; op other; ev retired; lat total 3; end"
  echo "pc $plt0_pc el=0; op b ind; ev retired; lat total 3; end"
} > prof.spe
"$armprof" encode -o prof.raw prof.spe

# 1. Stripped, no debug file: the functions by their FDEs, the stub by its
# relocation. The FDE gives the function's whole extent (nm -S's size).
sub_sum=sub_$(printf '%x' $((0x$sum_at)))
sub_main=sub_$(printf '%x' $((0x$main_at)))
"$armprof" report --binary stripped --debug-dir "$work/none" --format json -o stripped.json prof.raw
python3 - stripped.json "$sub_sum" "$sub_main" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
fns = {f["function"]: f["samples"] for f in r["functions"]}
assert fns == {sys.argv[2]: 5, sys.argv[3]: 2, "memcpy@plt": 1, ".plt": 1}, fns
ins = r["instructions"][0]
assert ins["function"] == sys.argv[2] and ins["offset"] == 8 and ins["disasm"], ins
PY
"$armprof" report --binary stripped --debug-dir "$work/none" --annotate "$sub_sum" --format json -o ann.json prof.raw
python3 - ann.json "$((0x$sum_size / 4))" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
assert len(a["instructions"]) == int(sys.argv[2]), (len(a["instructions"]), sys.argv[2])
PY
"$armprof" report --binary stripped --debug-dir "$work/none" prof.raw > stripped.txt
grep -q " $sub_sum$" stripped.txt || fail "text report: no $sub_sum row"
grep -q " memcpy@plt$" stripped.txt || fail "text report: no memcpy@plt row"
# A PC in no function (here, in the ELF header) is [unknown], with no
# offset into a function it is not in.
echo "pc 0x10 el=0; op other; ev retired; lat total 3; end" > nofn.spe
"$armprof" encode -o nofn.raw nofn.spe
"$armprof" report --binary stripped --no-disasm nofn.raw > nofn.txt
grep -q " 0x10 \[unknown\]$" nofn.txt || fail "a PC in no function: $(tail -2 nofn.txt)"

# 2. The debug file by build ID under --debug-dir: names and source lines.
id=$(aarch64-linux-gnu-readelf -n stripped | awk '/Build ID:/ { print $3 }')
[ -n "$id" ] || fail "no build ID"
mkdir -p "dbg/.build-id/${id:0:2}"
cp full.debug "dbg/.build-id/${id:0:2}/${id:2}.debug"
"$armprof" report --binary stripped --debug-dir "$work/dbg" --format json -o named.json prof.raw
python3 - named.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
fns = {f["function"]: f["samples"] for f in r["functions"]}
assert fns == {"sum_bytes": 5, "main": 2, "memcpy@plt": 1, ".plt": 1}, fns
PY
"$armprof" report --binary stripped --debug-dir "$work/dbg" --annotate sum_bytes prof.raw > named_ann.txt
grep -q "dynamic.c:[0-9]" named_ann.txt || fail "no source lines from the debug file: $(head -20 named_ann.txt)"

# 2b. The same from the recording's aarch64 root (FILE.meta's sysroot=, as
# armprof record writes it): a -dbgsym package unpacked into the root.
mkdir -p "sysroot/usr/lib/debug/.build-id/${id:0:2}"
cp full.debug "sysroot/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
cp prof.raw inroot.raw
printf 'binary=%s\nload_bias=0x0\nsysroot=%s\n' "$work/stripped" "$work/sysroot" > inroot.raw.meta
"$armprof" report --format json -o inroot.json inroot.raw
python3 - inroot.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["functions"][0]["function"] == "sum_bytes", r["functions"][0]
PY

# 2c. A debug file that dwz compressed, as Debian's -dbgsym packages ship
# them: the DWARF the programs of a package share moved to a common file
# (.gnu_debugaltlink names it, an absolute path on the recording machine).
# Names (the debug file's symbol table) and source lines (its line
# tables) do not need that file: with it in the root, and without it.
if command -v dwz > /dev/null; then
  aarch64-linux-gnu-gcc -O2 -g -Wl,--build-id -o other2 "$prog"
  aarch64-linux-gnu-objcopy --only-keep-debug other2 other2.debug
  cp full.debug dwz.debug
  dwz -m common.debug -M /usr/lib/debug/.dwz/aarch64-linux-gnu/armprof-test.debug dwz.debug other2.debug ||
    fail "dwz failed"
  aarch64-linux-gnu-readelf -S dwz.debug | grep -q "\.gnu_debugaltlink" || fail "dwz made no .gnu_debugaltlink"
  mkdir -p "dwzroot/usr/lib/debug/.build-id/${id:0:2}"
  cp dwz.debug "dwzroot/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
  cp prof.raw dwz.raw
  printf 'binary=%s\nload_bias=0x0\nsysroot=%s\n' "$work/stripped" "$work/dwzroot" > dwz.raw.meta
  for with_common in no yes; do
    if [ $with_common = yes ]; then
      mkdir -p dwzroot/usr/lib/debug/.dwz/aarch64-linux-gnu
      cp common.debug dwzroot/usr/lib/debug/.dwz/aarch64-linux-gnu/armprof-test.debug
    fi
    "$armprof" report --format json -o dwz-$with_common.json dwz.raw
    python3 - dwz-$with_common.json <<'PY' || fail "dwz-compressed debug file (common file in the root: $with_common)"
import json, sys
r = json.load(open(sys.argv[1]))
assert [f["function"] for f in r["functions"]] == ["sum_bytes", "main", ".plt", "memcpy@plt"], r["functions"]
assert r["instructions"][0]["line"].startswith("dynamic.c:"), r["instructions"][0]
PY
  done
fi

# 3. A debug file of another build at that path is not taken.
aarch64-linux-gnu-gcc -O2 -g -Wl,--build-id -o other "$prog"
aarch64-linux-gnu-objcopy --only-keep-debug other "dbg/.build-id/${id:0:2}/${id:2}.debug"
"$armprof" report --binary stripped --debug-dir "$work/dbg" --format json -o other.json prof.raw
python3 - other.json "$sub_sum" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
names = [f["function"] for f in r["functions"]]
assert sys.argv[2] in names and "sum_bytes" not in names, names
PY

# 3b. A debug file at the build-ID path that is not an AArch64 ELF file (the
# host's own x86-64 armprof), one cut short, or a FIFO: refused with a warning
# naming it and why, never waited on; the functions keep their sub_ names
# (issue 32).
dbgfile="dbg/.build-id/${id:0:2}/${id:2}.debug"
for kind in host cut fifo; do
  rm -f "$dbgfile"
  case $kind in
    host) cp "$armprof" "$dbgfile"; why="not AArch64" ;;
    cut) head -c 4000 full.debug > "$dbgfile"; why="past the end of the file" ;;
    fifo) mkfifo "$dbgfile"; why="not a regular file" ;;
  esac
  timeout 20 "$armprof" report --binary stripped --debug-dir "$work/dbg" --format json -o refused.json prof.raw \
    2> refused.err || fail "debug file ($kind): exit $?, $(cat refused.err)"
  grep -q "warning: $work/dbg/.build-id/.*\.debug: .*$why.*not used as a debug file" refused.err ||
    fail "debug file ($kind): no warning naming it: $(cat refused.err)"
  python3 - refused.json "$sub_sum" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
names = [f["function"] for f in r["functions"]]
assert sys.argv[2] in names and "sum_bytes" not in names, names
PY
done
rm -f "$dbgfile"

# 4. By .gnu_debuglink: the debug file in the program's .debug/ directory.
mkdir -p linked/.debug
aarch64-linux-gnu-objcopy --add-gnu-debuglink=full.debug stripped linked/prog
cp full.debug linked/.debug/
"$armprof" report --binary linked/prog --debug-dir "$work/none" --format json -o linked.json prof.raw
python3 - linked.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["functions"][0]["function"] == "sum_bytes", r["functions"][0]
PY

# 5. A perf.data read on another machine than the recording's (its
# programs are not at the recorded paths): --symfs DIR (a copy of the
# recording machine's files), else the build-ID cache that `perf archive`
# fills (~/.debug/.build-id/xx/yyyy/elf), found by the BUILD_ID feature
# (lib/perfdata writes it, as perf record does). A different build at the
# recorded path is passed over.
cp full prog && "$armprof" convert --binary "$work/prog" prof.raw moved.data
fn_of() { "$armprof" report --format json "$@" | python3 -c "import json, sys; print(json.load(sys.stdin)['functions'][0]['function'])"; }
[ "$(fn_of moved.data)" = sum_bytes ] || fail "perf.data with its program in place"
mv prog prog.elsewhere
[ "$(HOME=$work/nohome fn_of moved.data)" = "[unknown]" ] || fail "no program: rows should be unnamed"
mkdir -p "symfs$work" && cp prog.elsewhere "symfs$work/prog"
[ "$(HOME=$work/nohome fn_of --symfs "$work/symfs" moved.data)" = sum_bytes ] || fail "--symfs"
mkdir -p "home/.debug/.build-id/${id:0:2}/${id:2}" && cp prog.elsewhere "home/.debug/.build-id/${id:0:2}/${id:2}/elf"
[ "$(HOME=$work/home fn_of moved.data)" = sum_bytes ] || fail "the build-ID cache (~/.debug)"
cp other prog # another build where the program was: its build ID differs
[ "$(HOME=$work/nohome fn_of moved.data)" = "[unknown]" ] || fail "a different build at the recorded path was used"
[ "$(HOME=$work/home fn_of moved.data)" = sum_bytes ] || fail "the cache after a different build at the path"
# FILE.meta (armprof record's) naming a program that is gone: a warning,
# then the perf.data's mappings are searched as above.
printf 'binary=/nonexistent/prog\nload_bias=0x0\n' > moved.data.meta
[ "$(HOME=$work/home fn_of moved.data 2> meta.err)" = sum_bytes ] || fail "FILE.meta's binary gone: $(cat meta.err)"
grep -q "warning: moved.data.meta's binary /nonexistent/prog cannot be read" meta.err || fail "no warning: $(cat meta.err)"
rm moved.data.meta

# 6. Bad input: a directory that does not exist is no error (nothing is
# found there); too many --debug-dir options are.
args=()
for i in $(seq 17); do args+=(--debug-dir "d$i"); done
set +e
"$armprof" report --binary stripped "${args[@]}" prof.raw > /dev/null 2> err.txt
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "at most 16" err.txt || fail "17 --debug-dir: exit $rc, $(cat err.txt)"
echo "report_stripped: ok"

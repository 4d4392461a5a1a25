#!/usr/bin/env bash
# An output that is one of the command's inputs is refused before anything
# is written (issue 32, item 4; tools/armprof/common/cli_inputs.h): exit 2,
# "armprof CMD: OUT: is the input IN (the same file)", the input unchanged
# byte for byte, no temporary file left. The same file by its name, a
# symbolic link, a hard link or standard output redirected onto it (>>),
# for every command that reads a file and writes one: decode (-o, each
# format, spe-parser's prefix files, parquet --split's files), report (-o,
# --html, reading standard input), convert (both ways), encode, sim's
# `mem save`, record (-o the program). A device node that is both input
# and output (a private node made with mknod here) is written in place as
# before: not a file to overwrite.
set -u
armprof=$1 work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 2
pass=0 fail=0 skipped=""
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

printf 'pc 0x10; op ld; end\npc 0x20; op st; end\n' > two.spe
"$armprof" encode -o two.bin two.spe || exit 2
for _ in $(seq 100); do cat two.bin; done > raw.bin
"$armprof" convert raw.bin ref.data || exit 2

# refused IN OUT CMD...: CMD (run in dir run/, holding IN, and OUT made a link
# to it unless OUT is IN) exits 2 saying OUT is IN, IN is unchanged, and
# run/ holds nothing new.
refused() {
  local in=$1 out=$2 how=$3; shift 3
  rm -rf run; mkdir run; cp "$in" "run/$in"
  case $how in
    name) ;;
    symlink) mkdir -p "run/$(dirname "$out")"; ln -s "$PWD/run/$in" "run/$out" ;;
    hardlink) mkdir -p "run/$(dirname "$out")"; ln "run/$in" "run/$out" ;;
  esac
  local before; before=$(cd run && find . | sort)
  (cd run && "$@" > stdout.txt 2> err.txt)
  local rc=$?
  if [ "$rc" -ne 2 ]; then bad "$*: exit status $rc, want 2 ($(cat run/err.txt))"; return; fi
  grep -q "^armprof [a-z]*: .*: is the input .* (the same file); not overwriting it$" run/err.txt \
    || { bad "$*: message: $(cat run/err.txt)"; return; }
  cmp -s "$in" "run/$in" || { bad "$*: the input changed"; return; }
  local after; after=$(cd run && find . | grep -vxE '\./(stdout|err)\.txt' | sort)
  [ "$before" = "$after" ] || { bad "$*: files made: $(echo "$after" | tr '\n' ' ')"; return; }
  pass=$((pass + 1))
}

for how in name symlink hardlink; do
  o=same
  [ $how = name ] && o=ref.data
  refused ref.data $o $how "$armprof" decode -o $o ref.data
  refused ref.data $o $how "$armprof" decode --format csv -o $o ref.data
  refused ref.data $o $how "$armprof" decode --format parquet -o $o ref.data
  refused ref.data $o $how "$armprof" report -o $o ref.data
  refused ref.data $o $how "$armprof" report --html $o ref.data
  refused ref.data $o $how "$armprof" convert --to raw ref.data $o
  [ $how = name ] && o=raw.bin
  refused raw.bin $o $how "$armprof" decode -o $o raw.bin
  refused raw.bin $o $how "$armprof" convert --to perf raw.bin $o
  [ $how = name ] && o=two.spe
  refused two.spe $o $how "$armprof" encode -o $o two.spe
done
# derived names: spe-parser's PREFIX-ldst.parquet, --split's DIR/br.parquet
refused ref.data p-br.parquet hardlink "$armprof" decode --format spe-parser -o p ref.data
refused ref.data d/ldst.parquet symlink "$armprof" decode --format parquet --split -o d ref.data
# standard output appended to the input; standard input as the input
refused ref.data ref.data name sh -c "\"$armprof\" decode --format csv ref.data >> ref.data"
refused ref.data ref.data name sh -c "\"$armprof\" report ref.data >> ref.data"
refused ref.data ref.data name sh -c "\"$armprof\" report --html ref.data - < ref.data"
# sim's mem save over its own script
cat > save.sim <<'SIM'
mem map 0x100000 0x10000
state el=1
msr PMSIRR_EL1 0x100
msr PMBPTR_EL1 0x100000
msr PMSCR_EL1 0x7b
msr PMBLIMITR_EL1 0x110001
msr PMSICR_EL1 0
op load pc=0x1000 va=0x2000 pa=0x2000 lat=40 sampled=1
mem save save.sim
SIM
rm -rf run; mkdir run; cp save.sim run/
(cd run && "$armprof" sim save.sim > stdout.txt 2> err.txt)
rc=$?
if [ $rc -ne 2 ] || ! grep -q "save.sim: is the input save.sim (the same file)" run/err.txt || ! cmp -s save.sim run/save.sim; then
  bad "sim mem save over its script: exit $rc, $(cat run/err.txt)"
else pass=$((pass + 1)); fi
# record -o the program it runs: refused before the program runs
examples=$(dirname "$armprof")/examples
if [ -x "$examples/pointer_chase" ] && [ -e "$(dirname "$armprof")/armprof-qemu.so" ]; then
  cp "$examples/pointer_chase" prog
  refused prog prog name "$armprof" record -o prog -- ./prog
  refused prog link symlink "$armprof" record -o link -- ./prog
else
  skipped+=" record (needs the aarch64 examples and the plugin)"
fi
# a device node as input and output is written in place, not refused
mkdir -p dev
if mknod dev/null c 1 3 2> /dev/null && echo probe > dev/null 2> /dev/null; then
  if "$armprof" report -o dev/null dev/null > /dev/null 2> err.txt && [ -c dev/null ]; then pass=$((pass + 1));
  else bad "report -o dev/null dev/null: $(cat err.txt)"; fi
else
  skipped+=" devices (mknod not permitted here)"
fi
echo "same-file outputs: $pass passed, $fail failed${skipped:+; skipped:$skipped}"
[ "$fail" -eq 0 ]

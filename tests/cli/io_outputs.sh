#!/usr/bin/env bash
# Outputs never destroy what the user's path points at, and a failed write
# says why (tools/armprof/common/cli_output.h, docs/outputs.md): every writer
# (encode -o, report -o, convert both ways, sim's `mem save`) to
#  - a symbolic link to a file: the target is replaced, its mode kept, the
#    link kept;
#  - character devices: private nodes made with mknod in the scratch
#    directory (1,3 like /dev/null, 1,7 like /dev/full), never the machine's
#    own /dev: written in place (nothing replaced), and the full one gives
#    exit 2, "No space left on device", and no file left behind;
#  - a FIFO with a reader: streamed (perf.data through a spool), the FIFO
#    kept, the reader gets the same bytes as a file;
#  - a full file system: a small tmpfs mounted here where the test may,
#    else `ulimit -f`: exit 2, the reason, the old file intact, no
#    temporary file left;
#  - standard output on a full device (sim, demo, decode): exit 2 and why;
#  - a directory, a dangling link, a file that may not be written.
set -u
armprof=$1 src=$2 work=$3
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 2
pass=0 fail=0 skipped=""
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# expect CODE PATTERN CMD...: exit status CODE, stderr matching PATTERN
expect() {
  local code=$1 pattern=$2; shift 2
  "$@" > out.txt 2> err.txt
  local got=$?
  if [ $got -ne "$code" ] || { [ -n "$pattern" ] && ! grep -Eq "$pattern" err.txt; }; then
    bad "$* -> exit $got (want $code), stderr: $(head -c 300 err.txt)"
  else
    ok
  fi
}
# no_temp DIR: no temporary file of a writer left in DIR
no_temp() {
  if ls -A "$1" | grep -Eq '\.armprof-|armprof-spool|\.tmp'; then bad "temporary file left in $1: $(ls -A "$1" | tr '\n' ' ')"; else ok; fi
}

printf 'pc 0x10; op ld; end\npc 0x20; op st; end\n' > two.spe
"$armprof" encode -o two.bin two.spe || exit 2
for _ in $(seq 100); do cat two.bin; done > raw.bin
"$armprof" convert raw.bin ref.data || exit 2
"$armprof" report -o ref.txt raw.bin || exit 2
"$armprof" convert ref.data ref.raw || exit 2
cmp -s ref.raw raw.bin || bad "perf.data -> raw is not the raw input"
# sim's `mem save`: the profiling buffer after one sampled load (as in
# tests/sim_spe/decode_roundtrip.sim)
cat > save.sim <<'SIM'
mem map 0x100000 0x10000
state el=1
msr PMSIRR_EL1 0x100
msr PMBPTR_EL1 0x100000
msr PMSCR_EL1 0x7b
msr PMBLIMITR_EL1 0x110001
msr PMSICR_EL1 0
op load pc=0x1000 va=0x2000 pa=0x2000 lat=40 sampled=1
mem save OUT
SIM

sed "s#OUT#ref-sim.bin#" save.sim > ref-sim.sim && "$armprof" sim ref-sim.sim || exit 2
[ -s ref-sim.bin ] || { echo "FAIL: mem save wrote nothing"; exit 1; }
# every writer: NAME and its command, output path last as OUT
writers=(
  "encode|$armprof encode -o OUT two.spe"
  "report|$armprof report -o OUT raw.bin"
  "to-perf|$armprof convert --to perf raw.bin OUT"
  "to-raw|$armprof convert --to raw ref.data OUT"
  "sim|sim_save OUT"
)
sim_save() { sed "s#OUT#$1#" save.sim > save-it.sim && "$armprof" sim save-it.sim; }
run_writer() { # run_writer SPEC OUT
  local cmd=${1#*|}
  # shellcheck disable=SC2086 # the command's words
  set -- ${cmd//OUT/$2}
  "$@"
}
reference() { # the bytes a writer gives into a plain file
  case ${1%%|*} in
    encode) cat two.bin ;; report) cat ref.txt ;; to-perf) cat ref.data ;; to-raw) cat ref.raw ;;
    sim) cat ref-sim.bin ;;
  esac
}

# 1. A symbolic link to a file: the target is replaced, its mode kept, the link kept.
for w in "${writers[@]}"; do
  name=${w%%|*}
  mkdir -p "link-$name/real"
  echo old > "link-$name/real/target"
  chmod 640 "link-$name/real/target"
  ln -s real/target "link-$name/link"
  expect 0 "" run_writer "$w" "link-$name/link"
  [ -L "link-$name/link" ] && [ "$(readlink "link-$name/link")" = real/target ] && ok || bad "$name: the link was replaced"
  cmp -s "link-$name/real/target" <(reference "$w") && ok || bad "$name: the target does not hold the output"
  [ "$(stat -c %a "link-$name/real/target")" = 640 ] && ok || bad "$name: mode $(stat -c %a "link-$name/real/target"), expected 640"
  no_temp "link-$name"; no_temp "link-$name/real"
done

# A file of another owner (root only: chown): its owner and group are kept.
if [ "$(id -u)" -eq 0 ]; then
  echo old > owned.bin; chown 4321:4322 owned.bin; chmod 604 owned.bin
  expect 0 "" "$armprof" encode -o owned.bin two.spe
  [ "$(stat -c %u:%g:%a owned.bin)" = 4321:4322:604 ] && ok || bad "owner/mode not kept: $(stat -c %u:%g:%a owned.bin)"
  cmp -s owned.bin two.bin && ok || bad "owned.bin does not hold the output"
fi

# 2. Private character devices like /dev/null and /dev/full.
mkdir dev
if mknod dev/null c 1 3 2> /dev/null && mknod dev/full c 1 7 2> /dev/null && echo probe > dev/null 2> /dev/null; then
  for w in "${writers[@]}"; do
    name=${w%%|*}
    expect 0 "" run_writer "$w" dev/null
    [ -c dev/null ] && ok || bad "$name: dev/null is no longer a character device"
    expect 2 "dev/full: .*No space left on device" run_writer "$w" dev/full
    [ -c dev/full ] && ok || bad "$name: dev/full is no longer a character device"
  done
  # standard output on a full device
  expect 2 "standard output: write failed: No space left on device" sh -c '"$1" demo > dev/full' _ "$armprof"
  expect 2 "standard output: write failed: No space left on device" sh -c '"$1" decode raw.bin > dev/full' _ "$armprof"
  expect 2 "standard output: write failed: No space left on device" sh -c '"$1" sim --list-config > dev/full' _ "$armprof"
  expect 2 "standard output: write failed: No space left on device" sh -c '"$1" report raw.bin > dev/full' _ "$armprof"
  no_temp dev
else
  skipped+=" devices (mknod not permitted here, or a nodev file system)"
fi

# 3. A FIFO with a reader: streamed; perf.data (which seeks) through a spool.
for w in "${writers[@]}"; do
  name=${w%%|*}
  rm -f fifo got; mkfifo fifo
  timeout 20 cat fifo > got &
  reader=$!
  expect 0 "" run_writer "$w" fifo
  wait $reader
  [ -p fifo ] && ok || bad "$name: the FIFO was replaced"
  cmp -s got <(reference "$w") && ok || bad "$name: the FIFO's reader got other bytes"
done
no_temp .
# perf.data to a pipe on standard output
"$armprof" convert --to perf raw.bin - | cat > piped.data
cmp -s piped.data ref.data && ok || bad "convert --to perf to a pipe: other bytes than to a file"

# 4. A full file system: an existing output is left as it was.
# 8000 records at 8000 PCs: 96 KB of SPE, a long report
for i in $(seq 8000); do printf 'pc 0x%x; op ld; end\n' $((i * 4)); done > big.spe
"$armprof" encode -o big.bin big.spe
mkdir small
if mount -t tmpfs -o size=64k armprof-test small 2> /dev/null; then
  trap 'umount "$work/small" 2> /dev/null' EXIT
  full_reason="No space left on device"
else
  full_reason="File too large"
  skipped+=" tmpfs (mount not permitted: ulimit -f instead)"
fi
echo precious > small/out.data
for spec in "to-perf|convert --to perf big.bin" "to-raw|convert --to raw big.data" "encode|encode -o" "report|report -o"; do
  name=${spec%%|*}
  [ -e big.data ] || "$armprof" convert big.bin big.data
  case $name in
    to-perf|to-raw) set -- ${spec#*|} small/out.data ;;
    encode) set -- encode -o small/out.data big.spe ;;
    report) set -- report --format csv --top 0 -o small/out.data big.bin ;;
  esac
  if [ "$full_reason" = "File too large" ]; then
    expect 2 "small/out.data: .*$full_reason" bash -c 'ulimit -f 64; exec "$@"' _ "$armprof" "$@"
  else
    expect 2 "small/out.data: .*$full_reason" "$armprof" "$@"
  fi
  [ "$(cat small/out.data)" = precious ] && ok || bad "$name: the old file was changed by a failed write"
  no_temp small
done

# 5. What is refused, as the shell would refuse it.
expect 2 "is a directory" "$armprof" encode -o small two.spe
ln -s nowhere/x dangling
expect 2 "dangling: a symbolic link to a file that does not exist" "$armprof" encode -o dangling two.spe
[ -L dangling ] && ok || bad "the dangling link was replaced"
if [ "$(id -u)" -ne 0 ]; then
  echo keep > ro.bin; chmod 444 ro.bin
  expect 2 "ro.bin: Permission denied" "$armprof" encode -o ro.bin two.spe
  [ "$(cat ro.bin)" = keep ] && ok || bad "a read-only file was replaced"
fi
no_temp .

[ -z "$skipped" ] || echo "not run:$skipped"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

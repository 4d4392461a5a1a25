# Shared set-up of the record tests: paths of the plugin and the examples
# (both built next to the armprof binary), and a skip (exit 77) when
# qemu-aarch64, the plugin or the cross-built examples are missing.
armprof=$1 src=$2 work=$3
build=$(dirname "$armprof")
examples=$build/examples
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# every_op_counted META COUNTS LABEL: the operations fed (META's ops=), SAMPLE_POP
# and the sum of the exact per-PC counts are one number: each execution of an
# instruction is one member of the population (SPE-2.2-1, spec/002 2.2).
every_op_counted() {
  local ops pop sum
  ops=$(sed -n 's/^ops=//p' "$1")
  pop=$(sed -n 's/^sample_pop=//p' "$1")
  sum=$(awk '!/^#/ { s += $2 } END { print s }' "$2")
  [ -n "$ops" ] && [ "$ops" = "$pop" ] && [ "$ops" = "$sum" ] ||
    fail "$3: ops $ops, SAMPLE_POP $pop, counts $sum"
}
# armprof record runs $ARMPROF_QEMU, else armprof's own qemu-aarch64
# (system/qemu/build.sh), else Debian's on PATH: any of them will do.
if { [ -z "${ARMPROF_QEMU:-}" ] && [ ! -x "$src/.cache/qemu/current/bin/qemu-aarch64" ] &&
     ! command -v qemu-aarch64 >/dev/null; } || [ ! -e "$build/armprof-qemu.so" ] ||
   [ ! -x "$examples/pointer_chase" ]; then
  echo "SKIP: needs qemu-aarch64 (Debian's qemu-user, or bash system/qemu/build.sh), armprof-qemu.so and the aarch64 examples"
  exit 77
fi
# Function of each PC in a counts file (pc count kind), from the binary's
# symbols: prints "function count" lines summed per function.
counts_by_function() {
  python3 "$src/tests/record/counts_by_function.py" "$1" "$2"
}

# need_debian_root PROG WHAT: Debian's own arm64 programs, unpacked by
# scripts/debian-arm64-root.sh (install-deps.sh does it), in $root: PROG (a
# path inside it, WHAT names its package) and glibc; else the test skips.
need_debian_root() {
  root=${ARMPROF_DEBIAN_ROOT:-$src/.cache/debian-arm64/root}
  if [ ! -x "$root/$1" ] || [ ! -e "$root/lib/ld-linux-aarch64.so.1" ]; then
    echo "SKIP: needs Debian's arm64 $2 and glibc in $root (bash scripts/debian-arm64-root.sh .cache/debian-arm64)"
    exit 77
  fi
  command -v aarch64-linux-gnu-readelf >/dev/null || { echo "SKIP: needs aarch64-linux-gnu-readelf"; exit 77; }
}

# Shared set-up of the full-system SPE tests: the built QEMU and guest kit
# (skip, 77, without them), the aarch64 examples, and sys() = armprof system
# with the test's work directory shared at the same path in the guest.
armprof=$1 src=$2 work=$3
build=$(dirname "$armprof")
examples=$build/examples
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
qemu=${ARMPROF_SYSTEM_QEMU:-$src/.cache/qemu/current/bin/qemu-system-aarch64}
kit=${ARMPROF_KIT:-$src/.cache/kit/current}
if [ ! -x "$qemu" ]; then
  echo "SKIP: needs armprof's qemu-system-aarch64 ($qemu): bash system/qemu/build.sh"
  exit 77
fi
if [ ! -f "$kit/vmlinuz" ] || [ ! -f "$kit/initrd.img" ]; then
  echo "SKIP: needs the guest kit ($kit): bash system/kit/build.sh"
  exit 77
fi
if [ ! -x "$examples/pointer_chase" ]; then
  echo "SKIP: needs the aarch64 examples (gcc-aarch64-linux-gnu)"
  exit 77
fi
sys() { "$armprof" system --qemu "$qemu" --kit "$kit" --share "$work" --timeout 600 "$@"; }
# need_spe_later: skip (77) unless the QEMU has patch 0010's spe-preset
# property and the kit's kernel is Linux 7.x, whose SPE driver offers the
# later filters (discard, inverted and masked filters, the data-source
# filter); bookworm's 6.1 and trixie's 6.12 have not them to offer.
need_spe_later() {
  if ! grep -q "spe-preset" "$qemu"; then
    echo "SKIP: $qemu predates patch 0010 (no spe-preset property): bash system/qemu/build.sh"
    exit 77
  fi
  local release
  release=$(sed -n 's/^kernel=//p' "$kit/VERSION" 2> /dev/null)
  if [ "${release%%.*}" -lt 7 ] 2> /dev/null; then
    echo "SKIP: the kit's kernel is $release: the SPE driver's later filters are Linux 7.x's (bash system/kit/build.sh --suite unstable)"
    exit 77
  fi
}
# counts_by_function BINARY COUNTS and every_op_counted, from the record tests.
# shellcheck source=../record/record_functions.sh

#!/usr/bin/env bash
# Boot to shell per guest kit: the wall time of `armprof system -- true`
# (QEMU start, the kernel's boot and initramfs unpacking, /init's modules
# and 9p mounts, the empty command, power off) on armprof's QEMU, RUNS boots
# per kit, best and median, each kit's median against the first kit's
# (the peer), in one run of this script so that the ratios compare like
# with like. --no-timing: the timing model does not run at boot anyway
# without accesses to feed, but the option keeps the figure about boot.
#
# usage: bench/bench_kit_boot.sh [BUILD_DIR] [RUNS] KIT...
#        e.g. bench/bench_kit_boot.sh build 5 .cache/kit/bookworm .cache/kit/unstable
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
shift 2 2> /dev/null || shift $#
[ $# -gt 0 ] || { echo "usage: bench/bench_kit_boot.sh [BUILD_DIR] [RUNS] KIT..." >&2; exit 2; }
armprof=$build/armprof
[ -x "$armprof" ] || { echo "bench_kit_boot: build $build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| kit | kernel | initrd.img MB | best s | median s | median / first |"
echo "|---|---|---|---|---|---|"
first=""
for kit in "$@"; do
  rel=$(sed -n 's/^kernel=//p' "$kit/VERSION")
  name=$(sed -n 's/^suite=//p' "$kit/VERSION")
  ! grep -qx tests=1 "$kit/VERSION" || name=$name-tests
  : > "$tmp/times"
  for _ in $(seq "$runs"); do
    s=$(date +%s.%N)
    "$armprof" system --no-timing --kit "$kit" --share "$tmp" -- true > "$tmp/out" 2>&1 ||
      { echo "bench_kit_boot: $kit failed: $(tail -5 "$tmp/out")" >&2; exit 2; }
    echo "$(date +%s.%N) - $s" | bc >> "$tmp/times"
  done
  sort -n "$tmp/times" > "$tmp/sorted"
  best=$(head -n 1 "$tmp/sorted")
  med=$(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' "$tmp/sorted")
  [ -n "$first" ] || first=$med
  mb=$(( $(stat -L -c %s "$kit/initrd.img") / 1000000 ))
  printf '| %s | %s | %d | %.2f | %.2f | %.2fx |\n' "${name:-$(basename "$kit")}" "$rel" "$mb" "$best" "$med" \
    "$(echo "$med / $first" | bc -l)"
done

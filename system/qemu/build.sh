#!/usr/bin/env bash
# Builds, from one source tree and one configuration, the two QEMUs of
# armprof: qemu-system-aarch64 whose CPUs implement SPE with armprof's model
# and its timing model (`armprof system`), and qemu-aarch64 (linux-user)
# whose plugin API lets armprof's plugin have events logged by inline code
# (patch 0007; `armprof record` prefers it to Debian's qemu-user). Debian
# 12's QEMU source (the version in system/qemu/DEBIAN_VERSION, got with
# `apt-get source`), the patch series in system/qemu/patches/, linked
# against libarmprof-core and libarmprof-uarch from an armprof build.
#
#   bash system/qemu/build.sh [ARMPROF_BUILD_DIR]     (default: build/)
#
# The result is cached in .cache/qemu/<key>/ (or $ARMPROF_CACHE/qemu/<key>),
# key = the patches, this script, the Debian version and armprof's public
# headers (the ABI QEMU compiles against, uarch.h included); .cache/qemu/current
# points at it. A cached build is reused at once. The models are shared
# libraries: `armprof system` runs QEMU with the armprof build's own
# libarmprof-core and libarmprof-uarch, so changing a model's code (not its
# headers) needs no QEMU rebuild. Prints the directory holding
# bin/qemu-system-aarch64 and bin/qemu-aarch64.
#
# Needs root (or sudo) the first time: build dependencies, and a deb-src
# entry for the Debian mirror the machine already uses. Exit status: 0
# built or cached, 2 anything that failed (the message says what).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
armprof_build=$(cd "${1:-$top/build}" 2>/dev/null && pwd) || {
  echo "system/qemu/build.sh: no armprof build at ${1:-$top/build}: run bash scripts/build.sh first" >&2
  exit 2
}
cache=${ARMPROF_CACHE:-$top/.cache}/qemu
version=$(cat "$here/DEBIAN_VERSION")
die() { echo "system/qemu/build.sh: $*" >&2; exit 2; }

key=$( (cat "$here"/patches/*.patch "$here/build.sh" "$here/DEBIAN_VERSION"
        cat "$top"/include/armprof/*.h) | sha256sum | cut -c1-16)
out=$cache/$key
if [ -x "$out/bin/qemu-system-aarch64" ] && [ -x "$out/bin/qemu-aarch64" ] && [ -e "$out/contrib/libcache.so" ]; then
  ln -sfn "$key" "$cache/current"
  echo "$out"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
deps=(meson ninja-build pkg-config libglib2.0-dev libpixman-1-dev libfdt-dev libslirp-dev
      libcap-ng-dev libattr1-dev dpkg-dev xz-utils)
missing=()
for p in "${deps[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "system/qemu/build.sh: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    die "could not install ${missing[*]}"
fi

# A deb-src entry for each deb entry the machine has (same mirror, suites
# and components), so that `apt-get source` reaches the same archive.
has_source() { apt-cache showsrc qemu 2>/dev/null | sed -n 's/^Version: //p' | grep -Fx -- "$version" >/dev/null; }
if ! has_source; then
  src_list=/etc/apt/sources.list.d/armprof-deb-src.sources
  if [ ! -f "$src_list" ]; then
    deb_sources=$(ls /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v armprof-deb-src || true)
    [ -n "$deb_sources" ] || die "no deb822 apt source (/etc/apt/sources.list.d/*.sources) to mirror as deb-src"
    # shellcheck disable=SC2086
    awk 'BEGIN{RS=""; ORS="\n\n"} /(^|\n)Types:[^\n]*deb/ && !/deb-src/ {sub(/Types:[^\n]*/, "Types: deb-src"); print}' \
      $deb_sources | $SUDO tee "$src_list" >/dev/null
  fi
  $SUDO apt-get update -qq
  has_source ||
    die "Debian's archive has no qemu source $version (it has: $(apt-cache showsrc qemu 2>/dev/null |
         sed -n 's/^Version: //p' | tr '\n' ' ')); the patches are for $version: rebase them (docs/system.md)"
fi

work=$out.tmp
rm -rf "$work"
mkdir -p "$work/dl"
trap 'rm -rf "$work" "$out.armprof"' EXIT
(cd "$work/dl" && apt-get source -qq --download-only "qemu=$version" >/dev/null 2>"$work/dl/err") ||
  die "apt-get source qemu=$version failed: $(cat "$work/dl/err")"
dpkg-source -x "$work/dl"/qemu_*.dsc "$work/src" >/dev/null 2>"$work/dl/err" ||
  die "dpkg-source could not unpack qemu $version: $(cat "$work/dl/err")"
for p in "$here"/patches/*.patch; do
  patch -d "$work/src" -p1 --forward --quiet < "$p" >"$work/dl/err" 2>&1 ||
    die "$(basename "$p") does not apply to qemu $version: $(head -5 "$work/dl/err"); rebase (docs/system.md)"
done

# libarmprof-core and its headers, as an emulator gets them.
cmake --install "$armprof_build" --prefix "$out.armprof" >/dev/null ||
  die "cmake --install $armprof_build failed (is it built?)"
pc_dir=$(dirname "$(find "$out.armprof" -name armprof-core.pc | head -1)")
[ -f "$pc_dir/armprof-core.pc" ] || die "$armprof_build installs no armprof-core.pc"

mkdir -p "$work/src/build"
(cd "$work/src/build" &&
  PKG_CONFIG_PATH=$pc_dir ../configure --prefix="$out" --target-list=aarch64-softmmu,aarch64-linux-user \
    --without-default-features --without-default-devices --with-devices-aarch64=armprof \
    --enable-fdt=system --enable-plugins --enable-slirp --enable-virtfs --enable-attr \
    --enable-cap-ng --disable-docs --disable-tools \
    --extra-ldflags="-Wl,-rpath,$out/armprof/lib" >"$work/configure.log" 2>&1) ||
  die "configure failed: $(tail -5 "$work/configure.log")"
for lib in armprof-core armprof-uarch; do
  grep -q "$lib found: YES" "$work/src/build/meson-logs/meson-log.txt" ||
    die "configure did not find lib$lib (pkg-config $lib in $pc_dir)"
done
echo "system/qemu/build.sh: building qemu-system-aarch64 and qemu-aarch64 $version + $(ls "$here"/patches | wc -l) patches (8-14 minutes on 2 cores)" >&2
ninja -C "$work/src/build" qemu-system-aarch64 qemu-aarch64 >"$work/build.log" 2>&1 ||
  die "the build failed: $(grep -m5 -E 'error|Error' "$work/build.log")"

# The peer bench/bench_record.sh measures armprof record against: QEMU's
# own cache-simulation plugin from the same source, optimized like ours.
mkdir -p "$work/out/bin" "$work/out/contrib"
# shellcheck disable=SC2046
cc -O2 -fPIC -shared $(pkg-config --cflags glib-2.0) -I"$work/src/include/qemu" \
  "$work/src/contrib/plugins/cache.c" -o "$work/out/contrib/libcache.so" $(pkg-config --libs glib-2.0) \
  >"$work/contrib.log" 2>&1 || die "contrib/plugins/cache.c did not build: $(head -5 "$work/contrib.log")"
cp "$work/src/build/qemu-system-aarch64" "$work/src/build/qemu-aarch64" "$work/out/bin/"
cp "$work/src/build/pc-bios/efi-virtio.rom" "$work/out/bin/" 2>/dev/null || true
echo "$version" > "$work/out/DEBIAN_VERSION"
rm -rf "$out"
mv "$work/out" "$out"
mv "$out.armprof" "$out/armprof"
ln -sfn "$key" "$cache/current"
echo "$out"

#!/usr/bin/env bash
# Builds the guest's test module pmu_ss/pmu_ss_test.ko (PMU snapshots from
# EL1, docs/system.md "PMU snapshots") for the kernel of a guest kit, against
# Debian's own arm64 kernel headers, with the cross compiler:
#
#   bash system/guest/build-module.sh [KIT]   # prints the .ko's path on stdout
#
# KIT (default $ARMPROF_KIT, else .cache/kit/current) names its kernel
# release in VERSION (kernel=6.1.0-N-arm64). The packages are downloaded
# (apt-get download, never installed) as system/kit/build.sh does:
# linux-headers-<release> (arm64), its -common, and linux-kbuild-6.1 of
# this host's architecture at the same version (its fixdep and modpost run
# here). The module goes to .cache/guest-modules/<key>/ (key: this script,
# the module's source, the package versions), .cache/guest-modules/current
# pointing at the newest; a module with the same key is reused.
# Needs gcc-aarch64-linux-gnu (aarch64-linux-gnu-gcc-12), make, and Debian's
# arm64 package lists (bash system/kit/build.sh sets them up).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=$src/.cache/guest-modules
say() { echo "guest/build-module.sh: $*" >&2; }
die() {
  say "error: $*"
  exit 2
}
kit=${1:-${ARMPROF_KIT:-$src/.cache/kit/current}}
[ -f "$kit/VERSION" ] || die "no guest kit at $kit (bash system/kit/build.sh)"
release=$(sed -n 's/^kernel=//p' "$kit/VERSION")
[ -n "$release" ] || die "$kit/VERSION names no kernel"
for tool in apt-get apt-cache dpkg-deb make aarch64-linux-gnu-gcc-12 sha256sum; do
  command -v "$tool" > /dev/null || die "$tool not found (Debian packages: apt dpkg make gcc-12-aarch64-linux-gnu coreutils)"
done
hdr=linux-headers-$release
version=$(apt-cache show "$hdr:arm64" 2> /dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$version" ] || die "Debian's arm64 package lists have no $hdr (bash system/kit/build.sh sets them up)"
common=$(apt-cache show "$hdr:arm64" | sed -n 's/^Depends: .*\(linux-headers-[^ ,]*-common\).*/\1/p' | head -n 1)
kbuild=$(apt-cache show "$hdr:arm64" | sed -n 's/^Depends: .*\(linux-kbuild-[0-9.]*\).*/\1/p' | head -n 1)
[ -n "$common" ] && [ -n "$kbuild" ] || die "cannot read $hdr's dependencies"
key=$( (cat "$0" "$here"/pmu_ss/*; echo "$hdr=$version $common $kbuild") | sha256sum | cut -c1-16)
out=$cache/$key
if [ -f "$out/pmu_ss_test.ko" ]; then
  ln -sfn "$key" "$cache/current"
  echo "$out/pmu_ss_test.ko"
  exit 0
fi
work=$out.tmp
rm -rf "$work"
mkdir -p "$work/dl" "$work/root"
trap 'rm -rf "$work" "$out.new"' EXIT
(cd "$work/dl" && apt-get download -q "$hdr:arm64=$version" "$common=$version" "$kbuild=$version" \
  > "$work/dl.log" 2>&1) || die "apt-get download failed: $(tail -3 "$work/dl.log")"
for deb in "$work"/dl/*.deb; do
  dpkg-deb -x "$deb" "$work/root" || die "dpkg-deb -x $deb failed"
done
# The headers' Makefile includes the -common tree by its absolute path.
sed -i "s|include /usr/src/|include $work/root/usr/src/|" "$work/root/usr/src/$hdr/Makefile"
cp -r "$here/pmu_ss" "$work/mod"
make -C "$work/root/usr/src/$hdr" M="$work/mod" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules \
  > "$work/make.log" 2>&1 || die "the module did not build: $(grep -m5 -E 'error|Error' "$work/make.log")"
mkdir -p "$out.new"
cp "$work/mod/pmu_ss_test.ko" "$out.new/"
echo "$hdr=$version $common=$version $kbuild=$version" > "$out.new/VERSION"
rm -rf "$out"
mv "$out.new" "$out"
ln -sfn "$key" "$cache/current"
say "built for $release"
echo "$out/pmu_ss_test.ko"

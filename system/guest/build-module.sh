#!/usr/bin/env bash
# Builds the guest's test modules pmu_ss/pmu_ss_test.ko (PMU snapshots from
# EL1, docs/system.md "PMU snapshots") and cpu_spin/armprof_spin.ko (a CPU
# spinning in a known function, docs/system.md "coresight-cpu-debug") for
# the kernel of a guest kit, against the kit's suite's own arm64 kernel
# headers, and takes the kernel's own coresight-cpu-debug.ko with the
# modules it depends on (coresight, configfs) from the kernel's package
# (linux-modules-<release> from Linux 7.x on, else linux-image-<release>),
# in their load order in cpu-debug.order; a kernel built without it (Debian
# 12's 6.1) gets a cpu-debug.none saying so:
#
#   bash system/guest/build-module.sh [KIT]   # prints the .ko's path on stdout
#
# KIT (default $ARMPROF_KIT, else .cache/kit/current) names its suite and
# kernel release in VERSION (suite=, kernel=). The packages are downloaded
# (apt-get download, never installed; newer suites through the project's
# own lists, system/debian-suite.sh): linux-headers-<release> (arm64), its
# -common, and its linux-kbuild.
#   bookworm: linux-kbuild of this host's architecture (its fixdep and
#     modpost run here) and the cross compiler aarch64-linux-gnu-gcc-12, the
#     compiler the kernel was built with.
#   trixie, unstable: their kernels are built with gcc 14 / 16, and their
#     linux-kbuild needs a newer glibc than Debian 12's, so the module is
#     built in a guest of the suite's own kit with perf's test dependencies
#     (bash system/kit/build.sh --suite SUITE --tests: the suite's gcc),
#     by `armprof system --no-spe` (build/armprof, or $ARMPROF; any QEMU),
#     with the arm64 linux-kbuild and the suite's make.
# The module goes to .cache/guest-modules/<key>/ (ARMPROF_MODULE_CACHE
# overrides .cache/guest-modules; key: this script, the module's source, the
# package versions), .cache/guest-modules/<release> (what the tests load
# for a kit of that kernel) and .cache/guest-modules/current pointing at
# the newest; a module with the same key is reused.
# Needs make, and for bookworm gcc-aarch64-linux-gnu (aarch64-linux-gnu-gcc-12).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${ARMPROF_MODULE_CACHE:-$src/.cache/guest-modules}
say() { echo "guest/build-module.sh: $*" >&2; }
die() {
  say "error: $*"
  exit 2
}
kit=${1:-${ARMPROF_KIT:-$src/.cache/kit/current}}
[ -f "$kit/VERSION" ] || die "no guest kit at $kit (bash system/kit/build.sh)"
release=$(sed -n 's/^kernel=//p' "$kit/VERSION")
[ -n "$release" ] || die "$kit/VERSION names no kernel"
suite=$(sed -n 's/^suite=//p' "$kit/VERSION")
suite=${suite:-bookworm} # kits of before issue 27 were all Debian 12's
for tool in apt-get apt-cache dpkg-deb make sha256sum; do
  command -v "$tool" > /dev/null || die "$tool not found (Debian packages: apt dpkg make coreutils)"
done
# shellcheck source=../debian-suite.sh
. "$src/system/debian-suite.sh"
suite_apt "$suite" || die "no package lists for $suite"
APT=("${SUITE_APT[@]}")
hdr=linux-headers-$release
version=$(apt-cache "${APT[@]}" show "$hdr:arm64" 2> /dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$version" ] || die "$suite's arm64 package lists have no $hdr (bash system/kit/build.sh --suite $suite sets them up)"
deps=$(apt-cache "${APT[@]}" show "$hdr:arm64" | sed -n 's/^Depends: //p' | head -n 1)
common=$(grep -o 'linux-headers-[^ ,]*-common' <<< "$deps" | head -n 1)
kbuild=$(grep -o 'linux-kbuild-[^ ,]*' <<< "$deps" | head -n 1)
[ -n "$common" ] && [ -n "$kbuild" ] || die "cannot read $hdr's dependencies: $deps"
# The headers want linux-kbuild at ">=" their version: its candidate.
kbarch=arm64
[ "$suite" != bookworm ] || kbarch=$(dpkg --print-architecture)
kbv=$(apt-cache "${APT[@]}" show --no-all-versions "$kbuild:$kbarch" 2> /dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$kbv" ] || die "$suite's lists have no $kbuild:$kbarch"
if [ "$suite" = bookworm ]; then
  command -v aarch64-linux-gnu-gcc-12 > /dev/null || die "aarch64-linux-gnu-gcc-12 not found (Debian package gcc-12-aarch64-linux-gnu)"
  get=("$hdr:arm64=$version" "$common=$version" "$kbuild=$kbv")
else
  # The guest that builds it: a kit of the suite with its compiler.
  bkit=$kit
  grep -qx tests=1 "$bkit/VERSION" || bkit=$(dirname "$kit")/$suite-tests
  grep -qx tests=1 "$bkit/VERSION" 2> /dev/null ||
    die "a $suite kernel's module is built in a guest with $suite's gcc: build that kit first (bash system/kit/build.sh --suite $suite --tests)"
  grep -qx "kernel=$release" "$bkit/VERSION" || die "$bkit has another kernel than $kit's $release: rebuild both kits"
  armprof=${ARMPROF:-$src/build/armprof}
  [ -x "$armprof" ] || die "no $armprof to boot the guest that builds the module (bash scripts/build.sh, or ARMPROF=)"
  makev=$(apt-cache "${APT[@]}" show --no-all-versions make:arm64 2> /dev/null | sed -n 's/^Version: //p' | head -n 1)
  [ -n "$makev" ] || die "$suite's lists have no make:arm64"
  get=("$hdr:arm64=$version" "$common=$version" "$kbuild:arm64=$kbv" "make:arm64=$makev")
fi
# The kernel's own modules: its package, downloaded beside the others.
mpkg=linux-modules-$release
mver=$(apt-cache "${APT[@]}" show --no-all-versions "$mpkg:arm64" 2> /dev/null | sed -n 's/^Version: //p' | head -n 1 || true)
if [ -z "$mver" ]; then
  mpkg=linux-image-$release
  mver=$(apt-cache "${APT[@]}" show --no-all-versions "$mpkg:arm64" 2> /dev/null | sed -n 's/^Version: //p' | head -n 1 || true)
fi
[ -n "$mver" ] || die "$suite's lists have neither linux-modules-$release nor linux-image-$release"
key=$( (cat "$0" "$here"/pmu_ss/* "$here"/cpu_spin/*; echo "$suite ${get[*]} $mpkg=$mver") | sha256sum | cut -c1-16)
out=$cache/$key
if [ -f "$out/pmu_ss_test.ko" ] && [ -f "$out/armprof_spin.ko" ]; then
  ln -sfn "$key" "$cache/current"
  ln -sfn "$key" "$cache/$release"
  echo "$out/pmu_ss_test.ko"
  exit 0
fi
work=$out.tmp
rm -rf "$work"
mkdir -p "$work/dl" "$work/root" "$work/kmod"
trap 'rm -rf "$work" "$out.new"' EXIT
# Its real path: the guest that builds the module sees the share there
# (armprof system resolves symbolic links, e.g. a .cache that is one).
work=$(cd "$work" && pwd -P)
(cd "$work/dl" && apt-get "${APT[@]}" download -q "${get[@]}" > "$work/dl.log" 2>&1) ||
  die "apt-get download failed: $(tail -3 "$work/dl.log")"
(cd "$work/kmod" && apt-get "${APT[@]}" download -q "$mpkg:arm64=$mver" > "$work/dl.log" 2>&1) ||
  die "apt-get download $mpkg failed: $(tail -3 "$work/dl.log")"
for deb in "$work"/dl/*.deb; do
  dpkg-deb -x "$deb" "$work/root" || die "dpkg-deb -x $deb failed"
done
# The headers' Makefiles name the trees by their absolute paths.
sed -i "s|/usr/src/|$work/root/usr/src/|" "$work/root/usr/src/$hdr/Makefile"
cp -r "$here/pmu_ss" "$work/mod"
cp -r "$here/cpu_spin" "$work/spin"
if [ "$suite" = bookworm ]; then
  for m in mod spin; do
    make -C "$work/root/usr/src/$hdr" M="$work/$m" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules \
      >> "$work/make.log" 2>&1 || die "the module did not build: $(grep -m5 -E 'error|Error' "$work/make.log")"
  done
else
  # In the guest: $work shared at the same path, the suite's compiler
  # (aarch64-linux-gnu-gcc-N, as the headers' .kernelvariables name it);
  # no BTF for the module (the headers ship a vmlinux, so kbuild would run
  # pahole, which the guest has not; the module loads without it).
  say "building it in a $suite guest (armprof system --no-spe)"
  "$armprof" system --no-spe --kit "$bkit" --share "$work" --memory 2048 --timeout 1800 -- \
    "for m in mod spin; do $work/root/usr/bin/make -C $work/root/usr/src/$hdr M=$work/\$m DEB_BUILD_ARCH=arm64 CONFIG_DEBUG_INFO_BTF_MODULES= modules >> $work/make.log 2>&1 || exit 1; done" \
    > "$work/guest.log" 2>&1 ||
    die "the module did not build in the guest: $(grep -m5 -E 'error|Error' "$work/make.log" 2> /dev/null || tail -5 "$work/guest.log")"
fi
mkdir -p "$out.new"
cp "$work/mod/pmu_ss_test.ko" "$work/spin/armprof_spin.ko" "$out.new/"
# coresight-cpu-debug and what its depends= field names, deps first; built-in
# ones (modules.builtin) are left out.
dpkg-deb --fsys-tarfile "$work"/kmod/*.deb | tar -x -C "$work/kmod" --wildcards \
  '*/kernel/drivers/hwtracing/coresight/*' '*/kernel/fs/configfs/*' '*/modules.builtin' 2> /dev/null || true
builtin=$(find "$work/kmod" -name modules.builtin | head -n 1)
ko_text() { case "$1" in *.xz) xz -dc "$1" ;; *.zst) zstd -dcq "$1" ;; *) cat "$1" ;; esac; }
order=()
add_ko() { # NAME
  local f dep
  case " ${order[*]} " in *" $1.ko "*) return 0 ;; esac
  [ -z "$builtin" ] || ! grep -q "/${1//[-_]/[-_]}\.ko$" "$builtin" || return 0
  f=$(find "$work/kmod" -name "$1.ko*" -o -name "${1//_/-}.ko*" | head -n 1)
  [ -n "$f" ] || return 1
  for dep in $(ko_text "$f" | tr '\0' '\n' | sed -n 's/^depends=//p' | head -n 1 | tr ',' ' '); do
    add_ko "$dep" || die "$mpkg has no $dep.ko, which $1 needs"
  done
  ko_text "$f" > "$out.new/$1.ko"
  order+=("$1.ko")
}
if add_ko coresight-cpu-debug; then
  printf '%s\n' "${order[@]}" > "$out.new/cpu-debug.order"
else
  echo "$mpkg $mver has no coresight-cpu-debug module (its kernel is built without CONFIG_CORESIGHT_CPU_DEBUG)" > "$out.new/cpu-debug.none"
fi
echo "suite=$suite ${get[*]} $mpkg=$mver" > "$out.new/VERSION"
rm -rf "$out"
mv "$out.new" "$out"
ln -sfn "$key" "$cache/current"
ln -sfn "$key" "$cache/$release"
say "built for $release"
echo "$out/pmu_ss_test.ko"

#!/usr/bin/env bash
# Builds, from one source tree and one configuration, the two QEMUs of
# armprof: qemu-system-aarch64 whose CPUs implement SPE with armprof's model
# and its timing model (`armprof system`), and qemu-aarch64 (linux-user)
# that `armprof record` prefers to Debian's qemu-user (with patch 0007, its
# plugin API lets armprof's plugin have events logged by inline code).
# QEMU 10.2: the newest 10.2.x whose source Debian's unstable (else trixie)
# archive serves, got with `apt-get source` through the project's own apt
# lists (system/debian-suite.sh; the machine's apt sources are not touched),
# the patch series in system/qemu/patches/, linked against libarmprof-core
# and libarmprof-uarch from an armprof build.
#
#   bash system/qemu/build.sh [ARMPROF_BUILD_DIR]     (default: build/)
#
# The result is cached in .cache/qemu/<key>/ (or $ARMPROF_CACHE/qemu/<key>),
# key = the patches, this script, the QEMU source version and armprof's
# public headers (the ABI QEMU compiles against, uarch.h included);
# .cache/qemu/current points at it. A cached build is reused at once. The
# source packages are kept in .cache/qemu/src/<version>/ and QEMU's build
# tools (meson >= 1.5 and pycotap, unpacked from Debian's packages, not
# installed) in .cache/qemu/tools/: a rebuild needs no archive. The models
# are shared libraries: `armprof system` runs QEMU with the armprof build's
# own libarmprof-core and libarmprof-uarch, so changing a model's code (not
# its headers) needs no QEMU rebuild. Prints the directory holding
# bin/qemu-system-aarch64 and bin/qemu-aarch64.
#
# Environment: ARMPROF_QEMU_VERSION=V builds that Debian source version
# (e.g. 1:10.2.2+ds-1) instead of resolving the newest served one;
# ARMPROF_QEMU_TARGETS overrides the configure target list (default
# aarch64-softmmu,aarch64-linux-user; for iterating on the series).
#
# Needs root (or sudo) the first time for the build dependencies from the
# machine's own Debian. Exit status: 0 built or cached, 2 anything that
# failed (the message says what).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
armprof_build=$(cd "${1:-$top/build}" 2>/dev/null && pwd) || {
  echo "system/qemu/build.sh: no armprof build at ${1:-$top/build}: run bash scripts/build.sh first" >&2
  exit 2
}
# shellcheck source=../debian-suite.sh
. "$top/system/debian-suite.sh"
patchdir=$here/patches
self=$here/build.sh
cache=${ARMPROF_CACHE:-$top/.cache}/qemu
series=$(cat "$here/QEMU_SERIES")              # the upstream line the patches are for: 10.2
targets=${ARMPROF_QEMU_TARGETS:-aarch64-softmmu,aarch64-linux-user}
die() { echo "system/qemu/build.sh: $*" >&2; exit 2; }
mkdir -p "$cache/src" "$cache/tools" || die "cannot create $cache"

# ---- the QEMU source: the newest served $series.x ---------------------------
# Debian versions of the series listed by a suite's own lists, newest first.
listed() {
  suite_apt "$1" 2>>"$cache/src/resolve.log" || return 0
  apt-cache "${SUITE_APT[@]}" showsrc qemu 2>/dev/null | sed -n 's/^Version: //p' |
    grep -E "^([0-9]+:)?${series//./\\.}\.[0-9]+" | sort -rV | uniq
}
# Download version $2 of suite $1 into .cache/qemu/src/<version>/ (kept).
fetch_source() {
  local suite=$1 v=$2 dir=$cache/src/${2//[:~]/_}
  [ -n "$(ls "$dir"/qemu_*.dsc 2>/dev/null)" ] && return 0
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  suite_apt "$suite" 2>>"$cache/src/resolve.log" || return 1
  if (cd "$dir.tmp" && apt-get "${SUITE_APT[@]}" source -qq --download-only "qemu=$v") \
    >>"$cache/src/resolve.log" 2>&1; then
    mv "$dir.tmp" "$dir"
    return 0
  fi
  echo "system/qemu/build.sh: qemu $v is listed by $suite but not served; trying an older one" >&2
  rm -rf "$dir.tmp"
  return 1
}
version=""
: > "$cache/src/resolve.log"
if [ -n "${ARMPROF_QEMU_VERSION:-}" ]; then
  for suite in unstable trixie; do
    fetch_source "$suite" "$ARMPROF_QEMU_VERSION" && { version=$ARMPROF_QEMU_VERSION; break; }
  done
  [ -n "$version" ] || die "qemu $ARMPROF_QEMU_VERSION: neither cached in $cache/src nor served by unstable or trixie ($(tail -n 2 "$cache/src/resolve.log" | tr '\n' ' '))"
else
  for suite in unstable trixie; do
    for v in $(listed "$suite"); do
      fetch_source "$suite" "$v" && { version=$v; break 2; }
    done
  done
  if [ -z "$version" ]; then
    # No archive (offline, or nothing served): the newest source kept here.
    cached=$(find "$cache/src" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' |
      grep -E "^([0-9]+_)?${series//./\\.}\." | sort -rV | head -n 1 || true)
    [ -n "$cached" ] ||
      die "no QEMU $series.x source: Debian's unstable and trixie list none that is served, and none is cached in $cache/src ($(tail -n 2 "$cache/src/resolve.log" | tr '\n' ' ')). The patches are for $series: to move to another QEMU, see docs/system.md"
    version=$(sed -n 's/^Version: //p' "$cache/src/$cached"/qemu_*.dsc)
    echo "system/qemu/build.sh: no archive answered; building the cached qemu $version" >&2
  fi
fi
srcpkg=$cache/src/${version//[:~]/_}

key=$( (cat "$patchdir"/*.patch "$self" "$here/QEMU_SERIES"; echo "$version $targets"
        cat "$top"/include/armprof/*.h) | sha256sum | cut -c1-16)
out=$cache/$key
want_user=false
case ",$targets," in *,aarch64-linux-user,*) want_user=true ;; esac
if [ -x "$out/bin/qemu-system-aarch64" ] && { ! $want_user || [ -x "$out/bin/qemu-aarch64" ]; } &&
   [ -e "$out/contrib/libcache.so" ]; then
  ln -sfn "$key" "$cache/current"
  echo "$out"
  exit 0
fi

# ---- build dependencies (the machine's own Debian 12) ------------------------
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
deps=(ninja-build pkg-config libglib2.0-dev libpixman-1-dev libfdt-dev libslirp-dev
      libcap-ng-dev libattr1-dev dpkg-dev xz-utils python3-venv ccache)
# ccache: meson compiles through it when it is on PATH, so a rebuild whose key
# changed only in a few files (armprof's headers, one patch) recompiles those.
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

# ---- meson >= 1.5 and pycotap: Debian's newer pure-Python packages, unpacked --
tools=$cache/tools
pyroot() { echo "$tools/root/usr/lib/python3/dist-packages"; }
have_tools() {
  PYTHONPATH=$(pyroot) python3 -c 'import mesonbuild.coredata as c, pycotap, sys
v = tuple(int(x) for x in c.version.split(".")[:2]); sys.exit(0 if v >= (1, 5) else 1)' 2>/dev/null
}
if ! have_tools; then
  rm -rf "$tools/debs" "$tools/root.tmp" && mkdir -p "$tools/debs" "$tools/root.tmp"
  got=false
  for suite in unstable trixie; do
    suite_apt "$suite" 2>>"$cache/src/resolve.log" || continue
    rm -f "$tools/debs"/*.deb
    (cd "$tools/debs" && apt-get "${SUITE_APT[@]}" download -qq meson python3-pycotap) \
      >>"$cache/src/resolve.log" 2>&1 && { got=true; break; }
  done
  $got || die "could not download meson and python3-pycotap from unstable or trixie: $(tail -n 2 "$cache/src/resolve.log" | tr '\n' ' ')"
  for d in "$tools/debs"/*.deb; do
    dpkg-deb -x "$d" "$tools/root.tmp" || die "dpkg-deb could not unpack $d"
  done
  rm -rf "$tools/root" && mv "$tools/root.tmp" "$tools/root"
  have_tools || die "the unpacked meson ($(ls "$tools/debs")) does not run here or is older than 1.5"
fi
export PYTHONPATH
PYTHONPATH=$(pyroot)${PYTHONPATH:+:$PYTHONPATH}
export PATH=$tools/root/usr/bin:$PATH

# ---- unpack, patch, configure, build -----------------------------------------
work=$out.tmp
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work" "$out.armprof"' EXIT
dpkg-source -x "$srcpkg"/qemu_*.dsc "$work/src" >/dev/null 2>"$work/err" ||
  die "dpkg-source could not unpack qemu $version ($srcpkg): $(cat "$work/err")"
for p in "$patchdir"/*.patch; do
  patch -d "$work/src" -p1 --forward --quiet < "$p" >"$work/err" 2>&1 ||
    die "$(basename "$p") does not apply to qemu $version: $(head -5 "$work/err"); rebase (docs/system.md)"
done

# libarmprof-core and its headers, as an emulator gets them.
cmake --install "$armprof_build" --prefix "$out.armprof" >/dev/null ||
  die "cmake --install $armprof_build failed (is it built?)"
pc_dir=$(dirname "$(find "$out.armprof" -name armprof-core.pc | head -1)")
[ -f "$pc_dir/armprof-core.pc" ] || die "$armprof_build installs no armprof-core.pc"

# --disable-install-blobs: Debian's +ds source has no firmware blobs (and
# armprof boots its kernel directly); no dtbs are built from it either.
mkdir -p "$work/src/build"
(cd "$work/src/build" &&
  PKG_CONFIG_PATH=$pc_dir ../configure --prefix="$out" --target-list="$targets" \
    --without-default-features --without-default-devices --with-devices-aarch64=armprof \
    --enable-fdt=system --enable-plugins --enable-slirp --enable-virtfs --enable-attr \
    --enable-cap-ng --disable-docs --disable-tools --disable-install-blobs \
    --extra-ldflags="-Wl,-rpath,$out/armprof/lib" >"$work/configure.log" 2>&1) ||
  die "configure failed: $(grep -m3 -E 'ERROR' "$work/configure.log" || tail -5 "$work/configure.log")"
for lib in armprof-core armprof-uarch; do
  grep -q "$lib found: YES" "$work/src/build/meson-logs/meson-log.txt" ||
    die "configure did not find lib$lib (pkg-config $lib in $pc_dir)"
done
ninja_targets=(qemu-system-aarch64 contrib/plugins/libcache.so)
$want_user && ninja_targets+=(qemu-aarch64)
echo "system/qemu/build.sh: building ${ninja_targets[*]} from qemu $version + $(find "$patchdir" -name '*.patch' | wc -l) patches (15-25 minutes on 2 cores)" >&2
ninja -C "$work/src/build" "${ninja_targets[@]}" >"$work/build.log" 2>&1 ||
  die "the build failed: $(grep -m5 -E 'error|Error' "$work/build.log")"

# contrib/libcache.so: QEMU's own cache-simulation plugin, built by QEMU's
# build from the same source (the peer bench/bench_record_vs.sh measures
# armprof record against).
mkdir -p "$work/out/bin" "$work/out/contrib"
cp "$work/src/build/qemu-system-aarch64" "$work/out/bin/"
$want_user && cp "$work/src/build/qemu-aarch64" "$work/out/bin/"
cp "$work/src/build/contrib/plugins/libcache.so" "$work/out/contrib/"
echo "$version" > "$work/out/QEMU_VERSION"
rm -rf "$out"
mv "$work/out" "$out"
mv "$out.armprof" "$out/armprof"
ln -sfn "$key" "$cache/current"
echo "$out"

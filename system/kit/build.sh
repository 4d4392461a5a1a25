#!/usr/bin/env bash
# Builds the guest kit of `armprof system` (docs/system.md) from one Debian
# suite's own arm64 packages, unmodified:
#
#   vmlinuz     the kernel of linux-image-<release>-arm64 (the release that
#               the suite's linux-image-arm64 names), as Debian ships it
#               (a gzip'd Image up to 6.x, a plain one in 7.x)
#   initrd.img  a gzip'd newc cpio: busybox-static, linux-perf's perf with
#               every shared library it needs (the ELF NEEDED closure, found
#               in linux-perf's recursive library dependencies), the kernel's
#               arm_spe_pmu, virtio_mmio and 9p modules with the modules
#               their `depends=` fields name, and /init (system/kit/init.sh)
#   VERSION     the key, the suite, the kernel release and every
#               package=version used
#
#   bash system/kit/build.sh [--suite SUITE] [--tests] [PACKAGE...]
#                                            # prints the kit directory on stdout
#
# SUITE: bookworm (Debian 12: Linux 6.1, perf 6.1), trixie (Debian 13: 6.12)
# or unstable (the default, the newest: Linux 7.x and its perf). Suites
# other than the machine's own bookworm go through the project's own apt
# lists (system/debian-suite.sh); the machine's sources are never changed.
# Unstable moves: the versions are resolved from the lists at build time and
# key the kit; when the pool no longer serves a file the lists name, the
# lists are updated once and the versions resolved again, and if that fails
# too the script stops saying so (--suite trixie is the stable fallback).
#
# --tests adds what perf's own shell and attr tests need (bash, dash,
# coreutils, gcc and binutils, python3: the suite's versions, listed below), PACKAGEs
# (optional) more arm64 packages: unpacked whole into the initramfs (but
# their documentation), with the shared libraries their programs need. Two
# links their maintainer scripts would make are made too: /bin/sh -> dash
# when dash is among them, /usr/bin/cc -> gcc when gcc is.
#
# The kit goes to .cache/kit/<key>/ (ARMPROF_KIT_CACHE overrides .cache/kit),
# where <key> hashes this script, init.sh, the suite and the exact package
# versions; .cache/kit/<suite> (or <suite>-tests with --tests) points at
# the newest of that suite, and .cache/kit/current at the newest of the
# default suite (unstable), the one `armprof system` boots by default. A
# kit already built with the same key is reused, so running it again does
# nothing. Packages are only downloaded (apt-get download) and unpacked
# (dpkg-deb -x), never installed. The bookworm kit needs the machine's
# Debian arm64 package lists: as root it adds the architecture and runs
# apt-get update when they are missing; otherwise it says what to run.
# Tools: apt-get, dpkg-deb, readelf (binutils), cpio, gzip, sha256sum (and
# xz, zstd for compressed modules and kernels).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${ARMPROF_KIT_CACHE:-$src/.cache/kit}
default_suite=unstable
say() { echo "kit/build.sh: $*" >&2; }
die() {
  say "error: $*"
  exit 2
}

suite=$default_suite
tests=0
extras=()
while [ $# -gt 0 ]; do
  case "$1" in
    --suite)
      [ $# -ge 2 ] || die "--suite needs a value (bookworm, trixie, unstable)"
      suite=$2
      shift 2
      ;;
    --suite=*)
      suite=${1#--suite=}
      shift
      ;;
    --tests)
      tests=1
      shift
      ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    -*) die "unknown option $1 (--suite SUITE, --tests, PACKAGE...)" ;;
    *)
      extras+=("$1")
      shift
      ;;
  esac
done
case "$suite" in
  bookworm | trixie | unstable) ;;
  sid) suite=unstable ;;
  *) die "--suite $suite: want bookworm (Linux 6.1), trixie (6.12) or unstable (the newest)" ;;
esac

for tool in apt-get apt-cache dpkg-deb readelf cpio gzip sha256sum; do
  command -v "$tool" > /dev/null || die "$tool not found (Debian packages: apt dpkg binutils cpio gzip coreutils)"
done

# The suite's package lists: the machine's own for bookworm (Debian's arm64
# lists, as scripts/debian-arm64-root.sh gets them), the project's own for
# the newer suites (system/debian-suite.sh).
# shellcheck source=../debian-suite.sh
. "$src/system/debian-suite.sh"
if [ "$suite" = bookworm ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  if ! dpkg --print-foreign-architectures | grep -qx arm64 || ! apt-cache show busybox-static:arm64 > /dev/null 2>&1; then
    if [ -n "$SUDO" ] && ! sudo -n true 2> /dev/null; then
      die "no Debian arm64 package lists; run first: sudo dpkg --add-architecture arm64 && sudo apt-get update"
    fi
    dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
    $SUDO apt-get update -qq || die "apt-get update failed"
  fi
fi
suite_apt "$suite" || die "no package lists for $suite (system/debian-suite.sh said why above)"
APT=("${SUITE_APT[@]}")
apt_lists=${ARMPROF_CACHE:-$src/.cache}/apt/$suite/lists

# --tests: what perf's own tests run in the guest (docs/system.md, "perf's
# own tests"): bash and dash for their #!/bin/bash and #!/bin/sh, coreutils,
# python3 (attr.py, and dropping root for the fork test), gcc and binutils
# (tests that build a workload). The list per suite is these packages'
# dependencies of these families, as the suite's lists name them (bookworm:
# gcc-12, cpp-12, libgcc-12-dev, python3.11; trixie: gcc-14 and its
# gcc-14-aarch64-linux-gnu, python3.13; unstable: gcc-16, python3.14), so
# that it follows unstable; libraries come in with the ELF closure below.
test_roots=(bash dash coreutils gcc binutils libc6-dev python3)
test_families='^(bash|dash|coreutils|gcc|cpp|binutils|libgcc-[0-9]+-dev|libc6-dev|linux-libc-dev|libcrypt-dev|python3|libpython3)'
test_packages() {
  local deps bare
  deps=$(apt-cache "${APT[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "${test_roots[@]/%/:arm64}" 2> /dev/null)
  # arm64 packages, and those of Architecture: all (named without one; not
  # the cross toolchain's -cross ones).
  bare=$(sed -n 's/^\([a-z0-9][^ <>:]*\)$/\1/p' <<< "$deps" | sort -u | grep -E "$test_families")
  # shellcheck disable=SC2086
  [ -z "$bare" ] || bare=$(apt-cache "${APT[@]}" show --no-all-versions $bare 2> /dev/null |
    awk '/^Package: / { p = $2 } /^Architecture: all$/ { print p }')
  { sed -n 's/^\([a-z0-9][^ <>:]*\):arm64$/\1/p' <<< "$deps" && echo "$bare"; } | sed '/^$/d' | sort -u |
    grep -E "$test_families" | grep -v -- -cross || die "apt-cache depends --recurse ${test_roots[*]} named none of perf's test packages ($suite)"
}
if [ $tests = 1 ]; then
  # shellcheck disable=SC2207
  extras+=($(test_packages))
fi

# The packages: the kernel linux-image-arm64 depends on, busybox-static,
# linux-perf and every arm64 package of its recursive dependencies (only the
# shared libraries perf needs are taken from them, below); their exact
# candidate versions, one apt-cache call for all of them.
resolve() {
  kpkg=$(apt-cache "${APT[@]}" depends linux-image-arm64:arm64 2> /dev/null |
    sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -n 1)
  [ -n "$kpkg" ] || die "cannot tell which kernel $suite's linux-image-arm64:arm64 depends on (apt-cache depends linux-image-arm64:arm64)"
  krel=${kpkg#linux-image-}
  # From Linux 7.x on, Debian splits the kernel (linux-binary-<release>)
  # and its modules (linux-modules-<release>) out of linux-image-<release>.
  kpkgs=$(apt-cache "${APT[@]}" depends "$kpkg:arm64" 2> /dev/null |
    awk -v r="-$krel" '$1 == "Depends:" { sub(/:arm64$/, "", $2); if (substr($2, length($2) - length(r) + 1) == r) print $2 }')
  libs=$(apt-cache "${APT[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances linux-perf:arm64 "${extras[@]/%/:arm64}" 2> /dev/null |
    sed -n 's/^\([a-z0-9][^ <>]*\):arm64$/\1/p' | sort -u)
  [ -n "$libs" ] || die "apt-cache depends --recurse linux-perf:arm64 named no packages ($suite)"
  pkgs=$(printf '%s\n' "$kpkg" $kpkgs busybox-static linux-perf "${extras[@]}" $libs | sort -u)
  # shellcheck disable=SC2046
  versions=$(apt-cache "${APT[@]}" show --no-all-versions $(sed 's/$/:arm64/' <<< "$pkgs") 2> /dev/null |
    awk '/^Package: / { p = $2 } /^Version: / { print p "=" $2 }' | sort -u)
  # Architecture: all packages (linux-libc-dev in unstable) by their name.
  all=$(for p in $pkgs; do grep -q "^$p=" <<< "$versions" || echo "$p"; done)
  if [ -n "$all" ]; then
    # shellcheck disable=SC2086
    all=$(apt-cache "${APT[@]}" show --no-all-versions $all 2> /dev/null |
      awk '/^Package: / { p = $2 } /^Version: / { v = $2 } /^Architecture: all/ { print p "=" v }' | sort -u)
    versions=$(printf '%s\n%s\n' "$versions" "$all" | sed '/^$/d' | sort -u)
  fi
  # What was asked for must be there; a dependency without a version of
  # its own is virtual (its provider is in the list too).
  for p in "$kpkg" $kpkgs busybox-static linux-perf "${extras[@]}"; do
    grep -q "^$p=" <<< "$versions" || die "no arm64 version of $p in $suite's package lists (apt-cache show $p:arm64)"
  done
  key=$( (cat "$here/build.sh" "$here/init.sh" && echo "suite=$suite tests=$tests" && echo "$versions" &&
    echo "extras=${extras[*]}") | sha256sum | cut -c1-16)
}
resolve

# The links to a kit: its suite's, and `current` for the default suite's.
link_kit() {
  local name=$suite
  [ $tests = 0 ] || name=$suite-tests
  [ ${#extras[@]} -eq 0 ] || [ $tests = 1 ] || name=$suite-extra
  ln -sfn "$key" "$cache/$name"
  [ "$suite" != "$default_suite" ] || ln -sfn "$key" "$cache/current"
}
kit=$cache/$key
if [ -s "$kit/vmlinuz" ] && [ -s "$kit/initrd.img" ] && [ -s "$kit/VERSION" ]; then
  link_kit
  echo "$kit"
  exit 0
fi

mkdir -p "$cache" || die "cannot create $cache"
work=$(mktemp -d "$cache/$key.tmp.XXXXXX") || die "cannot create a directory under $cache"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/pkgroot" "$work/root" "$work/kit"
# apt-get download writes to the current directory; as root it warns that
# _apt cannot write there, which is harmless.
download() {
  say "downloading $(wc -l <<< "$versions") arm64 packages of $suite (kernel $krel)"
  # shellcheck disable=SC2046
  (cd "$work/debs" && apt-get "${APT[@]}" download -qq $(for v in $versions; do
    grep -qxF "$v" <<< "$all" && echo "$v" || echo "${v/=/:arm64=}"
  done) 2> download.err)
}
if ! download; then
  # The lists can name files the pool no longer serves (unstable moves on):
  # newer lists, the versions resolved again (a new key), one more try.
  [ "$suite" != bookworm ] || die "apt-get download failed: $(cat "$work/debs/download.err")"
  say "apt-get download failed ($(grep -m 1 -o '[^ ]*\.deb.*' "$work/debs/download.err" || tail -n 1 "$work/debs/download.err")); updating $suite's lists"
  rm -f "$apt_lists/.updated" "$work"/debs/*.deb
  suite_apt "$suite" || die "no package lists for $suite"
  resolve
  download || die "$suite's pool no longer serves what its lists name, even after an update: $(tail -n 3 "$work/debs/download.err"); build with --suite trixie (stable), or try again later"
  kit=$cache/$key
fi
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$work/pkgroot" || die "dpkg-deb -x $deb failed"
done
pr=$work/pkgroot
root=$work/root

# The kernel: boot/vmlinuz-<release> up to Linux 6.x, the merged /usr's
# usr/lib/modules/<release>/vmlinuz (linux-binary-<release>) from 7.x on.
kimg=""
for f in "boot/vmlinuz-$krel" "usr/lib/modules/$krel/vmlinuz" "lib/modules/$krel/vmlinuz"; do
  [ -z "$kimg" ] && [ -s "$pr/$f" ] && kimg=$pr/$f
done
[ -n "$kimg" ] || die "the packages of $kpkg have no boot/vmlinuz-$krel nor usr/lib/modules/$krel/vmlinuz"
cp "$kimg" "$work/kit/vmlinuz"

# The modules and those they depend on (their `depends=` modinfo field),
# deps first; those built into the kernel are skipped. The guest insmods
# them in the order of lib/modules/<release>/armprof-load-order.
mdir=$pr/lib/modules/$krel
[ -d "$mdir/kernel" ] || mdir=$pr/usr/lib/modules/$krel
[ -d "$mdir/kernel" ] || die "the packages of $kpkg have no lib/modules/$krel/kernel nor usr/lib/modules/$krel/kernel"
declare -A module_path=()
while IFS= read -r f; do
  name=${f##*/}
  name=${name%%.ko*}
  module_path[${name//-/_}]=${f#"$mdir/"}
done < <(find "$mdir/kernel" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst')
module_text() { # FILE: the module's ELF bytes, whatever its compression
  case "$1" in
    *.xz) xz -dc "$1" ;;
    *.zst) zstd -dcq "$1" ;;
    *) cat "$1" ;;
  esac
}
declare -A module_done=()
load_order=()
add_module() { # NAME: NAME after the modules it depends on
  local name=${1//-/_} rel deps dep
  [ -z "${module_done[$name]:-}" ] || return 0
  module_done[$name]=1
  if grep -q "/${name//_/[-_]}\.ko$" "$mdir/modules.builtin"; then
    return 0
  fi
  rel=${module_path[$name]:-}
  [ -n "$rel" ] || die "$kpkg has no module $name (neither built in nor under lib/modules/$krel/kernel)"
  deps=$(module_text "$mdir/$rel" | tr '\0' '\n' | sed -n 's/^depends=//p' | head -n 1)
  for dep in ${deps//,/ }; do
    add_module "$dep"
  done
  mkdir -p "$root/lib/modules/$krel/$(dirname "$rel")"
  module_text "$mdir/$rel" > "$root/lib/modules/$krel/${rel%%.ko*}.ko"
  load_order+=("${rel%%.ko*}.ko")
}
for m in virtio_mmio 9pnet_virtio 9p arm_spe_pmu; do
  add_module "$m"
done
printf '%s\n' "${load_order[@]}" > "$root/lib/modules/$krel/armprof-load-order"
# The kernel's lists of its built-in and its modules (a few KiB): with the
# modules above they make a modules tree depmod takes (tests/system's
# system_kernel boots this kernel under another kit as "the user's").
for f in modules.builtin modules.order; do
  [ ! -f "$mdir/$f" ] || cp "$mdir/$f" "$root/lib/modules/$krel/"
done

# The extra packages, whole but their documentation.
for deb in "$work"/debs/*.deb; do
  name=$(dpkg-deb -f "$deb" Package)
  for x in "${extras[@]}"; do
    [ "$x" != "$name" ] || dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x $deb failed"
  done
done
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/info" "$root/usr/share/locale"
[ ! -e "$root/usr/bin/gcc" ] || [ -e "$root/usr/bin/cc" ] || ln -s gcc "$root/usr/bin/cc"

# busybox and perf (linux-perf's files but its documentation); /bin/sh is
# busybox's unless an extra package brought one (dash).
mkdir -p "$root/bin" "$root/usr/bin" "$root/usr/lib" "$root/lib/aarch64-linux-gnu"
bb=$pr/bin/busybox
[ -x "$bb" ] || bb=$pr/usr/bin/busybox # merged /usr (Debian 13 on)
[ -x "$bb" ] || die "busybox-static has no bin/busybox nor usr/bin/busybox"
cp "$bb" "$root/bin/busybox"
# dash's link is usr/bin/sh from Debian 13 on, bash usr/bin/bash; /init
# runs /bin/sh, perf's shell tests #!/bin/sh or #!/bin/bash.
for x in sh bash; do
  [ -e "$root/bin/$x" ] || [ ! -e "$root/usr/bin/$x" ] || ln -s "/usr/bin/$x" "$root/bin/$x"
done
[ -e "$root/bin/sh" ] || ln -s busybox "$root/bin/sh"
[ -x "$pr/usr/bin/perf" ] || die "linux-perf has no usr/bin/perf"
cp "$pr/usr/bin/perf" "$root/usr/bin/perf"
for d in perf-core traceevent; do
  [ ! -d "$pr/usr/lib/$d" ] || cp -a "$pr/usr/lib/$d" "$root/usr/lib/"
done

# Every shared library perf, its plugins and the extra packages' programs
# need, recursively, by soname, from the unpacked packages into
# /lib/aarch64-linux-gnu (on the dynamic loader's default path) unless the
# root has it already (an extra package's own).
needed() { readelf -d --wide "$1" 2> /dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }
declare -A have_lib=()
queue=("$root/usr/bin/perf")
while IFS= read -r f; do queue+=("$f"); done < <(find "$root/usr/lib" -name '*.so' -type f)
if [ ${#extras[@]} -gt 0 ]; then
  while IFS= read -r f; do
    [ "$(head -c 4 "$f" | tr -d '\0')" != $'\177ELF' ] || queue+=("$f")
  done < <(find "$root" -type f \( -perm -u+x -o -name '*.so*' \))
  while IFS= read -r f; do have_lib[${f##*/}]=1; done < <(find "$root/lib" "$root/usr/lib" -name '*.so*' 2> /dev/null)
fi
while [ ${#queue[@]} -gt 0 ]; do
  elf=${queue[0]}
  queue=("${queue[@]:1}")
  for so in $(needed "$elf"); do
    [ -z "${have_lib[$so]:-}" ] || continue
    found=""
    for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu lib usr/lib; do
      if [ -e "$pr/$d/$so" ]; then
        found=$pr/$d/$so
        break
      fi
    done
    [ -n "$found" ] || die "${elf#"$root"} needs $so, which none of the downloaded packages has"
    cp -L "$found" "$root/lib/aarch64-linux-gnu/$so"
    have_lib[$so]=1
    queue+=("$root/lib/aarch64-linux-gnu/$so")
  done
done
[ -n "${have_lib[ld-linux-aarch64.so.1]:-}" ] || die "perf's libraries did not bring the dynamic loader ld-linux-aarch64.so.1"
[ -e "$root/lib/ld-linux-aarch64.so.1" ] || ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$root/lib/ld-linux-aarch64.so.1"

# Where qemu-aarch64 is at hand, perf must start in that root before it goes
# into a kit (a missing library shows here, not in the guest).
if command -v qemu-aarch64 > /dev/null; then
  pv=$(qemu-aarch64 -L "$root" "$root/usr/bin/perf" --version 2>&1) ||
    die "perf does not start from the assembled root: $pv"
  say "$pv starts in the assembled root (checked with qemu-aarch64)"
fi

cp "$here/init.sh" "$root/init"
chmod 755 "$root/init"
mkdir -p "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run" "$root/root" "$root/etc" \
  "$root/sbin" "$root/usr/sbin"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
# Same inputs, same bytes: fixed times and owners, sorted names.
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
  cpio --null -o -H newc --owner=0:0 --reproducible --quiet) | gzip -n -6 > "$work/kit/initrd.img" ||
  die "cannot write the initramfs"

{
  echo "key=$key"
  echo "suite=$suite"
  echo "tests=$tests"
  echo "kernel=$krel"
  echo "modules=${load_order[*]}"
  echo "libraries=$(printf '%s\n' "${!have_lib[@]}" | sort | tr '\n' ' ')"
  echo "$versions" | sed 's/^/package=/'
} > "$work/kit/VERSION"

rm -rf "$kit"
mv "$work/kit" "$kit" || die "cannot move the kit into $kit"
link_kit
say "kit $key: vmlinuz $(du -h "$kit/vmlinuz" | cut -f1), initrd.img $(du -h "$kit/initrd.img" | cut -f1)"
echo "$kit"

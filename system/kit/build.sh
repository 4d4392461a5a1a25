#!/usr/bin/env bash
# Builds the guest kit of `armprof system` (docs/system.md) from Debian 12's
# own arm64 packages, unmodified:
#
#   vmlinuz     the kernel of linux-image-<release>-arm64 (the release that
#               linux-image-arm64 names)
#   initrd.img  a gzip'd newc cpio: busybox-static, linux-perf's perf with
#               every shared library it needs (the ELF NEEDED closure, found
#               in linux-perf's recursive library dependencies), the kernel's
#               arm_spe_pmu, virtio_mmio and 9p modules with the modules
#               their `depends=` fields name, and /init (system/kit/init.sh)
#   VERSION     the key, the kernel release and every package=version used
#
#   bash system/kit/build.sh [PACKAGE...]   # prints the kit directory on stdout
#
# PACKAGEs (optional) are more arm64 packages unpacked whole into the
# initramfs (but their documentation), with the shared libraries their
# programs need: e.g. what perf's own tests run (docs/system.md). Two links
# their maintainer scripts would make are made too: /bin/sh -> dash when
# dash is among them, /usr/bin/cc -> gcc when gcc is.
#
# The kit goes to .cache/kit/<key>/ (ARMPROF_KIT_CACHE overrides .cache/kit),
# where <key> hashes this script, init.sh and the exact package versions;
# .cache/kit/current points at the newest. A kit already built with the same
# key is reused, so running it again does nothing. Packages are only
# downloaded (apt-get download) and unpacked (dpkg-deb -x), never installed.
# Needs Debian's arm64 package lists: as root it adds the architecture and
# runs apt-get update when they are missing; otherwise it says what to run.
# Tools: apt-get, dpkg-deb, readelf (binutils), cpio, gzip, sha256sum.
set -euo pipefail
extras=("$@")
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cache=${ARMPROF_KIT_CACHE:-$src/.cache/kit}
say() { echo "kit/build.sh: $*" >&2; }
die() {
  say "error: $*"
  exit 2
}

for tool in apt-get apt-cache dpkg-deb readelf cpio gzip sha256sum; do
  command -v "$tool" > /dev/null || die "$tool not found (Debian packages: apt dpkg binutils cpio gzip coreutils)"
done

# Debian's arm64 package lists, as scripts/debian-arm64-root.sh gets them.
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! dpkg --print-foreign-architectures | grep -qx arm64 || ! apt-cache show busybox-static:arm64 > /dev/null 2>&1; then
  if [ -n "$SUDO" ] && ! sudo -n true 2> /dev/null; then
    die "no Debian arm64 package lists; run first: sudo dpkg --add-architecture arm64 && sudo apt-get update"
  fi
  dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -qq || die "apt-get update failed"
fi

# The packages: the kernel linux-image-arm64 depends on, busybox-static,
# linux-perf and every arm64 package of its recursive dependencies (only the
# shared libraries perf needs are taken from them, below).
kpkg=$(apt-cache depends linux-image-arm64:arm64 2> /dev/null |
  sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -n 1)
[ -n "$kpkg" ] || die "cannot tell which kernel linux-image-arm64:arm64 depends on (apt-cache depends linux-image-arm64:arm64)"
krel=${kpkg#linux-image-}
libs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances linux-perf:arm64 "${extras[@]/%/:arm64}" 2> /dev/null |
  sed -n 's/^\([a-z0-9][^ <>]*\):arm64$/\1/p' | sort -u)
[ -n "$libs" ] || die "apt-cache depends --recurse linux-perf:arm64 named no packages"
pkgs=$(printf '%s\n' "$kpkg" busybox-static linux-perf "${extras[@]}" $libs | sort -u)

# Their exact candidate versions: one apt-cache call for all of them.
# shellcheck disable=SC2046
versions=$(apt-cache show --no-all-versions $(sed 's/$/:arm64/' <<< "$pkgs") 2> /dev/null |
  awk '/^Package: / { p = $2 } /^Version: / { print p "=" $2 }' | sort -u)
for p in $pkgs; do
  grep -q "^$p=" <<< "$versions" || die "no arm64 version of $p in the package lists (apt-cache show $p:arm64)"
done

key=$( (cat "$here/build.sh" "$here/init.sh" && echo "$versions" && echo "extras=${extras[*]}") |
  sha256sum | cut -c1-16)
kit=$cache/$key
if [ -s "$kit/vmlinuz" ] && [ -s "$kit/initrd.img" ] && [ -s "$kit/VERSION" ]; then
  ln -sfn "$key" "$cache/current"
  echo "$kit"
  exit 0
fi

mkdir -p "$cache" || die "cannot create $cache"
work=$(mktemp -d "$cache/$key.tmp.XXXXXX") || die "cannot create a directory under $cache"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/pkgroot" "$work/root" "$work/kit"
say "downloading $(wc -l <<< "$versions") arm64 packages (kernel $krel)"
# apt-get download writes to the current directory; as root it warns that
# _apt cannot write there, which is harmless.
# shellcheck disable=SC2046
(cd "$work/debs" && apt-get download -qq $(sed 's/=/:arm64=/' <<< "$versions") 2> download.err) ||
  die "apt-get download failed: $(cat "$work/debs/download.err")"
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$work/pkgroot" || die "dpkg-deb -x $deb failed"
done
pr=$work/pkgroot
root=$work/root

# The kernel.
[ -s "$pr/boot/vmlinuz-$krel" ] || die "$kpkg has no boot/vmlinuz-$krel"
cp "$pr/boot/vmlinuz-$krel" "$work/kit/vmlinuz"

# The modules and those they depend on (their `depends=` modinfo field),
# deps first; those built into the kernel are skipped. The guest insmods
# them in the order of lib/modules/<release>/armprof-load-order.
mdir=$pr/lib/modules/$krel
[ -d "$mdir/kernel" ] || die "$kpkg has no lib/modules/$krel/kernel"
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
[ -x "$pr/bin/busybox" ] || die "busybox-static has no bin/busybox"
cp "$pr/bin/busybox" "$root/bin/busybox"
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
  echo "kernel=$krel"
  echo "modules=${load_order[*]}"
  echo "libraries=$(printf '%s\n' "${!have_lib[@]}" | sort | tr '\n' ' ')"
  echo "$versions" | sed 's/^/package=/'
} > "$work/kit/VERSION"

rm -rf "$kit"
mv "$work/kit" "$kit" || die "cannot move the kit into $kit"
ln -sfn "$key" "$cache/current"
say "kit $key: vmlinuz $(du -h "$kit/vmlinuz" | cut -f1), initrd.img $(du -h "$kit/initrd.img" | cut -f1)"
echo "$kit"

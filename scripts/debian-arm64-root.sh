#!/usr/bin/env bash
# Makes DIR/root an aarch64 root file system of Debian's own arm64 packages:
# its C library and a few stripped, dynamically linked programs as Debian
# ships them (gzip, bzip2, xz, zstd and their libraries; coreutils for its
# multi-threaded sort, which needs only libc), for recording real
# distribution programs (`armprof record --sysroot DIR/root -- DIR/root/bin/gzip ...`;
# tests/record/record_debian.sh, record_debian_threads.sh,
# bench/bench_real_programs.sh).
#
#   bash scripts/debian-arm64-root.sh DIR [PACKAGE...]
#
# Needs Debian's arm64 package lists: as root it adds the architecture
# (dpkg --add-architecture arm64) and runs apt-get update when they are
# missing; otherwise it says what to run. The packages are only unpacked
# into DIR (dpkg-deb -x), never installed. Does nothing when DIR/root is
# already made from the same package list.
set -euo pipefail
dir=${1:?usage: debian-arm64-root.sh DIR [PACKAGE...]}
shift
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(libc6 libgcc-s1 gzip bzip2 libbz2-1.0 xz-utils liblzma5 zstd libzstd1 liblz4-1 zlib1g coreutils)
stamp="$dir/root/.armprof-packages"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${pkgs[*]}" ]; then
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  if [ -n "$SUDO" ] && ! sudo -n true 2>/dev/null; then
    echo "debian-arm64-root.sh: run first: sudo dpkg --add-architecture arm64 && sudo apt-get update" >&2
    exit 2
  fi
  $SUDO dpkg --add-architecture arm64
fi
if ! apt-cache show libc6:arm64 >/dev/null 2>&1; then
  $SUDO apt-get update -qq
fi

rm -rf "$dir/root" "$dir/debs"
mkdir -p "$dir/debs" "$dir/root"
# apt-get download writes to the current directory; as root it warns that
# _apt cannot write there, which is harmless.
(cd "$dir/debs" && apt-get download -qq "${pkgs[@]/%/:arm64}" 2> download.err) || {
  echo "debian-arm64-root.sh: apt-get download failed: $(cat "$dir/debs/download.err")" >&2
  exit 2
}
for deb in "$dir"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dir/root"
done
[ -e "$dir/root/lib/ld-linux-aarch64.so.1" ] || {
  echo "debian-arm64-root.sh: no dynamic loader in $dir/root (libc6:arm64 missing?)" >&2
  exit 2
}
echo "${pkgs[*]}" > "$stamp"
echo "debian-arm64-root.sh: $dir/root holds ${pkgs[*]} (arm64)"

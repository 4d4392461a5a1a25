#!/usr/bin/env bash
# Installs the Debian 12 packages armprof builds, tests and runs with.
# Skips apt-get when everything is already there; needs root otherwise.
set -euo pipefail
pkgs=(build-essential python3 cmake ninja-build pkg-config clang libclang-rt-14-dev
      libelf-dev libdw-dev libcapstone-dev libzstd-dev zlib1g-dev zstd bc binutils golang-go
      qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross linux-perf dwz
      qemu-system-arm cpio chromium kmod)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian's own arm64 programs, unpacked (not installed) into .cache/ for
# tests/record/record_debian.sh and record_debian_threads.sh: real
# distribution programs under armprof record. Optional: without it (no
# arm64 package lists, no root) those tests skip.
bash "$(dirname "$0")/debian-arm64-root.sh" "$(dirname "$0")/../.cache/debian-arm64" ||
  echo "install-deps.sh: no Debian arm64 programs (tests/record/record_debian*.sh will skip)"
# The guest kit of `armprof system` (docs/system.md): Debian's arm64 kernel,
# perf and busybox, downloaded and unpacked into .cache/kit. Optional:
# without it tests/system/system_boot.sh skips.
bash "$(dirname "$0")/../system/kit/build.sh" > /dev/null ||
  echo "install-deps.sh: no guest kit for armprof system (tests/system/system_boot.sh will skip)"
# DuckDB as an npm package (its engine ships inside), into .cache/npm: the
# independent reader of armprof's Parquet files in tests/export/. Optional:
# without npm or network those tests skip.
if command -v npm > /dev/null; then
  mkdir -p "$(dirname "$0")/../.cache/npm"
  (cd "$(dirname "$0")/../.cache/npm" && npm install --no-audit --no-fund --prefix . @duckdb/node-api > /dev/null) ||
    echo "install-deps.sh: npm install @duckdb/node-api failed (tests/export will skip)"
  # playwright-core (its version locked in tests/report/html), which drives
  # Debian's chromium: tests/report/report_html.sh opens the HTML report.
  mkdir -p "$(dirname "$0")/../.cache/npm/report-html"
  cp "$(dirname "$0")/../tests/report/html/package.json" "$(dirname "$0")/../tests/report/html/package-lock.json" \
    "$(dirname "$0")/../.cache/npm/report-html/"
  (cd "$(dirname "$0")/../.cache/npm/report-html" && npm ci --no-audit --no-fund > /dev/null) ||
    echo "install-deps.sh: npm ci playwright-core failed (tests/report/report_html.sh will skip)"
  # speedscope (its version locked in tests/report/speedscope): its own app
  # opens `report --format pprof`'s profile in tests/report/report_speedscope.sh.
  mkdir -p "$(dirname "$0")/../.cache/npm/speedscope"
  cp "$(dirname "$0")/../tests/report/speedscope/package.json" "$(dirname "$0")/../tests/report/speedscope/package-lock.json" \
    "$(dirname "$0")/../.cache/npm/speedscope/"
  (cd "$(dirname "$0")/../.cache/npm/speedscope" && npm ci --no-audit --no-fund > /dev/null) ||
    echo "install-deps.sh: npm ci speedscope failed (tests/report/report_speedscope.sh will skip)"
else
  echo "install-deps.sh: no npm: DuckDB for tests/export and playwright-core for tests/report/report_html.sh, speedscope for report_speedscope.sh not installed (they will skip)"
fi

#!/usr/bin/env bash
# Debian's newer suites (trixie, unstable) for the project's own scripts,
# without touching the machine: its own sources file, package lists and
# archive cache under .cache/apt/<suite>/ (or $ARMPROF_CACHE/apt/<suite>),
# the same mirror and keyring as the machine's own bookworm entry.
# Sourced, not run:
#
#   . system/debian-suite.sh
#   suite_apt unstable            # sets SUITE_APT=(-o ... -o ...), updates
#                                 # the lists when older than 6 hours
#   apt-cache "${SUITE_APT[@]}" show linux-perf:arm64
#   apt-get "${SUITE_APT[@]}" download linux-perf:arm64=7.2.1-1
#   apt-get "${SUITE_APT[@]}" source --download-only qemu=1:10.2.2+ds-1
#
# `bookworm` gives SUITE_APT=() (the machine's own lists). The lists carry
# deb (amd64, arm64) and deb-src entries. Returns 0, or 2 with a message on
# stderr naming what failed (no mirror, apt-get update failing).
# Unstable moves: a list can name files the pool no longer serves, so
# callers resolve versions from the lists at build time and fall back to
# trixie (or fail clearly) when a download is refused.

suite_apt() {
  local suite=$1
  SUITE_APT=()
  case "$suite" in
    bookworm) return 0 ;;
    trixie | unstable | sid | forky | testing) ;;
    *)
      echo "debian-suite.sh: unknown suite '$suite' (bookworm, trixie, unstable)" >&2
      return 2
      ;;
  esac
  local top
  top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local dir=${ARMPROF_CACHE:-$top/.cache}/apt/$suite
  # The mirror of the machine's own Debian entry (deb822 or one-line).
  local uri
  uri=$(sed -n 's/^URIs: *\([^ ]*\/debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
  [ -n "$uri" ] || uri=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\)\/* .*/\2/p' \
    /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1)
  if [ -z "$uri" ]; then
    echo "debian-suite.sh: the machine has no Debian mirror entry in /etc/apt to use for $suite" >&2
    return 2
  fi
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/etc/preferences.d" || {
    echo "debian-suite.sh: cannot create $dir" >&2
    return 2
  }
  cat > "$dir/etc/$suite.sources.new" << EOF
Types: deb deb-src
URIs: $uri
Suites: $suite
Components: main
Architectures: amd64 arm64
Signed-By: $keyring
EOF
  mv "$dir/etc/$suite.sources.new" "$dir/etc/$suite.sources"
  SUITE_APT=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$dir/etc"
    -o "Dir::Etc::Preferences=/dev/null" -o "Dir::Etc::PreferencesParts=$dir/etc/preferences.d"
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir" -o "Dir::Cache::archives=$dir/archives"
    -o "Dir::State::status=$dir/status" -o "APT::Architectures::=arm64"
    -o "Debug::NoLocking=1")
  # An empty dpkg status: nothing of the suite counts as installed here.
  [ -e "$dir/status" ] || : > "$dir/status"
  local stamp=$dir/lists/.updated
  if [ -z "$(find "$stamp" -mmin -360 2>/dev/null)" ]; then
    echo "debian-suite.sh: apt-get update for $suite (own lists in $dir)" >&2
    if ! apt-get "${SUITE_APT[@]}" update -qq > "$dir/update.log" 2>&1; then
      echo "debian-suite.sh: apt-get update for $suite failed: $(tail -n 3 "$dir/update.log")" >&2
      return 2
    fi
    : > "$stamp"
  fi
  return 0
}

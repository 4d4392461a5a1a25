#!/usr/bin/env bash
# examples/embed against an installed armprof: an emulator that links
# armprof-core alone, through pkg-config, builds and runs (shared, and the
# static archive in a PIE executable, as an emulator's own build links it),
# and armprof-core depends on nothing beyond libc.
# usage: embed.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -u
build=$1 src=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
if ! cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1; then
  cat "$work/install.log"; echo "0 passed, 1 failed"; exit 1
fi
pc=$(find "$work/prefix" -name armprof-core.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: armprof-core.pc not installed"; echo "0 passed, 1 failed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(cd "$(dirname "$pc")/.." && pwd)
fail=0 pass=0
check() { if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); fi; }

# A sanitizer build's library needs the sanitizer runtimes (which it then
# names in its dynamic section too).
san="" runtimes=""
if grep -q '^ARMPROF_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
  san="-fsanitize=address,undefined" runtimes="libasan.so libubsan.so"
fi

# pkg-config names armprof-core and no other library (libm would be allowed).
only_core() {
  local libs; libs=$(pkg-config "$@" armprof-core) || { echo "FAIL: pkg-config $* armprof-core"; return 1; }
  local extra; extra=$(tr ' ' '\n' <<<"$libs" | grep '^-l' | grep -vx -e '-larmprof-core' -e '-lm')
  [ -z "$extra" ] || { echo "FAIL: pkg-config $* armprof-core names $extra"; return 1; }
  tr ' ' '\n' <<<"$libs" | grep -qx -- '-larmprof-core' || { echo "FAIL: pkg-config $* armprof-core: no -larmprof-core in: $libs"; return 1; }
}
check only_core --libs
check only_core --libs --static

# libarmprof-core.so needs libc only (libm would be allowed; it uses none).
needs_only_libc() {
  local needed; needed=$(readelf -d "$libdir/libarmprof-core.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  local n bad=""
  for n in $needed; do
    case " libc.so.6 libm.so.6 $runtimes " in *" ${n%.[0-9]*} "*|*" $n "*) ;; *) bad="$bad $n";; esac
  done
  [ -z "$bad" ] || { echo "FAIL: libarmprof-core.so needs$bad"; return 1; }
  grep -qx 'libc.so.6' <<<"$needed" || { echo "FAIL: libarmprof-core.so: no libc in NEEDED: $needed"; return 1; }
}
check needs_only_libc

# The example, against the shared library.
run_shared() {
  cc -std=c11 -Wall -Wextra -Werror $san -o "$work/emulator" "$src/examples/embed/emulator.c" \
     $(pkg-config --cflags --libs armprof-core) || { echo "FAIL: build against libarmprof-core.so"; return 1; }
  LD_LIBRARY_PATH="$libdir" "$work/emulator" > "$work/shared.out" || { cat "$work/shared.out"; echo "FAIL: the example (shared)"; return 1; }
  cat "$work/shared.out"
}
check run_shared

# The example as a PIE executable with the static archive in place of -l.
run_static_pie() {
  cc -std=c11 -Wall -Wextra -Werror $san -fPIE -pie -o "$work/emulator_static" "$src/examples/embed/emulator.c" \
     $(pkg-config --cflags armprof-core) \
     $(pkg-config --static --libs armprof-core | sed "s|-larmprof-core|$libdir/libarmprof-core.a|") \
     || { echo "FAIL: PIE build against libarmprof-core.a"; return 1; }
  "$work/emulator_static" > "$work/static.out" || { cat "$work/static.out"; echo "FAIL: the example (static PIE)"; return 1; }
  cmp -s "$work/static.out" "$work/shared.out" || { echo "FAIL: static and shared runs differ"; return 1; }
}
check run_static_pie

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# `cmake --install` puts the libraries, headers, CLI and pkg-config files in
# a prefix, and a program built with `pkg-config armprof` (the umbrella over
# every layer, armprof-core, -uarch, -perfdata, -report) links and decodes.
# armprof-core alone: tests/api/embed.sh.
set -u
armprof=$1 src=$2 work=$3
build=$(dirname "$armprof")
rm -rf "$work"; mkdir -p "$work"
if ! cmake --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1; then
  cat "$work/install.log"; echo "0 passed, 1 failed"; exit 1
fi
pc=$(find "$work/prefix" -name armprof.pc | head -1)
cat > "$work/user.c" <<'C'
#include <armprof/armprof.h>
#include <stdio.h>
static int n;
static int count(void *ctx, const struct ap_record *r) { (void)ctx; (void)r; n++; return 0; }
int main(void)
{
	const unsigned char stream[] = { 0xb0, 0x10, 0, 0, 0, 0, 0, 0, 0x80, 0x49, 0x00, 0x01 };
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = count;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, stream, sizeof(stream));
	ap_decoder_finish(&dec);
	printf("%d\n", n);
	return n == 1 ? 0 : 1;
}
C
fail=0
export PKG_CONFIG_PATH=$(dirname "$pc")
# a sanitizer build's library needs the sanitizer runtimes in the user program
san=""
grep -q '^ARMPROF_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && san="-fsanitize=address,undefined"
# static: each layer's .a in place of its -l, with the private dependencies
libdir=$(dirname "$pc")/..
if cc -std=c11 $san -o "$work/user" "$work/user.c" $(pkg-config --cflags armprof) \
     $(pkg-config --libs --static armprof | sed "s|-larmprof-\([a-z]*\)|$libdir/libarmprof-\1.a|g") \
   && "$work/user" >/dev/null; then :; else echo "FAIL: static link via pkg-config"; fail=$((fail+1)); fi
# shared
if cc -std=c11 $san -o "$work/user_so" "$work/user.c" $(pkg-config --cflags --libs armprof) \
   && LD_LIBRARY_PATH="$(dirname "$pc")/.." "$work/user_so" >/dev/null; then :; else echo "FAIL: shared link via pkg-config"; fail=$((fail+1)); fi
[ -x "$work/prefix/bin/armprof" ] || { echo "FAIL: armprof not installed"; fail=$((fail+1)); }
# every public header, and nothing else, under include/armprof/
if ! diff <(cd "$src/include/armprof" && ls) <(cd "$work/prefix/include/armprof" && ls); then
  echo "FAIL: installed headers differ from include/armprof/"; fail=$((fail+1))
fi
echo "$((4 - fail)) passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# armprof report --format pprof opened in speedscope (issue 31): speedscope's
# own app from npm (tests/report/speedscope/package.json pins it; its
# dist/release is what www.speedscope.app serves) imports the gzipped
# profile with its pprof importer in Debian's chromium
# (tests/report/speedscope/check_speedscope.js), no console or page error,
# and its Sandwich view shows each function's samples (the profile's
# default sample type) as armprof's own function table counts them. The
# input: an SPE stream written with `armprof encode` whose PCs a kallsyms
# text names, and one PC no symbol names ([unknown] in both).
# Skips (77) without chromium, node, playwright-core or speedscope
# (scripts/install-deps.sh installs them).
# Args: $1 armprof, $2 source dir, $3 scratch dir.
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
npm_html=${ARMPROF_REPORT_HTML_NPM:-$src/.cache/npm/report-html}
app=${ARMPROF_SPEEDSCOPE_NPM:-$src/.cache/npm/speedscope}/node_modules/speedscope/dist/release
export PLAYWRIGHT_CORE=$npm_html/node_modules/playwright-core
export CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$CHROMIUM" ] || ! command -v node > /dev/null || [ ! -e "$PLAYWRIGHT_CORE/package.json" ] ||
	[ ! -e "$app/index.html" ]; then
	echo "SKIP: needs chromium, node, playwright-core and speedscope in .cache/npm (bash scripts/install-deps.sh)"
	exit 77
fi

cat > kallsyms << 'K'
ffff800008010000 T main
ffff800008010100 T hot
ffff800008010200 T leaf
ffff800008012000 D end
K
{
	for i in 1 2 3 4 5 6; do echo "pc 0xffff800008010104 el=1; op ld; ev retired l1d-access; lat total 200; end"; done
	for i in 1 2 3; do echo "pc 0xffff800008010204 el=1; op ld; ev retired; lat total 9; end"; done
	echo "pc 0xffff800008010010 el=1; op b cond; ev retired mispredicted; lat total 14; end"
	echo "pc 0xffff800008030000 el=1; op other; ev retired; lat total 5; end"
} > k.txt
"$armprof" encode -o k.spe k.txt
"$armprof" report --kallsyms kallsyms --format pprof -o k.pb.gz k.spe
"$armprof" report --kallsyms kallsyms --format json --top 0 k.spe > k.json
python3 - k.json > want.txt << 'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["functions"]:
    print(f["function"], f["samples"], f["samples"])
PY
node "$src/tests/report/speedscope/check_speedscope.js" "$app" k.pb.gz "$work" > seen.txt ||
	fail "speedscope did not open the profile: $(cat seen.txt)"
! grep -q '^problem:' seen.txt || fail "speedscope: $(grep '^problem:' seen.txt)"
grep -qx 'importer: protobuf encoded pprof file' seen.txt || fail "speedscope's importer: $(head -1 seen.txt)"
grep -v '^importer:' seen.txt | LC_ALL=C sort > got.txt
LC_ALL=C sort -o want.txt want.txt
diff want.txt got.txt > /dev/null || fail "speedscope's Sandwich (name total self): $(cat got.txt), armprof's: $(cat want.txt)"
[ "$(wc -l < want.txt)" = 4 ] || fail "armprof's table: $(cat want.txt)"
echo "report_speedscope: ok (speedscope $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$app/../../package.json" | head -1): $(tr '\n' ';' < got.txt))"

#!/usr/bin/env bash
# armprof report --html: one self-contained page, opened in Debian's
# chromium (tests/report/html/check_html.js, playwright-core from npm: no
# browser download): no console message, no request but the page itself,
# the script ran to its end, the tables, flame graph, latency histogram and
# heat map rendered (checked in the DOM), and their numbers are the text
# report's (records, samples, top function, the folded stacks' sums). The
# input is an SPE stream written with `armprof encode` whose functions a
# kallsyms text names, one of them named like markup (it must show as
# text); then a recording made here with `armprof record` when
# qemu-aarch64 and the examples are there. Counted packets: Counter
# (spec/002 5.3.4, SPE-5.3.4-4), Data Source (5.3.5, SPE-5.3.5-1), data
# virtual address (5.3.1, SPE-5.3.1-17), Timestamp (5.3.6).
# Skips (77) without chromium, node or playwright-core
# (scripts/install-deps.sh installs them).
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

npm_dir=${ARMPROF_REPORT_HTML_NPM:-$src/.cache/npm/report-html}
export PLAYWRIGHT_CORE=$npm_dir/node_modules/playwright-core
export CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$CHROMIUM" ] || ! command -v node > /dev/null || [ ! -e "$PLAYWRIGHT_CORE/package.json" ]; then
  echo "SKIP: needs chromium, node and playwright-core in $npm_dir (bash scripts/install-deps.sh)"
  exit 77
fi

# expect JSON FOLDED_SAMPLES FOLDED_LATENCY LAT_SAMPLES LAT_ALL ACCESSES TEXT...:
# the page's expectations from the JSON report and --flame's lines; the
# histogram's samples with a Data Source and all with a latency ("-": not
# checked); the accesses with a data address.
expect() {
  python3 - "$@" > expect.json <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
fold = lambda f: sum(int(l.rsplit(" ", 1)[1]) for l in open(f))
top = rep["functions"][0]
name = top["function"] + (" (%s)" % top["binary"] if "binary" in top else "")
print(json.dumps({
    "records": rep["records"], "samples": rep["totals"]["samples"],
    "functions": len(rep["functions"]), "threads": len(rep["threads"]),
    "instructions": len(rep["instructions"]), "lines": len(rep["shared_lines"]),
    "top_function": name, "top_samples": top["samples"],
    "stacks_samples": fold(sys.argv[2]), "stacks_latency": fold(sys.argv[3]),
    "lat_samples": None if sys.argv[4] == "-" else int(sys.argv[4]),
    "lat_all": None if sys.argv[5] == "-" else int(sys.argv[5]),
    "accesses": int(sys.argv[6]), "text_present": sys.argv[7:]}))
PY
}

# page INPUT ARGS...: the page and its expectations' inputs, from the same options.
page() {
  local in=$1
  shift
  "$armprof" report "$@" --html page.html "$in"
  "$armprof" report "$@" --format json --top 0 "$in" > rep.json
  "$armprof" report "$@" --flame "$in" > s.folded
  "$armprof" report "$@" --flame --weight latency "$in" > l.folded
  grep -q 'Content-Security-Policy" content="default-src .none.' page.html || fail "no CSP"
  ! grep -q '<script[^>]* src=\|<link' page.html || fail "the page loads a script or style"
  # The only URL: the SVG namespace (a name, never fetched).
  ! grep -o 'https\?://[^"'"'"' )]*' page.html | grep -vqx 'http://www.w3.org/2000/svg' || fail "a URL in the page"
}

evil='evil</script><img/src=x/onerror=alert(1)>&amp;"'
cat > kallsyms <<K
ffff800008010000 T main
ffff800008010100 T $evil
ffff800008010200 T leaf
ffff800008012000 D end
K
{
  for i in 1 2 3 4 5 6; do
    echo "pc 0xffff800008010104 el=1; op ld; ev retired l1d-access l1d-refill llc-access llc-miss; lat total 200; va 0x10000; ds 14; ts $((i * 100))"
  done
  echo "pc 0xffff800008010204 el=1; op ld; ev retired l1d-access; lat total 7; va 0x7f0000010008; ds 0; ts 700"
  echo "pc 0xffff800008010208 el=1; op st; ev retired l1d-access; lat total 9; va 0x7f0000010010; ds 0; ts 800"
  echo "pc 0xffff800008010010 el=1; op b cond; ev retired mispredicted; lat total 14; ts 900"
  echo "pc 0xffff800008012010 el=1; op other; ev retired; lat total 5; ts 1000"
  # Two threads' loads of one line served by the other core (PEER-CORE): a shared line.
  echo "pc 0xffff800008010204 el=1; op ld; ev retired l1d-access l1d-refill; lat total 50; va 0x20000; ds 9; ctx el1 11; ts 1100"
  echo "pc 0xffff800008010204 el=1; op ld; ev retired l1d-access l1d-refill; lat total 50; va 0x20008; ds 9; ctx el1 12; ts 1200"
} > k.txt
"$armprof" encode -o k.spe k.txt
page k.spe --kallsyms kallsyms --cpu-model neoverse-n1
grep -q 'evil</script' page.html && fail "a symbol name ended the data element"
expect rep.json s.folded l.folded 10 12 10 "$evil"
node "$src/tests/report/html/check_html.js" page.html expect.json || fail "encoded stream's page"

# A recording of a program, its page against its text report.
build=$(dirname "$armprof")
# examples/call_tree: call stacks (armprof record --call-graph, the
# default), so the flame graph has depth: its deepest stack drawn.
if command -v qemu-aarch64 > /dev/null && [ -e "$build/armprof-qemu.so" ] && [ -x "$build/examples/call_tree" ]; then
  "$armprof" record -q -o ct.data -- "$build/examples/call_tree" > /dev/null
  page ct.data
  accesses=$("$armprof" decode --format jsonl ct.data | grep -c '"vaddr"' || true)
  expect rep.json s.folded l.folded - - "$accesses" caller_a
  # The deepest stack of 1% of the samples or more (thinner ones may be under a pixel wide).
  python3 -c '
s = [l.rsplit(" ", 1) for l in open("s.folded")]
t = sum(int(n) for _, n in s)
print(max(len(f.split(";")) for f, n in s if int(n) * 100 >= t))' > depth.txt
  export WANT_DEPTH=$(cat depth.txt)
  SCREENSHOT=${ARMPROF_SCREENSHOT:-} node "$src/tests/report/html/check_html.js" page.html expect.json ||
    fail "recording's page"
else
  echo "note: no qemu-aarch64/plugin/call_tree example: the recording's page was not checked"
fi

# The page goes where other outputs go (docs/outputs.md): a write that fails
# is named with its reason, exit 2, and leaves no file.
mknod full c 1 7
set +e
"$armprof" report --kallsyms kallsyms --html full k.spe 2> err.txt
rc=$?
set -e
[ $rc -eq 2 ] && grep -q 'full: write failed: No space left on device' err.txt || fail "--html full: exit $rc"
echo "report_html ok"

#!/usr/bin/env bash
# Names that are not UTF-8 (issue 32): a symbol and file names with bytes
# that begin no UTF-8 character (0xff, an overlong 0xc0 0xaf, a surrogate
# 0xed 0xa0 0x80) reach `report --format json`, --annotate's and --diff's JSON
# and the --html page's data as \ufffd (report_json_string, the one escaping):
# each output is parsed by python3's json with the bytes decoded strictly as
# UTF-8. Skips (77) without the aarch64 example and binutils.
set -euo pipefail
armprof=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

prog=$(dirname "$armprof")/examples/pointer_chase
if [ ! -f "$prog" ] || ! command -v aarch64-linux-gnu-objcopy >/dev/null; then
  echo "SKIP: needs the aarch64 example and aarch64-linux-gnu-objcopy"; exit 77
fi
chase=0x$(aarch64-linux-gnu-nm "$prog" | awk '$3 == "chase" {print $1}')
bad_sym=$'ch\xff\xc0\xafase\xed\xa0\x80'
bin=$'prog\xfe.elf' input=$'in\xfd.raw'
aarch64-linux-gnu-objcopy --redefine-sym "chase=$bad_sym" "$prog" "$bin"
printf 'pc 0x%x el=0; op ld; ev retired; lat total 9; va 0x1000; ds 0; end\n' $((chase + 12)) > p.spe
"$armprof" encode -o "$input" p.spe

"$armprof" report --binary "$bin" --format json -o report.json "$input"
"$armprof" report --binary "$bin" --annotate "$bad_sym" --format json -o annotate.json "$input"
"$armprof" report --binary "$bin" --diff "$input" --format json -o diff.json "$input"
"$armprof" report --binary "$bin" --html report.html "$input"
python3 - <<'PY' || fail "output not strict UTF-8 JSON, or the names not escaped as \\ufffd"
import json, re
want = "ch\ufffd\ufffd\ufffdase\ufffd\ufffd\ufffd"
def strict(path):
    return open(path, "rb").read().decode("utf-8")  # strict: raises on an invalid byte
r = json.loads(strict("report.json"))
assert r["input"] == "in\ufffd.raw" and r["binary"] == "prog\ufffd.elf", (r["input"], r["binary"])
assert [f["function"] for f in r["functions"]] == [want], r["functions"]
a = json.loads(strict("annotate.json"))
assert want in json.dumps(a, ensure_ascii=False), str(a)[:300]
d = json.loads(strict("diff.json"))
assert want in json.dumps(d, ensure_ascii=False), str(d)[:300]
page = strict("report.html")
m = re.search(r'<script id="armprof-data" type="application/json">(.*?)</script>', page, re.S)
h = json.loads(m.group(1))
assert h["input"] == "in\ufffd.raw" and h["binary"] == "prog\ufffd.elf", (h["input"], h["binary"])
assert want in json.dumps(h, ensure_ascii=False)
PY
echo "report_json_utf8: ok"

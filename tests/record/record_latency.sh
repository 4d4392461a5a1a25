#!/usr/bin/env bash
# The timing model seen through SPE records: the pointer-chasing example's
# load misses L1D and the LLC and waits for DRAM (Events E[3], E[9],
# SPE-5.3.7-18, SPE-5.3.7-11; Data Source DRAM, SPE-5.3.5-1; total latency
# SPE-5.3.4-4) and, its address being the previous load's data, waits to
# issue (SPE-5.3.4-5); the streaming example's load hits L1D (the stream
# prefetcher keeps ahead) with short latency.
set -euo pipefail
source "$(dirname "$0")/record_common.sh"

"$armprof" record -q -c 256 -o chase.data -- "$examples/pointer_chase" 400000 > /dev/null
"$armprof" record -q -c 256 -o stream.data -- "$examples/stream" 1 > /dev/null
"$armprof" report --format json -o chase.json chase.data
"$armprof" report --format json -o stream.json stream.data
python3 - <<'PY'
import json
def hot_load(path, fn):
    r = json.load(open(path))
    loads = [i for i in r["instructions"] if i["function"] == fn and i["loads"] == i["samples"]]
    assert loads, (path, fn)
    return max(loads, key=lambda i: i["samples"])
c = hot_load("chase.json", "chase")
s = hot_load("stream.json", "sum.constprop.0") if any(
    i["function"] == "sum.constprop.0" for i in json.load(open("stream.json"))["instructions"]) else hot_load("stream.json", "sum")
for name, i in (("chase", c), ("stream", s)):
    print(f"{name}: {i['samples']} samples, L1D miss {i['l1d_miss_rate']:.3f}, LLC miss {i['llc_miss_rate']:.3f}, "
          f"mean latency {i['lat_mean']:.1f}, sources {i['data_source']}")
assert c["samples"] > 100 and s["samples"] > 100
assert c["l1d_miss_rate"] > 0.9 and c["llc_miss_rate"] > 0.5, c
assert c["lat_mean"] > 100 and c["lat_p50"] > 100, c
assert c["data_source"].get("DRAM", 0) > c["samples"] / 2, c
assert s["l1d_miss_rate"] < 0.05 and s["llc_miss_rate"] < 0.05, s
assert s["lat_mean"] < 20, s
assert c["lat_mean"] > 5 * s["lat_mean"]
# Issue latency (SPE-5.3.4-5): chase's load waits for the previous load's
# data (its address); the stream's load does not.
assert c["issue_lat_mean"] > 100, c["issue_lat_mean"]
assert s["issue_lat_mean"] < 5, s["issue_lat_mean"]
assert c["l1d_miss_rate"] > 10 * max(s["l1d_miss_rate"], 0.001)
PY
echo "record_latency ok"

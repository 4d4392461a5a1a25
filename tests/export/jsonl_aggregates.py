"""The aggregates decode_parquet.sh compares, from armprof's JSONL output
(docs/jsonl-schema.md), tab-separated as DuckDB prints them:
  totals: rows, sum of lat_total, lat_issue, lat_xlat, rows with a pc
  op COUNT lines (per Operation Type, "NULL" without one), sorted
  ds VALUE COUNT lines (per data source, "NULL" without one), sorted
  dsn NAME COUNT lines (per data source name, "NULL" without one)
Usage: jsonl_aggregates.py FILE.jsonl"""
import collections
import json
import sys

rows = 0
lat = {"lat_total": 0, "lat_issue": 0, "lat_xlat": 0}
with_pc = 0
ops = collections.Counter()
ds = collections.Counter()
dsn = collections.Counter()
with open(sys.argv[1]) as f:
    for line in f:
        r = json.loads(line)
        rows += 1
        for k in lat:
            lat[k] += r.get(k, 0)
        with_pc += "pc" in r
        ops[r.get("op", "NULL")] += 1
        ds[str(r.get("data_source", "NULL"))] += 1
        dsn[r.get("data_source_name", "NULL")] += 1
print("totals\t%d\t%d\t%d\t%d\t%d" % (rows, lat["lat_total"], lat["lat_issue"], lat["lat_xlat"], with_pc))
for k in sorted(ops):
    print("op\t%s\t%d" % (k, ops[k]))
for k in sorted(ds, key=lambda v: (v == "NULL", int(v) if v != "NULL" else 0)):
    print("ds\t%s\t%d" % (k, ds[k]))
for k in sorted(dsn):
    print("dsn\t%s\t%d" % (k, dsn[k]))

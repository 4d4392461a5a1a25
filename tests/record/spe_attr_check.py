"""The SPE attr of a perf.data `armprof record` wrote, read from the bytes.

usage: spe_attr_check.py FILE SIZE KEY=VALUE...

Checks the file's first attr (SPE's): its size is SIZE (the header's
attr_size is SIZE + 16, its ids section) and each named word has VALUE.
Keys: config, config1, config2, config3, config4 (Linux
include/uapi/linux/perf_event.h: config at 8, config1 at 56, config2 at 64,
config3 at 128 from PERF_ATTR_SIZE_VER8, config4 at 136 from VER9); a word
the size does not hold must be 0. Exit 1 naming the first difference.
"""
import struct
import sys

path, want_size = sys.argv[1], int(sys.argv[2], 0)
data = open(path, "rb").read()
if data[:8] != b"PERFILE2":
    sys.exit(f"spe_attr_check: {path}: not a perf.data file")
attr_size, attrs_off = struct.unpack_from("<QQ", data, 16)
size = struct.unpack_from("<I", data, attrs_off + 4)[0]
if size != want_size or attr_size != want_size + 16:
    sys.exit(f"spe_attr_check: {path}: attr size {size} (header {attr_size}), want {want_size}")
offsets = {"config": 8, "config1": 56, "config2": 64, "config3": 128, "config4": 136}
for kv in sys.argv[3:]:
    key, value = kv.split("=")
    off = offsets[key]
    got = struct.unpack_from("<Q", data, attrs_off + off)[0] if off + 8 <= size else 0
    if got != int(value, 0):
        sys.exit(f"spe_attr_check: {path}: {key} {got:#x}, want {int(value, 0):#x}")

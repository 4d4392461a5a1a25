#!/usr/bin/env bash
# armprof system --kernel IMAGE --modules DIR (docs/system.md, "Your own
# kernel") without building a kernel: "the user's kernel" is another
# suite's Debian kernel than the kit's (the image of another kit in the same
# kit cache, e.g. bookworm's 6.1 under the unstable kit's userland), and its
# modules tree the one that kit carries (virtio_mmio, 9p, arm_spe_pmu and
# their dependencies, uncompressed, with modules.builtin and modules.order)
# run through depmod as `make modules_install` runs it. Shows: the guest
# runs that kernel; the modules loaded are that tree's (loaded, and the
# files /init loaded them from, under the kernel's release, have the
# tree's bytes; the kit's own are of another release, which the kernel's
# vermagic check refuses); the driver probes and perf records SPE samples of a program on
# it; a tree of another release is refused by the guest (121, naming both);
# without --modules the guest says it has no modules for the kernel (121).
# Skipped (77) without armprof's QEMU, the kit, a kit of another kernel
# beside it ($ARMPROF_OTHER_KIT, else .cache/kit/{bookworm,trixie,unstable}
# [-tests]), or depmod and modinfo (Debian package kmod).
set -euo pipefail
. "$(dirname "$0")/../system_spe/system_common.sh" "$@"
release=$(sed -n 's/^kernel=//p' "$kit/VERSION" 2> /dev/null)
other=${ARMPROF_OTHER_KIT:-}
if [ -z "$other" ]; then
  for s in bookworm unstable trixie bookworm-tests unstable-tests trixie-tests; do
    k=$(dirname "$kit")/$s
    r=$(sed -n 's/^kernel=//p' "$k/VERSION" 2> /dev/null) || continue
    if [ -n "$r" ] && [ "$r" != "$release" ] && [ -s "$k/vmlinuz" ]; then
      other=$k
      break
    fi
  done
fi
[ -n "$other" ] || { echo "SKIP: no kit of another kernel than $release beside $kit (bash system/kit/build.sh --suite bookworm)"; exit 77; }
for t in depmod modinfo; do
  command -v $t > /dev/null || [ -x /usr/sbin/$t ] || { echo "SKIP: needs $t (Debian package kmod)"; exit 77; }
done
PATH=$PATH:/usr/sbin
orel=$(sed -n 's/^kernel=//p' "$other/VERSION")
echo "kit: $release ($kit); the user's kernel: $orel ($other)"

# The user's modules tree, as modules_install leaves it: the other kit's
# lib/modules/<release> and depmod's files.
mkdir -p tree
(cd tree && gzip -dc "$other/initrd.img" | cpio -id --quiet "lib/modules/$orel/*")
rm -f "tree/lib/modules/$orel/armprof-load-order"
[ -f "tree/lib/modules/$orel/modules.builtin" ] || fail "$other has no modules.builtin (rebuild it: bash system/kit/build.sh)"
depmod -b "$PWD/tree" "$orel" || fail "depmod -b tree $orel"
mods=$PWD/tree/lib/modules/$orel
grep -q "arm_spe_pmu.ko:" "$mods/modules.dep" || fail "depmod wrote no arm_spe_pmu line: $(head "$mods/modules.dep")"
cp "$examples/pointer_chase" .

sys --kernel "$other/vmlinuz" --modules "$mods" -- '
  echo "release $(uname -r)"
  for m in $(cut -d" " -f1 /proc/modules); do echo "module $m"; done
  find /lib/modules/$(uname -r) -name "*.ko" | while read -r f; do echo "file $(sha256sum < $f | cut -c1-64) ${f##*/}"; done
  ls -d /lib/modules/* | sed "s/^/tree /"
  perf record -q -e arm_spe_0/ts_enable=1/u -o k.data ./pointer_chase 200000 > /dev/null && echo "perf record: ok"
  perf report -i k.data --stdio --sort sym 2> /dev/null | grep -m 1 "\[\.\] chase" | sed "s/^/report /"' > out.txt ||
  fail "armprof system --kernel --modules: $(tail -20 out.txt)"
cat out.txt
grep -qx "release $orel" out.txt || fail "the guest does not run $orel: $(grep release out.txt)"
for m in virtio_mmio 9pnet_virtio 9p arm_spe_pmu; do
  grep -qx "module $m" out.txt || fail "$m not loaded: $(grep ^module out.txt)"
  f=$(find "$mods" -name "$m.ko" | head -n 1)
  grep -qx "file $(sha256sum < "$f" | cut -c1-64) $m.ko" out.txt ||
    fail "the guest's $m.ko is not the tree's: $(grep "$m.ko" out.txt)"
  [ "$(modinfo -F vermagic "$f" | cut -d' ' -f1)" = "$orel" ] || fail "$f: vermagic $(modinfo -F vermagic "$f")"
done
grep -qx "tree /lib/modules/$release" out.txt && grep -qx "tree /lib/modules/$orel" out.txt ||
  fail "the initramfs should hold the kit's tree ($release) and the user's ($orel): $(grep ^tree out.txt)"
grep -qx "perf record: ok" out.txt && grep -q "^report .*chase" out.txt || fail "SPE on $orel: $(tail -5 out.txt)"
"$armprof" report --format json --top 0 k.data > k.json || fail "armprof report k.data"
python3 -c 'import json,sys; f={x["function"] for x in json.load(open(sys.argv[1]))["functions"]}; assert "chase" in f, f' k.json ||
  fail "armprof report names no chase in k.data"

# A tree of another release: the guest refuses it.
mkdir -p wrong/lib/modules && cp -r "$mods" "wrong/lib/modules/9.9.9-other"
rc=0
sys --no-timing --kernel "$other/vmlinuz" --modules "wrong/lib/modules/9.9.9-other" -- true > out.txt 2> err.txt || rc=$?
[ $rc -eq 121 ] && grep -q "the kernel is $orel, but --modules gave lib/modules/9.9.9-other" out.txt err.txt ||
  fail "modules of another release: exit $rc, $(cat err.txt)"
# No modules: the guest says so (its 9p is a module).
rc=0
sys --no-timing --kernel "$other/vmlinuz" -- true > out.txt 2> err.txt || rc=$?
[ $rc -eq 121 ] && grep -q "no modules for kernel $orel" err.txt ||
  fail "--kernel without --modules: exit $rc, $(cat err.txt)"
echo "system_kernel: ok"

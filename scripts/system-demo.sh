#!/usr/bin/env bash
# The README's full-system command: install what is needed, build armprof,
# its QEMU (system/qemu: CPUs with SPE from the model; 6-10 minutes the first
# time, cached afterwards) and the guest kit (system/kit: Debian unstable's
# arm64 kernel, Linux 7.x, its perf and busybox), then profile the
# pointer-chasing example inside a Linux guest with Linux's own arm_spe_pmu
# driver and perf, the timing model on (armprof system's default):
#   perf record -e arm_spe_0/.../ ./pointer_chase            (in the guest)
#   perf report --mem-mode --sort mem,sym,local_weight        (in the guest: the chase's
#                                     loads are "RAM hit" with a DRAM latency as their weight)
#   armprof report --kallsyms kallsyms perf.data              (on the host: the chase's
#                                     load, DRAM 100%, its latency percentiles)
# The perf.data lands in out/system/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash system/qemu/build.sh > /dev/null
bash system/kit/build.sh > /dev/null
mkdir -p out/system
cp build/examples/pointer_chase out/system/
cd out/system
../../build/armprof system -- \
  'uname -r && perf --version &&
   cat /proc/kallsyms > kallsyms &&
   perf record -e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,branch_filter=1/ -o perf.data ./pointer_chase &&
   perf report -i perf.data --stdio --sort comm,dso,sym 2> /dev/null | head -n 24 &&
   perf report -i perf.data --stdio --mem-mode --sort mem,sym,local_weight 2> /dev/null | grep -v "^#" | grep -v "^$" | head -n 8'
echo
../../build/armprof report --top 8 --kallsyms kallsyms perf.data

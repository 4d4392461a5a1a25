#!/usr/bin/env bash
# The README's full-system command: install what is needed, build armprof,
# its QEMU (system/qemu: CPUs with SPE from the model; 6-10 minutes the first
# time, cached afterwards) and the guest kit (system/kit: Debian's arm64
# kernel, perf 6.1, busybox), then profile the pointer-chasing example inside
# a Linux guest with Linux's own arm_spe_pmu driver and perf:
#   perf record -e arm_spe_0/.../ ./pointer_chase; perf report   (in the guest)
#   armprof report --kallsyms kallsyms perf.data                  (on the host;
#                                     the guest's kernel symbols name its samples)
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
  'cat /proc/kallsyms > kallsyms &&
   perf record -e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,branch_filter=1/ -o perf.data ./pointer_chase &&
   perf report -i perf.data --stdio --sort comm,dso,sym 2> /dev/null | head -n 24'
echo
../../build/armprof report --top 8 --kallsyms kallsyms perf.data

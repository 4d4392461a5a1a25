#!/usr/bin/env bash
# Linux's unmodified arm_spe_pmu driver probes on every vCPU, and reads the
# IMPLEMENTATION DEFINED values the model's configuration gives: PMSIDR_EL1
# MaxSize, Interval, ERnd, LDS, ArchInst and the filters (4.3.11,
# SPE-4.3.11-33) and PMBIDR_EL1.Align (4.3.1), through the System registers
# the CPU forwards to the model (4.1).
set -euo pipefail
. "$(dirname "$0")/system_common.sh" "$@"
caps=/sys/bus/event_source/devices/arm_spe_0/caps
sys --cpus 2 --dmesg dmesg.txt -- "cat $caps/min_interval $caps/count_size" > out.txt ||
  fail "armprof system: $(tail -5 out.txt)"
grep -Eq "arm_spe_pmu spe: probed (SPEv[0-9.]+ )?for CPUs 0-1 \[max_record_sz 64, align 1, features 0x17\]" dmesg.txt ||
  fail "the driver did not probe with the default (Neoverse N1) values: $(grep -i spe dmesg.txt)"
[ "$(tr -d '\r' < out.txt | grep -E '^[0-9]+$' | tr '\n' ' ')" = "1024 12 " ] ||
  fail "caps: $(cat out.txt)"

# Other values, by configuration: a 128-byte record, a 64-byte aligned write
# pointer, a 1536-operation minimum interval, random perturbation.
sys --cpus 4 --dmesg dmesg2.txt --config spe.max_size=7 --config spe.align=6 \
  --config spe.interval=5 --config spe.ernd=1 -- "cat $caps/min_interval" > out2.txt ||
  fail "armprof system (configured): $(tail -5 out2.txt)"
grep -Eq "arm_spe_pmu spe: probed (SPEv[0-9.]+ )?for CPUs 0-3 \[max_record_sz 128, align 64, features 0x37\]" dmesg2.txt ||
  fail "the driver did not read the configured values: $(grep -i spe dmesg2.txt)"
tr -d '\r' < out2.txt | grep -qx 1536 || fail "min_interval: $(cat out2.txt)"
echo "probe: ok"

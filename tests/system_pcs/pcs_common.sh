# shellcheck shell=bash
# Shared set-up of the PC-sampling tests: system_common.sh's (the QEMU and
# kit, skip 77 without them; sys = armprof system), a QEMU with the external
# PMU frame (patch 0006), and the frame addresses of the virt board
# (include/hw/arm/armprof-pmu-ext.h in the patch: 8 KiB per vCPU from
# 0x090c0000, the debug frame then the PMU frame, FEAT_PMUv3_EXT64 offsets,
# DDI 0487 Table I5-1).
# shellcheck source=../system_spe/system_common.sh
. "$(dirname "$0")/../system_spe/system_common.sh" "$@"
if ! grep -q armprof-pcs-period "$qemu"; then
  echo "SKIP: $qemu has no external PMU frame (system/qemu patch 0006): bash system/qemu/build.sh"
  exit 77
fi
pmu_frame() { printf '0x%x' $((0x090c1000 + $1 * 0x2000)); }
export PMCCIDSR=0x228 PMPCSCTL=0xe50 PMLAR=0xfb0 PMLSR=0xfb4
reg() { printf '0x%x' $(($(pmu_frame "$1") + $2)); }
# A number from the summary line armprof system prints ("N reads of C vCPUs
# every P ns: N samples (EL0 N, EL1 N, ...; N with a thread), N without a
# sample, N error responses"): stat FILE 'samples' | 'EL0' | 'without' | ...
stat() {
  local line
  line=$(sed -n 's/^armprof system: --pc-sample: //p' "$1")
  [ -n "$line" ] || fail "no --pc-sample summary in $1: $(cat "$1")"
  case $2 in
    EL?) sed -E "s/.*$2 ([0-9]+).*/\1/" <<< "$line" ;;
    *) sed -E "s/^(.*[^0-9])?([0-9]+) $2.*/\2/" <<< "$line" ;;
  esac
}

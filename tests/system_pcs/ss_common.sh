# shellcheck shell=bash
# The PMU snapshot tests: pcs_common.sh's set-up and the guest module
# (system/guest/build-module.sh; skip 77 without it), copied into the share.
# shellcheck source=pcs_common.sh
. "$(dirname "$0")/pcs_common.sh" "$@"
# The module built for the kit's kernel (VERSION kernel=<release>).
release=$(sed -n 's/^kernel=//p' "$kit/VERSION" 2> /dev/null)
module=${ARMPROF_GUEST_MODULE:-$src/.cache/guest-modules/${release:-current}/pmu_ss_test.ko}
if [ ! -f "$module" ]; then
  echo "SKIP: needs the guest module for kernel ${release:-?} ($module): bash system/guest/build-module.sh $kit"
  exit 77
fi
if ! grep -q armprof-ss-period "$qemu"; then
  echo "SKIP: $qemu has no PMU snapshots (system/qemu patch 0008): bash system/qemu/build.sh"
  exit 77
fi
cp "$module" .

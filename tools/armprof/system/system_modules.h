/* `armprof system --kernel IMAGE --modules DIR` (docs/system.md, "Your own
 * kernel"): the guest's initramfs for a kernel the user built. The kit's
 * initrd.img (its userland: busybox, perf, /init) followed by an
 * uncompressed newc cpio archive of lib/modules/<release>/ with the modules
 * /init loads (system/kit/init.sh: virtio_mmio, 9pnet_virtio, 9p,
 * arm_spe_pmu) and those DIR's modules.dep says they need, in the load
 * order /init reads (armprof-load-order, as system/kit/build.sh writes it
 * for the kit's own kernel). Linux unpacks concatenated archives one after
 * the other (Documentation/driver-api/early-userspace/buffer-format.rst),
 * so the kit's files stay and the user's modules tree is added beside the
 * kit's own, under the user's kernel release. */
#ifndef ARMPROF_TOOL_SYSTEM_MODULES_H
#define ARMPROF_TOOL_SYSTEM_MODULES_H

#include <stddef.h>

/* Writes out (a new file) from kit_initrd and the modules of modules_dir, a
 * lib/modules/<release> tree as `make modules_install` writes it (with
 * modules.dep and modules.builtin); release gets <release>, its last path
 * component. A module that is built in (modules.builtin) is left out; one
 * that is neither built in nor in modules.dep is an error, but for
 * arm_spe_pmu, whose absence the guest reports (exit 122 with SPE).
 * Returns 0, or -1 with the message in err. */
int system_modules_initrd(const char *kit_initrd, const char *modules_dir, const char *out, char *release,
                          size_t release_len, char *err, size_t errlen);

#endif

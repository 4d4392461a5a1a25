/* Data Source values (spec/002 5.3.5): the payload is IMPLEMENTATION
 * DEFINED (SPE-5.3.5-1), so what a value means depends on the CPU that
 * wrote it. These are the encodings Linux perf decodes, chosen as perf
 * chooses them, by the MIDR_EL1 of the CPU (perf.data's CPUID feature):
 *
 * NEOVERSE   Neoverse N1, N2, V1, V2 (Arm's Technical Reference Manuals;
 *            perf's "common" encoding): 0x0 L1D, 0x8 L2, 0x9 PEER-CORE,
 *            0xa LOCAL-CLUSTER, 0xb SYS-CACHE, 0xc PEER-CLUSTER,
 *            0xd REMOTE, 0xe DRAM.
 * AMPEREONE  AmpereOne (perf: MIDR_AMPERE1A): 0x0 LOCAL-CHIP (another
 *            core's cache on this chip, or a device), 0x3 SLC, 0x5
 *            REMOTE-CHIP (another chip's cache), 0x7 DRAM, 0x8 L1D, 0x9 L2.
 * RAW        any other CPU: the value means nothing known; it is shown as
 *            a number.
 *
 * Like perf, reports map each known encoding onto the Neoverse one (its
 * classes: where the data came from), so one table serves every CPU. */
#ifndef ARMPROF_DATA_SOURCE_H
#define ARMPROF_DATA_SOURCE_H

#include <stdint.h>

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ap_ds_encoding {
	AP_DS_ENC_RAW = 0,
	AP_DS_ENC_NEOVERSE,
	AP_DS_ENC_AMPEREONE,
};

/* The encoding of the CPU whose MIDR_EL1 is midr (implementer [31:24],
 * part number [15:4]; variant and revision do not matter). */
AP_API enum ap_ds_encoding ap_ds_encoding_of_midr(uint64_t midr);
/* A CPU by the name `--cpu-model` takes: "neoverse-n1", "neoverse-n2",
 * "neoverse-v1", "neoverse-v2", "ampereone", or "none" (no known
 * encoding). Sets *midr (0 for "none") and returns 0, or -1 for an unknown
 * name. */
AP_API int ap_ds_cpu_model(const char *name, uint64_t *midr);
/* The names ap_ds_cpu_model takes, comma-separated, for messages. */
AP_API const char *ap_ds_cpu_model_names(void);
/* The name of value in enc ("PEER-CORE", "SLC", ...), or NULL (RAW, or a
 * value the encoding does not define). */
AP_API const char *ap_ds_name(enum ap_ds_encoding enc, unsigned value);
/* The Neoverse value (class) that value of enc maps onto, as perf maps
 * it, or -1 (RAW, or a value the encoding does not define). */
AP_API int ap_ds_common(enum ap_ds_encoding enc, unsigned value);
/* 1 when the data came from another core's cache (Neoverse class
 * PEER-CORE, LOCAL-CLUSTER, PEER-CLUSTER or REMOTE): the loads perf c2c
 * counts as shared. 0 for RAW. */
AP_API int ap_ds_from_another_core(enum ap_ds_encoding enc, unsigned value);

#ifdef __cplusplus
}
#endif
#endif

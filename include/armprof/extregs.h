/* External (memory-mapped or debug-port) views of the PMU, PC sample and
 * snapshot registers, by offset and access size.
 *
 *   PMU space, FEAT_PMUv3_EXT64   DDI 0487 Table I5-1
 *   PMU space, FEAT_PMUv3_EXT32   DDI 0487 Table I5-2 (the PC sample part is
 *                                  spec/003's "Accessing PMPCSR" list)
 *   PMU space without a PMU       spec/001 Table H7-1 (FEAT_PCSRv8p2)
 *   Debug space, FEAT_PCSRv8      EDPCSR 0x0A0/0x0AC, EDCIDSR 0x0A4, EDVIDSR
 *                                  0x0A8 (DDI 0487 H9.2)
 *
 * An access has one of three outcomes: OK; RES0 for an offset the
 * configuration does not implement (reads 0, writes are ignored, the host can
 * tell); ERROR for the error response the register pages give (Core powered
 * down, OS Lock or Double Lock; the snapshot registers ignore the OS Lock,
 * SS-IKGJMV). A size other than 4 or 8, a misaligned offset, or an offset
 * outside the 4KB frame is -AP_ERR_INVALID. */
#ifndef ARMPROF_EXTREGS_H
#define ARMPROF_EXTREGS_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ap_ext_space {
	AP_EXT_PMU = 0,   /* the Performance Monitors frame */
	AP_EXT_DEBUG = 1, /* the external debug frame (FEAT_PCSRv8 registers only) */
};

enum ap_ext_outcome {
	AP_EXT_OK = 0,
	AP_EXT_RES0 = 1,
	AP_EXT_ERROR = 2,
};

struct ap_ext_access {
	enum ap_ext_space space;
	uint32_t offset;
	unsigned size;               /* 4 or 8 bytes */
	bool memory_mapped;          /* the Software Lock applies only to these */
};

/* External accesses to a PE's frames, as a debugger or another agent makes
 * them. The model's external accesses are Non-secure (AllowExternalPMSSAccess
 * then needs MDCR_EL3.EPMSSAD == 0b11 when EL3 is implemented). The frames
 * hold what the configuration implements: the PMU registers unless
 * pcsr.pmu_ext is none, the snapshot registers with FEAT_PMUv3_SS, the PC
 * sample registers of FEAT_PCSRv8p2 (PMU frame) or FEAT_PCSRv8 (debug frame).
 *
 * Returns an enum ap_ext_outcome (>= 0) or -AP_ERR_INVALID. *value is set on
 * every non-negative return (0 for RES0 and ERROR). */
struct ap_pe;
AP_API int ap_pe_ext_read(struct ap_pe *pe, const struct ap_ext_access *a, uint64_t *value);
AP_API int ap_pe_ext_write(struct ap_pe *pe, const struct ap_ext_access *a, uint64_t value);
/* Name of the register at an offset of a frame ("PMPCSR[31:0] (alias)"), or
 * NULL when none is implemented there. For listings and messages. The string
 * is a constant of the library (valid for the program's life; safe from any
 * thread). */
AP_API const char *ap_pe_ext_name(const struct ap_pe *pe, enum ap_ext_space space, uint32_t offset);
/* The frame that holds the PC sample registers by default: the debug frame
 * with FEAT_PCSRv8, else the PMU frame. */
AP_API enum ap_ext_space ap_pe_ext_default_space(const struct ap_pe *pe);
/* The natural access size of the register at an offset: 8 for a 64-bit
 * register of an EXT64 frame, else 4; 0 when none is implemented there. */
AP_API unsigned ap_pe_ext_natural_size(const struct ap_pe *pe, enum ap_ext_space space, uint32_t offset);

#ifdef __cplusplus
}
#endif
#endif

/* PC Sample-based Profiling (spec/001 H7.1 and spec/003 PMPCSR), as part of
 * the PE (include/armprof/model.h).
 *
 * The host reports each retired instruction (or each basic block) with
 * ap_pe_retire()/ap_pe_retire_block(); an external agent reads the PC sample
 * registers through the PE's external register frames (ap_pe_ext_read(),
 * include/armprof/extregs.h). Which registers exist is configuration
 * (ap_config.pcsr, the pcsr.* keys of docs/model-config.md); an
 * implementation has exactly one of two register sets (PCS-H7.1.2-4):
 *   FEAT_PCSRv8   EDPCSR, EDCIDSR, EDVIDSR in the external debug space;
 *   FEAT_PCSRv8p2 PMPCSR, PMCID1SR, PMCID2SR, PMVIDSR (FEAT_PMUv3_EXT32) or
 *                 PMPCSR, PMCCIDSR, PMVCIDSR (FEAT_PMUv3_EXT64) in the PMU space.
 * FEAT_PCSRv8p9 adds suspend/activate through PMPCSCTL.{IMP,EN} and, with
 * FEAT_PMUv3_SS (ap_config.snapshot.feat_pmuv3_ss), PMPCSCTL.SS (sample on
 * PMU snapshot instead of on read).
 *
 * What the sample logic reads of the PE is the PE's configuration (the
 * Exception levels, FEAT_RME, FEAT_VHE in ap_config) and state (struct
 * ap_pe_state: Exception level, Security state, Debug state, power, OS Lock,
 * the authentication signals, CONTEXTIDR_ELx, VMID, ...).
 *
 * Where the spec texts leave a list blank, the model follows DDI 0487
 * (register pages of PMPCSR/EDPCSR/PMPCSCTL and the pseudocode
 * CreatePCSample, Read_PMPCSR, Read_EDPCSRlo, SetPCSample, SetPCSRUnknown,
 * PCSRSuspended, SetPCSRActive), cited at each use in lib/model/pcsr/. */
#ifndef ARMPROF_PCSR_H
#define ARMPROF_PCSR_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The external programmers' model of the PMU that holds PMPCSR. */
enum ap_pcsr_pmu_ext {
	AP_PCSR_EXT_NONE = 0, /* no PMU: own frame laid out as Table H7-1 */
	AP_PCSR_EXT32 = 1,    /* FEAT_PMUv3_EXT32 */
	AP_PCSR_EXT64 = 2,    /* FEAT_PMUv3_EXT64 */
};

/* What a read returns in the cases the spec calls UNKNOWN (no branch retired
 * since leaving reset, Debug, suspended or prohibited state, ...). */
enum ap_pcsr_unknown_policy {
	AP_PCSR_UNKNOWN_ONES = 0,  /* as if invalid: 0xFFFFFFFF, context UNKNOWN */
	AP_PCSR_UNKNOWN_STALE = 1, /* the last sample taken, with its context */
};

/* PC sampling's features and IMPLEMENTATION DEFINED choices: ap_config.pcsr
 * (pcsr.* keys). The Exception levels, FEAT_RME, FEAT_VHE and FEAT_PMUv3_SS
 * are the PE's (ap_config.have_*, ap_config.snapshot.feat_pmuv3_ss). */
struct ap_pcsr_config {
	bool feat_pcsrv8;            /* EDPCSR in the external debug space */
	bool feat_pcsrv8p2;          /* PMPCSR in the PMU space */
	bool feat_pcsrv8p9;          /* PMPCSCTL suspend/activate (needs v8p2) */
	uint8_t arch_major, arch_minor; /* Armv8.x / Armv9.x: FEAT_PCSRv8 only before 8.2 */
	uint8_t pmu_ext;             /* enum ap_pcsr_pmu_ext */
	bool atomic64;               /* EXT32: 64-bit atomic reads of PMPCSR (PMPCSR-6) */
	bool software_lock;          /* OPTIONAL PMLSR/EDLSR Software Lock (PMPCSR-35) */
	bool feat_tme;               /* FEAT_TME: PMPCSR.T */
	bool feat_vmid16;            /* FEAT_VMID16: 16-bit VMID samples */
	bool sample_any;             /* PCS-H7.1-6: non-branch-target instructions can be sampled */
	bool pmpcsctl_imp;           /* PMPCSCTL.IMP: EN is a read-write control */
	bool reset_suspended;        /* PCS-H7.1.1.1-4: suspended at Warm reset (IMP=0 or no v8p9) */
	bool first_read_ones;        /* PMPCSR-30: first read after reset returns 0xFFFFFFFF */
	bool activate_read_ones;     /* PCS-H7.1.3-4: the activating read returns 0xFFFFFFFF */
	bool capture_unknown_ones;   /* SS-RWSVYM-3: first Capture after PMPCSCTL.SS=1 gives 0xFFFFFFFF */
	bool edvidsr_hv_when_zero;   /* Read_EDPCSRlo: EDVIDSR.HV when EDPCSRhi is 0 (IMP DEF) */
	uint8_t unknown;             /* enum ap_pcsr_unknown_policy */
	uint64_t unknown_fill;       /* the bits written where a register becomes UNKNOWN */
	uint32_t pmdevarch_archid;   /* PCS-H7.1.2-13: 0x0A10 or 0x0A20 without a PMU */
	/* The external debug frame's Peripheral ID (IMPLEMENTATION DEFINED):
	 * EDPIDR4 [39:32], EDPIDR3 [31:24], EDPIDR2 [23:16], EDPIDR1 [15:8],
	 * EDPIDR0 [7:0] (designer, part number, revision; CoreSight's order). */
	uint64_t debug_pidr;
};

/* The PE retired the instruction at pc; branch_target is true when it is
 * the target of a branch, an exception vector, or the instruction after a
 * conditional branch that failed its check (PCS-H7.1-5/7/8). Feeds the PC
 * sample (CreatePCSample()), counts INST_RETIRED on the PE's PMU, and
 * advances a PMU snapshot Capture event in progress. The state it samples is
 * the PE state last given to ap_pe_set_state(). */
struct ap_pe;
AP_API void ap_pe_retire(struct ap_pe *pe, uint64_t pc, bool branch_target);
/* A basic block of n A64 instructions (4 bytes each) from pc retired: the
 * first is a branch target, the others follow it. The same as n calls of
 * ap_pe_retire(), at the cost of one (a Capture event in progress completes
 * at the end of the block). */
AP_API void ap_pe_retire_block(struct ap_pe *pe, uint64_t pc, uint64_t n);

/* The PC sample registers' stored values, for hosts, tools and tests. */
enum ap_pcsr_reg {
	AP_PCSR_REG_PMPCSR = 0,  /* PMPCSR[63:0] (0 without FEAT_PCSRv8p2) */
	AP_PCSR_REG_PMCID1SR,    /* CONTEXTIDR_EL1 of the sample */
	AP_PCSR_REG_PMCID2SR,    /* CONTEXTIDR_EL2 of the sample */
	AP_PCSR_REG_PMVIDSR,     /* VMID of the sample */
	AP_PCSR_REG_PMCCIDSR,    /* PMCID2SR:PMCID1SR (EXT64 layout) */
	AP_PCSR_REG_PMVCIDSR,    /* VMID [47:32], PMCID1SR [31:0] (EXT64 layout) */
	AP_PCSR_REG_PMPCSCTL,    /* 0 without FEAT_PCSRv8p9 */
	AP_PCSR_REG_EDPCSRHI,    /* FEAT_PCSRv8: EDPCSR[63:32] */
	AP_PCSR_REG_EDCIDSR,
	AP_PCSR_REG_EDVIDSR,
	AP_PCSR_REG_SLK,         /* PMLSR.SLK / EDLSR.SLK: 1 = Software Lock locked */
	AP_PCSR_REG_COUNT
};
/* The value of reg as the PE holds it now, read without any side effect
 * (unlike ap_pe_ext_read() of PMPCSR, which samples). Returns 0, or
 * -AP_ERR_INVALID for a reg out of range (*value untouched). */
AP_API int ap_pe_pcsr_peek(const struct ap_pe *pe, enum ap_pcsr_reg reg, uint64_t *value);
/* Samples the PE has taken since its Cold reset (sampling reads and Capture
 * events that returned a sample): a statistic for tools. */
AP_API uint64_t ap_pe_pcsr_samples_taken(const struct ap_pe *pe);

#ifdef __cplusplus
}
#endif
#endif

/* PC Sample-based Profiling inside a PE (private to lib/model): the rules of
 * spec/001 H7.1 and spec/003 PMPCSR on the PE's configuration and state.
 * The public way in is the PE (include/armprof/pcsr.h: ap_pe_retire(),
 * ap_pe_ext_read()); these functions are the pieces the PE and the unit
 * tests use. */
#ifndef ARMPROF_MODEL_PCSR_PCSR_H
#define ARMPROF_MODEL_PCSR_PCSR_H

#include <stdbool.h>
#include <stdint.h>

#include "model/pe.h"
#include "model/pcsr/prof_config.h" /* ap_pcsr_config_check */

/* H7.1.1: "PC Sample-based Profiling is allowed" in the PE's state. */
bool ap_pcsr_allowed(const struct ap_pe *pe);

/* Warm reset (cold = false) or Cold reset: PMPCSCTL.{EN,SS} to 0, the
 * IMPLEMENTATION DEFINED suspended state, no sample. */
void ap_pcsr_reset(struct ap_pe *pe, bool cold);
/* The PE state changed. Leaving Debug state or a prohibited state makes the
 * next sample UNKNOWN until a branch retires (H7.1.3). */
void ap_pcsr_state_changed(struct ap_pe *pe);

/* One retired instruction at pc; branch_target is true when it is the
 * target of a branch, an exception vector, or the instruction after a
 * conditional branch that failed its check (PCS-H7.1-5/7/8). This is
 * CreatePCSample(): cheap when sampling is not live. */
static inline void ap_pcsr_retire(struct ap_pe *pe, uint64_t pc, bool branch_target)
{
	struct ap_pcsr *p = &pe->pcsr;
	if (!p->live || (!branch_target && !pe->cfg.pcsr.sample_any))
		return;
	p->sample.pc = pc;
	if (p->sample_gen != p->pe_gen) {
		uint64_t keep = p->sample.pc;
		p->sample = p->cur;
		p->sample.pc = keep;
		p->sample_gen = p->pe_gen;
	}
	p->have_sample = true;
	if (branch_target)
		p->fresh = p->branch_since_read = p->branch_since_capture = true;
}

/* PCSRSuspended() and "sampling on reads" (H7.1.1.1). */
bool ap_pcsr_suspended(const struct ap_pe *pe);
bool ap_pcsr_sampling_on_reads(const struct ap_pe *pe);

/* Read_PMPCSR for a 32-bit read of PMPCSR[31:0] (memory_mapped: through the
 * memory-mapped interface, where the Software Lock applies). Returns the
 * value read; updates PMPCSR[63:32] and the context registers as the rules
 * say. */
uint32_t ap_pcsr_read_pmpcsr_lo(struct ap_pe *pe, bool memory_mapped);
/* A 64-bit atomic read of PMPCSR[63:0]: same side-effects as [31:0] then
 * [63:32] (PMPCSR-7). */
uint64_t ap_pcsr_read_pmpcsr64(struct ap_pe *pe, bool memory_mapped);
/* Read_EDPCSRlo (FEAT_PCSRv8). */
uint32_t ap_pcsr_read_edpcsr_lo(struct ap_pe *pe, bool memory_mapped);

/* The Capture-event side of PMPCSCTL.SS (D13.9, SS-RVPZHN-4..9): called by
 * the snapshot logic on an allowed Capture event when FEAT_PCSRv8p9 and
 * PMPCSCTL.SS are 1. */
void ap_pcsr_capture(struct ap_pe *pe);

/* PMPCSCTL (external, offset 0xE50). Writes honour IMP (EN RAZ/WI when 0)
 * and FEAT_PMUv3_SS (SS RES0 without it). */
uint64_t ap_pcsr_read_pmpcsctl(const struct ap_pe *pe);
void ap_pcsr_write_pmpcsctl(struct ap_pe *pe, uint64_t value);
/* PMLAR/EDLAR: the key 0xC5ACCE55 unlocks, any other value locks. */
void ap_pcsr_write_lar(struct ap_pe *pe, uint32_t value);
/* PMLSR/EDLSR as seen by a memory-mapped or other access. */
uint32_t ap_pcsr_read_lsr(const struct ap_pe *pe, bool memory_mapped);

/* Stored register values, without side-effects (for checks and for the
 * 32-bit reads of PMPCSR[63:32], which never sample, PMPCSR-39). */
uint64_t ap_pcsr_pmpcsr(const struct ap_pe *pe);
uint64_t ap_pcsr_pmccidsr(const struct ap_pe *pe); /* CONTEXTIDR_EL2 : CONTEXTIDR_EL1 */
uint64_t ap_pcsr_pmvcidsr(const struct ap_pe *pe); /* VMID at [47:32], CONTEXTIDR_EL1 [31:0] */

/* The external debug frame's identification, power and reset registers
 * (debugregs.c), in every PE's debug frame. */
void ap_debug_reset(struct ap_pe *pe, bool cold);
void ap_debug_state_changed(struct ap_pe *pe);
/* EDPIDR0-4, EDCIDR0-3, EDDEVARCH, EDDEVTYPE, EDDEVID, EDDEVID1 by offset
 * (0 for another offset). */
uint32_t ap_debug_id_reg(const struct ap_pe *pe, uint32_t offset);
/* EDPRSR without side effects, and as a read (clears SPD, SR, SDR). */
uint32_t ap_debug_edprsr(const struct ap_pe *pe);
uint32_t ap_debug_read_edprsr(struct ap_pe *pe, bool memory_mapped);
uint32_t ap_debug_edprcr(const struct ap_pe *pe);
void ap_debug_write_edprcr(struct ap_pe *pe, uint32_t value);

#endif

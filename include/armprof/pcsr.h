/* PC Sample-based Profiling (spec/001 H7.1 and spec/003 PMPCSR).
 *
 * The PE reports each retired instruction (or only branch targets) with
 * ap_pcsr_retire(); an external agent reads the PC sample registers through
 * ap_pcsr_read_*() (or through the external register frame, see
 * include/armprof/extframe.h). Two register sets exist and an implementation
 * has exactly one of them (PCS-H7.1.2-4):
 *   FEAT_PCSRv8   EDPCSR, EDCIDSR, EDVIDSR in the external debug space;
 *   FEAT_PCSRv8p2 PMPCSR, PMCID1SR, PMCID2SR, PMVIDSR (FEAT_PMUv3_EXT32) or
 *                 PMPCSR, PMCCIDSR, PMVCIDSR (FEAT_PMUv3_EXT64) in the PMU space.
 * FEAT_PCSRv8p9 adds suspend/activate through PMPCSCTL.{IMP,EN} and, with
 * FEAT_PMUv3_SS, PMPCSCTL.SS (sample on PMU snapshot instead of on read).
 *
 * Where the spec texts leave a list blank, the model follows DDI 0487
 * (register pages of PMPCSR/EDPCSR/PMPCSCTL and the pseudocode
 * CreatePCSample, Read_PMPCSR, Read_EDPCSRlo, SetPCSample, SetPCSRUnknown,
 * PCSRSuspended, SetPCSRActive), cited at each use. */
#ifndef ARMPROF_PCSR_H
#define ARMPROF_PCSR_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Security state of the PE (CurrentSecurityState()). */
enum ap_pcsr_security {
	AP_PCSR_SECURE = 0,
	AP_PCSR_NONSECURE = 1,
	AP_PCSR_ROOT = 2,
	AP_PCSR_REALM = 3,
};

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

struct ap_pcsr_config {
	size_t size;                 /* sizeof(struct ap_pcsr_config) */
	bool feat_pcsrv8;            /* EDPCSR in the external debug space */
	bool feat_pcsrv8p2;          /* PMPCSR in the PMU space */
	bool feat_pcsrv8p9;          /* PMPCSCTL suspend/activate (needs v8p2) */
	bool feat_pmuv3_ss;          /* PMPCSCTL.SS: sample on PMU snapshot */
	uint8_t arch_major, arch_minor; /* Armv8.x / Armv9.x: FEAT_PCSRv8 only before 8.2 */
	uint8_t pmu_ext;             /* enum ap_pcsr_pmu_ext */
	bool atomic64;               /* EXT32: 64-bit atomic reads of PMPCSR (PMPCSR-6) */
	bool software_lock;          /* OPTIONAL PMLSR/EDLSR Software Lock (PMPCSR-35) */
	bool feat_rme, feat_tme, feat_vhe, feat_vmid16;
	bool have_el2, have_el3;
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
};
/* Defaults: FEAT_PCSRv8p2 + v8p9 + FEAT_PMUv3_SS, Armv9.4, EXT64, EL2 and EL3,
 * FEAT_VHE and FEAT_VMID16, Software Lock implemented, branch targets only. */
AP_API void ap_pcsr_config_init(struct ap_pcsr_config *cfg);

/* Checks the configuration against the rules of H7.1.2. Returns 0 or
 * -AP_ERR_INVALID with a static message naming the rule in *why. */
AP_API int ap_pcsr_config_check(const struct ap_pcsr_config *cfg, const char **why);

/* What the PC sample logic reads of the PE. The host (or the PE model)
 * passes it whenever it changes; the sample context is copied from it. */
struct ap_pcsr_pe {
	uint8_t el;                  /* 0..3 */
	enum ap_pcsr_security security;
	bool aarch32;                /* UsingAArch32(): current state is AArch32 */
	bool el1_aarch32, el2_aarch32, el3_aarch32;
	bool el2_enabled;            /* EL2Enabled() in the current Security state */
	bool in_host;                /* IsInHost(): HCR_EL2.{E2H,TGE} == {1,1} */
	bool halted;                 /* Debug state */
	bool powered;                /* Core power domain on */
	bool oslk;                   /* OS Lock locked (OSLockStatus()) */
	bool double_lock;            /* DoubleLockStatus() */
	bool tstate;                 /* FEAT_TME: Transactional state */
	bool edscr_sc2;              /* FEAT_PCSRv8 with FEAT_VHE: EDSCR.SC2 */
	uint32_t contextidr_el1, contextidr_el2;
	uint16_t vmid;
	/* Authentication interface (H7.1.1), IMPLEMENTATION DEFINED inputs. */
	bool niden;                  /* ExternalNoninvasiveDebugEnabled() */
	bool spniden;                /* ExternalSecureNoninvasiveDebugEnabled() */
	bool rlpniden;               /* ExternalRealmNoninvasiveDebugEnabled() */
	bool rtpniden;               /* ExternalRootNoninvasiveDebugEnabled() */
	bool sder_suniden;           /* SDER.SUNIDEN */
};
/* Non-secure EL1 in AArch64, powered, all authentication signals high. */
AP_API void ap_pcsr_pe_init(struct ap_pcsr_pe *pe);

/* H7.1.1: "PC Sample-based Profiling is allowed" for a PE state. */
AP_API bool ap_pcsr_allowed(const struct ap_pcsr_config *cfg, const struct ap_pcsr_pe *pe);

/* The context of one sample (PCSample in DDI 0487). */
struct ap_pcsr_sample {
	uint64_t pc;
	uint8_t el;
	bool aarch64;                /* pc_sample.rw */
	enum ap_pcsr_security security;
	bool has_el2, el0h, tstate;
	uint32_t contextidr, contextidr_el2;
	uint16_t vmid;
};

/* The state: fields are private; the struct is public for caller storage. */
struct ap_pcsr {
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	bool live;                   /* retire() records samples: active, allowed, not halted */
	bool allowed;                /* ap_pcsr_allowed(cfg, pe), cached */
	bool impdef_suspended;       /* PCSRSuspended() when PMPCSCTL.IMP is 0 */
	uint64_t pe_gen, sample_gen; /* context of the current sample */
	struct ap_pcsr_sample cur;   /* context of the PE now (pc unused) */
	struct ap_pcsr_sample sample;
	bool have_sample;            /* a sample exists since reset */
	bool fresh;                  /* a branch retired since leaving reset/Debug/suspended/prohibited */
	bool branch_since_read;      /* ... since the last read of the PC sample register */
	bool branch_since_capture;   /* ... since the last Capture event / PMPCSCTL.SS=1 */
	bool first_capture_after_ss; /* no Capture event since PMPCSCTL.SS was set to 1 */
	bool read_since_reset;
	bool slk;                    /* PMLSR.SLK / EDLSR.SLK */
	uint64_t pmpcsctl;
	/* FEAT_PCSRv8p2 registers. */
	uint64_t pmpcsr;
	uint32_t pmcid1sr, pmcid2sr, pmvidsr;
	/* FEAT_PCSRv8 registers. */
	uint32_t edpcsr_hi, edcidsr, edvidsr;
	uint64_t samples_taken;      /* statistics: successful sampling reads/captures */
};

AP_API int ap_pcsr_init(struct ap_pcsr *p, const struct ap_pcsr_config *cfg, const struct ap_pcsr_pe *pe);
/* Warm reset (cold = false) or Cold reset: PMPCSCTL.{EN,SS} to 0, the
 * IMPLEMENTATION DEFINED suspended state, no sample. */
AP_API void ap_pcsr_reset(struct ap_pcsr *p, bool cold);
/* The PE state changed. Leaving Debug state or a prohibited state makes the
 * next sample UNKNOWN until a branch retires (H7.1.3). */
AP_API void ap_pcsr_set_pe(struct ap_pcsr *p, const struct ap_pcsr_pe *pe);

/* One retired instruction at pc; branch_target is true when it is the
 * target of a branch, an exception vector, or the instruction after a
 * conditional branch that failed its check (PCS-H7.1-5/7/8). This is
 * CreatePCSample(): cheap when sampling is not live. */
static inline void ap_pcsr_retire(struct ap_pcsr *p, uint64_t pc, bool branch_target)
{
	if (!p->live || (!branch_target && !p->cfg.sample_any))
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
AP_API bool ap_pcsr_suspended(const struct ap_pcsr *p);
AP_API bool ap_pcsr_sampling_on_reads(const struct ap_pcsr *p);

/* Read_PMPCSR for a 32-bit read of PMPCSR[31:0] (memory_mapped: through the
 * memory-mapped interface, where the Software Lock applies). Returns the
 * value read; updates PMPCSR[63:32] and the context registers as the rules
 * say. */
AP_API uint32_t ap_pcsr_read_pmpcsr_lo(struct ap_pcsr *p, bool memory_mapped);
/* A 64-bit atomic read of PMPCSR[63:0]: same side-effects as [31:0] then
 * [63:32] (PMPCSR-7). */
AP_API uint64_t ap_pcsr_read_pmpcsr64(struct ap_pcsr *p, bool memory_mapped);
/* Read_EDPCSRlo (FEAT_PCSRv8). */
AP_API uint32_t ap_pcsr_read_edpcsr_lo(struct ap_pcsr *p, bool memory_mapped);

/* The Capture-event side of PMPCSCTL.SS (D13.9, SS-RVPZHN-4..9): called by
 * the snapshot logic on an allowed Capture event when FEAT_PCSRv8p9 and
 * PMPCSCTL.SS are 1. */
AP_API void ap_pcsr_capture(struct ap_pcsr *p);

/* PMPCSCTL (external, offset 0xE50). Writes honour IMP (EN RAZ/WI when 0)
 * and FEAT_PMUv3_SS (SS RES0 without it). */
AP_API uint64_t ap_pcsr_read_pmpcsctl(const struct ap_pcsr *p);
AP_API void ap_pcsr_write_pmpcsctl(struct ap_pcsr *p, uint64_t value);
/* PMLAR/EDLAR: the key 0xC5ACCE55 unlocks, any other value locks. */
AP_API void ap_pcsr_write_lar(struct ap_pcsr *p, uint32_t value);
/* PMLSR/EDLSR as seen by a memory-mapped or other access. */
AP_API uint32_t ap_pcsr_read_lsr(const struct ap_pcsr *p, bool memory_mapped);

/* Stored register values, without side-effects (for checks and for the
 * 32-bit reads of PMPCSR[63:32], which never sample, PMPCSR-39). */
AP_API uint64_t ap_pcsr_pmpcsr(const struct ap_pcsr *p);
AP_API uint64_t ap_pcsr_pmccidsr(const struct ap_pcsr *p); /* CONTEXTIDR_EL2 : CONTEXTIDR_EL1 */
AP_API uint64_t ap_pcsr_pmvcidsr(const struct ap_pcsr *p); /* VMID at [47:32], CONTEXTIDR_EL1 [31:0] */

/* The PE retired the instruction at pc (branch_target as for
 * ap_pcsr_retire()): feeds the PC sample, counts INST_RETIRED (and
 * BR_RETIRED for a branch target) on the PE's PMU, and advances a PMU
 * snapshot Capture event in progress. The state it samples is the PE state
 * last given to ap_pe_set_state(). */
struct ap_pe;
AP_API void ap_pe_retire(struct ap_pe *pe, uint64_t pc, bool branch_target);
/* A basic block of n A64 instructions (4 bytes each) from pc retired: the
 * first is a branch target, the others follow it. The same as n calls of
 * ap_pe_retire(), at the cost of one (a Capture event in progress completes
 * at the end of the block). */
AP_API void ap_pe_retire_block(struct ap_pe *pe, uint64_t pc, uint64_t n);
/* The PE's PC sample logic, for statistics and tests (read-only use). */
AP_API const struct ap_pcsr *ap_pe_pcsr(const struct ap_pe *pe);

#ifdef __cplusplus
}
#endif
#endif

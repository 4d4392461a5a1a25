/* The SPE operation API: how a host reports the sample population to the
 * model (spec/002 2.2, 2.3; docs/DESIGN "Operations").
 *
 * The host calls ap_spe_op() once per population member (an architecture
 * instruction or a micro-op, SPE-2.2-2) with what a real PE knows about it.
 * When the member is not sampled the call is a decrement and a branch. An
 * emulator that does not want to describe every member uses the batch form:
 * ap_spe_until_sample() says how many members can pass undescribed,
 * ap_spe_skip() lets them pass, and only the sampled member is described.
 *
 * Everything else (registers, PE state, the host callbacks for the buffer
 * memory, time, PMBIRQ and the CTI) is in armprof/model.h. */
#ifndef ARMPROF_SPE_H
#define ARMPROF_SPE_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stdint.h>

#include "armprof/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The operation type as the PE classifies it (2.3, 3.2.2, 5.3.8). Cache
 * maintenance by VA, prefetch and address translation instructions are
 * OTHER (SPE-2.3.4-2); so is a micro-op that generates an address for a
 * load (SPE-2.3.2-17). */
enum ap_spe_op_kind {
	AP_SPE_OP_OTHER = 0,
	AP_SPE_OP_LOAD = 1,
	AP_SPE_OP_STORE = 2,
	AP_SPE_OP_ATOMIC = 3,
	AP_SPE_OP_BRANCH = 4, /* branches and exception returns */
};

/* enum ap_spe_op.flags */
#define AP_SPE_OPF_COND       (1u << 0)  /* conditional (branch, select, compare, ...) */
#define AP_SPE_OPF_FAILED     (1u << 1)  /* failed its condition check (branch: not taken) */
#define AP_SPE_OPF_INDIRECT   (1u << 2)  /* indirect branch */
#define AP_SPE_OPF_ERET       (1u << 3)  /* exception return (an unconditional branch) */
#define AP_SPE_OPF_EXCEPTION  (1u << 4)  /* completed with a synchronous exception */
#define AP_SPE_OPF_MISSPEC    (1u << 5)  /* misspeculated: discarded, not retired */
#define AP_SPE_OPF_NONARCH_EXC (1u << 6) /* generated a non-architectural exception */
#define AP_SPE_OPF_NOT_ARCH   (1u << 7)  /* micro-op relating to no architecture instruction */
#define AP_SPE_OPF_SIMD       (1u << 8)  /* load/store of SIMD&FP registers */
#define AP_SPE_OPF_EXCL       (1u << 9)  /* Load-Exclusive / Store-Exclusive */
#define AP_SPE_OPF_ACQREL     (1u << 10) /* Load-Acquire / Store-Release */
#define AP_SPE_OPF_ATOMIC_LD  (1u << 11) /* atomic that returns a value to a register */
#define AP_SPE_OPF_TBI        (1u << 12) /* applicable TBI == 1: va[63:56] is the tag */
#define AP_SPE_OPF_PA_NS      (1u << 13) /* pa is in the Non-secure physical address space */
/* SPE after v1 (docs/requirements-later.md); ignored by a v1 configuration. */
#define AP_SPE_OPF_FP         (1u << 14) /* floating-point operation (EFT filter FP, LATER-EFT-3) */
#define AP_SPE_OPF_SIMD_OP    (1u << 15) /* SIMD (Advanced SIMD/SVE/SME) operation (EFT filter SIMD) */
#define AP_SPE_OPF_LINK       (1u << 16) /* branch with link: a call (CRR: CR = BL, LATER-CRR-2) */
#define AP_SPE_OPF_RETURN     (1u << 17) /* procedure return (CRR: CR = RET, or NON-BL-RET with LINK) */
#define AP_SPE_OPF_PREV_TARGET (1u << 18) /* prev_target holds the previous taken branch's target (PBT) */

/* A data access that aborted (SPE-2.3.5-6, 5.3.1 INDEX 0b00011, 5.3.5). */
enum ap_spe_data_abort {
	AP_SPE_DABORT_NONE = 0,
	AP_SPE_DABORT_PERM_AF = 1, /* Permission or Access Flag fault */
	AP_SPE_DABORT_FAULT = 2,   /* any other MMU fault (Translation, ...) */
	AP_SPE_DABORT_EXTERNAL = 3, /* external abort */
};

/* One member of the sample population. Zero-initialise and fill what
 * applies; the model reads only what the kind needs. */
struct ap_spe_op {
	uint64_t pc;        /* virtual address of the operation */
	uint64_t target;    /* branch target virtual address */
	uint64_t va;        /* data virtual address (lowest byte accessed, SPE-2.3.2-16) */
	uint64_t pa;        /* data physical address */
	/* Microarchitectural events the PE saw, in Events packet bit positions
	 * (5.3.7): E[2..5], E[7..10] and IMPLEMENTATION DEFINED bits. The model
	 * computes E[0] (exception), E[1] (retired) and E[6] (condition failed)
	 * from the flags and ignores those bits here. */
	uint64_t events;
	uint32_t lat_total; /* cycles, dispatch to complete (saturated to 12 bits) */
	uint32_t lat_issue; /* cycles, dispatch to issue */
	uint32_t lat_xlat;  /* cycles, VA to PA translation (loads/stores/atomics) */
	uint32_t flags;     /* AP_SPE_OPF_* */
	uint16_t data_source; /* Data Source payload (IMPLEMENTATION DEFINED, 5.3.5) */
	uint8_t kind;       /* enum ap_spe_op_kind */
	uint8_t target_el;  /* Exception level at the branch target */
	uint8_t target_ns;  /* 1: Non-secure at the branch target */
	uint8_t data_abort; /* enum ap_spe_data_abort */
	/* Collisions (2.2.4): population members that pass after this one
	 * before it completes, were it sampled. 0: it completes at once. */
	uint16_t inflight;
	/* FEAT_SPE_PBT (LATER-PBT-2): the target of the most recently taken
	 * branch before this operation in program order, with the Exception
	 * level and Security state there; valid with AP_SPE_OPF_PREV_TARGET. */
	uint8_t prev_target_el;
	uint8_t prev_target_ns;
	uint64_t prev_target;
};

/* Report one population member. Returns 1 if it was selected for sampling
 * (whatever then happens to its record), 0 if not. */
AP_API int ap_spe_op(struct ap_pe *pe, const struct ap_spe_op *op);

/* Batch form. ap_spe_until_sample(): how many members can pass before the
 * next one the model selects (UINT64_MAX while profiling is disabled at the
 * current state). ap_spe_skip(): let up to n undescribed members pass;
 * returns how many passed, which stops short of n only right before a
 * member that is selected: describe that one with ap_spe_op(). */
AP_API uint64_t ap_spe_until_sample(struct ap_pe *pe);
AP_API uint64_t ap_spe_skip(struct ap_pe *pe, uint64_t n);

/* PSB CSYNC (3.6): complete every sampled operation in flight and write
 * every record the PE still holds. */
AP_API void ap_spe_psb_csync(struct ap_pe *pe);

/* The model's counts. sample_* are the PMU events of 2.6 Table 1. */
struct ap_spe_counts {
	uint64_t sample_pop;       /* 0x4000 SAMPLE_POP */
	uint64_t sample_feed;      /* 0x4001 SAMPLE_FEED */
	uint64_t sample_filtrate;  /* 0x4002 SAMPLE_FILTRATE */
	uint64_t sample_collision; /* 0x4003 SAMPLE_COLLISION */
	uint64_t records_written;  /* records written to the buffer (= CTI trigger 2 pulses) */
	uint64_t records_discarded; /* filtered-in records that never reached memory */
	uint64_t bytes_written;    /* record and padding bytes written */
	uint64_t serrors;          /* external aborts taken as SError (spe.ext_abort = serror) */
	uint64_t mgmt_events;      /* Profiling Buffer management events */
};
AP_API void ap_spe_get_counts(struct ap_pe *pe, struct ap_spe_counts *out);
/* Read one PMU event of Table 1 (0x4000..0x4003): 0, or -AP_ERR_INVALID. */
AP_API int ap_spe_pmu_event(struct ap_pe *pe, unsigned event, uint64_t *value);

/* The PMBIRQ level (3.5): PMBSR_EL1.S. */
AP_API bool ap_spe_pmbirq(const struct ap_pe *pe);

#ifdef __cplusplus
}
#endif
#endif

/* PC Sample-based Profiling state embedded in struct ap_pe (lib/model/pe.h).
 * The configuration is the PE's (ap_config.pcsr and the core features), the
 * PE state is the PE's (struct ap_pe_state): this struct holds only what the
 * sample logic itself keeps, plus values derived from the PE state on every
 * state change so that a retired instruction costs a test and a store
 * (lib/model/pcsr/pcsr.h has the functions). */
#ifndef ARMPROF_MODEL_PCSR_UNIT_H
#define ARMPROF_MODEL_PCSR_UNIT_H

#include <stdbool.h>
#include <stdint.h>

/* The context of one sample (PCSample in DDI 0487). */
struct ap_pcsr_sample {
	uint64_t pc;
	uint8_t el;
	bool aarch64;                /* pc_sample.rw */
	uint8_t security;            /* enum ap_security */
	bool has_el2, el0h, tstate;
	uint32_t contextidr, contextidr_el2;
	uint16_t vmid;
};

struct ap_pcsr {
	bool initialized;            /* the first reset is the Cold reset */
	/* Derived from the PE state and the registers (update_live()). */
	bool live;                   /* retire() records samples: active, allowed, not halted */
	bool allowed;                /* ap_pcsr_allowed(pe), cached */
	uint64_t pe_gen, sample_gen; /* context of the current sample */
	struct ap_pcsr_sample cur;   /* context of the PE now (pc unused) */
	/* The sample logic's own state. */
	bool impdef_suspended;       /* PCSRSuspended() when PMPCSCTL.IMP is 0 */
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
	/* The debug frame's power and reset registers (debugregs.c). */
	uint32_t edprcr;             /* CORENPDRQ [0], COREPURQ [3] */
	bool edprsr_spd, edprsr_sr, edprsr_sdr; /* sticky bits, cleared by a read */
	bool was_halted;             /* Debug state at the last state change (SDR) */
	uint64_t samples_taken;      /* statistics: successful sampling reads/captures */
};

#endif

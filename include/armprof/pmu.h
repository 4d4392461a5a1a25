/* The minimal Performance Monitors Unit that PMU snapshots need (spec/000
 * D13.9): N event counters (N IMPLEMENTATION DEFINED, PMCR_EL0.N), the cycle
 * counter PMCCNTR_EL0, the optional instruction counter PMICNTR_EL0
 * (FEAT_PMUv3_ICNTR), counting the events the host reports (for example
 * INST_RETIRED, the SPE SAMPLE_* events, PMU_SNAPSHOT).
 *
 * Register layouts and event numbers are not in the spec texts; they come
 * from DDI 0487 (D24.5 PMCR_EL0, PMEVTYPER<n>_EL0, PMCNTENSET_EL0; the common
 * event list) and are marked so where they are defined. Not modelled (see
 * docs/not-modelled/pcsr-snapshot.md): PMEVTYPER<n>_EL0 filtering by
 * Exception level and Security state, MDCR_EL2.HPMN ranges, overflow
 * interrupts, chaining, thresholds.
 *
 * The PMU lives in caller storage: its fields are private. */
#ifndef ARMPROF_PMU_H
#define ARMPROF_PMU_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PMU event numbers (DDI 0487 D17.11 common event list and D13.9). */
#define AP_PMU_EV_SW_INCR          0x0000u
#define AP_PMU_EV_INST_RETIRED     0x0008u
#define AP_PMU_EV_CPU_CYCLES       0x0011u
#define AP_PMU_EV_BR_RETIRED       0x0021u
#define AP_PMU_EV_SAMPLE_POP       0x4000u /* SPE 2.6 Table 1 */
#define AP_PMU_EV_SAMPLE_FEED      0x4001u
#define AP_PMU_EV_SAMPLE_FILTRATE  0x4002u
#define AP_PMU_EV_SAMPLE_COLLISION 0x4003u
#define AP_PMU_EV_PMU_SNAPSHOT     0x8127u /* DDI 0487: successful PMU capture event */

#define AP_PMU_MAX_COUNTERS 31u /* PMCR_EL0.N is 5 bits; counter 31 is the cycle counter */

/* Bit numbers shared by PMCNTENSET_EL0/PMCNTENCLR_EL0/PMOVSSET_EL0 (DDI 0487). */
#define AP_PMU_BIT_CYCLE 31u
#define AP_PMU_BIT_INSTR 32u /* F0: the instruction counter, FEAT_PMUv3_ICNTR */

/* PMCR_EL0 fields (DDI 0487 D24.5.8). */
#define AP_PMCR_E   (1ull << 0)
#define AP_PMCR_P   (1ull << 1)  /* write 1: zero the event counters */
#define AP_PMCR_C   (1ull << 2)  /* write 1: zero the cycle counter */
#define AP_PMCR_D   (1ull << 3)  /* cycle counter counts every 64th cycle */
#define AP_PMCR_LC  (1ull << 6)  /* overflow of the cycle counter at bit 63 */
#define AP_PMCR_LP  (1ull << 7)  /* overflow of event counters at bit 63 (FEAT_PMUv3p5) */
#define AP_PMCR_N_SHIFT 11
#define AP_PMCR_N_MASK  (0x1full << AP_PMCR_N_SHIFT)

struct ap_pmu_config {
	size_t size;            /* sizeof(struct ap_pmu_config) */
	uint8_t num_counters;   /* IMPLEMENTATION DEFINED N, 0..31 (SS-RVLKCZ) */
	bool icntr;             /* FEAT_PMUv3_ICNTR: PMICNTR_EL0 */
	bool pmuv3p5;           /* 64-bit event counters (PMCR_EL0.LP); else 32-bit */
	uint8_t pmcr_imp;       /* PMCR_EL0.IMP, IMPLEMENTATION DEFINED */
	uint8_t pmcr_idcode;    /* PMCR_EL0.IDCODE */
	/* PMCEID0_EL0 / PMCEID1_EL0: the common events the implementation has
	 * (bit n of [31:0]: event 0x0000+n / 0x0020+n; of [63:32]: 0x4000+n /
	 * 0x4020+n). IMPLEMENTATION DEFINED, except that a PE with SPE has the
	 * four SAMPLE_* events (SPE-2.6-1/2), which the PE adds. */
	uint64_t ceid0, ceid1;
};
/* Defaults: 6 counters, FEAT_PMUv3_ICNTR and FEAT_PMUv3p5 implemented. */
AP_API void ap_pmu_config_init(struct ap_pmu_config *cfg);

struct ap_pmu {
	struct ap_pmu_config cfg;
	uint64_t evcntr[AP_PMU_MAX_COUNTERS];
	uint16_t evtype[AP_PMU_MAX_COUNTERS]; /* PMEVTYPER<n>_EL0.evtCount */
	uint64_t ccntr, icntr;
	uint64_t pmcr;       /* E, D, LC, LP as written; N/IMP/IDCODE come from cfg */
	uint64_t cnten;      /* PMCNTENSET_EL0: P<n>, C (31), F0 (32) */
	uint64_t ovs;        /* PMOVSSET_EL0 */
	uint64_t counting;   /* cnten & implemented, or 0 when PMCR_EL0.E is 0 */
	/* The per-instruction fast path (ap_pmu_inst_retired()): the counting
	 * counters whose event is INST_RETIRED, plus bit 32 for PMICNTR_EL0. */
	uint64_t inst_mask;
	uint64_t ev_width;   /* event counter width mask */
	uint64_t ev_ovf;     /* low bits whose wrap to 0 is an overflow */
	uint32_t cycle_div;  /* cycles left over by PMCR_EL0.D (divide by 64) */
};

/* Returns 0, or -AP_ERR_INVALID (num_counters > 31, cfg->size too small). */
AP_API int ap_pmu_init(struct ap_pmu *pmu, const struct ap_pmu_config *cfg);
/* Warm reset: counters, PMCR_EL0, enables and overflow flags to 0 (their
 * reset values are architecturally UNKNOWN; 0 is the model's choice). */
AP_API void ap_pmu_reset(struct ap_pmu *pmu);

/* The host reports increment occurrences of event `event`: every enabled
 * event counter whose PMEVTYPER<n>_EL0.evtCount is `event` counts them, and
 * INST_RETIRED also counts on PMICNTR_EL0 (PMUEvent() in DDI 0487). */
AP_API void ap_pmu_event(struct ap_pmu *pmu, uint16_t event, uint64_t increment);
/* n instructions retired: ap_pmu_event(pmu, AP_PMU_EV_INST_RETIRED, n),
 * made cheap for the per-instruction hot path. */
static inline void ap_pmu_inst_retired(struct ap_pmu *pmu, uint64_t n)
{
	uint64_t m = pmu->inst_mask;
	while (m) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		m &= m - 1;
		if (i == AP_PMU_BIT_INSTR) {
			uint64_t v = pmu->icntr + n;
			if (v < pmu->icntr)
				pmu->ovs |= 1ull << AP_PMU_BIT_INSTR;
			pmu->icntr = v;
		} else {
			uint64_t old = pmu->evcntr[i];
			uint64_t v = (old + n) & pmu->ev_width;
			if ((v & pmu->ev_ovf) < (old & pmu->ev_ovf) || n > pmu->ev_ovf)
				pmu->ovs |= 1ull << i;
			pmu->evcntr[i] = v;
		}
	}
}

/* The host reports n processor clock cycles: PMCCNTR_EL0 (with PMCR_EL0.D)
 * and any counter counting CPU_CYCLES. */
AP_API void ap_pmu_cycles(struct ap_pmu *pmu, uint64_t n);

/* Register views. PMCR_EL0 reads include N from the configuration. */
AP_API uint64_t ap_pmu_read_pmcr(const struct ap_pmu *pmu);
AP_API void ap_pmu_write_pmcr(struct ap_pmu *pmu, uint64_t value);
AP_API uint64_t ap_pmu_implemented_mask(const struct ap_pmu *pmu); /* P<n>, C, F0 bits */
AP_API uint64_t ap_pmu_read_cnten(const struct ap_pmu *pmu);
AP_API void ap_pmu_cnten_set(struct ap_pmu *pmu, uint64_t bits);
AP_API void ap_pmu_cnten_clr(struct ap_pmu *pmu, uint64_t bits);
AP_API uint64_t ap_pmu_read_ovs(const struct ap_pmu *pmu);
AP_API void ap_pmu_ovs_set(struct ap_pmu *pmu, uint64_t bits);
AP_API void ap_pmu_ovs_clr(struct ap_pmu *pmu, uint64_t bits);
/* n >= num_counters: reads 0, writes ignored (callers check access first). */
AP_API uint64_t ap_pmu_read_evcntr(const struct ap_pmu *pmu, unsigned n);
AP_API void ap_pmu_write_evcntr(struct ap_pmu *pmu, unsigned n, uint64_t value);
AP_API uint64_t ap_pmu_read_evtyper(const struct ap_pmu *pmu, unsigned n);
AP_API void ap_pmu_write_evtyper(struct ap_pmu *pmu, unsigned n, uint64_t value);
AP_API uint64_t ap_pmu_read_ccntr(const struct ap_pmu *pmu);
AP_API void ap_pmu_write_ccntr(struct ap_pmu *pmu, uint64_t value);
AP_API uint64_t ap_pmu_read_icntr(const struct ap_pmu *pmu);
/* PMCEID0_EL0 (n = 0) and PMCEID1_EL0 (n = 1). */
AP_API uint64_t ap_pmu_read_ceid(const struct ap_pmu *pmu, unsigned n);
AP_API void ap_pmu_write_icntr(struct ap_pmu *pmu, uint64_t value);

/* The PMU of a PE (include/armprof/model.h): the host reports events and
 * cycles; PMCR_EL0.N etc. come from ap_config.pmu. The PE counts SPE's
 * SAMPLE_POP/FEED/FILTRATE/COLLISION itself (spec/002 2.6 Table 1): a host
 * must not report those four. */
struct ap_pe;
AP_API void ap_pe_pmu_event(struct ap_pe *pe, uint16_t event, uint64_t increment);
AP_API void ap_pe_cycles(struct ap_pe *pe, uint64_t n);

#ifdef __cplusplus
}
#endif
#endif

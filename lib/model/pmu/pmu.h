/* The PMU's counters (private to lib/model): N event counters, the cycle
 * counter and the optional instruction counter, counting the events the PE
 * and the host report (include/armprof/pmu.h has the public side). Kept as
 * its own small object, on a copy of ap_config.pmu, because the snapshot and
 * external-frame code read it as a bank of counters. */
#ifndef ARMPROF_MODEL_PMU_PMU_H
#define ARMPROF_MODEL_PMU_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/pmu.h"

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

/* Defaults: 6 counters, FEAT_PMUv3_ICNTR and FEAT_PMUv3p5 implemented. */
void ap_pmu_config_init(struct ap_pmu_config *cfg);
/* Returns 0, or -AP_ERR_INVALID (num_counters > 31). */
int ap_pmu_init(struct ap_pmu *pmu, const struct ap_pmu_config *cfg);
/* Warm reset: counters, PMCR_EL0, enables and overflow flags to 0 (their
 * reset values are architecturally UNKNOWN; 0 is the model's choice). */
void ap_pmu_reset(struct ap_pmu *pmu);

/* The PE or host reports increment occurrences of event `event`: every
 * enabled event counter whose PMEVTYPER<n>_EL0.evtCount is `event` counts
 * them, and INST_RETIRED also counts on PMICNTR_EL0 (PMUEvent() in DDI 0487). */
void ap_pmu_event(struct ap_pmu *pmu, uint16_t event, uint64_t increment);
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

/* n processor clock cycles: PMCCNTR_EL0 (with PMCR_EL0.D) and any counter
 * counting CPU_CYCLES. */
void ap_pmu_cycles(struct ap_pmu *pmu, uint64_t n);

/* Register views. PMCR_EL0 reads include N from the configuration. */
uint64_t ap_pmu_read_pmcr(const struct ap_pmu *pmu);
void ap_pmu_write_pmcr(struct ap_pmu *pmu, uint64_t value);
uint64_t ap_pmu_implemented_mask(const struct ap_pmu *pmu); /* P<n>, C, F0 bits */
uint64_t ap_pmu_read_cnten(const struct ap_pmu *pmu);
void ap_pmu_cnten_set(struct ap_pmu *pmu, uint64_t bits);
void ap_pmu_cnten_clr(struct ap_pmu *pmu, uint64_t bits);
uint64_t ap_pmu_read_ovs(const struct ap_pmu *pmu);
void ap_pmu_ovs_set(struct ap_pmu *pmu, uint64_t bits);
void ap_pmu_ovs_clr(struct ap_pmu *pmu, uint64_t bits);
/* n >= num_counters: reads 0, writes ignored (callers check access first). */
uint64_t ap_pmu_read_evcntr(const struct ap_pmu *pmu, unsigned n);
void ap_pmu_write_evcntr(struct ap_pmu *pmu, unsigned n, uint64_t value);
uint64_t ap_pmu_read_evtyper(const struct ap_pmu *pmu, unsigned n);
void ap_pmu_write_evtyper(struct ap_pmu *pmu, unsigned n, uint64_t value);
uint64_t ap_pmu_read_ccntr(const struct ap_pmu *pmu);
void ap_pmu_write_ccntr(struct ap_pmu *pmu, uint64_t value);
uint64_t ap_pmu_read_icntr(const struct ap_pmu *pmu);
void ap_pmu_write_icntr(struct ap_pmu *pmu, uint64_t value);
/* PMCEID0_EL0 (n = 0) and PMCEID1_EL0 (n = 1). */
uint64_t ap_pmu_read_ceid(const struct ap_pmu *pmu, unsigned n);

#endif

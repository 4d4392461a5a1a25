/* The minimal PMU: counters that count host-reported events (see
 * include/armprof/pmu.h). Counting follows PMUEvent() and the counter
 * enable rules of DDI 0487 D13 (PMCR_EL0.E and PMCNTENSET_EL0); overflow
 * sets PMOVSSET_EL0 at the width PMCR_EL0.{LC,LP} select. */
#include <string.h>

#include "armprof/error.h"
#include "model/pmu/pmu.h"

void ap_pmu_config_init(struct ap_pmu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->num_counters = 6;
	cfg->icntr = true;
	cfg->pmuv3p5 = true;
	cfg->pmcr_imp = 0x41; /* Arm */
	/* SW_INCR, INST_RETIRED, CPU_CYCLES; BR_RETIRED (0x21). */
	cfg->ceid0 = 1ull << AP_PMU_EV_SW_INCR | 1ull << AP_PMU_EV_INST_RETIRED | 1ull << AP_PMU_EV_CPU_CYCLES;
	cfg->ceid1 = 1ull << (AP_PMU_EV_BR_RETIRED - 0x20);
}

uint64_t ap_pmu_implemented_mask(const struct ap_pmu *pmu)
{
	uint64_t mask = (pmu->cfg.num_counters ? (1ull << pmu->cfg.num_counters) - 1 : 0);
	mask |= 1ull << AP_PMU_BIT_CYCLE;
	if (pmu->cfg.icntr)
		mask |= 1ull << AP_PMU_BIT_INSTR;
	return mask;
}

/* The set of counters that count right now: PMCR_EL0.E gates them all.
 * Also the INST_RETIRED fast-path mask and widths (ap_pmu_inst_retired()). */
static void recompute_counting(struct ap_pmu *pmu)
{
	pmu->counting = (pmu->pmcr & AP_PMCR_E) ? (pmu->cnten & ap_pmu_implemented_mask(pmu)) : 0;
	pmu->ev_width = pmu->cfg.pmuv3p5 ? UINT64_MAX : 0xffffffffull;
	pmu->ev_ovf = (pmu->pmcr & AP_PMCR_LP) && pmu->cfg.pmuv3p5 ? UINT64_MAX : 0xffffffffull;
	uint64_t m = pmu->counting & (1ull << AP_PMU_BIT_INSTR);
	for (unsigned n = 0; n < pmu->cfg.num_counters; n++)
		if (((pmu->counting >> n) & 1) && pmu->evtype[n] == AP_PMU_EV_INST_RETIRED)
			m |= 1ull << n;
	pmu->inst_mask = m;
}

int ap_pmu_init(struct ap_pmu *pmu, const struct ap_pmu_config *cfg)
{
	if (!pmu || !cfg || cfg->num_counters > AP_PMU_MAX_COUNTERS)
		return -AP_ERR_INVALID;
	memset(pmu, 0, sizeof(*pmu));
	pmu->cfg = *cfg;
	ap_pmu_reset(pmu);
	return 0;
}

void ap_pmu_reset(struct ap_pmu *pmu)
{
	struct ap_pmu_config cfg = pmu->cfg;
	memset(pmu, 0, sizeof(*pmu));
	pmu->cfg = cfg;
	recompute_counting(pmu);
}

/* Event counters are 64-bit with FEAT_PMUv3p5, else 32-bit. */
static uint64_t evcntr_mask(const struct ap_pmu *pmu)
{
	return pmu->cfg.pmuv3p5 ? UINT64_MAX : 0xffffffffull;
}

/* Add inc to a counter of the given width; an unsigned overflow at
 * overflow_bit (31 or 63) sets the overflow flag. */
static uint64_t count(struct ap_pmu *pmu, uint64_t old, uint64_t inc, uint64_t width_mask,
                      unsigned overflow_bit, unsigned flag)
{
	uint64_t new_value = (old + inc) & width_mask;
	uint64_t limit_mask = overflow_bit == 63 ? UINT64_MAX : 0xffffffffull;
	/* Overflow when the low (overflow_bit+1) bits wrap, or when inc alone
	 * spans a full wrap. */
	if ((new_value & limit_mask) < (old & limit_mask) || inc > limit_mask)
		pmu->ovs |= 1ull << flag;
	return new_value;
}

void ap_pmu_event(struct ap_pmu *pmu, uint16_t event, uint64_t increment)
{
	uint64_t live = pmu->counting & ((1ull << AP_PMU_MAX_COUNTERS) - 1);
	unsigned ev_bit = (pmu->pmcr & AP_PMCR_LP) && pmu->cfg.pmuv3p5 ? 63 : 31;
	while (live) {
		unsigned n = (unsigned)__builtin_ctzll(live);
		live &= live - 1;
		if (pmu->evtype[n] == event)
			pmu->evcntr[n] = count(pmu, pmu->evcntr[n], increment, evcntr_mask(pmu), ev_bit, n);
	}
	if (event == AP_PMU_EV_INST_RETIRED && (pmu->counting >> AP_PMU_BIT_INSTR) & 1)
		pmu->icntr = count(pmu, pmu->icntr, increment, UINT64_MAX, 63, AP_PMU_BIT_INSTR);
}

void ap_pmu_cycles(struct ap_pmu *pmu, uint64_t n)
{
	if (!pmu->counting)
		return;
	if ((pmu->counting >> AP_PMU_BIT_CYCLE) & 1) {
		uint64_t inc = n;
		if (pmu->pmcr & AP_PMCR_D) { /* every 64th cycle; the remainder carries */
			uint64_t total = pmu->cycle_div + n;
			inc = total / 64;
			pmu->cycle_div = (uint32_t)(total % 64);
		}
		unsigned bit = (pmu->pmcr & AP_PMCR_LC) ? 63 : 31;
		pmu->ccntr = count(pmu, pmu->ccntr, inc, UINT64_MAX, bit, AP_PMU_BIT_CYCLE);
	}
	ap_pmu_event(pmu, AP_PMU_EV_CPU_CYCLES, n);
}

uint64_t ap_pmu_read_pmcr(const struct ap_pmu *pmu)
{
	return (pmu->pmcr & (AP_PMCR_E | AP_PMCR_D | AP_PMCR_LC | AP_PMCR_LP)) |
	       ((uint64_t)pmu->cfg.num_counters << AP_PMCR_N_SHIFT) |
	       ((uint64_t)pmu->cfg.pmcr_idcode << 16) | ((uint64_t)pmu->cfg.pmcr_imp << 24);
}

void ap_pmu_write_pmcr(struct ap_pmu *pmu, uint64_t value)
{
	uint64_t rw = AP_PMCR_E | AP_PMCR_D | AP_PMCR_LC;
	if (pmu->cfg.pmuv3p5)
		rw |= AP_PMCR_LP; /* RES0 without FEAT_PMUv3p5 */
	pmu->pmcr = value & rw;
	if (value & AP_PMCR_P) /* zero the event counters; not the cycle counter */
		memset(pmu->evcntr, 0, sizeof(pmu->evcntr));
	if (value & AP_PMCR_C)
		pmu->ccntr = 0;
	recompute_counting(pmu);
}

uint64_t ap_pmu_read_cnten(const struct ap_pmu *pmu)
{
	return pmu->cnten;
}

void ap_pmu_cnten_set(struct ap_pmu *pmu, uint64_t bits)
{
	pmu->cnten |= bits & ap_pmu_implemented_mask(pmu);
	recompute_counting(pmu);
}

void ap_pmu_cnten_clr(struct ap_pmu *pmu, uint64_t bits)
{
	pmu->cnten &= ~bits;
	recompute_counting(pmu);
}

uint64_t ap_pmu_read_ovs(const struct ap_pmu *pmu)
{
	return pmu->ovs;
}

void ap_pmu_ovs_set(struct ap_pmu *pmu, uint64_t bits)
{
	pmu->ovs |= bits & ap_pmu_implemented_mask(pmu);
}

void ap_pmu_ovs_clr(struct ap_pmu *pmu, uint64_t bits)
{
	pmu->ovs &= ~bits;
}

uint64_t ap_pmu_read_evcntr(const struct ap_pmu *pmu, unsigned n)
{
	return n < pmu->cfg.num_counters ? pmu->evcntr[n] : 0;
}

void ap_pmu_write_evcntr(struct ap_pmu *pmu, unsigned n, uint64_t value)
{
	if (n < pmu->cfg.num_counters)
		pmu->evcntr[n] = value & evcntr_mask(pmu);
}

uint64_t ap_pmu_read_evtyper(const struct ap_pmu *pmu, unsigned n)
{
	return n < pmu->cfg.num_counters ? pmu->evtype[n] : 0;
}

void ap_pmu_write_evtyper(struct ap_pmu *pmu, unsigned n, uint64_t value)
{
	/* Only evtCount[15:0] is kept: the filter bits are not modelled and
	 * read as 0 (docs/not-modelled/pcsr-snapshot.md). */
	if (n < pmu->cfg.num_counters)
		pmu->evtype[n] = (uint16_t)(value & 0xffff);
	recompute_counting(pmu);
}

uint64_t ap_pmu_read_ccntr(const struct ap_pmu *pmu)
{
	return pmu->ccntr;
}

void ap_pmu_write_ccntr(struct ap_pmu *pmu, uint64_t value)
{
	pmu->ccntr = value;
}

uint64_t ap_pmu_read_icntr(const struct ap_pmu *pmu)
{
	return pmu->cfg.icntr ? pmu->icntr : 0;
}

uint64_t ap_pmu_read_ceid(const struct ap_pmu *pmu, unsigned n)
{
	return n == 0 ? pmu->cfg.ceid0 : n == 1 ? pmu->cfg.ceid1 : 0;
}

void ap_pmu_write_icntr(struct ap_pmu *pmu, uint64_t value)
{
	if (pmu->cfg.icntr)
		pmu->icntr = value;
}

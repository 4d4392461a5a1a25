/* PC Sample-based Profiling inside a PE: reset and state-change hooks (the
 * PE's "pcsr" table of lib/model/sysreg.h), the retire entry points and the
 * register peek for tools. The external frames are lib/model/pcsr/extregs.c. */
#include <stddef.h>

#include "armprof/pcsr.h"
#include "model/pcsr/pcsr.h"
#include "model/pmu/pmu_access.h"
#include "model/snapshot/snapshot.h"
#include "model/sysreg.h"

static void pcsr_reset(struct ap_pe *pe)
{
	/* The first reset of a PE is its Cold reset; later ones are Warm
	 * resets, which keep the Cold-reset-only values. */
	ap_pcsr_reset(pe, !pe->pcsr.initialized);
	pe->pcsr.initialized = true;
}

static void pcsr_state_changed(struct ap_pe *pe, const struct ap_pe_state *old)
{
	(void)old;
	ap_pcsr_state_changed(pe);
}

/* No System registers: the PC sample registers are external only. */
const struct ap_sysreg_table ap_pcsr_sysreg_table = {
	"pcsr", NULL, 0, pcsr_reset, pcsr_state_changed,
};

void ap_pe_retire(struct ap_pe *pe, uint64_t pc, bool branch_target)
{
	ap_pcsr_retire(pe, pc, branch_target);
	ap_pmu_inst_retired(&pe->snapshot.pmu, 1);
	if (pe->snapshot.ss.pending)
		ap_snapshot_tick(pe, 1);
}

void ap_pe_retire_block(struct ap_pe *pe, uint64_t pc, uint64_t n)
{
	if (n == 0)
		return;
	ap_pcsr_retire(pe, pc, true);
	if (n > 1 && pe->cfg.pcsr.sample_any)
		ap_pcsr_retire(pe, pc + 4 * (n - 1), false);
	ap_pmu_inst_retired(&pe->snapshot.pmu, n);
	if (pe->snapshot.ss.pending)
		ap_snapshot_tick(pe, n);
}

int ap_pe_pcsr_peek(const struct ap_pe *pe, enum ap_pcsr_reg reg, uint64_t *value)
{
	const struct ap_pcsr *p = &pe->pcsr;
	switch (reg) {
	case AP_PCSR_REG_PMPCSR: *value = ap_pcsr_pmpcsr(pe); return 0;
	case AP_PCSR_REG_PMCID1SR: *value = p->pmcid1sr; return 0;
	case AP_PCSR_REG_PMCID2SR: *value = p->pmcid2sr; return 0;
	case AP_PCSR_REG_PMVIDSR: *value = p->pmvidsr; return 0;
	case AP_PCSR_REG_PMCCIDSR: *value = ap_pcsr_pmccidsr(pe); return 0;
	case AP_PCSR_REG_PMVCIDSR: *value = ap_pcsr_pmvcidsr(pe); return 0;
	case AP_PCSR_REG_PMPCSCTL: *value = ap_pcsr_read_pmpcsctl(pe); return 0;
	case AP_PCSR_REG_EDPCSRHI: *value = p->edpcsr_hi; return 0;
	case AP_PCSR_REG_EDCIDSR: *value = p->edcidsr; return 0;
	case AP_PCSR_REG_EDVIDSR: *value = p->edvidsr; return 0;
	case AP_PCSR_REG_SLK: *value = p->slk; return 0;
	default: return -AP_ERR_INVALID;
	}
}

uint64_t ap_pe_pcsr_samples_taken(const struct ap_pe *pe)
{
	return pe->pcsr.samples_taken;
}

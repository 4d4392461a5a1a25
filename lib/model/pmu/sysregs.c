/* The PMU System registers of the minimal PMU: PMCR_EL0, PMCNTENSET_EL0,
 * PMCNTENCLR_EL0, PMOVSSET_EL0, PMOVSCLR_EL0, PMUSERENR_EL0, PMCCNTR_EL0,
 * PMICNTR_EL0, PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 (n = 0..30).
 *
 * Encodings and accessibility: DDI 0487 D24.5. The checks model the
 * FEAT_PMUv3 baseline: PMUSERENR_EL0.{EN,CR,ER} at EL0 (trap to EL1, or EL2
 * with HCR_EL2.TGE), MDCR_EL2.TPM, MDCR_EL2.HPMN for event counters (the
 * CONSTRAINED UNPREDICTABLE case without FEAT_FGT traps to EL2), MDCR_EL3.TPM
 * and the EL3SDDUndef cases. Not modelled: FEAT_FGT PMU bits, FEAT_PMUv3p9
 * PMUSERENR_EL0.UEN/PMUACR_EL1, AArch32 views (docs/not-modelled). */
#include <stddef.h>

#include "armprof/pmu.h"
#include "model/pe.h"
#include "model/pmu/pmu_access.h"
#include "model/sysreg.h"

enum pmu_kind { K_CONTROL, K_USERENR, K_CYCLE, K_INSTR, K_EVENT, K_EVTYPE };

#define ENC_PMCR_EL0       AP_SYSREG(3, 3, 9, 12, 0)
#define ENC_PMCNTENSET_EL0 AP_SYSREG(3, 3, 9, 12, 1)
#define ENC_PMCNTENCLR_EL0 AP_SYSREG(3, 3, 9, 12, 2)
#define ENC_PMOVSCLR_EL0   AP_SYSREG(3, 3, 9, 12, 3)
#define ENC_PMCCNTR_EL0    AP_SYSREG(3, 3, 9, 13, 0)
#define ENC_PMUSERENR_EL0  AP_SYSREG(3, 3, 9, 14, 0)
#define ENC_PMOVSSET_EL0   AP_SYSREG(3, 3, 9, 14, 3)
#define ENC_PMICNTR_EL0    AP_SYSREG(3, 3, 9, 4, 0)
#define ENC_PMCEID0_EL0    AP_SYSREG(3, 3, 9, 12, 6)
#define ENC_PMCEID1_EL0    AP_SYSREG(3, 3, 9, 12, 7)

#define USERENR_EN (1u << 0)
#define USERENR_CR (1u << 2)
#define USERENR_ER (1u << 3)

static struct ap_pmu *pmu_of(const struct ap_pe *pe)
{
	return (struct ap_pmu *)&pe->snapshot.pmu;
}

/* PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0: n = CRm[1:0]:op2. */
static unsigned counter_index(const struct ap_sysreg *r)
{
	return (AP_SYSREG_CRM(r->enc) & 3u) << 3 | AP_SYSREG_OP2(r->enc);
}

static enum pmu_kind kind_of(const struct ap_sysreg *r)
{
	if (AP_SYSREG_CRN(r->enc) == 14)
		return AP_SYSREG_CRM(r->enc) >= 12 ? K_EVTYPE : K_EVENT;
	switch (r->enc) {
	case ENC_PMCCNTR_EL0: return K_CYCLE;
	case ENC_PMICNTR_EL0: return K_INSTR;
	case ENC_PMUSERENR_EL0: return K_USERENR;
	default: return K_CONTROL;
	}
}

/* Does PMUSERENR_EL0 let EL0 make this access? */
static bool el0_enabled(const struct ap_pe *pe, enum pmu_kind k, bool write)
{
	uint64_t u = pe->snapshot.pmuserenr;
	if (u & USERENR_EN)
		return true;
	if (write)
		return false;
	if (k == K_CYCLE)
		return u & USERENR_CR;
	if (k == K_EVENT)
		return u & USERENR_ER;
	return false;
}

static int pmu_check(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	enum pmu_kind k = kind_of(r);
	unsigned n = counter_index(r);
	const struct ap_pmu *pmu = &pe->snapshot.pmu;
	if ((k == K_EVENT || k == K_EVTYPE) && n >= pmu->cfg.num_counters)
		return AP_ACCESS_UNDEFINED; /* m >= GetNumEventCountersSelfHosted(), with FEAT_FGT's choice */
	if (k == K_INSTR && !pmu->cfg.icntr)
		return AP_ACCESS_UNDEFINED;
	bool el2_on = ap_el2_enabled(pe);
	bool tpm2 = el2_on && ap_bit(pe->st.mdcr_el2, AP_MDCR_TPM);
	bool tpm3 = pe->cfg.have_el3 && ap_bit(pe->st.mdcr_el3, AP_MDCR_TPM);
	bool hpmn_trap = (k == K_EVENT || k == K_EVTYPE) && el2_on && n >= ap_pmu_hpmn(pe);
	switch (pe->st.el) {
	case AP_EL0:
		if (tpm3 && ap_pmu_el3_sdd_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (k == K_USERENR) {
			if (write)
				return AP_ACCESS_UNDEFINED; /* PMUSERENR_EL0 is read-only at EL0 */
		} else if (!el0_enabled(pe, k, write)) {
			return el2_on && ap_tge(pe) ? AP_ACCESS_TRAP_EL2 : AP_ACCESS_TRAP_EL1;
		}
		if (tpm2)
			return AP_ACCESS_TRAP_EL2;
		if (hpmn_trap)
			return AP_ACCESS_TRAP_EL2;
		return tpm3 ? ap_pmu_el3_trap(pe) : AP_ACCESS_OK;
	case AP_EL1:
		if (tpm3 && ap_pmu_el3_sdd_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (tpm2 || hpmn_trap)
			return AP_ACCESS_TRAP_EL2;
		return tpm3 ? ap_pmu_el3_trap(pe) : AP_ACCESS_OK;
	case AP_EL2:
		if (tpm3 && ap_pmu_el3_sdd_first(pe))
			return AP_ACCESS_UNDEFINED;
		return tpm3 ? ap_pmu_el3_trap(pe) : AP_ACCESS_OK;
	default:
		return AP_ACCESS_OK;
	}
}

static uint64_t pmu_read(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	/* Observing the PMU brings SPE's SAMPLE_* events in first. The PE is
	 * not const storage: the register-table hook just takes it so. */
	ap_pmu_unit_sync_spe((struct ap_pe *)pe);
	const struct ap_pmu *pmu = &pe->snapshot.pmu;
	switch (kind_of(r)) {
	case K_EVENT: return ap_pmu_read_evcntr(pmu, counter_index(r));
	case K_EVTYPE: return ap_pmu_read_evtyper(pmu, counter_index(r));
	case K_CYCLE: return ap_pmu_read_ccntr(pmu);
	case K_INSTR: return ap_pmu_read_icntr(pmu);
	case K_USERENR: return pe->snapshot.pmuserenr;
	default: break;
	}
	switch (r->enc) {
	case ENC_PMCR_EL0: return ap_pmu_read_pmcr(pmu);
	case ENC_PMCEID0_EL0: return ap_pmu_read_ceid(pmu, 0);
	case ENC_PMCEID1_EL0: return ap_pmu_read_ceid(pmu, 1);
	case ENC_PMOVSSET_EL0: case ENC_PMOVSCLR_EL0: return ap_pmu_read_ovs(pmu);
	default: return ap_pmu_read_cnten(pmu); /* PMCNTENSET_EL0 / PMCNTENCLR_EL0 */
	}
}

static void pmu_write(struct ap_pe *pe, const struct ap_sysreg *r, uint64_t v)
{
	ap_pmu_unit_sync_spe(pe); /* events so far count under the old controls */
	struct ap_pmu *pmu = pmu_of(pe);
	switch (kind_of(r)) {
	case K_EVENT: ap_pmu_write_evcntr(pmu, counter_index(r), v); return;
	case K_EVTYPE: ap_pmu_write_evtyper(pmu, counter_index(r), v); return;
	case K_CYCLE: ap_pmu_write_ccntr(pmu, v); return;
	case K_INSTR: ap_pmu_write_icntr(pmu, v); return;
	case K_USERENR: pe->snapshot.pmuserenr = v & 0xF; return;
	default: break;
	}
	switch (r->enc) {
	case ENC_PMCR_EL0: ap_pmu_write_pmcr(pmu, v); return;
	case ENC_PMCNTENSET_EL0: ap_pmu_cnten_set(pmu, v); return;
	case ENC_PMCNTENCLR_EL0: ap_pmu_cnten_clr(pmu, v); return;
	case ENC_PMOVSSET_EL0: ap_pmu_ovs_set(pmu, v); return;
	default: ap_pmu_ovs_clr(pmu, v); return; /* PMOVSCLR_EL0 */
	}
}

#define PMU_REG(name, enc, flags) \
	{ name, enc, flags, -1, 0, 0, 0, 0, NULL, pmu_check, NULL, 0, pmu_read, pmu_write, NULL }
#define RW (AP_SR_R | AP_SR_W)
#define EV(n) PMU_REG("PMEVCNTR" #n "_EL0", AP_SYSREG(3, 3, 14, 8 | ((n) >> 3), (n) & 7), RW), \
	      PMU_REG("PMEVTYPER" #n "_EL0", AP_SYSREG(3, 3, 14, 12 | ((n) >> 3), (n) & 7), RW)

static const struct ap_sysreg pmu_regs[] = {
	PMU_REG("PMCR_EL0", ENC_PMCR_EL0, RW),
	PMU_REG("PMCNTENSET_EL0", ENC_PMCNTENSET_EL0, RW),
	PMU_REG("PMCNTENCLR_EL0", ENC_PMCNTENCLR_EL0, RW),
	PMU_REG("PMOVSCLR_EL0", ENC_PMOVSCLR_EL0, RW),
	PMU_REG("PMOVSSET_EL0", ENC_PMOVSSET_EL0, RW),
	PMU_REG("PMUSERENR_EL0", ENC_PMUSERENR_EL0, RW),
	PMU_REG("PMCCNTR_EL0", ENC_PMCCNTR_EL0, RW),
	PMU_REG("PMICNTR_EL0", ENC_PMICNTR_EL0, RW),
	PMU_REG("PMCEID0_EL0", ENC_PMCEID0_EL0, AP_SR_R),
	PMU_REG("PMCEID1_EL0", ENC_PMCEID1_EL0, AP_SR_R),
	EV(0), EV(1), EV(2), EV(3), EV(4), EV(5), EV(6), EV(7), EV(8), EV(9),
	EV(10), EV(11), EV(12), EV(13), EV(14), EV(15), EV(16), EV(17), EV(18), EV(19),
	EV(20), EV(21), EV(22), EV(23), EV(24), EV(25), EV(26), EV(27), EV(28), EV(29), EV(30),
};

/* Warm reset of the PMU (and, on the first reset, its creation from the
 * configuration). PMUSERENR_EL0 resets to 0 (UNKNOWN in DDI 0487). */
static void pmu_reset(struct ap_pe *pe)
{
	struct ap_pmu_config cfg = pe->cfg.pmu;
	if (pe->cfg.have_spe) /* SPE-2.6-1/2: PMCEID0_EL0[35:32], the SAMPLE_* events */
		cfg.ceid0 |= 0xFull << 32;
	if (ap_pmu_init(&pe->snapshot.pmu, &cfg) < 0) {
		/* ap_config_validate() rejects such a configuration first. */
		ap_pmu_config_init(&cfg);
		ap_pmu_init(&pe->snapshot.pmu, &cfg);
	}
	pe->snapshot.pmuserenr = 0;
	ap_pmu_unit_spe_baseline(pe);
}

const struct ap_sysreg_table ap_pmu_sysreg_table = {
	"pmu", pmu_regs, sizeof(pmu_regs) / sizeof(pmu_regs[0]), pmu_reset, NULL,
};

void ap_pe_pmu_event(struct ap_pe *pe, uint16_t event, uint64_t increment)
{
	ap_pmu_event(&pe->snapshot.pmu, event, increment);
}

void ap_pe_cycles(struct ap_pe *pe, uint64_t n)
{
	ap_pmu_cycles(&pe->snapshot.pmu, n);
}

/* Shared pieces of the PMU and PMU-snapshot System-register access checks
 * (DDI 0487 D24.5 accessibility pseudocode), the register fields they and
 * the PC-sample and snapshot logic read, and the SPE-to-PMU event sync. */
#ifndef ARMPROF_MODEL_PMU_ACCESS_H
#define ARMPROF_MODEL_PMU_ACCESS_H

#include <stdbool.h>

#include "model/pe.h"

#define AP_MDCR_TPM 6        /* MDCR_EL2.TPM, MDCR_EL3.TPM */
#define AP_MDCR_EL3_ENPM2 7  /* MDCR_EL3.EnPM2 */
#define AP_MDCR_EL3_ENPMSS 44
#define AP_MDCR_EL3_EPMSSAD 45 /* 2 bits */
#define AP_MDCR_PMSSE 30     /* MDCR_EL2.PMSSE, MDCR_EL3.PMSSE: 2 bits */
#define AP_EDSCR_SC2 19
#define AP_SDER_SUNIDEN 1

/* Halted() && EDSCR.SDD == '1': EL3SDDUndef(). */
static inline bool ap_pmu_el3_sdd_undef(const struct ap_pe *pe)
{
	return pe->cfg.have_el3 && pe->st.halted && ap_bit(pe->st.edscr, AP_EDSCR_SDD);
}
/* EL3SDDUndefPriority(): the IMPLEMENTATION DEFINED priority of that UNDEFINED. */
static inline bool ap_pmu_el3_sdd_first(const struct ap_pe *pe)
{
	return pe->cfg.el3_trap_priority_sdd && ap_pmu_el3_sdd_undef(pe);
}
/* "if EL3SDDUndef() then UNDEFINED; else AArch64.SystemAccessTrap(EL3, 0x18)" */
static inline int ap_pmu_el3_trap(const struct ap_pe *pe)
{
	return ap_pmu_el3_sdd_undef(pe) ? AP_ACCESS_UNDEFINED : AP_ACCESS_TRAP_EL3;
}
/* MDCR_EL2.HPMN: the event counters EL0 and EL1 can reach with EL2 enabled
 * (GetNumEventCountersAccessible()). */
static inline unsigned ap_pmu_hpmn(const struct ap_pe *pe)
{
	return ap_field(pe->st.mdcr_el2, 0, 5);
}

/* Count SPE's SAMPLE_* events that happened since the last call on the PMU
 * (lib/model/pmu/spe_events.c); the baseline is taken at reset. */
void ap_pmu_unit_sync_spe(struct ap_pe *pe);
void ap_pmu_unit_spe_baseline(struct ap_pe *pe);

#endif

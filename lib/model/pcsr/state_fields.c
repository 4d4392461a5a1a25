/* PE-state fields that the PMU, PC sampling and PMU snapshots read, by their
 * spec names, for ap_pe_state_set_field() and `armprof sim`'s `state`
 * command. Bit positions: DDI 0487 (MDCR_EL3, MDCR_EL2, EDSCR, SDER32_EL3). */
#include <stddef.h>

#include "armprof/model.h"
#include "model/pmu/pmu_access.h"
#include "model/state_fields.h"

#define M64(name, member, lsb, width) { name, AP_SM_U64, offsetof(struct ap_pe_state, member), lsb, width }
#define MB(name, member) { name, AP_SM_BOOL, offsetof(struct ap_pe_state, member), 0, 1 }

static const struct ap_state_field prof_fields[] = {
	/* Short names of the inputs (the core also has os_lock, core_powered,
	 * ext_noninvasive, ...). */
	MB("oslk", os_lock),
	MB("dlk", os_double_lock),
	MB("powered", core_powered),
	MB("auth.niden", ext_noninvasive),    /* ExternalNoninvasiveDebugEnabled() */
	MB("auth.spniden", ext_secure_noninvasive),
	MB("auth.rlpniden", ext_realm_noninvasive),
	MB("auth.rtpniden", ext_root_noninvasive),
	MB("tstate", tstate),                 /* FEAT_TME Transactional state (PMPCSR.T) */
	MB("brbe_freeze", brbe_freeze),       /* BRBE freezes on a Capture event (SS-IWRNBL) */
	M64("sder32_el3", sder32_el3, 0, 64),
	M64("sder.suniden", sder32_el3, AP_SDER_SUNIDEN, 1),  /* PCS-H7.1.1-8 */
	M64("edscr.sc2", edscr, AP_EDSCR_SC2, 1),              /* PCS-H7.1.2-7 */
	M64("mdcr_el3.pmsse", mdcr_el3, AP_MDCR_PMSSE, 2),    /* Table D13-10 */
	M64("mdcr_el2.pmsse", mdcr_el2, AP_MDCR_PMSSE, 2),
	M64("mdcr_el3.enpmss", mdcr_el3, AP_MDCR_EL3_ENPMSS, 1),
	M64("mdcr_el3.epmssad", mdcr_el3, AP_MDCR_EL3_EPMSSAD, 2),
	M64("mdcr_el3.enpm2", mdcr_el3, AP_MDCR_EL3_ENPM2, 1),
	M64("mdcr_el3.tpm", mdcr_el3, AP_MDCR_TPM, 1),
	M64("mdcr_el2.tpm", mdcr_el2, AP_MDCR_TPM, 1),
	M64("mdcr_el2.hpmn", mdcr_el2, 0, 5),
};

const struct ap_state_field_table ap_prof_state_fields = {
	prof_fields, sizeof(prof_fields) / sizeof(prof_fields[0])
};

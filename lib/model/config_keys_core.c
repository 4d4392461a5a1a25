/* Configuration keys of the PE core (features, Exception levels, access
 * choices). Each doc line names the requirement it answers. */
#include <stddef.h>

#include "armprof/model.h"
#include "model/config_keys.h"

#define OFF(f) offsetof(struct ap_config, f)

static const struct ap_config_key core_keys[] = {
	{ "have_el2", AP_CFG_BOOL, OFF(have_el2), 0, 1, NULL,
	  "EL2 is implemented (HaveEL(EL2))" },
	{ "have_el3", AP_CFG_BOOL, OFF(have_el3), 0, 1, NULL,
	  "EL3 is implemented (HaveEL(EL3))" },
	{ "have_spe", AP_CFG_BOOL, OFF(have_spe), 0, 1, NULL,
	  "FEAT_SPE implemented; without it every SPE register is UNDEFINED (SPE-4.3.5-6 and the other 'Configurations' rules)" },
	{ "have_vhe", AP_CFG_BOOL, OFF(have_vhe), 0, 1, NULL,
	  "FEAT_VHE: HCR_EL2.E2H takes effect and PMSCR_EL12 exists (SPE-4.3.6-6)" },
	{ "have_fgt", AP_CFG_BOOL, OFF(have_fgt), 0, 1, NULL,
	  "FEAT_FGT: HDFGRTR_EL2/HDFGWTR_EL2 fine-grained traps (PMSICR-24, DDI 0487)" },
	{ "have_sel2", AP_CFG_BOOL, OFF(have_sel2), 0, 1, NULL,
	  "FEAT_SEL2: EL2Enabled() in Secure state when SCR_EL3.EEL2 == 1" },
	{ "have_nv2", AP_CFG_BOOL, OFF(have_nv2), 0, 1, NULL,
	  "FEAT_NV2: EL1 accesses with HCR_EL2.<NV2,NV1,NV> == '1x1' go to memory at VNCR_EL2 (PMSICR-28)" },
	{ "have_rme", AP_CFG_BOOL, OFF(have_rme), 0, 1, NULL,
	  "FEAT_RME: Realm and Root Security states (SCR_EL3.NSE)" },
	{ "aarch32_els", AP_CFG_U8, OFF(aarch32_els), 0, 15, NULL,
	  "bit n set: ELn can use AArch32 (IMPLEMENTATION DEFINED; SPE-2.1.1)" },
	{ "el3_trap_priority_sdd", AP_CFG_BOOL, OFF(el3_trap_priority_sdd), 0, 1, NULL,
	  "IMPLEMENTATION_DEFINED \"EL3 trap priority when SDD == '1'\" (PMSICR-19)" },
	{ "seed", AP_CFG_U64, OFF(seed), 0, UINT64_MAX, NULL,
	  "seed of the model's pseudorandom generator (SPE-2.2.2-1)" },
};

AP_CFG_KEY_TABLE(ap_core_config_keys, core_keys);

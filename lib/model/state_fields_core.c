/* The PE-state fields the core and SPE read, by their spec names. Bit
 * positions: Arm ARM (DDI 0487) register layouts. */
#include <stddef.h>

#include "armprof/model.h"
#include "model/state_fields.h"

#define M64(name, member, lsb, width) { name, AP_SM_U64, offsetof(struct ap_pe_state, member), lsb, width }
#define M8(name, member, lsb, width) { name, AP_SM_U8, offsetof(struct ap_pe_state, member), lsb, width }
#define MB(name, member) { name, AP_SM_BOOL, offsetof(struct ap_pe_state, member), 0, 1 }

static const struct ap_state_field core_fields[] = {
	/* Shorthands of the `state` command. */
	M8("el", el, 0, 2),
	M64("ns", scr_el3, AP_SCR_EL3_NS, 1),
	M64("tge", hcr_el2, AP_HCR_EL2_TGE, 1),
	M64("e2h", hcr_el2, AP_HCR_EL2_E2H, 1),
	MB("debug", halted),
	MB("halted", halted),
	M8("aarch32", aarch32, 0, 4),
	M8("aarch32.el0", aarch32, 0, 1),
	M8("aarch32.el1", aarch32, 1, 1),
	M8("aarch32.el2", aarch32, 2, 1),
	M8("aarch32.el3", aarch32, 3, 1),
	/* Whole registers. */
	M64("hcr_el2", hcr_el2, 0, 64),
	M64("mdcr_el2", mdcr_el2, 0, 64),
	M64("mdcr_el3", mdcr_el3, 0, 64),
	M64("scr_el3", scr_el3, 0, 64),
	M64("hdfgrtr_el2", hdfgrtr_el2, 0, 64),
	M64("hdfgwtr_el2", hdfgwtr_el2, 0, 64),
	M64("edscr", edscr, 0, 64),
	M64("vncr_el2", vncr_el2, 0, 64),
	M64("contextidr_el1", contextidr_el1, 0, 64),
	M64("contextidr_el2", contextidr_el2, 0, 64),
	{ "vmid", AP_SM_U16, offsetof(struct ap_pe_state, vmid), 0, 16 },
	/* Fields. */
	M64("hcr_el2.tge", hcr_el2, AP_HCR_EL2_TGE, 1),
	M64("hcr_el2.e2h", hcr_el2, AP_HCR_EL2_E2H, 1),
	M64("hcr_el2.nv", hcr_el2, AP_HCR_EL2_NV, 1),
	M64("hcr_el2.nv1", hcr_el2, AP_HCR_EL2_NV1, 1),
	M64("hcr_el2.nv2", hcr_el2, AP_HCR_EL2_NV2, 1),
	M64("mdcr_el2.e2pb", mdcr_el2, AP_MDCR_EL2_E2PB, 2),
	M64("mdcr_el2.tpms", mdcr_el2, AP_MDCR_EL2_TPMS, 1),
	M64("mdcr_el3.nspb", mdcr_el3, AP_MDCR_EL3_NSPB, 2),
	M64("mdcr_el3.enpms3", mdcr_el3, AP_MDCR_EL3_ENPMS3, 1),
	M64("scr_el3.ns", scr_el3, AP_SCR_EL3_NS, 1),
	M64("scr_el3.eel2", scr_el3, AP_SCR_EL3_EEL2, 1),
	M64("scr_el3.fgten", scr_el3, AP_SCR_EL3_FGTEN, 1),
	M64("scr_el3.nse", scr_el3, AP_SCR_EL3_NSE, 1),
	M64("edscr.sdd", edscr, AP_EDSCR_SDD, 1),
	/* HDFGRTR_EL2 / HDFGWTR_EL2 SPE bits (DDI 0487; PMSIDR_EL1 and
	 * PMBIDR_EL1 are RES0 in HDFGWTR_EL2). */
	M64("hdfgrtr_el2.pmblimitr_el1", hdfgrtr_el2, 23, 1),
	M64("hdfgrtr_el2.pmbptr_el1", hdfgrtr_el2, 24, 1),
	M64("hdfgrtr_el2.pmbsr_el1", hdfgrtr_el2, 25, 1),
	M64("hdfgrtr_el2.pmscr_el1", hdfgrtr_el2, 26, 1),
	M64("hdfgrtr_el2.pmsevfr_el1", hdfgrtr_el2, 27, 1),
	M64("hdfgrtr_el2.pmsfcr_el1", hdfgrtr_el2, 28, 1),
	M64("hdfgrtr_el2.pmsicr_el1", hdfgrtr_el2, 29, 1),
	M64("hdfgrtr_el2.pmsidr_el1", hdfgrtr_el2, 30, 1),
	M64("hdfgrtr_el2.pmsirr_el1", hdfgrtr_el2, 31, 1),
	M64("hdfgrtr_el2.pmslatfr_el1", hdfgrtr_el2, 32, 1),
	M64("hdfgrtr_el2.pmbidr_el1", hdfgrtr_el2, 63, 1),
	M64("hdfgrtr_el2.npmsnevfr_el1", hdfgrtr_el2, AP_HDFGxTR_EL2_NPMSNEVFR, 1),
	M64("hdfgwtr_el2.npmsnevfr_el1", hdfgwtr_el2, AP_HDFGxTR_EL2_NPMSNEVFR, 1),
	M64("hdfgwtr_el2.pmblimitr_el1", hdfgwtr_el2, 23, 1),
	M64("hdfgwtr_el2.pmbptr_el1", hdfgwtr_el2, 24, 1),
	M64("hdfgwtr_el2.pmbsr_el1", hdfgwtr_el2, 25, 1),
	M64("hdfgwtr_el2.pmscr_el1", hdfgwtr_el2, 26, 1),
	M64("hdfgwtr_el2.pmsevfr_el1", hdfgwtr_el2, 27, 1),
	M64("hdfgwtr_el2.pmsfcr_el1", hdfgwtr_el2, 28, 1),
	M64("hdfgwtr_el2.pmsicr_el1", hdfgwtr_el2, 29, 1),
	M64("hdfgwtr_el2.pmsirr_el1", hdfgwtr_el2, 31, 1),
	M64("hdfgwtr_el2.pmslatfr_el1", hdfgwtr_el2, 32, 1),
	/* Debug, power and authentication inputs. */
	MB("os_lock", os_lock),
	MB("os_double_lock", os_double_lock),
	MB("core_powered", core_powered),
	MB("timer_enabled", timer_enabled),
	MB("ext_noninvasive", ext_noninvasive),
	MB("ext_secure_noninvasive", ext_secure_noninvasive),
	MB("ext_realm_noninvasive", ext_realm_noninvasive),
	MB("ext_root_noninvasive", ext_root_noninvasive),
};

const struct ap_state_field_table ap_core_state_fields = {
	core_fields, sizeof(core_fields) / sizeof(core_fields[0])
};

/* Enabling and ownership of SPE: ProfilingBufferOwner(),
 * ProfilingBufferEnabled() (3.4.6, 3.4.2 Table 5) and
 * StatisticalProfilingEnabled() (3.2.3, 3.2.1 Table 3). The SPE engine calls
 * these on every state or register change; they read only the PE state and
 * the SPE registers. */
#include "model/pe.h"

/* PMBLIMITR_EL1.E, PMBSR_EL1.S */
#define PMBLIMITR_E 0
#define PMBSR_S 17

struct ap_spe_owner ap_spe_buffer_owner(const struct ap_pe *pe)
{
	struct ap_spe_owner o;
	/* secure = if HaveEL(EL3) then (MDCR_EL3.NSPB<1> == '0') else IsSecure(); */
	if (pe->cfg.have_el3)
		o.secure = (ap_mdcr_el3_nspb(pe) & 2u) == 0;
	else
		o.secure = ap_is_secure(pe);
	/* el = if !secure && HaveEL(EL2) && MDCR_EL2.E2PB == '00' then EL2 else EL1; */
	o.el = (!o.secure && pe->cfg.have_el2 && ap_mdcr_el2_e2pb(pe) == 0) ? AP_EL2 : AP_EL1;
	return o;
}

bool ap_spe_buffer_enabled(const struct ap_pe *pe)
{
	if (!pe->cfg.have_spe)
		return false;
	struct ap_spe_owner o = ap_spe_buffer_owner(pe);
	bool non_secure_bit = !o.secure;
	return !ap_el_using_aarch32(pe, o.el) && non_secure_bit == ap_scr_ns(pe) &&
	       ap_bit(pe->spe_regs.pmblimitr_el1, PMBLIMITR_E) &&
	       !ap_bit(pe->spe_regs.pmbsr_el1, PMBSR_S);
}

bool ap_spe_profiling_enabled(const struct ap_pe *pe)
{
	if (!pe->cfg.have_spe || ap_using_aarch32(pe) || !ap_spe_buffer_enabled(pe))
		return false;
	/* 3.2.1: profiling is disabled when the PE is in Debug state (not in the
	 * 3.2.3 pseudocode, which covers Non-debug state only). */
	if (pe->st.halted)
		return false;
	bool secure = ap_is_secure(pe);
	bool in_host = !secure && pe->cfg.have_el2 && ap_tge(pe);
	struct ap_spe_owner o = ap_spe_buffer_owner(pe);
	unsigned el = pe->st.el;
	if (o.el < el || o.secure != secure || (in_host && o.el == AP_EL1))
		return false;
	const uint64_t el1 = pe->spe_regs.pmscr_el1, el2 = pe->spe_regs.pmscr_el2;
	switch (el) {
	case AP_EL2:
		return ap_bit(el2, 1); /* PMSCR_EL2.E2SPE */
	case AP_EL1:
		return ap_bit(el1, 1); /* PMSCR_EL1.E1SPE */
	case AP_EL0:
		return in_host ? ap_bit(el2, 0) /* PMSCR_EL2.E0HSPE */
		               : ap_bit(el1, 0); /* PMSCR_EL1.E0SPE */
	default:
		return false; /* EL3: unreachable, the owner is never above EL2 */
	}
}

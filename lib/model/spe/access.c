/* Access checks of the SPE System registers, in the spec's priority order.
 *
 * Sources: CheckStatisticalProfilingAccess() (3.2.3) and
 * CheckProfilingBufferAccess() (3.4.6), the "Traps and enables" text of each
 * register page (4.3.x), and the full MRS/MSR pseudocode of the newer
 * PMSICR_EL1 page (spec/004), whose order is:
 *   EL0 -> UNDEFINED
 *   EL1 -> [Halted && EL3 && EDSCR.SDD && "EL3 trap priority when SDD"
 *           && MDCR_EL3.NSPB traps]                          UNDEFINED
 *          [EL2Enabled && (!EL3 || SCR_EL3.FGTEn) && HDFGxTR] trap EL2
 *          [EL2Enabled && MDCR_EL2.TPMS]                     trap EL2
 *          [EL3 && MDCR_EL3.NSPB != SCR_EL3.NS:'1']          UNDEFINED if
 *                                      Halted && EDSCR.SDD, else trap EL3
 *          [EL2Enabled && HCR_EL2.<NV2,NV1,NV> == '1x1']     NVMem[offset]
 *   EL2 -> the SDD-priority UNDEFINED, then the NSPB trap as above
 *   EL3 -> OK
 * spec/004 gives this order for PMSICR_EL1 only; the model applies it to
 * every register that shares PMSICR_EL1's checks in spec/002 (the other
 * register pages say their "exception prioritization rules" are DDI 0487's,
 * SPE-4.3.2-14, and DDI 0487 gives them this same structure). The buffer
 * registers replace the TPMS test with MDCR_EL2.E2PB<0> == '0' (3.4.6).
 * The fine-grained trap bits and the VNCR offsets of registers other than
 * PMSICR_EL1 are DDI 0487's (HDFGRTR_EL2/HDFGWTR_EL2; VNCR_EL2 layout). */
#include "model/spe/access.h"

#include "model/pe.h"

/* MDCR_EL3.NSPB != SCR_EL3.NS:'1' (the EL3 trap of 3.2.3 / 3.4.6). */
static bool nspb_traps(const struct ap_pe *pe)
{
	if (!pe->cfg.have_el3)
		return false;
	unsigned want = ap_scr_ns(pe) ? 3u : 1u;
	return ap_mdcr_el3_nspb(pe) != want;
}

static bool halted_sdd(const struct ap_pe *pe)
{
	return pe->st.halted && ap_bit(pe->st.edscr, AP_EDSCR_SDD);
}

/* PMSICR-22/23/30: the UNDEFINED that, by IMPLEMENTATION DEFINED choice,
 * takes priority over the EL2 traps. */
static bool sdd_undefined_first(const struct ap_pe *pe)
{
	return pe->cfg.el3_trap_priority_sdd && pe->cfg.have_el3 && halted_sdd(pe) && nspb_traps(pe);
}

/* PMSICR-26/27/31/32: the NSPB trap, UNDEFINED in Debug state with SDD. */
static int nspb_outcome(const struct ap_pe *pe)
{
	return halted_sdd(pe) ? AP_ACCESS_UNDEFINED : AP_ACCESS_TRAP_EL3;
}

/* PMSICR-24: EL2Enabled() && (!HaveEL(EL3) || SCR_EL3.FGTEn == '1') &&
 * HDFGRTR_EL2.<reg> / HDFGWTR_EL2.<reg> == '1' (FEAT_FGT). */
static bool fgt_traps(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	if (!pe->cfg.have_fgt || r->fgt_bit < 0 || !ap_el2_enabled(pe))
		return false;
	if (pe->cfg.have_el3 && !ap_bit(pe->st.scr_el3, AP_SCR_EL3_FGTEN))
		return false;
	return ap_bit(write ? pe->st.hdfgwtr_el2 : pe->st.hdfgrtr_el2, (unsigned)r->fgt_bit);
}

/* PMSICR-28: EL2Enabled() && HCR_EL2.<NV2,NV1,NV> == '1x1' (FEAT_NV2). */
static bool nv2_redirects(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	return pe->cfg.have_nv2 && r->nv_offset && ap_el2_enabled(pe) &&
	       ap_bit(pe->st.hcr_el2, AP_HCR_EL2_NV2) && ap_bit(pe->st.hcr_el2, AP_HCR_EL2_NV);
}

/* LATER-FNE-3: HDFGRTR_EL2/HDFGWTR_EL2.nPMSNEVFR_EL1 [62] traps when 0
 * (a negative-polarity bit: software that knows of the register sets it). */
static bool fgt_traps_negative(const struct ap_pe *pe, unsigned bit, bool write)
{
	if (!pe->cfg.have_fgt || !ap_el2_enabled(pe))
		return false;
	if (pe->cfg.have_el3 && !ap_bit(pe->st.scr_el3, AP_SCR_EL3_FGTEN))
		return false;
	return !ap_bit(write ? pe->st.hdfgwtr_el2 : pe->st.hdfgrtr_el2, bit);
}

/* LATER-FDS-3: MDCR_EL3.EnPMS3 == 0 traps PMSDSFR_EL1 below EL3 to EL3. */
static bool enpms3_traps(const struct ap_pe *pe)
{
	return pe->cfg.have_el3 && !ap_bit(pe->st.mdcr_el3, AP_MDCR_EL3_ENPMS3);
}

enum { EXTRA_NFGT_NEVFR = 1, EXTRA_ENPMS3 = 2 };

/* The common form; el2_trap is the register class's EL1 trap to EL2,
 * extra the traps of registers after v1 (EXTRA_*). */
static int check_el1_register(const struct ap_pe *pe, const struct ap_sysreg *r, bool write,
                              bool el2_trap, unsigned extra)
{
	if (!pe->cfg.have_spe || ap_using_aarch32(pe))
		return AP_ACCESS_UNDEFINED;
	switch (pe->st.el) {
	case AP_EL0:
		return AP_ACCESS_UNDEFINED;
	case AP_EL1:
		if (sdd_undefined_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (fgt_traps(pe, r, write))
			return AP_ACCESS_TRAP_EL2;
		if ((extra & EXTRA_NFGT_NEVFR) &&
		    fgt_traps_negative(pe, AP_HDFGxTR_EL2_NPMSNEVFR, write))
			return AP_ACCESS_TRAP_EL2;
		if (ap_el2_enabled(pe) && el2_trap)
			return AP_ACCESS_TRAP_EL2;
		if (nspb_traps(pe))
			return nspb_outcome(pe);
		if ((extra & EXTRA_ENPMS3) && enpms3_traps(pe))
			return halted_sdd(pe) ? AP_ACCESS_UNDEFINED : AP_ACCESS_TRAP_EL3;
		if (nv2_redirects(pe, r))
			return AP_ACCESS_NVMEM;
		return AP_ACCESS_OK;
	case AP_EL2:
		if (sdd_undefined_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (nspb_traps(pe))
			return nspb_outcome(pe);
		if ((extra & EXTRA_ENPMS3) && enpms3_traps(pe))
			return halted_sdd(pe) ? AP_ACCESS_UNDEFINED : AP_ACCESS_TRAP_EL3;
		return AP_ACCESS_OK;
	default:
		return AP_ACCESS_OK;
	}
}

int ap_spe_check_sampling_reg(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	/* MDCR_EL2.TPMS == '1' (CheckStatisticalProfilingAccess). */
	return check_el1_register(pe, r, write, ap_bit(pe->st.mdcr_el2, AP_MDCR_EL2_TPMS), 0);
}

int ap_spe_check_buffer_reg(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	/* MDCR_EL2.E2PB<0> != '1' (CheckProfilingBufferAccess). */
	return check_el1_register(pe, r, write, (ap_mdcr_el2_e2pb(pe) & 1u) == 0, 0);
}

/* PMSNEVFR_EL1 (LATER-FNE-2/3): a sampling register (MDCR_EL2.TPMS,
 * MDCR_EL3.NSPB) that exists with FEAT_SPE_FnE; without it the encoding is
 * not the model's, as before (the host's rule: UNDEFINED, SPE-4.1-2). */
int ap_spe_check_pmsnevfr(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	if (!pe->cfg.spe_later.fne || !pe->cfg.have_spe)
		return AP_ACCESS_ABSENT;
	return check_el1_register(pe, r, write, ap_bit(pe->st.mdcr_el2, AP_MDCR_EL2_TPMS),
	                          EXTRA_NFGT_NEVFR);
}

/* PMSDSFR_EL1 (LATER-FDS-2/3): a sampling register that exists with
 * FEAT_SPE_FDS, with the EL3 trap MDCR_EL3.EnPMS3. The FEAT_FGT2 trap
 * HDFGRTR2_EL2.nPMSDSFR_EL1 is not modelled (the model has no FEAT_FGT2). */
int ap_spe_check_pmsdsfr(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	if (!pe->cfg.spe_later.fds || !pe->cfg.have_spe)
		return AP_ACCESS_ABSENT;
	return check_el1_register(pe, r, write, ap_bit(pe->st.mdcr_el2, AP_MDCR_EL2_TPMS), EXTRA_ENPMS3);
}

int ap_spe_check_pmbidr(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	/* SPE-4.3.1-1..3: UNDEFINED at EL0 or without SPE; no traps or enables
	 * in spec/002. DDI 0487 adds the FEAT_FGT read trap
	 * HDFGRTR_EL2.PMBIDR_EL1 at EL1. */
	if (!pe->cfg.have_spe || ap_using_aarch32(pe) || pe->st.el == AP_EL0)
		return AP_ACCESS_UNDEFINED;
	if (pe->st.el == AP_EL1 && fgt_traps(pe, r, write))
		return AP_ACCESS_TRAP_EL2;
	return AP_ACCESS_OK;
}

/* FEAT_NV: EL1 accesses to EL2 registers and *_EL12 trap to EL2 when
 * HCR_EL2.NV == 1 (DDI 0487); otherwise they are UNDEFINED (SPE-4.3.7-1,
 * SPE-4.3.6-2). The model implements FEAT_NV with FEAT_NV2. */
static int el1_access_to_el2_register(const struct ap_pe *pe)
{
	if (pe->cfg.have_nv2 && ap_el2_enabled(pe) && ap_bit(pe->st.hcr_el2, AP_HCR_EL2_NV))
		return AP_ACCESS_TRAP_EL2;
	return AP_ACCESS_UNDEFINED;
}

int ap_spe_check_pmscr_el2(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	(void)r;
	(void)write;
	if (!pe->cfg.have_spe || ap_using_aarch32(pe))
		return AP_ACCESS_UNDEFINED;
	switch (pe->st.el) {
	case AP_EL0:
		return AP_ACCESS_UNDEFINED;
	case AP_EL1:
		return el1_access_to_el2_register(pe);
	case AP_EL2:
		if (sdd_undefined_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (nspb_traps(pe)) /* SPE-4.3.7-3 */
			return nspb_outcome(pe);
		return AP_ACCESS_OK;
	default:
		/* SPE-4.3.7-4: RES0 at EL3 without EL2 (its masks make it so). */
		return AP_ACCESS_OK;
	}
}

int ap_spe_check_pmscr_el12(const struct ap_pe *pe, const struct ap_sysreg *r, bool write)
{
	(void)r;
	(void)write;
	/* SPE-4.3.6-6: exists only with VHE, EL2 and SPE. */
	if (!pe->cfg.have_spe || !pe->cfg.have_el2 || !pe->cfg.have_vhe || ap_using_aarch32(pe))
		return AP_ACCESS_UNDEFINED;
	switch (pe->st.el) {
	case AP_EL0:
		return AP_ACCESS_UNDEFINED; /* SPE-4.3.6-2 */
	case AP_EL1:
		return el1_access_to_el2_register(pe); /* SPE-4.3.6-2 */
	case AP_EL2:
		if (!ap_e2h(pe)) /* SPE-4.3.6-3 */
			return AP_ACCESS_UNDEFINED;
		if (pe->cfg.have_el3 && !ap_scr_ns(pe)) /* SPE-4.3.6-4 */
			return AP_ACCESS_UNDEFINED;
		if (sdd_undefined_first(pe))
			return AP_ACCESS_UNDEFINED;
		if (nspb_traps(pe)) /* SPE-4.3.6-5 */
			return nspb_outcome(pe);
		return AP_ACCESS_OK;
	default:
		/* SPE-4.3.6-8 (gap): DDI 0487 makes *_EL12 at EL3 reach the EL1
		 * register when EL2 is enabled with E2H == 1, else UNDEFINED. */
		return (ap_el2_enabled(pe) && ap_e2h(pe)) ? AP_ACCESS_OK : AP_ACCESS_UNDEFINED;
	}
}

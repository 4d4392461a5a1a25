/* Collection controls (spec/002 3.3.1 pseudocode, line by line). */
#include "model/spe/collect.h"

/* CollectContextIDR1() (SPE-3.3.1-1..5, SPE-3.3-1) */
bool ap_spe_collect_contextidr1(const struct ap_spe_collect_view *v)
{
	if (!v->enabled)
		return false;
	if (v->el == 2)
		return false;
	if (v->have_el2 && !v->secure && v->tge)
		return false;
	return (v->pmscr_el1 & AP_PMSCR_CX) != 0;
}

/* CollectContextIDR2() (SPE-3.3.1-6..9, SPE-3.3-2) */
bool ap_spe_collect_contextidr2(const struct ap_spe_collect_view *v)
{
	if (!v->enabled)
		return false;
	if (!v->have_el2 || v->secure)
		return false;
	return (v->pmscr_el2 & AP_PMSCR_CX) != 0;
}

/* CollectTimeStamp() (SPE-3.3.1-10..17; "return FALSE" read as
 * TimeStamp_None, gap SPE-3.3.1-12) */
enum ap_spe_ts_kind ap_spe_collect_timestamp(const struct ap_spe_collect_view *v)
{
	if (!v->enabled)
		return AP_SPE_TS_NONE;
	if (v->owner_el == 2) {
		if (!(v->pmscr_el2 & AP_PMSCR_TS))
			return AP_SPE_TS_NONE;
	} else {
		if (!(v->pmscr_el1 & AP_PMSCR_TS))
			return AP_SPE_TS_NONE;
	}
	bool pct;
	if (!v->owner_secure && v->have_el2)
		pct = (v->pmscr_el2 & AP_PMSCR_PCT) && (v->owner_el == 2 || (v->pmscr_el1 & AP_PMSCR_PCT));
	else /* PMSCR_EL1.PCT is RES1 without EL2 (SPE-3.3-7) */
		pct = !v->have_el2 || (v->pmscr_el1 & AP_PMSCR_PCT);
	return pct ? AP_SPE_TS_PHYSICAL : AP_SPE_TS_VIRTUAL;
}

/* CollectPhysicalAddress() (SPE-3.3.1-18..21, SPE-3.3-8/9) */
bool ap_spe_collect_physical_address(const struct ap_spe_collect_view *v)
{
	if (!v->enabled)
		return false;
	if (!v->owner_secure && v->have_el2)
		return (v->pmscr_el2 & AP_PMSCR_PA) && (v->owner_el == 2 || (v->pmscr_el1 & AP_PMSCR_PA));
	return (v->pmscr_el1 & AP_PMSCR_PA) != 0;
}

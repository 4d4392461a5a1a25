/* CollectRecord() (spec/002 3.2.3), line by line. */
#include "model/spe/filter.h"

static unsigned type_select_bits(uint64_t pmsfcr)
{
	unsigned m = 0;
	if (pmsfcr & AP_PMSFCR_B)
		m |= AP_SPE_TYPE_BRANCH;
	if (pmsfcr & AP_PMSFCR_LD)
		m |= AP_SPE_TYPE_LOAD;
	if (pmsfcr & AP_PMSFCR_ST)
		m |= AP_SPE_TYPE_STORE;
	return m;
}

bool ap_spe_collect_record(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_policy *p,
                           uint64_t events, uint32_t total_latency, unsigned type_bits)
{
	if (r->pmsfcr & AP_PMSFCR_FE) {
		uint64_t e = events & AP_SPE_FILTERABLE_EVENTS;
		uint64_t m = r->pmsevfr & AP_SPE_FILTERABLE_EVENTS;
		/* UNPREDICTABLE case: IsZero(PMSEVFR_EL1). With the "continue"
		 * choice, m == 0 passes every record: FE behaves as 0. */
		if (r->pmsevfr == 0 && p->fe_zero_discards)
			return false;
		if (~e & m) /* SPE-3.2.2-7: every selected event must be present */
			return false;
	}
	if (r->pmsfcr & AP_PMSFCR_FT) {
		unsigned sel = type_select_bits(r->pmsfcr);
		if (sel == 0) {
			/* UNPREDICTABLE case: IsZero(PMSFCR_EL1.<B,LD,ST>). */
			if (p->ft_none_discards)
				return false;
			/* else: as if FT == 0 (4.3.9) */
		} else if ((type_bits & sel) == 0) {
			return false; /* Table 4; OpType_Other is never collected */
		}
	}
	if (r->pmsfcr & AP_PMSFCR_FL) {
		uint32_t minlat = (uint32_t)(r->pmslatfr & AP_PMSLATFR_MINLAT_MASK);
		if (minlat == 0 && p->fl_zero_discards) /* UNPREDICTABLE case */
			return false;
		if (total_latency < minlat) /* SPE-3.2.2-8: equal to MINLAT is kept */
			return false;
	}
	return true;
}

/* CollectRecord() (spec/002 3.2.3), line by line, with what later versions
 * add to it (DDI 0487 J1.1.1 SPEFilterByEvents, SPEFilterByType,
 * SPEFilterByDataSource; docs/requirements-later.md). A configuration
 * without them has those register fields zero, which leaves the v1 rules. */
#include "model/spe/filter.h"

#include "model/spe/later.h"

#define TYPE_SHIFT 16  /* PMSFCR_EL1.{B,LD,ST,FP,SIMD} [20:16] */
#define TYPEM_SHIFT 48 /* PMSFCR_EL1.{B,LD,ST,FP,SIMD}m [52:48] */

static const struct ap_spe_filter_later v1_only; /* SPEv1: nothing later */

static bool rejected_by_events(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_policy *p,
                               const struct ap_spe_filter_later *l, uint64_t events)
{
	uint64_t mask = AP_SPE_FILTERABLE_EVENTS | l->events;
	uint64_t e = events & mask;
	bool fe = (r->pmsfcr & AP_PMSFCR_FE) != 0;
	bool fne = (r->pmsfcr & AP_PMSFCR_FNE) != 0;
	bool rej = false, nrej = false;
	if (fe) {
		uint64_t m = r->pmsevfr & mask;
		/* UNPREDICTABLE case: IsZero(PMSEVFR_EL1). With the "continue"
		 * choice, m == 0 passes every record: FE behaves as 0. */
		if (r->pmsevfr == 0)
			rej = p->fe_zero_discards;
		else if (~e & m) /* SPE-3.2.2-7: every selected event must be present */
			rej = true;
	}
	if (fne) {
		uint64_t n = l->pmsnevfr & mask;
		if (n == 0) /* LATER-FNE-5: CONSTRAINED UNPREDICTABLE */
			nrej = l->fne_zero_discards;
		else if (e & n) /* LATER-FNE-4: any selected event present rejects */
			nrej = true;
	}
	/* LATER-FNE-6: the same event selected by both filters. */
	if (fe && fne && (r->pmsevfr & l->pmsnevfr & mask))
		return l->fne_overlap_discards;
	return rej || nrej;
}

static bool rejected_by_type(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_policy *p,
                             const struct ap_spe_filter_later *l, unsigned flags)
{
	if (!(r->pmsfcr & AP_PMSFCR_FT))
		return false;
	unsigned ctrl = (unsigned)(r->pmsfcr >> TYPE_SHIFT) & 0x1Fu;
	unsigned mask = (unsigned)(r->pmsfcr >> TYPEM_SHIFT) & 0x1Fu; /* zero without EFT */
	unsigned ctrl_or = ctrl & ~mask, ctrl_and = ctrl & mask;
	/* LATER-EFT-2: OR over the bits without a mask, AND (equality) over
	 * the masked ones; v1 has only the OR part (Table 4). */
	bool is_op = (ctrl_or == 0 || (flags & ctrl_or) != 0) && (flags & mask) == ctrl_and;
	if (l->eft || ctrl != 0)
		return !is_op;
	/* UNPREDICTABLE case: IsZero(PMSFCR_EL1.<B,LD,ST>) without EFT. */
	return p->ft_none_discards; /* else: as if FT == 0 (4.3.9) */
}

bool ap_spe_collect_record(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_policy *p,
                           uint64_t events, uint32_t total_latency, unsigned type_bits)
{
	return ap_spe_collect_record_later(r, p, NULL, events, total_latency, type_bits);
}

bool ap_spe_collect_record_later(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_policy *p,
                                 const struct ap_spe_filter_later *l, uint64_t events,
                                 uint32_t total_latency, unsigned type_bits)
{
	if (!l)
		l = &v1_only;
	if (rejected_by_events(r, p, l, events))
		return false;
	if (rejected_by_type(r, p, l, type_bits)) /* Table 4; OpType_Other is never collected */
		return false;
	if (r->pmsfcr & AP_PMSFCR_FL) {
		uint32_t minlat = (uint32_t)(r->pmslatfr & AP_PMSLATFR_MINLAT_MASK);
		if (minlat == 0 && p->fl_zero_discards) /* UNPREDICTABLE case */
			return false;
		if (total_latency < minlat) /* SPE-3.2.2-8: equal to MINLAT is kept */
			return false;
	}
	return true;
}

bool ap_spe_collect_data_source(const struct ap_spe_filter_regs *r, const struct ap_spe_filter_later *l,
                                bool is_load, bool has_ds, uint16_t ds)
{
	if (!(r->pmsfcr & AP_PMSFCR_FDS) || !is_load || !has_ds)
		return true;
	return (l->pmsdsfr >> (ds & 63u)) & 1u; /* PMSDSFR_EL1<ds<5:0>> */
}

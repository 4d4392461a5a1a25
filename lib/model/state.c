/* The PE state: defaults, access by field name and the consistency check
 * (the pseudocode's predicates on a PE, IsSecure and EL2Enabled: pe.c). */
#include <string.h>
#include <strings.h>

#include "armprof/model.h"
#include "model/state.h"
#include "model/state_fields.h"

void ap_pe_state_init(struct ap_pe_state *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->el = AP_EL1;
	st->scr_el3 = 1ull << AP_SCR_EL3_NS;
	/* Buffer owned by Non-secure EL1, no traps: what Linux sets up. */
	st->mdcr_el3 = 3ull << AP_MDCR_EL3_NSPB;
	st->mdcr_el2 = 3ull << AP_MDCR_EL2_E2PB;
	st->core_powered = true;
	st->timer_enabled = true;
	st->ext_noninvasive = true;
	st->ext_secure_noninvasive = true;
	st->ext_realm_noninvasive = true;
	st->ext_root_noninvasive = true;
}

static const struct ap_state_field *find_field(const char *name)
{
	for (size_t t = 0; t < ap_state_field_table_count; t++)
		for (size_t i = 0; i < ap_state_field_tables[t]->count; i++)
			if (!strcasecmp(ap_state_field_tables[t]->fields[i].name, name))
				return &ap_state_field_tables[t]->fields[i];
	return NULL;
}

static uint64_t field_mask(const struct ap_state_field *f)
{
	return f->width >= 64 ? UINT64_MAX : ((1ull << f->width) - 1) << f->lsb;
}

static uint64_t load_member(const struct ap_pe_state *st, const struct ap_state_field *f)
{
	const unsigned char *p = (const unsigned char *)st + f->offset;
	switch (f->member) {
	case AP_SM_U64: {
		uint64_t v;
		memcpy(&v, p, sizeof(v));
		return v;
	}
	case AP_SM_U16: {
		uint16_t v;
		memcpy(&v, p, sizeof(v));
		return v;
	}
	case AP_SM_BOOL: {
		bool v;
		memcpy(&v, p, sizeof(v));
		return v;
	}
	default:
		return *p;
	}
}

static void store_member(struct ap_pe_state *st, const struct ap_state_field *f, uint64_t v)
{
	unsigned char *p = (unsigned char *)st + f->offset;
	switch (f->member) {
	case AP_SM_U64:
		memcpy(p, &v, sizeof(v));
		break;
	case AP_SM_U16: {
		uint16_t x = (uint16_t)v;
		memcpy(p, &x, sizeof(x));
		break;
	}
	case AP_SM_BOOL: {
		bool x = v != 0;
		memcpy(p, &x, sizeof(x));
		break;
	}
	default:
		*p = (uint8_t)v;
		break;
	}
}

int ap_pe_state_set_field(struct ap_pe_state *st, const char *name, uint64_t value)
{
	const struct ap_state_field *f = find_field(name);
	if (!f)
		return -AP_ERR_INVALID;
	if (f->width < 64 && value >> f->width)
		return -AP_ERR_INVALID; /* does not fit the field */
	uint64_t mask = field_mask(f);
	uint64_t v = load_member(st, f);
	v = (v & ~mask) | ((value << f->lsb) & mask);
	store_member(st, f, v);
	return 0;
}

int ap_pe_state_get_field(const struct ap_pe_state *st, const char *name, uint64_t *value)
{
	const struct ap_state_field *f = find_field(name);
	if (!f)
		return -AP_ERR_INVALID;
	*value = (load_member(st, f) & field_mask(f)) >> f->lsb;
	return 0;
}

/* Is st a state this configuration can be in? */
int ap_pe_state_check(const struct ap_config *cfg, const struct ap_pe_state *st)
{
	if (st->el > AP_EL3)
		return -AP_ERR_INVALID;
	if ((st->el == AP_EL2 && !cfg->have_el2) || (st->el == AP_EL3 && !cfg->have_el3))
		return -AP_ERR_INVALID;
	/* Secure EL2 needs FEAT_SEL2 and SCR_EL3.EEL2 == 1. */
	if (st->el == AP_EL2 && cfg->have_el3 && !((st->scr_el3 >> AP_SCR_EL3_NS) & 1) &&
	    !(cfg->have_sel2 && ((st->scr_el3 >> AP_SCR_EL3_EEL2) & 1)))
		return -AP_ERR_INVALID;
	/* Table 3 "n/a": Non-secure EL1 cannot be entered with HCR_EL2.TGE == 1
	 * (the exception return would be illegal). */
	if (st->el == AP_EL1 && cfg->have_el2 && ((st->hcr_el2 >> AP_HCR_EL2_TGE) & 1) &&
	    (!cfg->have_el3 || ((st->scr_el3 >> AP_SCR_EL3_NS) & 1)))
		return -AP_ERR_INVALID;
	if (st->aarch32 & ~cfg->aarch32_els & 0xF)
		return -AP_ERR_INVALID;
	if (st->aarch32 >> 4)
		return -AP_ERR_INVALID;
	/* A lower EL cannot use AArch64 below a higher EL using AArch32. */
	for (unsigned el = 1; el <= 3; el++)
		if ((st->aarch32 >> el) & 1)
			for (unsigned lower = 0; lower < el; lower++)
				if (!((st->aarch32 >> lower) & 1))
					return -AP_ERR_INVALID;
	if (!cfg->have_vhe && ((st->hcr_el2 >> AP_HCR_EL2_E2H) & 1))
		return -AP_ERR_INVALID; /* E2H is RES0 without FEAT_VHE */
	if (cfg->have_rme && st->el != AP_EL3 && ((st->scr_el3 >> AP_SCR_EL3_NSE) & 1) &&
	    !((st->scr_el3 >> AP_SCR_EL3_NS) & 1))
		return -AP_ERR_INVALID; /* {NSE,NS} = {1,0} is reserved below EL3 */
	return 0;
}

/* struct ap_pe: creation, reset, the host-set PE state and PMBIRQ. */
#include <stdlib.h>
#include <string.h>

#include "model/pe.h"
#include "model/sysreg.h"

int ap_pe_create(const struct ap_config *cfg, const struct ap_host *host,
                 struct ap_pe **out, struct ap_error_ctx *err)
{
	if (!cfg || !out)
		return -AP_ERR_INVALID;
	*out = NULL;
	/* Accept an older, smaller struct: missing fields take the defaults. */
	struct ap_config full;
	ap_config_init(&full);
	size_t n = cfg->size < sizeof(full) ? cfg->size : sizeof(full);
	if (n < sizeof(size_t))
		return -AP_ERR_INVALID;
	memcpy(&full, cfg, n);
	full.size = sizeof(full);
	int rc = ap_config_validate(&full, err);
	if (rc < 0)
		return rc;
	struct ap_pe *pe = calloc(1, sizeof(*pe));
	if (!pe)
		return -AP_ERR_NOMEM;
	pe->cfg = full;
	if (host)
		pe->host = *host;
	ap_pe_state_init(&pe->st);
	pe->pmbirq_level = -1;
	ap_pe_reset(pe);
	*out = pe;
	return 0;
}

void ap_pe_destroy(struct ap_pe *pe)
{
	free(pe);
}

const struct ap_config *ap_pe_config(const struct ap_pe *pe)
{
	return &pe->cfg;
}

void ap_pe_reset(struct ap_pe *pe)
{
	for (size_t t = 0; t < ap_sysreg_table_count; t++)
		if (ap_sysreg_tables[t]->reset)
			ap_sysreg_tables[t]->reset(pe);
	ap_pe_update_pmbirq(pe);
}

int ap_pe_set_state(struct ap_pe *pe, const struct ap_pe_state *st)
{
	if (!st || st->size < sizeof(size_t))
		return -AP_ERR_INVALID;
	struct ap_pe_state next = pe->st;
	size_t n = st->size < sizeof(next) ? st->size : sizeof(next);
	memcpy(&next, st, n);
	next.size = sizeof(next);
	int rc = ap_pe_state_check(&pe->cfg, &next);
	if (rc < 0)
		return rc;
	struct ap_pe_state old = pe->st;
	pe->st = next;
	for (size_t t = 0; t < ap_sysreg_table_count; t++)
		if (ap_sysreg_tables[t]->state_changed)
			ap_sysreg_tables[t]->state_changed(pe, &old);
	return 0;
}

void ap_pe_get_state(const struct ap_pe *pe, struct ap_pe_state *st)
{
	/* st->size says how much the caller's struct holds; 0 means "this
	 * header's struct" (documented in model.h). */
	size_t n = st->size && st->size < sizeof(pe->st) ? st->size : sizeof(pe->st);
	memcpy(st, &pe->st, n);
	st->size = n;
}

void ap_pe_update_pmbirq(struct ap_pe *pe)
{
	/* PMBIRQ is a level output driven by PMBSR_EL1.S (SPE-4.3.4-17). */
	int level = ap_bit(pe->spe_regs.pmbsr_el1, 17);
	if (level == pe->pmbirq_level)
		return;
	pe->pmbirq_level = level;
	if (pe->host.pmbirq)
		pe->host.pmbirq(pe->host.ctx, level);
}

/* The Security state and EL2 predicates of the pseudocode (pe.h). */
bool ap_is_secure(const struct ap_pe *pe)
{
	return ap_pe_security(pe) == AP_SS_SECURE;
}

enum ap_security ap_pe_security(const struct ap_pe *pe)
{
	if (pe->st.el == AP_EL3)
		return pe->cfg.have_rme ? AP_SS_ROOT : AP_SS_SECURE;
	bool ns = ap_scr_ns(pe);
	if (pe->cfg.have_el3 && pe->cfg.have_rme && ap_bit(pe->st.scr_el3, AP_SCR_EL3_NSE))
		return ns ? AP_SS_REALM : AP_SS_SECURE; /* {NSE,NS} = {1,0} is reserved */
	return ns ? AP_SS_NONSECURE : AP_SS_SECURE;
}

bool ap_el2_enabled(const struct ap_pe *pe)
{
	if (!pe->cfg.have_el2)
		return false;
	if (!pe->cfg.have_el3)
		return true;
	return ap_scr_ns(pe) || (pe->cfg.have_sel2 && ap_bit(pe->st.scr_el3, AP_SCR_EL3_EEL2));
}

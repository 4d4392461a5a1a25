/* Direct system-register accesses through the register table: lookup by
 * name and encoding, MRS/MSR with the access check first, peek/poke. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/pe.h"
#include "model/sysreg.h"

const char *ap_access_name(enum ap_access a)
{
	switch (a) {
	case AP_ACCESS_OK: return "OK";
	case AP_ACCESS_UNDEFINED: return "UNDEFINED";
	case AP_ACCESS_TRAP_EL1: return "TRAP EL1";
	case AP_ACCESS_TRAP_EL2: return "TRAP EL2";
	case AP_ACCESS_TRAP_EL3: return "TRAP EL3";
	}
	return "?";
}

uint32_t ap_sysreg_trap_iss(uint32_t reg, unsigned rt, bool read)
{
	return AP_SYSREG_OP0(reg) << 20 | AP_SYSREG_OP2(reg) << 17 | AP_SYSREG_OP1(reg) << 14 |
	       AP_SYSREG_CRN(reg) << 10 | (rt & 31u) << 5 | AP_SYSREG_CRM(reg) << 1 | (read ? 1u : 0u);
}

const struct ap_sysreg *ap_sysreg_find(uint32_t enc)
{
	for (size_t t = 0; t < ap_sysreg_table_count; t++)
		for (size_t i = 0; i < ap_sysreg_tables[t]->count; i++)
			if (ap_sysreg_tables[t]->regs[i].enc == enc)
				return &ap_sysreg_tables[t]->regs[i];
	return NULL;
}

const struct ap_sysreg *ap_sysreg_find_name(const char *name)
{
	for (size_t t = 0; t < ap_sysreg_table_count; t++)
		for (size_t i = 0; i < ap_sysreg_tables[t]->count; i++)
			if (!strcasecmp(ap_sysreg_tables[t]->regs[i].name, name))
				return &ap_sysreg_tables[t]->regs[i];
	return NULL;
}

/* "S3_0_C9_C9_0" (case-insensitive) -> encoding. */
static int parse_generic(const char *name, uint32_t *enc)
{
	unsigned op0, op1, crn, crm, op2;
	char tail;
	char up[32];
	size_t n = strlen(name);
	if (n >= sizeof(up))
		return -AP_ERR_INVALID;
	for (size_t i = 0; i <= n; i++)
		up[i] = (char)toupper((unsigned char)name[i]);
	if (sscanf(up, "S%u_%u_C%u_C%u_%u%c", &op0, &op1, &crn, &crm, &op2, &tail) != 5)
		return -AP_ERR_INVALID;
	if (op0 > 3 || op1 > 7 || crn > 15 || crm > 15 || op2 > 7)
		return -AP_ERR_INVALID;
	*enc = AP_SYSREG(op0, op1, crn, crm, op2);
	return 0;
}

int ap_sysreg_lookup(const char *name, uint32_t *reg)
{
	const struct ap_sysreg *r = ap_sysreg_find_name(name);
	if (r) {
		*reg = r->enc;
		return 0;
	}
	return parse_generic(name, reg);
}

const char *ap_sysreg_name(uint32_t reg)
{
	const struct ap_sysreg *r = ap_sysreg_find(reg);
	return r ? r->name : NULL;
}

int ap_sysreg_enum(size_t index, uint32_t *reg)
{
	for (size_t t = 0; t < ap_sysreg_table_count; t++) {
		if (index < ap_sysreg_tables[t]->count) {
			*reg = ap_sysreg_tables[t]->regs[index].enc;
			return 0;
		}
		index -= ap_sysreg_tables[t]->count;
	}
	return -AP_ERR_INVALID;
}

void ap_sysreg_masks(const struct ap_pe *pe, const struct ap_sysreg *r, uint64_t *res0, uint64_t *res1)
{
	uint64_t z = r->res0, o = r->res1;
	if (r->dyn_masks) {
		uint64_t dz = 0, d1 = 0;
		r->dyn_masks(pe, &dz, &d1);
		z |= dz;
		o |= d1;
	}
	*res0 = z & ~o;
	*res1 = o;
}

uint64_t ap_sysreg_merge(const struct ap_pe *pe, const struct ap_sysreg *r, uint64_t old, uint64_t v)
{
	uint64_t res0, res1;
	ap_sysreg_masks(pe, r, &res0, &res1);
	uint64_t keep = res0 | res1 | r->ro;
	return ((old & keep) | (v & ~keep) | res1) & ~res0;
}

uint64_t ap_sysreg_get(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	if (r->read)
		return r->read(pe, r);
	uint64_t v;
	memcpy(&v, (const unsigned char *)pe + r->storage, sizeof(v));
	return v;
}

void ap_sysreg_set(struct ap_pe *pe, const struct ap_sysreg *r, uint64_t v)
{
	if (r->write) {
		r->write(pe, r, v);
		return;
	}
	memcpy((unsigned char *)pe + r->storage, &v, sizeof(v));
}

static const struct ap_sysreg *resolve(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	return r->redirect ? r->redirect(pe, r) : r;
}

int ap_pe_mrs(struct ap_pe *pe, uint32_t reg, uint64_t *value)
{
	const struct ap_sysreg *r = ap_sysreg_find(reg);
	if (!r)
		return -AP_ERR_INVALID;
	r = resolve(pe, r);
	if (!(r->flags & AP_SR_R))
		return AP_ACCESS_UNDEFINED;
	int a = r->check(pe, r, false);
	if (a == AP_ACCESS_ABSENT)
		return -AP_ERR_INVALID;
	if (a == AP_ACCESS_NVMEM) {
		uint64_t v = 0;
		if (pe->host.nvmem_read)
			pe->host.nvmem_read(pe->host.ctx, pe->st.vncr_el2 + r->nv_offset, &v);
		*value = v;
		return AP_ACCESS_OK;
	}
	if (a == AP_ACCESS_OK)
		*value = ap_sysreg_get(pe, r);
	return a;
}

int ap_pe_msr(struct ap_pe *pe, uint32_t reg, uint64_t value)
{
	const struct ap_sysreg *r = ap_sysreg_find(reg);
	if (!r)
		return -AP_ERR_INVALID;
	r = resolve(pe, r);
	/* An MSR to a read-only encoding is UNDEFINED (DDI 0487; SPE-4.1-2). */
	if (!(r->flags & AP_SR_W))
		return AP_ACCESS_UNDEFINED;
	int a = r->check(pe, r, true);
	if (a == AP_ACCESS_ABSENT)
		return -AP_ERR_INVALID;
	if (a == AP_ACCESS_NVMEM) {
		if (pe->host.nvmem_write)
			pe->host.nvmem_write(pe->host.ctx, pe->st.vncr_el2 + r->nv_offset, value);
		return AP_ACCESS_OK;
	}
	if (a != AP_ACCESS_OK)
		return a;
	ap_sysreg_set(pe, r, ap_sysreg_merge(pe, r, ap_sysreg_get(pe, r), value));
	if (r->written)
		r->written(pe, r);
	return AP_ACCESS_OK;
}

int ap_pe_check_access(const struct ap_pe *pe, uint32_t reg, bool write)
{
	const struct ap_sysreg *r = ap_sysreg_find(reg);
	if (!r)
		return -AP_ERR_INVALID;
	r = resolve(pe, r);
	if (!(r->flags & (write ? AP_SR_W : AP_SR_R)))
		return AP_ACCESS_UNDEFINED;
	int a = r->check(pe, r, write);
	if (a == AP_ACCESS_ABSENT)
		return -AP_ERR_INVALID;
	return a == AP_ACCESS_NVMEM ? AP_ACCESS_OK : a;
}

/* A register of a feature the configuration lacks is not there to peek or
 * poke either (its check says so before looking at any state). */
static bool absent(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	return r->check && r->check(pe, r, false) == AP_ACCESS_ABSENT;
}

int ap_pe_peek(const struct ap_pe *pe, uint32_t reg, uint64_t *value)
{
	const struct ap_sysreg *r = ap_sysreg_find(reg);
	if (!r || absent(pe, r))
		return -AP_ERR_INVALID;
	*value = ap_sysreg_get(pe, r);
	return 0;
}

int ap_pe_poke(struct ap_pe *pe, uint32_t reg, uint64_t value)
{
	const struct ap_sysreg *r = ap_sysreg_find(reg);
	if (!r || absent(pe, r))
		return -AP_ERR_INVALID;
	if (!(r->flags & AP_SR_W))
		return -AP_ERR_INVALID; /* computed (ID) registers have no storage */
	uint64_t res0, res1;
	ap_sysreg_masks(pe, r, &res0, &res1);
	ap_sysreg_set(pe, r, (value | res1) & ~res0);
	if (r->written)
		r->written(pe, r);
	return 0;
}

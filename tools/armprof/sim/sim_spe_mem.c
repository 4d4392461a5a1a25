/* The host memory behind the Profiling Buffer in `armprof sim`. */
#include "sim_spe_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sim_mem_map(struct sim_mem *m, uint64_t base, uint64_t size, char *err, size_t errlen)
{
	if (size == 0 || base + size < base) {
		snprintf(err, errlen, "mem map: empty or wrapping region");
		return -1;
	}
	if (m->n_regions == SIM_MEM_MAX_REGIONS) {
		snprintf(err, errlen, "mem map: at most %d regions", SIM_MEM_MAX_REGIONS);
		return -1;
	}
	if (size > SIM_MEM_MAX_BYTES - m->mapped_bytes) {
		snprintf(err, errlen, "mem map: at most %llu MiB of memory in all",
		         (unsigned long long)(SIM_MEM_MAX_BYTES >> 20));
		return -1;
	}
	for (unsigned i = 0; i < m->n_regions; i++) {
		const struct sim_mem_region *r = &m->region[i];
		if (base < r->base + r->size && r->base < base + size) {
			snprintf(err, errlen, "mem map: overlaps the region at 0x%llx",
			         (unsigned long long)r->base);
			return -1;
		}
	}
	uint8_t *bytes = calloc(1, size);
	if (!bytes) {
		snprintf(err, errlen, "mem map: out of memory");
		return -1;
	}
	m->region[m->n_regions++] = (struct sim_mem_region){ base, size, bytes };
	m->mapped_bytes += size;
	return 0;
}

int sim_mem_add_fault(struct sim_mem *m, uint64_t addr, const struct ap_mem_fault *f, char *err,
                      size_t errlen)
{
	sim_mem_remove_fault(m, addr);
	if (m->n_faults == SIM_MEM_MAX_FAULTS) {
		snprintf(err, errlen, "mem fault: at most %d faults", SIM_MEM_MAX_FAULTS);
		return -1;
	}
	m->fault[m->n_faults].addr = addr;
	m->fault[m->n_faults].f = *f;
	m->n_faults++;
	return 0;
}

void sim_mem_remove_fault(struct sim_mem *m, uint64_t addr)
{
	for (unsigned i = 0; i < m->n_faults; i++)
		if (m->fault[i].addr == addr) {
			m->fault[i] = m->fault[--m->n_faults];
			return;
		}
}

static struct sim_mem_region *holding(const struct sim_mem *m, uint64_t addr)
{
	for (unsigned i = 0; i < m->n_regions; i++) {
		const struct sim_mem_region *r = &m->region[i];
		if (addr >= r->base && addr - r->base < r->size)
			return (struct sim_mem_region *)r;
	}
	return NULL;
}

const struct sim_mem_region *sim_mem_region_of(const struct sim_mem *m, uint64_t addr)
{
	const struct sim_mem_region *r = holding(m, addr);
	if (r)
		return r;
	for (unsigned i = 0; i < m->n_regions; i++)
		if (m->region[i].base + m->region[i].size == addr)
			return &m->region[i];
	return NULL;
}

void sim_mem_read(const struct sim_mem *m, uint64_t from, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		const struct sim_mem_region *r = holding(m, from + i);
		out[i] = r ? r->bytes[from + i - r->base] : 0;
	}
}

void sim_mem_free(struct sim_mem *m)
{
	for (unsigned i = 0; i < m->n_regions; i++)
		free(m->region[i].bytes);
	memset(m, 0, sizeof(*m));
}

int sim_mem_buffer_write(void *ctx, uint64_t va, const uint8_t *bytes, size_t len,
                         struct ap_mem_fault *fault)
{
	struct sim_mem *m = ctx;
	m->writes++;
	/* The first faulting byte: an injected fault, or the first unmapped byte. */
	uint64_t stop = va + len;
	const struct ap_mem_fault *why = NULL;
	for (unsigned i = 0; i < m->n_faults; i++)
		if (m->fault[i].addr >= va && m->fault[i].addr < stop) {
			stop = m->fault[i].addr;
			why = &m->fault[i].f;
		}
	static const struct ap_mem_fault unmapped = { AP_MEMF_TRANSLATION, 1, 3, 0 };
	for (uint64_t a = va; a < stop;) {
		struct sim_mem_region *r = holding(m, a);
		if (!r) {
			stop = a;
			why = &unmapped;
			break;
		}
		uint64_t end = r->base + r->size < stop ? r->base + r->size : stop;
		memcpy(r->bytes + (a - r->base), bytes + (a - va), end - a);
		a = end;
	}
	if (!why)
		return 0;
	*fault = *why;
	fault->va = stop;
	return 1;
}

static const struct {
	const char *name;
	uint8_t kind;
} kinds[] = {
	{ "translation", AP_MEMF_TRANSLATION },
	{ "address-size", AP_MEMF_ADDRESS_SIZE },
	{ "access-flag", AP_MEMF_ACCESS_FLAG },
	{ "permission", AP_MEMF_PERMISSION },
	{ "alignment", AP_MEMF_ALIGNMENT },
	{ "tlb-conflict", AP_MEMF_TLB_CONFLICT },
	{ "unsupported", AP_MEMF_UNSUPPORTED_ACCESS },
	{ "external", AP_MEMF_EXT_ABORT },
	{ "external-walk", AP_MEMF_EXT_ABORT_WALK },
};

int sim_mem_parse_fault_kind(const char *name, struct ap_mem_fault *f)
{
	char base[32];
	size_t n = strlen(name);
	if (n >= sizeof(base))
		return -1;
	memcpy(base, name, n + 1);
	f->stage = 1;
	if (n > 3 && !strcasecmp(base + n - 3, "-s2")) { /* "permission-s2": stage 2 */
		base[n - 3] = 0;
		f->stage = 2;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcasecmp(base, kinds[i].name)) {
			f->kind = kinds[i].kind;
			return 0;
		}
	return -1;
}

const char *sim_mem_fault_kind_list(void)
{
	return "translation, address-size, access-flag, permission, alignment, tlb-conflict, "
	       "unsupported, external, external-walk (add -s2 for stage 2; external-sync and "
	       "external-async name external with the matching spe.ext_abort)";
}

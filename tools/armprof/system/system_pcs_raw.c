/* The PC-sampling agent's raw file: see system_pcs_raw.h. */
#include "system_pcs_raw.h"

#include <stdio.h>
#include <string.h>

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The header both agents' files share: an 8-byte magic, then version 1,
 * the vCPU count, the period (ns) and one word of the agent's own at 24
 * (*word24). Returns 0, or -1 with err naming the offset. */
static int raw_header(const uint8_t *buf, size_t len, const char *magic, const char *what,
                      uint32_t *ncpus, uint64_t *period_ns, uint32_t *word24, char *err, size_t errlen)
{
	if (len < PCS_RAW_HEADER || memcmp(buf, magic, 8)) {
		snprintf(err, errlen, "offset 0: not a %s's file (no %s header)", what, magic);
		return -1;
	}
	uint32_t version = get32(buf + 8);
	*ncpus = get32(buf + 12);
	*period_ns = get64(buf + 16);
	*word24 = get32(buf + 24);
	if (version != 1) {
		snprintf(err, errlen, "offset 8: version %u (this armprof reads 1)", version);
		return -1;
	}
	if (*ncpus == 0 || *ncpus > 4096) {
		snprintf(err, errlen, "offset 12: %u vCPUs", *ncpus);
		return -1;
	}
	if (*period_ns == 0) {
		snprintf(err, errlen, "offset 16: period 0");
		return -1;
	}
	return 0;
}

int pcs_raw_open(struct pcs_raw *r, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (raw_header(buf, len, "APPCSRAW", "PC-sampling agent", &r->ncpus, &r->period_ns, &r->layout, err,
	               errlen))
		return -1;
	if (r->layout > 2) {
		snprintf(err, errlen, "offset 24: layout %u (0, 1 or 2)", r->layout);
		return -1;
	}
	r->buf = buf;
	r->len = len;
	r->pos = PCS_RAW_HEADER;
	return 0;
}

int pcs_raw_next(struct pcs_raw *r, struct pcs_record *out, char *err, size_t errlen)
{
	if (r->pos == r->len)
		return 0;
	if (r->len - r->pos < PCS_RAW_RECORD) {
		snprintf(err, errlen, "offset %zu: a record cut short (%zu of %d bytes)", r->pos, r->len - r->pos,
		         PCS_RAW_RECORD);
		return -1;
	}
	const uint8_t *p = r->buf + r->pos;
	memset(out, 0, sizeof(*out));
	out->time_ns = get64(p);
	out->cpu = get32(p + 8);
	if (out->cpu >= r->ncpus) {
		snprintf(err, errlen, "offset %zu: vCPU %u of %u", r->pos + 8, out->cpu, r->ncpus);
		return -1;
	}
	uint32_t status = get32(p + 12);
	out->pmpcsr = get64(p + 16);
	uint64_t cid = get64(p + 24), vid = get64(p + 32);
	r->pos += PCS_RAW_RECORD;
	if (status & 1) {
		out->kind = PCS_ERROR;
		return 1;
	}
	/* 0xFFFFFFFF is never an instruction's address (A64 and T32 PCs are even). */
	if ((uint32_t)out->pmpcsr == 0xFFFFFFFFu) {
		out->kind = PCS_NO_SAMPLE;
		return 1;
	}
	/* PMPCSR (DDI 0487 I5.3.41): NS [63], EL [62:61], PCSample [55:0]. */
	uint64_t pc = out->pmpcsr & 0x00ffffffffffffffull;
	out->pc = (pc & (1ull << 55)) ? pc | 0xff00000000000000ull : pc;
	out->el = (unsigned)(out->pmpcsr >> 61) & 3;
	out->ns = out->pmpcsr >> 63;
	out->contextidr_el1 = (uint32_t)cid;
	out->contextidr_el2 = (uint32_t)(cid >> 32);
	out->vmid = (uint16_t)(vid >> 32);
	return 1;
}

int ss_raw_open(struct ss_raw *r, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (raw_header(buf, len, "APSSRAW1", "snapshot agent", &r->ncpus, &r->period_ns, &r->counters, err, errlen))
		return -1;
	if (r->counters > SS_RAW_MAX_COUNTERS) {
		snprintf(err, errlen, "offset 24: %u event counters (at most %d)", r->counters, SS_RAW_MAX_COUNTERS);
		return -1;
	}
	r->buf = buf;
	r->len = len;
	r->pos = PCS_RAW_HEADER;
	return 0;
}

int ss_raw_next(struct ss_raw *r, struct ss_record *out, char *err, size_t errlen)
{
	size_t size = 32 + 8 * (size_t)r->counters;
	if (r->pos == r->len)
		return 0;
	if (r->len - r->pos < size) {
		snprintf(err, errlen, "offset %zu: a record cut short (%zu of %zu bytes)", r->pos, r->len - r->pos,
		         size);
		return -1;
	}
	const uint8_t *p = r->buf + r->pos;
	memset(out, 0, sizeof(*out));
	out->time_ns = get64(p);
	out->cpu = get32(p + 8);
	if (out->cpu >= r->ncpus) {
		snprintf(err, errlen, "offset %zu: vCPU %u of %u", r->pos + 8, out->cpu, r->ncpus);
		return -1;
	}
	uint32_t status = get32(p + 12);
	out->error = status & 1;
	out->captured = !(status & 2);
	out->pmsscr = get64(p + 16);
	out->ccntsvr = get64(p + 24);
	for (uint32_t n = 0; n < r->counters; n++)
		out->evcntsvr[n] = get64(p + 32 + 8 * n);
	r->pos += size;
	return 1;
}

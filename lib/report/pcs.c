/* The statistics per distinct PC, compact (report_internal.h, struct
 * report_pcs). A report of millions of distinct PCs (a fleet's capture)
 * holds most of them with one record or a few: their records' digests
 * (12 bytes each) are kept rather than full statistics (920 bytes, most of
 * it the latency histogram), and counted when a row is shown. A PC of more
 * than REPORT_PC_DIGESTS records gets a small summary (196 bytes, exact up
 * to REPORT_SMALL_MAX records), then its full statistics: a PC's memory is
 * bounded whatever its records, and what a PC gives up (a block, a
 * summary) the next PC takes, so that no size class keeps the high-water
 * mark of PCs that have all moved on. Adding a record allocates only when
 * a table grows. */
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

int report_pcs_init(struct report_pcs *p)
{
	memset(p, 0, sizeof(*p));
	p->index_cap = 1024;
	p->index = calloc(p->index_cap, sizeof(*p->index));
	return p->index ? 0 : -AP_ERR_NOMEM;
}

void report_pcs_free(struct report_pcs *p)
{
	free(p->v);
	free(p->index);
	free(p->digests);
	free(p->small);
	free(p->full);
	memset(p, 0, sizeof(*p));
}

static size_t slot_of(uint64_t pc, size_t mask)
{
	uint64_t h = (pc >> 2) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 32) & mask;
}

/* The index slot of pc: where its entry is, or the empty slot where it goes. */
static size_t pc_slot(const struct report_pcs *p, uint64_t pc)
{
	size_t mask = p->index_cap - 1, i = slot_of(pc, mask);
	while (p->index[i] && p->v[p->index[i] - 1].pc != pc)
		i = (i + 1) & mask;
	return i;
}

long report_pcs_find(const struct report_pcs *p, uint64_t pc)
{
	if (!p->index)
		return -1;
	uint32_t k = p->index[pc_slot(p, pc)];
	return k ? (long)k - 1 : -1;
}

static int grow_index(struct report_pcs *p)
{
	size_t cap = p->index_cap * 2;
	uint32_t *index = calloc(cap, sizeof(*index));
	if (!index)
		return -AP_ERR_NOMEM;
	free(p->index);
	p->index = index;
	p->index_cap = cap;
	for (size_t k = 0; k < p->n; k++)
		p->index[pc_slot(p, p->v[k].pc)] = (uint32_t)(k + 1);
	return 0;
}

static int reserve(void **v, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need <= *cap)
		return 0;
	/* by half again: glibc moves a large block with mremap, without a copy */
	size_t c = *cap ? *cap : first;
	while (c < need)
		c += c / 2;
	void *q = realloc(*v, c * elem);
	if (!q)
		return -AP_ERR_NOMEM;
	*v = q;
	*cap = c;
	return 0;
}

/* The size class of a block holding n digests (2 <= n <= REPORT_PC_DIGESTS). */
static unsigned class_of(uint32_t n)
{
	unsigned c = 0;
	while ((2u << c) < n)
		c++;
	return c;
}

/* A block of 2 << c digests: a freed one, or new at the pool's end. Returns
 * its first digest's index, or UINT32_MAX. */
static uint32_t block_alloc(struct report_pcs *p, unsigned c)
{
	uint32_t b = p->free_block[c];
	if (b) {
		uint32_t next;
		memcpy(&next, &p->digests[b - 1], sizeof(next));
		p->free_block[c] = next;
		p->live_digests += 2u << c;
		return b - 1;
	}
	size_t size = 2u << c;
	if (p->n_digests + size >= UINT32_MAX ||
	    reserve((void **)&p->digests, &p->cap_digests, p->n_digests + size, sizeof(*p->digests), 1024) < 0)
		return UINT32_MAX;
	b = (uint32_t)p->n_digests;
	p->n_digests += size;
	p->live_digests += size;
	return b;
}

static void block_free(struct report_pcs *p, uint32_t b, unsigned c)
{
	memcpy(&p->digests[b], &p->free_block[c], sizeof(p->free_block[c]));
	p->free_block[c] = b + 1;
	p->live_digests -= 2u << c;
}

/* When most of the pool is free blocks (their PCs moved on to summaries),
 * the blocks in use are moved into a pool of their size and the old one
 * given back: the pool follows the PCs that hold digests now, not all that
 * ever did. Without memory for the new pool, the old one stays. */
static void compact(struct report_pcs *p)
{
	if (p->n_digests < 65536 || p->n_digests - p->live_digests <= 2 * p->live_digests)
		return;
	struct report_digest *v = malloc((p->live_digests ? p->live_digests : 1) * sizeof(*v));
	if (!v)
		return;
	size_t at = 0;
	for (size_t k = 0; k < p->n; k++) {
		struct report_pc *e = &p->v[k];
		if (e->n < 2 || e->n > REPORT_PC_DIGESTS)
			continue;
		size_t size = 2u << class_of(e->n);
		memcpy(&v[at], &p->digests[e->ref], size * sizeof(*v));
		e->ref = (uint32_t)at;
		at += size;
	}
	free(p->digests);
	p->digests = v;
	p->n_digests = p->cap_digests = at;
	memset(p->free_block, 0, sizeof(p->free_block));
}

static const struct report_digest *digests_of(const struct report_pcs *p, const struct report_pc *e)
{
	return e->n == 1 ? &e->one : &p->digests[e->ref];
}

/* Entry e's REPORT_PC_DIGESTS digests become a small summary. */
static int to_small(struct report_pcs *p, struct report_pc *e)
{
	uint32_t k;
	if (p->free_small) {
		k = p->free_small - 1;
		memcpy(&p->free_small, &p->small[k], sizeof(p->free_small));
	} else {
		if (p->n_small >= UINT32_MAX - 1 ||
		    reserve((void **)&p->small, &p->cap_small, p->n_small + 1, sizeof(*p->small), 256) < 0)
			return -AP_ERR_NOMEM;
		k = (uint32_t)p->n_small++;
	}
	struct report_small *s = &p->small[k];
	memset(s, 0, sizeof(*s));
	for (uint32_t i = 0; i < e->n; i++)
		report_small_add_digest(s, &p->digests[e->ref + i]);
	block_free(p, e->ref, class_of(e->n));
	e->n = REPORT_PC_SMALL;
	e->ref = k;
	return 0;
}

/* Entry e's small summary (full: REPORT_SMALL_MAX records) becomes full
 * statistics; the summary is free for the next PC. */
static int to_full(struct report_pcs *p, struct report_pc *e)
{
	if (p->n_full >= UINT32_MAX - 1 ||
	    reserve((void **)&p->full, &p->cap_full, p->n_full + 1, sizeof(*p->full), 16) < 0)
		return -AP_ERR_NOMEM;
	struct ap_report_stats *s = &p->full[p->n_full];
	memset(s, 0, sizeof(*s));
	report_small_merge(s, &p->small[e->ref]);
	memcpy(&p->small[e->ref], &p->free_small, sizeof(p->free_small));
	p->free_small = e->ref + 1;
	e->n = REPORT_PC_FULL;
	e->ref = (uint32_t)p->n_full++;
	return 0;
}

/* Room for one more digest in e's block (e->n >= 1, not full). */
static int grow_block(struct report_pcs *p, struct report_pc *e)
{
	if (e->n >= 2 && (e->n & (e->n - 1)))
		return 0; /* its block, of the power of 2 above n, has room */
	unsigned c = e->n == 1 ? 0 : class_of(e->n) + 1;
	uint32_t b = block_alloc(p, c); /* may move the pool */
	if (b == UINT32_MAX)
		return -AP_ERR_NOMEM;
	if (e->n == 1) {
		p->digests[b] = e->one;
	} else {
		memcpy(&p->digests[b], &p->digests[e->ref], e->n * sizeof(*p->digests));
		block_free(p, e->ref, class_of(e->n));
	}
	e->ref = b;
	return 0;
}

int report_pcs_add(struct report_pcs *p, uint64_t pc, const struct report_digest *d)
{
	size_t i = pc_slot(p, pc);
	if (!p->index[i]) {
		if (p->n >= UINT32_MAX - 1)
			return -AP_ERR_NOMEM;
		if ((p->n + 1) * 2 > p->index_cap) {
			if (grow_index(p) < 0)
				return -AP_ERR_NOMEM;
			i = pc_slot(p, pc);
		}
		if (reserve((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v), 256) < 0)
			return -AP_ERR_NOMEM;
		struct report_pc *e = &p->v[p->n];
		memset(e, 0, sizeof(*e));
		e->pc = pc;
		e->n = 1;
		e->one = *d;
		p->index[i] = (uint32_t)++p->n;
		return 0;
	}
	struct report_pc *e = &p->v[p->index[i] - 1];
	if (e->n == REPORT_PC_FULL) {
		report_stats_add_digest(&p->full[e->ref], d);
		return 0;
	}
	if (e->n == REPORT_PC_SMALL) {
		if (p->small[e->ref].samples < REPORT_SMALL_MAX) {
			report_small_add_digest(&p->small[e->ref], d);
			return 0;
		}
		if (to_full(p, e) < 0)
			return -AP_ERR_NOMEM;
		report_stats_add_digest(&p->full[e->ref], d);
		return 0;
	}
	if (e->n == REPORT_PC_DIGESTS) {
		if (to_small(p, e) < 0)
			return -AP_ERR_NOMEM;
		report_small_add_digest(&p->small[e->ref], d);
		compact(p);
		return 0;
	}
	if (grow_block(p, e) < 0)
		return -AP_ERR_NOMEM;
	p->digests[e->ref + e->n++] = *d;
	compact(p);
	return 0;
}

uint64_t report_pcs_samples(const struct report_pcs *p, size_t k)
{
	const struct report_pc *e = &p->v[k];
	if (e->n == REPORT_PC_FULL)
		return p->full[e->ref].samples;
	return e->n == REPORT_PC_SMALL ? p->small[e->ref].samples : e->n;
}

void report_pcs_merge(const struct report_pcs *p, size_t k, struct ap_report_stats *into)
{
	const struct report_pc *e = &p->v[k];
	if (e->n == REPORT_PC_FULL) {
		report_stats_merge(into, &p->full[e->ref]);
		return;
	}
	if (e->n == REPORT_PC_SMALL) {
		report_small_merge(into, &p->small[e->ref]);
		return;
	}
	const struct report_digest *d = digests_of(p, e);
	for (uint32_t i = 0; i < e->n; i++)
		report_stats_add_digest(into, &d[i]);
}

void report_pcs_stats(const struct report_pcs *p, size_t k, struct ap_report_stats *out)
{
	memset(out, 0, sizeof(*out));
	report_pcs_merge(p, k, out);
}

void report_pcs_weights(const struct report_pcs *p, size_t k, uint64_t w[AP_REPORT_N_KEYS])
{
	const struct report_pc *e = &p->v[k];
	if (e->n == REPORT_PC_FULL) {
		for (int key = 0; key < AP_REPORT_N_KEYS; key++)
			w[key] = ap_report_key_count(&p->full[e->ref], (enum ap_report_key)key);
		return;
	}
	if (e->n == REPORT_PC_SMALL) {
		report_small_weights(&p->small[e->ref], w);
		return;
	}
	memset(w, 0, AP_REPORT_N_KEYS * sizeof(*w));
	const struct report_digest *d = digests_of(p, e);
	for (uint32_t i = 0; i < e->n; i++)
		report_digest_weights(&d[i], w);
}

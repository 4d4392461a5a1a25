/* The distinct samples of `armprof report --format pprof`: see
 * report_pprof_samples.h. A sample is a distinct (stack, operation, data
 * source, event set); the sets are few and kept once each. */
#include "report_pprof_samples.h"

#include <stdlib.h>
#include <string.h>

#include "armprof/codec.h"
#include "armprof/data_source.h"
#include "report_pprof.h"

struct report_pprof *report_pprof_create(void)
{
	return calloc(1, sizeof(struct report_pprof));
}

void report_pprof_destroy(struct report_pprof *p)
{
	if (!p)
		return;
	free(p->pool);
	free(p->e);
	free(p->index.slot);
	free(p->labels);
	free(p->label_index.slot);
	free(p);
}

static uint64_t label_hash(const struct pprof_label *l)
{
	return report_pprof_mix(report_pprof_mix(l->events, (uint64_t)(l->ds + 1)), l->op);
}

static uint64_t sample_hash(uint32_t label, const uint64_t *f, uint32_t n)
{
	uint64_t h = report_pprof_mix(n, label);
	for (uint32_t i = 0; i < n; i++)
		h = report_pprof_mix(h, f[i]);
	return h;
}

int pprof_table_grow(struct pprof_table *t, size_t n, uint64_t (*hash)(const void *ctx, size_t k), const void *ctx)
{
	if ((n + 1) * 2 <= t->cap)
		return 0;
	size_t cap = t->cap ? 2 * t->cap : 1024;
	uint32_t *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t k = 0; k < n; k++) {
		size_t i = hash(ctx, k) & (cap - 1);
		while (slot[i])
			i = (i + 1) & (cap - 1);
		slot[i] = (uint32_t)(k + 1);
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

static uint64_t hash_label_k(const void *ctx, size_t k)
{
	const struct report_pprof *p = ctx;
	return label_hash(&p->labels[k]);
}

static uint64_t hash_entry_k(const void *ctx, size_t k)
{
	const struct report_pprof *p = ctx;
	const struct pprof_sample *e = &p->e[k];
	return sample_hash(e->label, pprof_frames(p, e), e->n);
}

int report_pprof_reserve(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 256;
	while (c < need)
		c *= 2;
	void *n = realloc(*v, c * size);
	if (!n)
		return -1;
	*v = n;
	*cap = c;
	return 0;
}

/* The index of label l in p->labels, added if new; UINT32_MAX out of memory. */
static uint32_t label_of(struct report_pprof *p, const struct pprof_label *l)
{
	if (pprof_table_grow(&p->label_index, p->n_labels, hash_label_k, p) < 0)
		return UINT32_MAX;
	const struct pprof_table *t = &p->label_index;
	size_t i = label_hash(l) & (t->cap - 1);
	for (const struct pprof_label *x; t->slot[i]; i = (i + 1) & (t->cap - 1)) {
		x = &p->labels[t->slot[i] - 1];
		if (x->events == l->events && x->ds == l->ds && x->op == l->op)
			break;
	}
	if (p->label_index.slot[i])
		return p->label_index.slot[i] - 1;
	if (p->n_labels >= UINT32_MAX - 1 ||
	    report_pprof_reserve((void **)&p->labels, &p->cap_labels, p->n_labels + 1, sizeof(*p->labels)) < 0)
		return UINT32_MAX;
	p->labels[p->n_labels] = *l;
	p->label_index.slot[i] = (uint32_t)++p->n_labels;
	return (uint32_t)(p->n_labels - 1);
}

int report_pprof_add(struct report_pprof *p, const struct ap_record *rec, const uint64_t *frames, size_t n,
                     enum ap_ds_encoding enc)
{
	if (!(rec->has & AP_HAS_PC))
		return 0;
	if (!n) {
		frames = &rec->pc;
		n = 1;
	}
	if (n > UINT32_MAX || p->n >= UINT32_MAX - 1)
		return -1;
	struct pprof_label l = { .ds = -1, .events = (rec->has & AP_HAS_EVENTS) ? rec->events : 0 };
	if (rec->has & AP_HAS_OP) {
		const char *op = ap_record_op_name(rec);
		l.op = op[0] == 'L' ? 1 : op[0] == 'S' ? 2 : op[0] == 'B' ? 3 : op[0] == 'O' ? 4 : 5;
	}
	if (rec->has & AP_HAS_DATA_SOURCE) /* counted as the report counts it */
		l.ds = enc == AP_DS_ENC_RAW ? (int32_t)rec->data_source : ap_ds_common(enc, rec->data_source);
	uint32_t label = label_of(p, &l);
	if (label == UINT32_MAX || pprof_table_grow(&p->index, p->n, hash_entry_k, p) < 0)
		return -1;
	const struct pprof_table *t = &p->index;
	size_t i = sample_hash(label, frames, (uint32_t)n) & (t->cap - 1);
	for (const struct pprof_sample *x; t->slot[i]; i = (i + 1) & (t->cap - 1)) {
		x = &p->e[t->slot[i] - 1];
		if (x->label == label && x->n == n && !memcmp(pprof_frames(p, x), frames, n * sizeof(*frames)))
			break;
	}
	struct pprof_sample *e;
	if (p->index.slot[i]) {
		e = &p->e[p->index.slot[i] - 1];
	} else {
		if (report_pprof_reserve((void **)&p->e, &p->cap, p->n + 1, sizeof(*p->e)) < 0)
			return -1;
		e = &p->e[p->n];
		*e = (struct pprof_sample){ .at = frames[0], .n = (uint32_t)n, .label = label };
		if (n > 1) {
			if (report_pprof_reserve((void **)&p->pool, &p->cap_pool, p->n_pool + n, sizeof(*p->pool)) < 0)
				return -1;
			memcpy(p->pool + p->n_pool, frames, n * sizeof(*frames));
			e->at = p->n_pool;
			p->n_pool += n;
		}
		p->index.slot[i] = (uint32_t)++p->n;
	}
	e->samples++;
	e->latency += (rec->has & AP_HAS_LAT_TOTAL) ? rec->lat_total : 0;
	return 0;
}

void report_pprof_sample_values(const struct report_pprof *p, const struct pprof_sample *e, uint64_t v[PPROF_N_VALUES])
{
	uint64_t ev = p->labels[e->label].events;
	v[0] = e->samples;
	v[1] = e->latency;
	v[2] = ev & AP_EV_L1D_REFILL ? e->samples : 0;
	v[3] = ev & AP_EV_LLC_MISS ? e->samples : 0;
	v[4] = ev & AP_EV_TLB_WALK ? e->samples : 0;
	v[5] = ev & AP_EV_MISPREDICTED ? e->samples : 0;
}


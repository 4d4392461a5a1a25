/* The distinct samples of `armprof report --format pprof` between two
 * writes: see report_pprof_samples.h. A sample is a distinct (stack,
 * operation, data source, event set); the sets are few and kept once each. */
#include "report_pprof_samples.h"

#include <stdlib.h>
#include <string.h>

#include "armprof/codec.h"
#include "armprof/report.h"

void pprof_samples_init(struct pprof_samples *s, size_t max)
{
	memset(s, 0, sizeof(*s));
	s->max = max < 1 ? 1 : max > (1u << 30) ? (1u << 30) : max;
	s->max_pool = 4 * s->max > AP_REPORT_MAX_FRAMES ? 4 * s->max : AP_REPORT_MAX_FRAMES;
}

void pprof_samples_fini(struct pprof_samples *s)
{
	free(s->pool);
	free(s->e);
	free(s->index.slot);
	free(s->labels);
	free(s->label_index.slot);
	memset(s, 0, sizeof(*s));
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
	const struct pprof_samples *s = ctx;
	return label_hash(&s->labels[k]);
}

static uint64_t hash_entry_k(const void *ctx, size_t k)
{
	const struct pprof_samples *s = ctx;
	const struct pprof_sample *e = &s->e[k];
	return sample_hash(e->label, pprof_frames(s, e), e->n);
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

uint32_t pprof_label_of(struct pprof_samples *s, const struct pprof_label *l)
{
	if (pprof_table_grow(&s->label_index, s->n_labels, hash_label_k, s) < 0)
		return UINT32_MAX;
	const struct pprof_table *t = &s->label_index;
	size_t i = label_hash(l) & (t->cap - 1);
	for (const struct pprof_label *x; t->slot[i]; i = (i + 1) & (t->cap - 1)) {
		x = &s->labels[t->slot[i] - 1];
		if (x->events == l->events && x->ds == l->ds && x->op == l->op)
			return t->slot[i] - 1;
	}
	if (s->n_labels >= UINT32_MAX - 1 ||
	    report_pprof_reserve((void **)&s->labels, &s->cap_labels, s->n_labels + 1, sizeof(*s->labels)) < 0)
		return UINT32_MAX;
	s->labels[s->n_labels] = *l;
	s->labels[s->n_labels].ds_str = 0;
	t->slot[i] = (uint32_t)++s->n_labels;
	return (uint32_t)(s->n_labels - 1);
}

int pprof_samples_add(struct pprof_samples *s, uint32_t label, const uint64_t *f, uint32_t n, uint64_t latency)
{
	/* full: the slots are twice the samples already, and a new one waits */
	if (s->n < s->max && pprof_table_grow(&s->index, s->n, hash_entry_k, s) < 0)
		return -1;
	const struct pprof_table *t = &s->index;
	size_t i = sample_hash(label, f, n) & (t->cap - 1);
	for (const struct pprof_sample *x; t->slot[i]; i = (i + 1) & (t->cap - 1)) {
		x = &s->e[t->slot[i] - 1];
		if (x->label == label && x->n == n && !memcmp(pprof_frames(s, x), f, n * sizeof(*f)))
			break;
	}
	struct pprof_sample *e;
	if (t->slot[i]) {
		e = &s->e[t->slot[i] - 1];
	} else {
		if (s->n >= s->max || (n > 1 && s->n_pool + n > s->max_pool))
			return 1;
		if (report_pprof_reserve((void **)&s->e, &s->cap, s->n + 1, sizeof(*s->e)) < 0)
			return -1;
		e = &s->e[s->n];
		*e = (struct pprof_sample){ .at = f[0], .n = n, .label = label };
		if (n > 1) {
			if (report_pprof_reserve((void **)&s->pool, &s->cap_pool, s->n_pool + n, sizeof(*s->pool)) < 0)
				return -1;
			memcpy(s->pool + s->n_pool, f, n * sizeof(*f));
			e->at = s->n_pool;
			s->n_pool += n;
		}
		t->slot[i] = (uint32_t)++s->n;
	}
	e->samples++;
	e->latency += latency;
	return 0;
}

void pprof_samples_clear(struct pprof_samples *s)
{
	s->n = s->n_pool = s->n_labels = 0;
	if (s->index.slot)
		memset(s->index.slot, 0, s->index.cap * sizeof(*s->index.slot));
	if (s->label_index.slot)
		memset(s->label_index.slot, 0, s->label_index.cap * sizeof(*s->label_index.slot));
}

void pprof_sample_values(const struct pprof_samples *s, const struct pprof_sample *e, uint64_t v[PPROF_N_VALUES])
{
	uint64_t ev = s->labels[e->label].events;
	v[0] = e->samples;
	v[1] = e->latency;
	v[2] = ev & AP_EV_L1D_REFILL ? e->samples : 0;
	v[3] = ev & AP_EV_LLC_MISS ? e->samples : 0;
	v[4] = ev & AP_EV_TLB_WALK ? e->samples : 0;
	v[5] = ev & AP_EV_MISPREDICTED ? e->samples : 0;
}

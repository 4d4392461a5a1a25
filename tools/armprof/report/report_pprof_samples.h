/* The distinct samples of `armprof report --format pprof` (report_pprof.h)
 * since the profile's writer last wrote them, in a table of bounded size,
 * and the label sets they name. Private to report_pprof*.c. */
#ifndef ARMPROF_TOOL_REPORT_PPROF_SAMPLES_H
#define ARMPROF_TOOL_REPORT_PPROF_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#define PPROF_N_VALUES 6 /* samples, latency, l1d_miss, llc_miss, tlb_walk, mispredict */

/* A distinct set of labels (operation, data source, events). */
struct pprof_label {
	uint64_t events;
	int32_t ds; /* counted Data Source value, -1 none */
	uint8_t op; /* index of op_names (report_pprof.c): none, LD, ST, B, OTHER, RESERVED */
	/* the profile's string of its data_source value, 0 until the writer
	 * first writes a sample of the set (report_pprof.c) */
	uint32_t ds_str;
};

/* One sample: a distinct stack and set of labels, and its values, in 32
 * bytes: the event counts are not kept, since the labels are part of the
 * key: a sample's records all have its events, so that each count is its
 * samples or 0 (pprof_sample_values). */
struct pprof_sample {
	uint64_t at; /* n == 1: the frame itself; else its first frame in the pool */
	uint64_t samples, latency;
	uint32_t n;     /* frames */
	uint32_t label; /* index of labels */
};

struct pprof_table { /* open addressing: entry + 1 (0: empty), at most half full */
	uint32_t *slot;
	size_t cap;
};

/* The table holds at most max samples and max_pool frames of stacks of
 * more than one: when a record's sample is new and does not fit, its
 * writer writes the samples into the profile and empties the table
 * (pprof_samples_clear). The label sets (a set of events, a data source and
 * an operation each) are emptied with the samples: there are never more
 * of them than samples, whatever the records' event words and data
 * sources. */
struct pprof_samples {
	uint64_t *pool; /* the frames of the stacks of more than one */
	size_t n_pool, cap_pool, max_pool;
	struct pprof_sample *e;
	size_t n, cap, max;
	struct pprof_table index;
	struct pprof_label *labels;
	size_t n_labels, cap_labels;
	struct pprof_table label_index;
};

/* Mix v into the hash h (every bit of both reaches the low bits that pick
 * a slot: PCs are 4-byte aligned and differ in their low 20 bits). */
static inline uint64_t report_pprof_mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 29);
}

static inline const uint64_t *pprof_frames(const struct pprof_samples *s, const struct pprof_sample *e)
{
	return e->n == 1 ? &e->at : s->pool + e->at;
}

/* An empty table of at most max samples (max >= 1), whose pool holds at
 * most 4 frames a sample, and a whole stack of the longest however small
 * max is. Allocates as it fills. */
void pprof_samples_init(struct pprof_samples *s, size_t max);
void pprof_samples_fini(struct pprof_samples *s);
/* The index of label l in s->labels, added if new; UINT32_MAX out of memory. */
uint32_t pprof_label_of(struct pprof_samples *s, const struct pprof_label *l);
/* Count a record of stack f[0..n) (n >= 1) with label set label: 0; 1 when
 * its sample is new and the table full (nothing counted: write the samples,
 * pprof_samples_clear, then add it again); -1 out of memory. */
int pprof_samples_add(struct pprof_samples *s, uint32_t label, const uint64_t *f, uint32_t n, uint64_t latency);
/* Forget the samples (written) and their label sets, keeping the memory. */
void pprof_samples_clear(struct pprof_samples *s);
/* e's values, in the order of the profile's sample types: the report's
 * --sort keys (ap_report_key_count). */
void pprof_sample_values(const struct pprof_samples *s, const struct pprof_sample *e, uint64_t v[PPROF_N_VALUES]);

/* Room in t for one more of n keys: when it would pass half full, twice
 * the slots (1024 the first time), each key k < n placed again by
 * hash(ctx, k). 0, or -1 out of memory (t unchanged). */
int pprof_table_grow(struct pprof_table *t, size_t n, uint64_t (*hash)(const void *ctx, size_t k), const void *ctx);
/* Room in *v (of *cap elements of size bytes) for need, by doubling. 0, or
 * -1 out of memory (*v unchanged). */
int report_pprof_reserve(void **v, size_t *cap, size_t need, size_t size);

#endif

/* The distinct samples of `armprof report --format pprof` (report_pprof.h),
 * kept compact (tens of bytes each) as records are added, read by the
 * profile's writer (report_pprof.c). Private to the two. */
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
};

/* One sample: a distinct stack and set of labels, and its values, in 32
 * bytes (2 M distinct samples took 396 MB at 88 bytes and a hash each):
 * the event counts are not kept, since the labels are part of the key: a
 * sample's records all have its events, so that each count is its samples
 * or 0 (report_pprof_sample_values). */
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

struct report_pprof {
	uint64_t *pool; /* the frames of the stacks of more than one */
	size_t n_pool, cap_pool;
	struct pprof_sample *e;
	size_t n, cap;
	struct pprof_table index;
	struct pprof_label *labels;
	size_t n_labels, cap_labels;
	struct pprof_table label_index;
};

static inline uint64_t report_pprof_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
	return h * 0xFF51AFD7ED558CCDull;
}

static inline const uint64_t *pprof_frames(const struct report_pprof *p, const struct pprof_sample *e)
{
	return e->n == 1 ? &e->at : p->pool + e->at;
}

/* Room in t for one more of n keys: when it would pass half full, twice
 * the slots (1024 the first time), each key k < n placed again by
 * hash(ctx, k). 0, or -1 out of memory (t unchanged). */
int pprof_table_grow(struct pprof_table *t, size_t n, uint64_t (*hash)(const void *ctx, size_t k), const void *ctx);
/* Room in *v (of *cap elements of size bytes) for need, by doubling. 0, or
 * -1 out of memory (*v unchanged). */
int report_pprof_reserve(void **v, size_t *cap, size_t need, size_t size);
/* e's values, in the order of the profile's sample types: the report's
 * --sort keys (ap_report_key_count). */
void report_pprof_sample_values(const struct report_pprof *p, const struct pprof_sample *e, uint64_t v[PPROF_N_VALUES]);

#endif

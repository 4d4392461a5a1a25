/* Give each AUXTRACE buffer the flags of the PERF_RECORD_AUX records that
 * describe it: same CPU (or thread, when the AUX record has no CPU), and an
 * overlapping range of the AUX area. AUX records are indexed by (cpu,
 * offset) so that a capture with 100k buffers on 100k AUX records is matched
 * in O(n log n), not O(n^2). Also finds the padding perf record appended. */
#include <stdlib.h>

#include "perfdata/perf_internal.h"

#define NO_CPU INT64_MIN

struct aux_key {
	int64_t cpu;     /* sid.cpu, or NO_CPU */
	uint64_t offset; /* aux_offset */
	size_t k;        /* index in the AUX record list */
};

static int cmp_key(const void *a, const void *b)
{
	const struct aux_key *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static int matches(const struct ap_perf_aux_record *a, const struct ap_perf_aux_buffer *b)
{
	if (a->sid.has_cpu && b->cpu >= 0) {
		if (a->sid.cpu != b->cpu)
			return 0;
	} else if (a->sid.has_tid && b->tid >= 0 && a->sid.tid != b->tid) {
		return 0;
	}
	uint64_t a_end = a->aux_offset + (a->aux_size ? a->aux_size : 1);
	uint64_t b_end = b->aux_offset + (b->size ? b->size : 1);
	return a->aux_offset < b_end && b->aux_offset < a_end;
}

static void apply(const struct ap_perf_aux_record *a, struct ap_perf_aux_buffer *b, uint64_t *covered)
{
	b->aux_flags |= a->flags;
	b->n_aux_records++;
	uint64_t lo = a->aux_offset > b->aux_offset ? a->aux_offset : b->aux_offset;
	uint64_t a_end = a->aux_offset + a->aux_size, b_end = b->aux_offset + b->size;
	uint64_t hi = a_end < b_end ? a_end : b_end;
	*covered += hi > lo ? hi - lo : 0;
}

/* [first, last) of keys with this cpu */
static void group(const struct aux_key *keys, size_t n, int64_t cpu, size_t *first, size_t *last)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (keys[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (keys[mid].cpu <= cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	*last = lo;
}

int pd_match_aux_flags(const struct ap_perf_aux_record *aux, size_t n_aux, struct ap_perf_aux_buffer *bufs,
                       size_t n_bufs, const struct ap_perf_reader *r)
{
	struct aux_key *keys = n_aux ? malloc(n_aux * sizeof(*keys)) : NULL;
	if (n_aux && !keys)
		return -AP_ERR_NOMEM;
	for (size_t k = 0; k < n_aux; k++) {
		keys[k].cpu = aux[k].sid.has_cpu ? aux[k].sid.cpu : NO_CPU;
		keys[k].offset = aux[k].aux_offset;
		keys[k].k = k;
	}
	if (n_aux)
		qsort(keys, n_aux, sizeof(*keys), cmp_key);
	size_t nocpu_first, nocpu_last;
	group(keys, n_aux, NO_CPU, &nocpu_first, &nocpu_last);

	for (size_t i = 0; i < n_bufs; i++) {
		struct ap_perf_aux_buffer *b = &bufs[i];
		uint64_t covered = 0;
		if (b->cpu >= 0) {
			size_t first, last;
			group(keys, n_aux, b->cpu, &first, &last);
			/* first AUX record at or after the buffer's start; the one before
			 * it may reach into the buffer */
			size_t lo = first, hi = last;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (keys[mid].offset < b->aux_offset)
					lo = mid + 1;
				else
					hi = mid;
			}
			uint64_t b_end = b->aux_offset + (b->size ? b->size : 1);
			for (size_t j = lo > first ? lo - 1 : lo; j < last && keys[j].offset < b_end; j++)
				if (matches(&aux[keys[j].k], b))
					apply(&aux[keys[j].k], b, &covered);
			for (size_t j = nocpu_first; j < nocpu_last; j++)
				if (matches(&aux[keys[j].k], b))
					apply(&aux[keys[j].k], b, &covered);
		} else {
			for (size_t k = 0; k < n_aux; k++) /* per-thread mode: few buffers */
				if (matches(&aux[k], b))
					apply(&aux[k], b, &covered);
		}
		b->unpadded_size = b->size;
		if (covered && covered < b->size && b->size - covered < 8) {
			uint64_t k = covered;
			while (k < b->size && b->data[k] == 0)
				k++;
			if (k == b->size) /* only zero (Padding) bytes past what AUX covered */
				b->unpadded_size = covered;
			pd_release_around(r, b->data + covered);
		}
	}
	free(keys);
	return 0;
}

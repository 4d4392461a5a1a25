/* The report accumulator: records -> per-PC statistics (compact: pcs.c),
 * per thread and in total, then at ap_report_finish the function rows
 * (functions.c) and the ranking of the PCs; an instruction row is made
 * whole only when it is asked for (ap_report_instruction), so that the
 * memory per distinct PC stays tens of bytes. */
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

int ap_report_create(struct ap_report **out)
{
	*out = NULL;
	struct ap_report *r = calloc(1, sizeof(*r));
	if (!r)
		return -AP_ERR_NOMEM;
	r->lines.ds_enc = AP_DS_ENC_NEOVERSE;
	r->elf_machine = 183; /* EM_AARCH64 */
	if (report_pcs_init(&r->pcs) < 0) {
		ap_report_destroy(r);
		return -AP_ERR_NOMEM;
	}
	*out = r;
	return 0;
}

void ap_report_destroy(struct ap_report *r)
{
	if (!r)
		return;
	report_pcs_free(&r->pcs);
	free(r->order);
	free(r->fns);
	free(r->all_rows);
	free(r->fn_rows);
	free(r->thread_rows);
	free(r->thread_index);
	report_binary_free(r->bin);
	report_libraries_free(r->libs);
	report_kernel_fini(&r->kernel);
	for (size_t i = 0; i < r->n_debug_dirs; i++)
		free(r->debug_dirs[i]);
	free(r->debug_dirs);
	report_lines_free(&r->lines);
	report_stacks_free(&r->stacks);
	report_branches_free(&r->branches);
	free(r);
}

static size_t slot_of(uint64_t pc, size_t mask)
{
	uint64_t h = (pc >> 2) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 32) & mask;
}

/* The index slot of context ctx: its row + 1, or the empty slot where it goes. */
static size_t thread_slot(const struct ap_report *r, uint64_t ctx)
{
	size_t mask = r->thread_index_cap - 1, i = slot_of(ctx << 2, mask);
	while (r->thread_index[i] && r->thread_rows[r->thread_index[i] - 1].addr != ctx)
		i = (i + 1) & mask;
	return i;
}

/* Rebuild the index at twice the size (the rows may have been sorted). */
static int grow_thread_index(struct ap_report *r)
{
	size_t cap = r->thread_index_cap ? 2 * r->thread_index_cap : 16;
	uint32_t *index = calloc(cap, sizeof(*index));
	if (!index)
		return -AP_ERR_NOMEM;
	free(r->thread_index);
	r->thread_index = index;
	r->thread_index_cap = cap;
	for (size_t k = 0; k < r->n_thread_rows; k++)
		r->thread_index[thread_slot(r, r->thread_rows[k].addr)] = (uint32_t)(k + 1);
	return 0;
}

static int add_to_thread(struct ap_report *r, const struct ap_record *rec, const struct report_digest *d)
{
	int from_el2;
	uint64_t ctx = report_thread(r->lines.prefer, rec, &from_el2);
	if (ctx != AP_REPORT_NO_CONTEXT)
		r->ctx_from[from_el2]++;
	size_t i = r->last_thread;
	if (i >= r->n_thread_rows || r->thread_rows[i].addr != ctx) {
		if ((r->n_thread_rows + 1) * 2 > r->thread_index_cap && grow_thread_index(r) < 0)
			return -AP_ERR_NOMEM;
		size_t slot = thread_slot(r, ctx);
		if (r->thread_index[slot]) {
			i = r->thread_index[slot] - 1;
		} else {
			if (r->n_thread_rows == r->cap_thread_rows) {
				size_t cap = r->cap_thread_rows ? 2 * r->cap_thread_rows : 8;
				struct ap_report_row *t = realloc(r->thread_rows, cap * sizeof(*t));
				if (!t)
					return -AP_ERR_NOMEM;
				r->thread_rows = t;
				r->cap_thread_rows = cap;
			}
			i = r->n_thread_rows++;
			memset(&r->thread_rows[i], 0, sizeof(r->thread_rows[i]));
			r->thread_rows[i].addr = ctx;
			r->thread_index[slot] = (uint32_t)(i + 1);
		}
		r->last_thread = i;
	}
	report_stats_add_digest(&r->thread_rows[i].stats, d);
	return 0;
}

int ap_report_add(struct ap_report *r, const struct ap_record *rec)
{
	return ap_report_add_stack(r, rec, NULL, 0);
}

/* Rows made whole (ap_report_instructions) are of the last ranking. */
static void drop_all_rows(struct ap_report *r)
{
	free(r->all_rows);
	r->all_rows = NULL;
}

int report_count(struct ap_report *r, const struct ap_record *rec)
{
	r->finished = 0;
	drop_all_rows(r);
	r->records++;
	struct report_digest d;
	report_digest_make(&d, rec, r->lines.ds_enc);
	report_stats_add_digest(&r->totals, &d);
	if (add_to_thread(r, rec, &d) < 0 || report_lines_note(&r->lines, rec) < 0 ||
	    report_branches_add(&r->branches, rec) < 0)
		return -AP_ERR_NOMEM;
	if (!(rec->has & AP_HAS_PC))
		return 0;
	return report_pcs_add(&r->pcs, rec->pc, &d);
}

const struct ap_report_stats *ap_report_pc_stats(const struct ap_report *r, uint64_t pc)
{
	/* Made whole here: valid until the next call on this thread. */
	static _Thread_local struct ap_report_stats made;
	long k = report_pcs_find(&r->pcs, pc);
	if (k < 0)
		return NULL;
	report_pcs_stats(&r->pcs, (size_t)k, &made);
	return &made;
}

uint64_t ap_report_key_count(const struct ap_report_stats *s, enum ap_report_key key)
{
	switch (key) {
	case AP_REPORT_BY_LATENCY:
		return s->lat_total_sum;
	case AP_REPORT_BY_L1D_MISSES:
		return s->l1d_refill;
	case AP_REPORT_BY_LLC_MISSES:
		return s->llc_miss;
	case AP_REPORT_BY_TLB_WALKS:
		return s->tlb_walk;
	case AP_REPORT_BY_MISPREDICTS:
		return s->mispredicted;
	case AP_REPORT_BY_SAMPLES:
		break;
	}
	return s->samples;
}

/* The key of the sort under way (qsort passes no context); reports on
 * different threads each sort with their own. */
static _Thread_local enum ap_report_key sort_key;

static int cmp_rows(const void *a, const void *b)
{
	const struct ap_report_row *x = a, *y = b;
	uint64_t kx = ap_report_key_count(&x->stats, sort_key), ky = ap_report_key_count(&y->stats, sort_key);
	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->stats.samples != y->stats.samples)
		return x->stats.samples > y->stats.samples ? -1 : 1;
	if (x->name && y->name) {
		int c = strcmp(x->name, y->name);
		if (c)
			return c;
	}
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The instruction ranking compares PCs (entries of pcs) as cmp_rows
 * compares rows: sort_keys holds each entry's count of the key (qsort
 * passes no context). */
static _Thread_local const struct ap_report *sort_report;
static _Thread_local const uint64_t *sort_keys;

static int cmp_pcs(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct ap_report *r = sort_report;
	const struct report_pc *x = &r->pcs.v[i], *y = &r->pcs.v[j];
	uint64_t sx = report_pcs_samples(&r->pcs, i), sy = report_pcs_samples(&r->pcs, j);
	uint64_t kx = sort_keys ? sort_keys[i] : sx, ky = sort_keys ? sort_keys[j] : sy;
	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	const char *nx = r->fns[x->fn].name, *ny = r->fns[y->fn].name;
	if (nx && ny) {
		int c = strcmp(nx, ny);
		if (c)
			return c;
	}
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Rank the PCs by key. The ranking is kept and re-sorted by the next key,
 * as the rows themselves were: ties keep what qsort made of the order
 * before. */
static int sort_pcs(struct ap_report *r, enum ap_report_key key)
{
	uint64_t *keys = NULL;
	if (key != AP_REPORT_BY_SAMPLES) {
		keys = malloc((r->n_order ? r->n_order : 1) * sizeof(*keys));
		if (!keys)
			return -AP_ERR_NOMEM;
		for (size_t k = 0; k < r->n_order; k++) {
			uint64_t w[AP_REPORT_N_KEYS];
			report_pcs_weights(&r->pcs, k, w);
			keys[k] = w[key];
		}
	}
	sort_report = r;
	sort_keys = keys;
	if (r->n_order) /* order is NULL before the first PC, which qsort must not get */
		qsort(r->order, r->n_order, sizeof(*r->order), cmp_pcs);
	free(keys);
	return 0;
}

int ap_report_finish(struct ap_report *r)
{
	drop_all_rows(r);
	if (report_functions_build(r) < 0)
		return -AP_ERR_NOMEM;
	/* The PCs added since the last finish join the ranking at its end. */
	if (r->pcs.n > r->n_order) {
		uint32_t *order = realloc(r->order, r->pcs.n * sizeof(*order));
		if (!order)
			return -AP_ERR_NOMEM;
		r->order = order;
		for (size_t k = r->n_order; k < r->pcs.n; k++)
			order[k] = (uint32_t)k;
		r->n_order = r->pcs.n;
	}
	if (report_lines_finish(r) < 0 || report_stacks_finish(r, &r->stacks) < 0 ||
	    report_branches_finish(&r->branches) < 0)
		return -AP_ERR_NOMEM;
	r->finished = 1;
	ap_report_sort(r, AP_REPORT_BY_SAMPLES);
	return 0;
}

void ap_report_sort(struct ap_report *r, enum ap_report_key key)
{
	if (!r->finished)
		return;
	sort_key = key;
	drop_all_rows(r);
	if (sort_pcs(r, key) < 0) /* without memory for the keys: ranked by samples */
		sort_pcs(r, AP_REPORT_BY_SAMPLES);
	qsort(r->fn_rows, r->n_fn_rows, sizeof(*r->fn_rows), cmp_rows);
	report_stacks_sort(&r->stacks, key);
	if (r->n_thread_rows) {
		qsort(r->thread_rows, r->n_thread_rows, sizeof(*r->thread_rows), cmp_rows);
		/* The rows moved: the index is rebuilt, in place. */
		memset(r->thread_index, 0, r->thread_index_cap * sizeof(*r->thread_index));
		for (size_t k = 0; k < r->n_thread_rows; k++)
			r->thread_index[thread_slot(r, r->thread_rows[k].addr)] = (uint32_t)(k + 1);
	}
	r->last_thread = 0;
}

const struct ap_report_stats *ap_report_totals(const struct ap_report *r)
{
	return &r->totals;
}

uint64_t ap_report_records(const struct ap_report *r)
{
	return r->records;
}

size_t ap_report_instruction_count(const struct ap_report *r)
{
	return r->finished ? r->n_order : 0;
}

int ap_report_instruction(const struct ap_report *r, size_t i, struct ap_report_row *row)
{
	if (!r->finished || i >= r->n_order)
		return -AP_ERR_INVALID;
	uint32_t k = r->order[i];
	const struct report_pc *e = &r->pcs.v[k];
	const struct report_function *f = &r->fns[e->fn];
	row->addr = e->pc;
	row->name = f->name;
	row->binary = f->binary;
	row->offset = f->name ? e->pc - f->start : 0;
	report_pcs_stats(&r->pcs, k, &row->stats);
	return 0;
}

size_t ap_report_instructions(const struct ap_report *r, const struct ap_report_row **rows)
{
	*rows = NULL;
	if (!r->finished)
		return 0;
	if (!r->all_rows && r->n_order) {
		/* Made on the first call, kept until the next ranking (the
		 * report is not otherwise changed: a cache). */
		struct ap_report *w = (struct ap_report *)r;
		w->all_rows = malloc(r->n_order * sizeof(*w->all_rows));
		if (!w->all_rows)
			return 0;
		for (size_t i = 0; i < r->n_order; i++)
			ap_report_instruction(r, i, &w->all_rows[i]);
	}
	*rows = r->all_rows;
	return r->n_order;
}

size_t ap_report_functions(const struct ap_report *r, const struct ap_report_row **rows)
{
	*rows = r->fn_rows;
	return r->finished ? r->n_fn_rows : 0;
}

size_t ap_report_threads(const struct ap_report *r, const struct ap_report_row **rows)
{
	*rows = r->thread_rows;
	return r->finished ? r->n_thread_rows : 0;
}

void ap_report_set_context(struct ap_report *r, enum ap_report_context prefer)
{
	r->lines.prefer = prefer;
}

uint64_t ap_report_thread_of(const struct ap_report *r, const struct ap_record *rec)
{
	return report_thread(r->lines.prefer, rec, NULL);
}

void ap_report_context_counts(const struct ap_report *r, uint64_t *from_el1, uint64_t *from_el2)
{
	if (from_el1)
		*from_el1 = r->ctx_from[0];
	if (from_el2)
		*from_el2 = r->ctx_from[1];
}

void ap_report_set_data_source_encoding(struct ap_report *r, enum ap_ds_encoding enc)
{
	r->lines.ds_enc = enc;
}

enum ap_ds_encoding ap_report_data_source_encoding(const struct ap_report *r)
{
	return r->lines.ds_enc;
}

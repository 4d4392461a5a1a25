/* The report accumulator: records -> per-PC statistics (an open-addressing
 * table that doubles when half full, so adding a record allocates only on
 * growth), then rows per instruction and per function. */
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
	r->cap = 1024;
	r->lines.ds_enc = AP_DS_ENC_NEOVERSE;
	r->pcs = calloc(r->cap, sizeof(*r->pcs));
	r->used = calloc(r->cap, 1);
	r->stats = calloc(r->cap, sizeof(*r->stats));
	if (!r->pcs || !r->used || !r->stats) {
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
	free(r->pcs);
	free(r->used);
	free(r->stats);
	free(r->insn_rows);
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

static int grow(struct ap_report *r)
{
	size_t cap = r->cap * 2;
	uint64_t *pcs = calloc(cap, sizeof(*pcs));
	uint8_t *used = calloc(cap, 1);
	struct ap_report_stats *stats = calloc(cap, sizeof(*stats));
	if (!pcs || !used || !stats) {
		free(pcs);
		free(used);
		free(stats);
		return -AP_ERR_NOMEM;
	}
	for (size_t i = 0; i < r->cap; i++) {
		if (!r->used[i])
			continue;
		size_t j = slot_of(r->pcs[i], cap - 1);
		while (used[j])
			j = (j + 1) & (cap - 1);
		used[j] = 1;
		pcs[j] = r->pcs[i];
		stats[j] = r->stats[i];
	}
	free(r->pcs);
	free(r->used);
	free(r->stats);
	r->pcs = pcs;
	r->used = used;
	r->stats = stats;
	r->cap = cap;
	return 0;
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

static int add_to_thread(struct ap_report *r, const struct ap_record *rec)
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
	report_stats_add(&r->thread_rows[i].stats, rec, r->lines.ds_enc);
	return 0;
}

int ap_report_add(struct ap_report *r, const struct ap_record *rec)
{
	return ap_report_add_stack(r, rec, NULL, 0);
}

int report_count(struct ap_report *r, const struct ap_record *rec)
{
	r->finished = 0;
	r->records++;
	report_stats_add(&r->totals, rec, r->lines.ds_enc);
	if (add_to_thread(r, rec) < 0 || report_lines_note(&r->lines, rec) < 0 ||
	    report_branches_add(&r->branches, rec) < 0)
		return -AP_ERR_NOMEM;
	if (!(rec->has & AP_HAS_PC))
		return 0;
	if ((r->n + 1) * 2 > r->cap && grow(r) < 0)
		return -AP_ERR_NOMEM;
	size_t mask = r->cap - 1, i = slot_of(rec->pc, mask);
	while (r->used[i] && r->pcs[i] != rec->pc)
		i = (i + 1) & mask;
	if (!r->used[i]) {
		r->used[i] = 1;
		r->pcs[i] = rec->pc;
		r->n++;
	}
	report_stats_add(&r->stats[i], rec, r->lines.ds_enc);
	return 0;
}

const struct ap_report_stats *ap_report_pc_stats(const struct ap_report *r, uint64_t pc)
{
	size_t mask = r->cap - 1, i = slot_of(pc, mask);
	while (r->used[i] && r->pcs[i] != pc)
		i = (i + 1) & mask;
	return r->used[i] ? &r->stats[i] : NULL;
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

static int cmp_fn_addr(const void *a, const void *b)
{
	const struct ap_report_row *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Unsymbolized rows (name NULL) share addr 0: keep them apart, and
	 * apart per library (binary, a string of the library's own). */
	if ((x->name != NULL) != (y->name != NULL))
		return (x->name != NULL) - (y->name != NULL);
	return x->binary == y->binary ? 0 : !x->binary ? -1 : !y->binary ? 1 : strcmp(x->binary, y->binary);
}

int ap_report_finish(struct ap_report *r)
{
	free(r->insn_rows);
	free(r->fn_rows);
	r->insn_rows = calloc(r->n ? r->n : 1, sizeof(*r->insn_rows));
	struct ap_report_row *fns = calloc(r->n ? r->n : 1, sizeof(*fns));
	r->fn_rows = NULL;
	r->n_insn_rows = r->n_fn_rows = 0;
	if (!r->insn_rows || !fns) {
		free(fns);
		return -AP_ERR_NOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < r->cap; i++) {
		if (!r->used[i])
			continue;
		struct ap_report_row *row = &r->insn_rows[k++];
		row->addr = r->pcs[i];
		row->stats = r->stats[i];
		const char *binary;
		const struct report_symbol *sym = report_find_symbol(r, r->pcs[i], &binary);
		row->name = sym ? sym->name : NULL;
		row->binary = binary;
		row->offset = sym ? r->pcs[i] - sym->start : 0;
		/* Function rows start as one per instruction, merged below. */
		fns[k - 1].addr = sym ? sym->start : 0;
		fns[k - 1].name = row->name;
		fns[k - 1].binary = row->binary;
		fns[k - 1].stats = row->stats;
	}
	r->n_insn_rows = k;
	qsort(fns, k, sizeof(*fns), cmp_fn_addr);
	size_t nf = 0;
	for (size_t i = 0; i < k; i++) {
		if (nf && !cmp_fn_addr(&fns[nf - 1], &fns[i]))
			report_stats_merge(&fns[nf - 1].stats, &fns[i].stats);
		else
			fns[nf++] = fns[i];
	}
	r->fn_rows = fns;
	r->n_fn_rows = nf;
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
	qsort(r->insn_rows, r->n_insn_rows, sizeof(*r->insn_rows), cmp_rows);
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

size_t ap_report_instructions(const struct ap_report *r, const struct ap_report_row **rows)
{
	*rows = r->insn_rows;
	return r->finished ? r->n_insn_rows : 0;
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

/* The report accumulator: records -> per-PC statistics (a row per PC,
 * found by an open-addressing index that doubles when half full, so
 * adding a record allocates only on growth), then rows per instruction
 * (the same rows, named and sorted in place) and per function. */
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
	r->elf_machine = 183; /* EM_AARCH64 */
	r->pcs = calloc(r->cap, sizeof(*r->pcs));
	r->idx = calloc(r->cap, sizeof(*r->idx));
	if (!r->pcs || !r->idx) {
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
	free(r->idx);
	free(r->acc);
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

/* The index slot of pc: where its row is, or the empty slot where it goes. */
static size_t pc_slot(const struct ap_report *r, uint64_t pc)
{
	size_t mask = r->cap - 1, i = slot_of(pc, mask);
	while (r->idx[i] && r->pcs[i] != pc)
		i = (i + 1) & mask;
	return i;
}

/* Index the rows (after growth, or when the rows were sorted). */
static void index_rows(struct ap_report *r)
{
	memset(r->idx, 0, r->cap * sizeof(*r->idx));
	for (size_t k = 0; k < r->n; k++) {
		size_t i = pc_slot(r, r->acc[k].addr);
		r->pcs[i] = r->acc[k].addr;
		r->idx[i] = (uint32_t)(k + 1);
	}
}

static int grow_index(struct ap_report *r)
{
	size_t cap = r->cap * 2;
	uint64_t *pcs = malloc(cap * sizeof(*pcs));
	uint32_t *idx = malloc(cap * sizeof(*idx));
	if (!pcs || !idx) {
		free(pcs);
		free(idx);
		return -AP_ERR_NOMEM;
	}
	free(r->pcs);
	free(r->idx);
	r->pcs = pcs;
	r->idx = idx;
	r->cap = cap;
	index_rows(r);
	return 0;
}

/* A new row for pc, at index slot i. Returns the row, or NULL. */
static struct ap_report_row *new_row(struct ap_report *r, uint64_t pc)
{
	if (r->n == UINT32_MAX - 1)
		return NULL;
	if ((r->n + 1) * 2 > r->cap && grow_index(r) < 0)
		return NULL;
	if (r->n == r->cap_acc) {
		/* by half again: glibc moves a large block with mremap, without a copy */
		size_t cap = r->cap_acc ? r->cap_acc + r->cap_acc / 2 : 256;
		struct ap_report_row *acc = realloc(r->acc, cap * sizeof(*acc));
		if (!acc)
			return NULL;
		r->acc = acc;
		r->cap_acc = cap;
	}
	size_t i = pc_slot(r, pc);
	struct ap_report_row *row = &r->acc[r->n];
	memset(row, 0, sizeof(*row));
	row->addr = pc;
	r->pcs[i] = pc;
	r->idx[i] = (uint32_t)++r->n;
	return row;
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
	size_t i = pc_slot(r, rec->pc);
	struct ap_report_row *row = r->idx[i] ? &r->acc[r->idx[i] - 1] : new_row(r, rec->pc);
	if (!row)
		return -AP_ERR_NOMEM;
	report_stats_add(&row->stats, rec, r->lines.ds_enc);
	return 0;
}

const struct ap_report_stats *ap_report_pc_stats(const struct ap_report *r, uint64_t pc)
{
	size_t i = pc_slot(r, pc);
	return r->idx[i] ? &r->acc[r->idx[i] - 1].stats : NULL;
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

/* Functions in address order, over the instruction rows (named): the
 * function of a row starts at addr - offset. The rows to compare are
 * passed by index (qsort passes no context). */
static _Thread_local const struct ap_report_row *fn_rows_of;

static int cmp_fn(const struct ap_report_row *x, const struct ap_report_row *y)
{
	uint64_t ax = x->addr - x->offset, ay = y->addr - y->offset;
	if (!x->name)
		ax = 0;
	if (!y->name)
		ay = 0;
	if (ax != ay)
		return ax < ay ? -1 : 1;
	/* Unsymbolized rows (name NULL) share addr 0: keep them apart, and
	 * apart per library (binary, a string of the library's own). */
	if ((x->name != NULL) != (y->name != NULL))
		return (x->name != NULL) - (y->name != NULL);
	return x->binary == y->binary ? 0 : !x->binary ? -1 : !y->binary ? 1 : strcmp(x->binary, y->binary);
}

static int cmp_fn_index(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	return cmp_fn(&fn_rows_of[*x], &fn_rows_of[*y]);
}

int ap_report_finish(struct ap_report *r)
{
	free(r->fn_rows);
	r->fn_rows = NULL;
	r->n_fn_rows = 0;
	/* The rows are named (the symbol of each PC, once), then ordered by
	 * function through 4 bytes an instruction, and each function's rows
	 * merged into one. */
	for (size_t k = 0; k < r->n; k++) {
		struct ap_report_row *row = &r->acc[k];
		const char *binary;
		const struct report_symbol *sym = report_find_symbol(r, row->addr, &binary);
		row->name = sym ? sym->name : NULL;
		row->binary = binary;
		row->offset = sym ? row->addr - sym->start : 0;
	}
	uint32_t *order = malloc((r->n ? r->n : 1) * sizeof(*order));
	if (!order)
		return -AP_ERR_NOMEM;
	for (size_t k = 0; k < r->n; k++)
		order[k] = (uint32_t)k;
	fn_rows_of = r->acc;
	qsort(order, r->n, sizeof(*order), cmp_fn_index);
	size_t nf = 0;
	for (size_t k = 0; k < r->n; k++)
		nf += !k || cmp_fn(&r->acc[order[k - 1]], &r->acc[order[k]]) != 0;
	struct ap_report_row *fns = calloc(nf ? nf : 1, sizeof(*fns));
	if (!fns) {
		free(order);
		return -AP_ERR_NOMEM;
	}
	nf = 0;
	for (size_t k = 0; k < r->n; k++) {
		const struct ap_report_row *row = &r->acc[order[k]];
		if (nf && !cmp_fn(&r->acc[order[k - 1]], row)) {
			report_stats_merge(&fns[nf - 1].stats, &row->stats);
			continue;
		}
		struct ap_report_row *f = &fns[nf++];
		f->addr = row->name ? row->addr - row->offset : 0;
		f->name = row->name;
		f->binary = row->binary;
		f->stats = row->stats;
	}
	free(order);
	r->fn_rows = fns;
	r->n_fn_rows = nf;
	if (report_lines_finish(r) < 0 || report_stacks_finish(r, &r->stacks) < 0 ||
	    report_branches_finish(&r->branches) < 0)
		return -AP_ERR_NOMEM;
	r->finished = 1;
	ap_report_sort(r, AP_REPORT_BY_SAMPLES);
	return 0;
}

static _Thread_local const struct ap_report_row *sort_rows_of;

static int cmp_row_index(const void *a, const void *b)
{
	return cmp_rows(&sort_rows_of[*(const uint32_t *)a], &sort_rows_of[*(const uint32_t *)b]);
}

/* Sort rows (a row is near 1 KiB) through 4 bytes each: their indexes are
 * sorted, then the rows moved into place along the permutation's cycles,
 * each once. qsort of the rows themselves copied them log n times and
 * took a second array of them (glibc's merge sort). Without memory for the
 * indexes, the rows are sorted directly. */
static void sort_rows_in_place(struct ap_report_row *rows, size_t n)
{
	uint32_t *order = malloc((n ? n : 1) * sizeof(*order));
	if (!order) {
		qsort(rows, n, sizeof(*rows), cmp_rows);
		return;
	}
	for (size_t k = 0; k < n; k++)
		order[k] = (uint32_t)k;
	sort_rows_of = rows;
	qsort(order, n, sizeof(*order), cmp_row_index);
	/* position k takes row order[k]: follow each cycle with one row held */
	for (size_t k = 0; k < n; k++) {
		if (order[k] == k)
			continue;
		struct ap_report_row held = rows[k];
		size_t at = k;
		while (order[at] != k) {
			size_t from = order[at];
			rows[at] = rows[from];
			order[at] = (uint32_t)at;
			at = from;
		}
		rows[at] = held;
		order[at] = (uint32_t)at;
	}
	free(order);
}

void ap_report_sort(struct ap_report *r, enum ap_report_key key)
{
	if (!r->finished)
		return;
	sort_key = key;
	sort_rows_in_place(r->acc, r->n);
	index_rows(r); /* the rows moved */
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
	*rows = r->acc;
	return r->finished ? r->n : 0;
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

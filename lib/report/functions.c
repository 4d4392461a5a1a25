/* The function table (ap_report_functions) from the per-PC statistics:
 * each PC's symbol is looked up once, at ap_report_finish, and its
 * function kept once (struct report_function), told apart as the table
 * tells functions apart (start address, 0 without a symbol; the binary,
 * so that each library's unnamed PCs are a row of their own); the PC
 * keeps the function's number, which names its row when it is shown. */
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

/* The function-table key: the start of a named function, 0 for the
 * unnamed ones of each binary. */
static uint64_t key_addr(const struct report_function *f)
{
	return f->name ? f->start : 0;
}

static int cmp_fn(const struct report_function *x, const struct report_function *y)
{
	uint64_t ax = key_addr(x), ay = key_addr(y);
	if (ax != ay)
		return ax < ay ? -1 : 1;
	if ((x->name != NULL) != (y->name != NULL))
		return (x->name != NULL) - (y->name != NULL);
	return x->binary == y->binary ? 0 : !x->binary ? -1 : !y->binary ? 1 : strcmp(x->binary, y->binary);
}

static _Thread_local const struct report_function *sort_fns;

static int cmp_fn_index(const void *a, const void *b)
{
	return cmp_fn(&sort_fns[*(const uint32_t *)a], &sort_fns[*(const uint32_t *)b]);
}

struct fn_index {
	uint32_t *slot; /* function + 1, 0: empty */
	size_t cap;
};

static size_t fn_slot(const struct fn_index *x, const struct report_function *fns, const struct report_function *f)
{
	size_t mask = x->cap - 1;
	size_t i = (size_t)(((key_addr(f) >> 2) * 0x9E3779B97F4A7C15ull + (f->name != NULL)) >> 32) & mask;
	while (x->slot[i] && cmp_fn(&fns[x->slot[i] - 1], f) != 0)
		i = (i + 1) & mask;
	return i;
}

/* The function of f (a new one, appended to r->fns, if none is the same).
 * Returns its number, or UINT32_MAX. */
static uint32_t function_of(struct ap_report *r, struct fn_index *x, size_t *cap, const struct report_function *f)
{
	size_t i = fn_slot(x, r->fns, f);
	if (x->slot[i])
		return x->slot[i] - 1;
	if ((r->n_fns + 1) * 2 > x->cap) {
		size_t c = x->cap * 2;
		uint32_t *slot = calloc(c, sizeof(*slot));
		if (!slot)
			return UINT32_MAX;
		free(x->slot);
		x->slot = slot;
		x->cap = c;
		for (size_t k = 0; k < r->n_fns; k++)
			x->slot[fn_slot(x, r->fns, &r->fns[k])] = (uint32_t)(k + 1);
		i = fn_slot(x, r->fns, f);
	}
	if (r->n_fns == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct report_function *v = realloc(r->fns, c * sizeof(*v));
		if (!v)
			return UINT32_MAX;
		r->fns = v;
		*cap = c;
	}
	r->fns[r->n_fns] = *f;
	x->slot[i] = (uint32_t)(r->n_fns + 1);
	return (uint32_t)r->n_fns++;
}

/* Each PC's function. */
static int name_pcs(struct ap_report *r)
{
	struct fn_index x = { calloc(64, sizeof(uint32_t)), 64 };
	size_t cap = 0;
	if (!x.slot)
		return -AP_ERR_NOMEM;
	/* Neighbouring PCs mostly share a function: the last one is tried first. */
	uint32_t last = UINT32_MAX;
	for (size_t k = 0; k < r->pcs.n; k++) {
		struct report_pc *e = &r->pcs.v[k];
		struct report_function f = { 0, NULL, NULL, 0 };
		const struct report_symbol *sym = report_find_symbol(r, e->pc, &f.binary);
		if (sym) {
			f.start = sym->start;
			f.name = sym->name;
		}
		if (last != UINT32_MAX && !cmp_fn(&r->fns[last], &f)) {
			e->fn = last;
			continue;
		}
		uint32_t id = function_of(r, &x, &cap, &f);
		if (id == UINT32_MAX) {
			free(x.slot);
			return -AP_ERR_NOMEM;
		}
		e->fn = last = id;
	}
	free(x.slot);
	return 0;
}

int report_functions_build(struct ap_report *r)
{
	free(r->fns);
	r->fns = NULL;
	r->n_fns = 0;
	free(r->fn_rows);
	r->fn_rows = NULL;
	r->n_fn_rows = 0;
	if (name_pcs(r) < 0)
		return -AP_ERR_NOMEM;
	/* The rows in function order (as the table was made before the
	 * ranking: ties of the ranking keep this order). */
	uint32_t *order = malloc((r->n_fns ? r->n_fns : 1) * sizeof(*order));
	struct ap_report_row *rows = calloc(r->n_fns ? r->n_fns : 1, sizeof(*rows));
	if (!order || !rows) {
		free(order);
		free(rows);
		return -AP_ERR_NOMEM;
	}
	for (size_t k = 0; k < r->n_fns; k++)
		order[k] = (uint32_t)k;
	sort_fns = r->fns;
	qsort(order, r->n_fns, sizeof(*order), cmp_fn_index);
	size_t nf = 0;
	for (size_t k = 0; k < r->n_fns; k++) {
		struct report_function *f = &r->fns[order[k]];
		if (!nf || cmp_fn(&r->fns[order[k - 1]], f)) {
			rows[nf].addr = key_addr(f);
			rows[nf].name = f->name;
			rows[nf].binary = f->binary;
			nf++;
		}
		f->row = (uint32_t)(nf - 1);
	}
	free(order);
	for (size_t k = 0; k < r->pcs.n; k++)
		report_pcs_merge(&r->pcs, k, &rows[r->fns[r->pcs.v[k].fn].row].stats);
	r->fn_rows = rows;
	r->n_fn_rows = nf;
	return 0;
}

/* Branch pairs (docs/requirements-later.md LATER-OUT-1): the branch PC ->
 * target of each sampled branch whose record has a previous branch target
 * (FEAT_SPE_PBT), counted per (pc, target, previous target) as perf 7.x
 * builds a two-entry branch stack from the same packets. An open-addressing
 * table that doubles when half full, bounded at REPORT_MAX_BRANCH_PAIRS
 * pairs (more distinct pairs are counted as dropped: bounded memory). */
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

#define REPORT_MAX_BRANCH_PAIRS (1u << 20)

static size_t slot_of(const struct ap_report_branch *b, size_t mask)
{
	uint64_t h = b->pc * 0x9E3779B97F4A7C15ull ^ b->target * 0xC2B2AE3D27D4EB4Full ^
	             b->prev_target * 0x165667B19E3779F9ull;
	return (size_t)(h ^ (h >> 29)) & mask;
}

static int same(const struct ap_report_branch *a, const struct ap_report_branch *b)
{
	return a->pc == b->pc && a->target == b->target && a->prev_target == b->prev_target;
}

static int grow(struct report_branches *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	struct ap_report_branch *s = calloc(cap, sizeof(*s));
	if (!s)
		return -AP_ERR_NOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].count)
			continue;
		size_t j = slot_of(&t->slots[i], cap - 1);
		while (s[j].count)
			j = (j + 1) & (cap - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->cap = cap;
	return 0;
}

int report_branches_add(struct report_branches *t, const struct ap_record *rec)
{
	const uint32_t need = AP_HAS_PC | AP_HAS_TARGET | AP_HAS_PREV_TARGET;
	if ((rec->has & need) != need)
		return 0;
	struct ap_report_branch key = { rec->pc, rec->target, rec->prev_target, 0 };
	if ((t->n + 1) * 2 > t->cap) {
		if (t->cap >= 2 * REPORT_MAX_BRANCH_PAIRS) {
			/* full: only pairs already seen are counted */
		} else if (grow(t) < 0) {
			return -AP_ERR_NOMEM;
		}
	}
	size_t mask = t->cap - 1, i = slot_of(&key, mask);
	while (t->slots[i].count && !same(&t->slots[i], &key))
		i = (i + 1) & mask;
	if (!t->slots[i].count) {
		if ((t->n + 1) * 2 > t->cap) {
			t->dropped++;
			return 0;
		}
		t->slots[i] = key;
		t->n++;
	}
	t->slots[i].count++;
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct ap_report_branch *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	return x->prev_target < y->prev_target ? -1 : x->prev_target > y->prev_target;
}

int report_branches_finish(struct report_branches *t)
{
	free(t->sorted);
	t->sorted = NULL;
	t->n_sorted = 0;
	if (!t->n)
		return 0;
	t->sorted = malloc(t->n * sizeof(*t->sorted));
	if (!t->sorted)
		return -AP_ERR_NOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].count)
			t->sorted[t->n_sorted++] = t->slots[i];
	qsort(t->sorted, t->n_sorted, sizeof(*t->sorted), by_count);
	return 0;
}

void report_branches_free(struct report_branches *t)
{
	free(t->slots);
	free(t->sorted);
	memset(t, 0, sizeof(*t));
}

size_t ap_report_branch_pairs(const struct ap_report *r, const struct ap_report_branch **rows, uint64_t *dropped)
{
	*rows = r->branches.sorted;
	if (dropped)
		*dropped = r->branches.dropped;
	return r->branches.n_sorted;
}

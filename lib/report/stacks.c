/* Call stacks of the records (ap_report_add_stack): distinct frame
 * sequences interned in one pool and found by a hash, each with its
 * weights; at ap_report_finish, the folded (symbolized) stacks and the
 * functions' inclusive weights. Adding a record hashes its frames and
 * allocates only when a table grows. */
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

static uint64_t hash_frames(const uint64_t *f, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ n;
	for (size_t i = 0; i < n; i++) {
		h ^= f[i] >> 2;
		h *= 0x9E3779B97F4A7C15ull;
		h ^= h >> 29;
	}
	return h;
}

/* The index slot of the stack f[0..n) with hash h: its number + 1, or the
 * empty slot where it goes. */
static size_t stack_slot(const struct report_stacks *s, uint64_t h, const uint64_t *f, size_t n)
{
	size_t mask = s->index_cap - 1, i = (size_t)(h >> 32) & mask;
	for (; s->index[i]; i = (i + 1) & mask) {
		const struct report_stack_acc *a = &s->acc[s->index[i] - 1];
		const uint64_t *g = s->pool + a->off;
		/* Most stacks are short (plain SPE: one frame): no memcmp call for those. */
		if (a->hash == h && a->n == n && g[0] == f[0] && (n == 1 || !memcmp(g + 1, f + 1, (n - 1) * sizeof(*f))))
			break;
	}
	return i;
}

static int grow_index(struct report_stacks *s)
{
	size_t cap = s->index_cap ? 2 * s->index_cap : 256;
	uint32_t *index = calloc(cap, sizeof(*index));
	if (!index)
		return -AP_ERR_NOMEM;
	free(s->index);
	s->index = index;
	s->index_cap = cap;
	for (size_t k = 0; k < s->n; k++) {
		const struct report_stack_acc *a = &s->acc[k];
		size_t i = (size_t)(a->hash >> 32) & (cap - 1);
		while (index[i])
			i = (i + 1) & (cap - 1);
		index[i] = (uint32_t)(k + 1);
	}
	return 0;
}

static int reserve(void **v, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *p = realloc(*v, c * elem);
	if (!p)
		return -AP_ERR_NOMEM;
	*v = p;
	*cap = c;
	return 0;
}

int report_stacks_add(struct report_stacks *s, const struct ap_record *rec, const uint64_t *f, size_t n)
{
	if (!n) {
		if (!(rec->has & AP_HAS_PC))
			return 0;
		f = &rec->pc;
		n = 1;
	}
	if (n > AP_REPORT_MAX_FRAMES)
		n = AP_REPORT_MAX_FRAMES;
	uint64_t w[AP_REPORT_N_KEYS];
	report_record_weights(rec, w);
	if ((s->n + 1) * 2 > s->index_cap && (s->n >= UINT32_MAX - 1 || grow_index(s) < 0))
		return -AP_ERR_NOMEM;
	uint64_t h = hash_frames(f, n);
	size_t slot = stack_slot(s, h, f, n);
	if (!s->index[slot]) {
		if (reserve((void **)&s->pool, &s->cap_pool, s->n_pool + n, sizeof(*s->pool)) < 0 ||
		    reserve((void **)&s->acc, &s->cap, s->n + 1, sizeof(*s->acc)) < 0)
			return -AP_ERR_NOMEM;
		struct report_stack_acc *a = &s->acc[s->n];
		memset(a, 0, sizeof(*a));
		a->hash = h;
		a->off = s->n_pool;
		a->n = (uint32_t)n;
		memcpy(s->pool + s->n_pool, f, n * sizeof(*f));
		s->n_pool += n;
		s->index[slot] = (uint32_t)++s->n;
	}
	struct report_stack_acc *a = &s->acc[s->index[slot] - 1];
	for (int k = 0; k < AP_REPORT_N_KEYS; k++)
		a->w[k] += w[k];
	return 0;
}

static void free_views(struct report_stacks *s)
{
	free(s->rows);
	free(s->folded);
	free(s->names);
	free(s->incl);
	s->rows = NULL;
	s->folded = NULL;
	s->names = NULL;
	s->incl = NULL;
	s->n_rows = s->n_folded = s->n_incl = 0;
}

void report_stacks_free(struct report_stacks *s)
{
	free_views(s);
	free(s->pool);
	free(s->acc);
	free(s->index);
}

/* The function a frame is in, as the function table tells functions apart.
 * Return addresses (every frame but the first) are looked up inside their
 * call instruction. */
struct fn_key {
	uint64_t addr;
	const char *name, *binary;
};
static struct fn_key frame_function(const struct ap_report *r, const uint64_t *frames, size_t i)
{
	uint64_t pc = i && frames[i] ? frames[i] - 1 : frames[i];
	struct fn_key k = { 0, NULL, NULL };
	const struct report_symbol *sym = report_find_symbol(r, pc, &k.binary);
	if (sym) {
		k.addr = sym->start;
		k.name = sym->name;
	}
	return k;
}

static int same_fn(const struct fn_key *a, const struct fn_key *b)
{
	if (a->addr != b->addr || (a->name != NULL) != (b->name != NULL))
		return 0;
	return a->binary == b->binary || (a->binary && b->binary && !strcmp(a->binary, b->binary));
}

/* Inclusive rows under construction: an open-addressing index by function,
 * and per row the last stack counted in it (a recursion counts once). */
struct incl_build {
	struct ap_report_inclusive *v;
	size_t *last; /* stack number + 1 */
	size_t n, cap_v, cap_last;
	uint32_t *index;
	size_t index_cap;
};

static size_t fn_hash(const struct fn_key *k)
{
	uint64_t h = k->addr >> 2;
	for (const char *c = k->binary; c && *c; c++)
		h = h * 131 + (unsigned char)*c;
	return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32);
}

static size_t incl_slot(const struct incl_build *b, const struct fn_key *k)
{
	size_t mask = b->index_cap - 1, i = fn_hash(k) & mask;
	for (; b->index[i]; i = (i + 1) & mask) {
		const struct ap_report_inclusive *row = &b->v[b->index[i] - 1];
		struct fn_key rk = { row->addr, row->name, row->binary };
		if (same_fn(&rk, k))
			break;
	}
	return i;
}

static int incl_grow(struct incl_build *b)
{
	size_t cap = b->index_cap ? 2 * b->index_cap : 64;
	uint32_t *index = calloc(cap, sizeof(*index));
	if (!index)
		return -AP_ERR_NOMEM;
	free(b->index);
	b->index = index;
	b->index_cap = cap;
	for (size_t k = 0; k < b->n; k++) {
		struct fn_key rk = { b->v[k].addr, b->v[k].name, b->v[k].binary };
		b->index[incl_slot(b, &rk)] = (uint32_t)(k + 1);
	}
	return 0;
}

static struct ap_report_inclusive *incl_row(struct incl_build *b, const struct fn_key *k, size_t **last)
{
	if ((b->n + 1) * 2 > b->index_cap && incl_grow(b) < 0)
		return NULL;
	size_t slot = incl_slot(b, k);
	if (!b->index[slot]) {
		if (reserve((void **)&b->v, &b->cap_v, b->n + 1, sizeof(*b->v)) < 0 ||
		    reserve((void **)&b->last, &b->cap_last, b->n + 1, sizeof(*b->last)) < 0)
			return NULL;
		memset(&b->v[b->n], 0, sizeof(b->v[b->n]));
		b->v[b->n].addr = k->addr;
		b->v[b->n].name = k->name;
		b->v[b->n].binary = k->binary;
		b->last[b->n] = 0;
		b->index[slot] = (uint32_t)++b->n;
	}
	*last = &b->last[b->index[slot] - 1];
	return &b->v[b->index[slot] - 1];
}

/* Append the folded name of function k to buf (';' and control
 * characters written '_'). */
static int append_name(char **buf, size_t *len, size_t *cap, const char *name)
{
	size_t n = strlen(name);
	if (reserve((void **)buf, cap, *len + n + 2, 1) < 0)
		return -AP_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		(*buf)[(*len)++] = c == ';' || c < 0x20 || c == 0x7F ? '_' : (char)c;
	}
	(*buf)[*len] = 0;
	return 0;
}

/* The folded strings sort (qsort has no context: they are offsets into
 * one buffer, which this points at during the sort). */
static _Thread_local const char *sort_names;
static _Thread_local const size_t *sort_offs;

static int cmp_by_name(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_names + sort_offs[x], sort_names + sort_offs[y]);
	return c ? c : (x > y) - (x < y);
}

static int build_folded(const struct ap_report *r, struct report_stacks *s)
{
	size_t *offs = malloc((s->n ? s->n : 1) * sizeof(*offs));
	size_t *order = malloc((s->n ? s->n : 1) * sizeof(*order));
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc = -AP_ERR_NOMEM;
	if (!offs || !order)
		goto out;
	for (size_t k = 0; k < s->n; k++) {
		const struct report_stack_acc *a = &s->acc[k];
		const uint64_t *f = s->pool + a->off;
		offs[k] = len;
		order[k] = k;
		for (size_t i = a->n; i-- > 0;) {
			struct fn_key fk = frame_function(r, f, i);
			if (reserve((void **)&buf, &cap, len + 1, 1) < 0)
				goto out;
			if (i + 1 < a->n)
				buf[len++] = ';';
			if (append_name(&buf, &len, &cap, fk.name ? fk.name : "[unknown]") < 0)
				goto out;
		}
		if (reserve((void **)&buf, &cap, len + 1, 1) < 0)
			goto out;
		buf[len++] = 0;
	}
	sort_names = buf;
	sort_offs = offs;
	qsort(order, s->n, sizeof(*order), cmp_by_name);
	s->folded = calloc(s->n ? s->n : 1, sizeof(*s->folded));
	if (!s->folded)
		goto out;
	size_t nf = 0;
	for (size_t j = 0; j < s->n; j++) {
		const char *name = buf + offs[order[j]];
		if (!nf || strcmp(s->folded[nf - 1].stack, name))
			s->folded[nf++].stack = name;
		for (int k = 0; k < AP_REPORT_N_KEYS; k++)
			s->folded[nf - 1].weight[k] += s->acc[order[j]].w[k];
	}
	s->n_folded = nf;
	s->names = buf;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	free(offs);
	free(order);
	return rc;
}

static int build_inclusive(const struct ap_report *r, struct report_stacks *s)
{
	struct incl_build b = { 0 };
	int rc = -AP_ERR_NOMEM;
	for (size_t k = 0; k < s->n; k++) {
		const struct report_stack_acc *a = &s->acc[k];
		const uint64_t *f = s->pool + a->off;
		for (size_t i = 0; i < a->n; i++) {
			struct fn_key fk = frame_function(r, f, i);
			size_t *last;
			struct ap_report_inclusive *row = incl_row(&b, &fk, &last);
			if (!row)
				goto out;
			for (int w = 0; w < AP_REPORT_N_KEYS; w++) {
				if (!i)
					row->self[w] += a->w[w];
				if (*last != k + 1)
					row->children[w] += a->w[w];
			}
			*last = k + 1;
		}
	}
	s->incl = b.v;
	s->n_incl = b.n;
	b.v = NULL;
	rc = 0;
out:
	free(b.v);
	free(b.last);
	free(b.index);
	return rc;
}

int report_stacks_finish(const struct ap_report *r, struct report_stacks *s)
{
	free_views(s);
	s->rows = calloc(s->n ? s->n : 1, sizeof(*s->rows));
	if (!s->rows)
		return -AP_ERR_NOMEM;
	for (size_t k = 0; k < s->n; k++) {
		s->rows[k].frames = s->pool + s->acc[k].off;
		s->rows[k].n_frames = s->acc[k].n;
		memcpy(s->rows[k].weight, s->acc[k].w, sizeof(s->rows[k].weight));
	}
	s->n_rows = s->n;
	if (build_folded(r, s) < 0 || build_inclusive(r, s) < 0) {
		free_views(s);
		return -AP_ERR_NOMEM;
	}
	return 0;
}

static _Thread_local enum ap_report_key sort_key;

static int cmp_weights(const uint64_t *x, const uint64_t *y)
{
	if (x[sort_key] != y[sort_key])
		return x[sort_key] > y[sort_key] ? -1 : 1;
	if (x[AP_REPORT_BY_SAMPLES] != y[AP_REPORT_BY_SAMPLES])
		return x[AP_REPORT_BY_SAMPLES] > y[AP_REPORT_BY_SAMPLES] ? -1 : 1;
	return 0;
}

static int cmp_stack(const void *a, const void *b)
{
	const struct ap_report_stack *x = a, *y = b;
	int c = cmp_weights(x->weight, y->weight);
	for (size_t i = 0; !c && i < x->n_frames && i < y->n_frames; i++)
		c = (x->frames[i] > y->frames[i]) - (x->frames[i] < y->frames[i]);
	return c ? c : (x->n_frames > y->n_frames) - (x->n_frames < y->n_frames);
}

static int cmp_folded(const void *a, const void *b)
{
	const struct ap_report_folded *x = a, *y = b;
	int c = cmp_weights(x->weight, y->weight);
	return c ? c : strcmp(x->stack, y->stack);
}

static int cmp_incl(const void *a, const void *b)
{
	const struct ap_report_inclusive *x = a, *y = b;
	int c = cmp_weights(x->children, y->children);
	if (!c)
		c = cmp_weights(x->self, y->self);
	if (!c && x->name && y->name)
		c = strcmp(x->name, y->name);
	if (!c)
		c = (x->addr > y->addr) - (x->addr < y->addr);
	if (!c && (x->name != NULL) != (y->name != NULL))
		c = (x->name != NULL) - (y->name != NULL);
	if (!c && x->binary != y->binary)
		c = !x->binary ? -1 : !y->binary ? 1 : strcmp(x->binary, y->binary);
	return c;
}

void report_stacks_sort(struct report_stacks *s, enum ap_report_key key)
{
	sort_key = key;
	if (!s->n_rows) /* the views may be NULL, which qsort must not get */
		return;
	qsort(s->rows, s->n_rows, sizeof(*s->rows), cmp_stack);
	qsort(s->folded, s->n_folded, sizeof(*s->folded), cmp_folded);
	qsort(s->incl, s->n_incl, sizeof(*s->incl), cmp_incl);
}

int ap_report_add_stack(struct ap_report *r, const struct ap_record *rec, const uint64_t *frames, size_t n_frames)
{
	int rc = report_count(r, rec);
	if (report_stacks_add(&r->stacks, rec, frames, n_frames) < 0)
		rc = -AP_ERR_NOMEM;
	return rc;
}

size_t ap_report_stacks(const struct ap_report *r, const struct ap_report_stack **stacks)
{
	*stacks = r->stacks.rows;
	return r->finished ? r->stacks.n_rows : 0;
}

size_t ap_report_folded_stacks(const struct ap_report *r, const struct ap_report_folded **rows)
{
	*rows = r->stacks.folded;
	return r->finished ? r->stacks.n_folded : 0;
}

size_t ap_report_inclusive(const struct ap_report *r, const struct ap_report_inclusive **rows)
{
	*rows = r->stacks.incl;
	return r->finished ? r->stacks.n_incl : 0;
}

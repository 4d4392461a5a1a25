/* Call stacks of the records (ap_report_add_stack): distinct frame
 * sequences interned in one pool and found by a hash, each with its
 * weights; at ap_report_finish, the folded (symbolized) stacks and the
 * functions' inclusive weights. Adding a record hashes its frames and
 * allocates only when a table grows. A record without frames has the
 * one-frame stack [PC], which is not stored: the per-PC statistics
 * (pcs.c) already hold its weights, and its folded stack and inclusive
 * weight are its function's (a report of millions of distinct PCs then
 * keeps no stack per PC). */
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

static size_t given_slot(const struct report_stacks *s, uint64_t pc)
{
	size_t mask = s->cap_given - 1, i = (size_t)(((pc >> 2) * 0x9E3779B97F4A7C15ull) >> 32) & mask;
	while (s->given[i].w[AP_REPORT_BY_SAMPLES] && s->given[i].pc != pc)
		i = (i + 1) & mask;
	return i;
}

/* The weights of the records at pc with a stack given, or NULL. */
static const uint64_t *given_weights(const struct report_stacks *s, uint64_t pc)
{
	if (!s->n_given)
		return NULL;
	const struct report_pc_weights *g = &s->given[given_slot(s, pc)];
	return g->w[AP_REPORT_BY_SAMPLES] ? g->w : NULL;
}

static int add_given(struct report_stacks *s, uint64_t pc, const uint64_t w[AP_REPORT_N_KEYS])
{
	if ((s->n_given + 1) * 2 > s->cap_given) {
		size_t cap = s->cap_given ? 2 * s->cap_given : 64;
		struct report_pc_weights *old = s->given, *v = calloc(cap, sizeof(*v));
		if (!v)
			return -AP_ERR_NOMEM;
		size_t old_cap = s->cap_given;
		s->given = v;
		s->cap_given = cap;
		for (size_t k = 0; k < old_cap; k++)
			if (old[k].w[AP_REPORT_BY_SAMPLES])
				s->given[given_slot(s, old[k].pc)] = old[k];
		free(old);
	}
	struct report_pc_weights *g = &s->given[given_slot(s, pc)];
	if (!g->w[AP_REPORT_BY_SAMPLES]) {
		g->pc = pc;
		s->n_given++;
	}
	for (int k = 0; k < AP_REPORT_N_KEYS; k++)
		g->w[k] += w[k];
	return 0;
}

int report_stacks_add(struct report_stacks *s, const struct ap_record *rec, const uint64_t *f, size_t n)
{
	if (!n)
		return 0; /* [PC]: the per-PC statistics hold it */
	if (n > AP_REPORT_MAX_FRAMES)
		n = AP_REPORT_MAX_FRAMES;
	uint64_t w[AP_REPORT_N_KEYS];
	report_record_weights(rec, w);
	if ((rec->has & AP_HAS_PC) && add_given(s, rec->pc, w) < 0)
		return -AP_ERR_NOMEM;
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
	s->have_rows = 0;
}

void report_stacks_free(struct report_stacks *s)
{
	free_views(s);
	free(s->pool);
	free(s->acc);
	free(s->index);
	free(s->given);
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

/* The weights of PC entry k's one-frame stack [PC]: its records' less
 * those given a stack. */
static void implicit_weights(const struct ap_report *r, const struct report_stacks *s, size_t k,
                             uint64_t w[AP_REPORT_N_KEYS])
{
	report_pcs_weights(&r->pcs, k, w);
	const uint64_t *g = given_weights(s, r->pcs.v[k].pc);
	for (int key = 0; g && key < AP_REPORT_N_KEYS; key++)
		w[key] -= g[key];
}

/* The same summed per function (r->fns: n_fns x AP_REPORT_N_KEYS), or NULL. */
static uint64_t *implicit_by_function(const struct ap_report *r, const struct report_stacks *s)
{
	uint64_t *fw = calloc(r->n_fns ? r->n_fns : 1, AP_REPORT_N_KEYS * sizeof(*fw));
	if (!fw)
		return NULL;
	for (size_t k = 0; k < r->pcs.n; k++) {
		uint64_t w[AP_REPORT_N_KEYS];
		implicit_weights(r, s, k, w);
		uint64_t *to = fw + (size_t)r->pcs.v[k].fn * AP_REPORT_N_KEYS;
		for (int key = 0; key < AP_REPORT_N_KEYS; key++)
			to[key] += w[key];
	}
	return fw;
}

/* The folded stacks: the stored stacks', and each function's [PC]
 * stacks' (fw), its name alone. */
static int build_folded(const struct ap_report *r, struct report_stacks *s, const uint64_t *fw)
{
	size_t n = s->n + r->n_fns;
	size_t *offs = malloc((n ? n : 1) * sizeof(*offs));
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	const uint64_t **wv = malloc((n ? n : 1) * sizeof(*wv));
	char *buf = NULL;
	size_t len = 0, cap = 0, m = 0;
	int rc = -AP_ERR_NOMEM;
	if (!offs || !order || !wv)
		goto out;
	for (size_t k = 0; k < s->n; k++, m++) {
		const struct report_stack_acc *a = &s->acc[k];
		const uint64_t *f = s->pool + a->off;
		offs[m] = len;
		order[m] = m;
		wv[m] = a->w;
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
	for (size_t k = 0; k < r->n_fns; k++) {
		if (!fw[k * AP_REPORT_N_KEYS + AP_REPORT_BY_SAMPLES])
			continue;
		offs[m] = len;
		order[m] = m;
		wv[m] = fw + k * AP_REPORT_N_KEYS;
		m++;
		if (append_name(&buf, &len, &cap, r->fns[k].name ? r->fns[k].name : "[unknown]") < 0)
			goto out;
		len++; /* its NUL, which append_name wrote */
	}
	sort_names = buf;
	sort_offs = offs;
	qsort(order, m, sizeof(*order), cmp_by_name);
	s->folded = calloc(m ? m : 1, sizeof(*s->folded));
	if (!s->folded)
		goto out;
	size_t nf = 0;
	for (size_t j = 0; j < m; j++) {
		const char *name = buf + offs[order[j]];
		if (!nf || strcmp(s->folded[nf - 1].stack, name))
			s->folded[nf++].stack = name;
		for (int k = 0; k < AP_REPORT_N_KEYS; k++)
			s->folded[nf - 1].weight[k] += wv[order[j]][k];
	}
	s->n_folded = nf;
	s->names = buf;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	free(offs);
	free(order);
	free(wv);
	return rc;
}

static int build_inclusive(const struct ap_report *r, struct report_stacks *s, const uint64_t *fw)
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
	/* The [PC] stacks: one frame, self and children alike. */
	for (size_t k = 0; k < r->n_fns; k++) {
		const uint64_t *w = fw + k * AP_REPORT_N_KEYS;
		if (!w[AP_REPORT_BY_SAMPLES])
			continue;
		const struct report_function *f = &r->fns[k];
		struct fn_key fk = { f->name ? f->start : 0, f->name, f->binary };
		size_t *last;
		struct ap_report_inclusive *row = incl_row(&b, &fk, &last);
		if (!row)
			goto out;
		for (int key = 0; key < AP_REPORT_N_KEYS; key++) {
			row->self[key] += w[key];
			row->children[key] += w[key];
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
	uint64_t *fw = implicit_by_function(r, s);
	if (!fw || build_folded(r, s, fw) < 0 || build_inclusive(r, s, fw) < 0) {
		free(fw);
		free_views(s);
		return -AP_ERR_NOMEM;
	}
	free(fw);
	return 0;
}

static void sort_rows(struct report_stacks *s);

int report_stacks_rows(const struct ap_report *r, struct report_stacks *s)
{
	if (s->have_rows)
		return 0;
	/* The stored stacks, then the [PC] stacks not among them. */
	size_t n = s->n + r->pcs.n;
	s->rows = calloc(n ? n : 1, sizeof(*s->rows));
	if (!s->rows)
		return -AP_ERR_NOMEM;
	for (size_t k = 0; k < s->n; k++) {
		s->rows[k].frames = s->pool + s->acc[k].off;
		s->rows[k].n_frames = s->acc[k].n;
		memcpy(s->rows[k].weight, s->acc[k].w, sizeof(s->rows[k].weight));
	}
	n = s->n;
	for (size_t k = 0; k < r->pcs.n; k++) {
		uint64_t w[AP_REPORT_N_KEYS];
		implicit_weights(r, s, k, w);
		if (!w[AP_REPORT_BY_SAMPLES])
			continue;
		const uint64_t *pc = &r->pcs.v[k].pc;
		struct ap_report_stack *row = &s->rows[n];
		if (s->n) {
			size_t slot = stack_slot(s, hash_frames(pc, 1), pc, 1);
			if (s->index[slot])
				row = &s->rows[s->index[slot] - 1];
		}
		if (row == &s->rows[n]) {
			row->frames = pc;
			row->n_frames = 1;
			n++;
		}
		for (int key = 0; key < AP_REPORT_N_KEYS; key++)
			row->weight[key] += w[key];
	}
	s->n_rows = n;
	s->have_rows = 1;
	sort_rows(s);
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

static void sort_rows(struct report_stacks *s)
{
	sort_key = s->key;
	if (s->n_rows) /* the rows may be NULL, which qsort must not get */
		qsort(s->rows, s->n_rows, sizeof(*s->rows), cmp_stack);
}

void report_stacks_sort(struct report_stacks *s, enum ap_report_key key)
{
	s->key = key;
	sort_rows(s);
	sort_key = key;
	if (s->n_folded)
		qsort(s->folded, s->n_folded, sizeof(*s->folded), cmp_folded);
	if (s->n_incl)
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
	/* Made on the first call (a cache: the report is not otherwise changed). */
	if (r->finished && report_stacks_rows(r, (struct report_stacks *)&r->stacks) < 0) {
		*stacks = NULL;
		return 0;
	}
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

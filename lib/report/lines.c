/* Shared cache lines (include/armprof/report.h, ap_report_shared_lines):
 * the data lines where a sampled load's data came from another core's
 * cache, with every sample that touched them.
 *
 * Two passes over the records, because which lines matter is known only
 * once every record has been seen: the first (ap_report_add) notes the
 * lines of such loads, a few as a rule, in a small table; the second
 * (ap_report_add_line_sample) counts the samples of those lines only.
 * One pass would have to keep every line any sample touched (millions in
 * a pointer chase) in case it turned out to be shared. */
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

/* The data was in another core's cache, in this cluster, another one or
 * another chip (the Data Source classes of the records' encoding:
 * data_source.h). */
static int from_another_core(const struct report_lines *l, const struct ap_record *rec)
{
	return (rec->has & AP_HAS_DATA_SOURCE) && ap_ds_from_another_core(l->ds_enc, rec->data_source);
}

static uint64_t line_of(const struct ap_record *rec)
{
	/* The canonical address: byte 7 is the TAG (SPE-5.3.1-17), not
	 * address; a kernel line is at 0xffff.. as perf shows it. */
	return ap_record_vaddr(rec) / AP_REPORT_LINE_BYTES;
}

static int cmp_tid(const void *a, const void *b)
{
	uint64_t x = ((const struct report_pc_count *)a)->pc, y = ((const struct report_pc_count *)b)->pc;
	return x < y ? -1 : x > y;
}

/* Append {a, b} to the array {set, n, cap}, growing it by doubling. */
static int append_pair(struct report_pc_count **set, size_t *n, size_t *cap, uint64_t a, uint64_t b)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 4;
		struct report_pc_count *s = realloc(*set, c * sizeof(*s));
		if (!s)
			return -AP_ERR_NOMEM;
		*set = s;
		*cap = c;
	}
	(*set)[(*n)++] = (struct report_pc_count){ a, b };
	return 0;
}

/* Add v to the set {set, n, cap}, or count it in *overflow past max. */
static int count_in(struct report_pc_count **set, size_t *n, size_t *cap, uint64_t v, size_t max,
                    uint64_t *overflow)
{
	for (size_t k = 0; k < *n; k++)
		if ((*set)[k].pc == v) {
			(*set)[k].count++;
			return 0;
		}
	if (*n == max) {
		(*overflow)++;
		return 0;
	}
	return append_pair(set, n, cap, v, 1);
}

int ap_report_set_thread_process(struct ap_report *r, uint64_t tid, uint64_t pid)
{
	struct report_lines *l = &r->lines;
	l->procs_sorted = 0;
	return append_pair(&l->procs, &l->n_procs, &l->cap_procs, tid, pid);
}

/* The process of the record's thread, or AP_REPORT_NO_PROCESS. */
static uint64_t process_of(struct report_lines *l, const struct ap_record *rec)
{
	uint64_t tid = report_thread(l->prefer, rec, NULL);
	if (!l->n_procs || tid == AP_REPORT_NO_CONTEXT)
		return AP_REPORT_NO_PROCESS;
	if (!l->procs_sorted) {
		qsort(l->procs, l->n_procs, sizeof(*l->procs), cmp_tid);
		l->procs_sorted = 1;
	}
	size_t lo = 0, hi = l->n_procs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (l->procs[mid].pc < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n_procs && l->procs[lo].pc == tid ? l->procs[lo].count : AP_REPORT_NO_PROCESS;
}

static uint64_t key_hash(uint64_t line, uint64_t pid)
{
	return (line ^ (pid * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
}

static size_t line_slot(const struct report_lines *l, uint64_t line, uint64_t pid)
{
	size_t mask = l->index_cap - 1, i = (size_t)(key_hash(line, pid) >> 32) & mask;
	while (l->index[i]) {
		const struct ap_report_line *x = &l->acc[l->index[i] - 1].line;
		if (x->addr / AP_REPORT_LINE_BYTES == line && x->pid == pid)
			break;
		i = (i + 1) & mask;
	}
	return i;
}

static struct report_line_acc *find(const struct report_lines *l, uint64_t line, uint64_t pid)
{
	if (!l->n)
		return NULL;
	uint32_t k = l->index[line_slot(l, line, pid)];
	return k ? &l->acc[k - 1] : NULL;
}

/* First pass: a load from another core's cache notes its line. */
int report_lines_note(struct report_lines *l, const struct ap_record *rec)
{
	if (!(rec->has & AP_HAS_VADDR) || !from_another_core(l, rec))
		return 0;
	uint64_t line = line_of(rec), pid = process_of(l, rec);
	struct report_line_acc *a = find(l, line, pid);
	if (a) {
		a->line.peer_loads++;
		return 0;
	}
	if (l->n == AP_REPORT_MAX_SHARED_LINES) {
		l->dropped++;
		return 0;
	}
	if ((l->n + 1) * 2 > l->index_cap) {
		size_t cap = l->index_cap ? 2 * l->index_cap : 64;
		uint32_t *index = calloc(cap, sizeof(*index));
		struct report_line_acc *acc = realloc(l->acc, cap / 2 * sizeof(*acc));
		if (!index || !acc) {
			free(index);
			if (acc)
				l->acc = acc;
			return -AP_ERR_NOMEM;
		}
		l->acc = acc;
		free(l->index);
		l->index = index;
		l->index_cap = cap;
		for (size_t k = 0; k < l->n; k++)
			l->index[line_slot(l, l->acc[k].line.addr / AP_REPORT_LINE_BYTES, l->acc[k].line.pid)] =
			        (uint32_t)(k + 1);
	}
	a = &l->acc[l->n];
	memset(a, 0, sizeof(*a));
	a->line.addr = line * AP_REPORT_LINE_BYTES;
	a->line.pid = pid;
	a->line.peer_loads = 1;
	l->index[line_slot(l, line, pid)] = (uint32_t)(l->n + 1);
	l->n++;
	return 0;
}



int ap_report_add_line_sample(struct ap_report *r, const struct ap_record *rec)
{
	struct report_lines *l = &r->lines;
	l->second_pass = 1;
	if (!(rec->has & AP_HAS_VADDR))
		return 0;
	struct report_line_acc *a = find(l, line_of(rec), process_of(l, rec));
	if (!a)
		return 0;
	report_stats_add(&a->line.stats, rec, l->ds_enc);
	uint64_t ctx = report_thread(l->prefer, rec, NULL);
	/* Which thread touched which word: one thread per word is false
	 * sharing, two on one word true sharing. */
	struct ap_report_line_word *w = &a->line.word[(rec->vaddr % AP_REPORT_LINE_BYTES) / 8];
	uint64_t *first = &a->word_thread[(rec->vaddr % AP_REPORT_LINE_BYTES) / 8];
	if (!w->samples++) {
		*first = ctx;
		w->threads = 1;
	} else if (*first != ctx) {
		w->threads = 2;
	}
	uint64_t ignored = 0;
	if (count_in(&a->ctx, &a->n_ctx, &a->cap_ctx, ctx, SIZE_MAX, &ignored) < 0)
		return -AP_ERR_NOMEM;
	if (rec->has & AP_HAS_PC)
		return count_in(&a->pcs, &a->n_pcs, &a->cap_pcs, rec->pc, AP_REPORT_LINE_PCS, &a->other_pcs);
	a->other_pcs++;
	return 0;
}

int ap_report_has_shared_lines(const struct ap_report *r)
{
	return r->lines.n != 0;
}

const char *ap_report_sharing_name(enum ap_report_sharing s)
{
	return s == AP_REPORT_SHARING_FALSE ? "false" : s == AP_REPORT_SHARING_TRUE ? "true" : "one thread";
}

static enum ap_report_sharing sharing_of(const struct ap_report_line *l)
{
	if (l->threads < 2)
		return AP_REPORT_SHARING_ONE_THREAD;
	for (size_t k = 0; k < AP_REPORT_LINE_WORDS; k++)
		if (l->word[k].threads > 1)
			return AP_REPORT_SHARING_TRUE;
	return AP_REPORT_SHARING_FALSE;
}

static int cmp_fn_samples(const void *a, const void *b)
{
	const struct ap_report_line_function *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->name && y->name)
		return strcmp(x->name, y->name);
	return (x->name == NULL) - (y->name == NULL);
}

static int cmp_lines(const void *a, const void *b)
{
	const struct ap_report_line *x = a, *y = b;
	if (x->peer_loads != y->peer_loads)
		return x->peer_loads > y->peer_loads ? -1 : 1;
	if (x->stats.samples != y->stats.samples)
		return x->stats.samples > y->stats.samples ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* A line's functions from its PCs (symbols), most samples first. */
static void line_functions(const struct ap_report *r, const struct report_line_acc *a, struct ap_report_line *out)
{
	struct ap_report_line_function f[AP_REPORT_LINE_PCS];
	size_t n = 0;
	for (size_t k = 0; k < a->n_pcs; k++) {
		const char *binary;
		const struct report_symbol *sym = report_find_symbol(r, a->pcs[k].pc, &binary);
		const char *name = sym ? sym->name : NULL;
		size_t j = 0;
		while (j < n && !(f[j].name == name && f[j].binary == binary))
			j++;
		if (j == n)
			f[n++] = (struct ap_report_line_function){ name, binary, 0 };
		f[j].samples += a->pcs[k].count;
	}
	qsort(f, n, sizeof(f[0]), cmp_fn_samples);
	out->n_functions = n < AP_REPORT_LINE_FUNCTIONS ? n : AP_REPORT_LINE_FUNCTIONS;
	memcpy(out->function, f, out->n_functions * sizeof(f[0]));
}

int report_lines_finish(struct ap_report *r)
{
	struct report_lines *l = &r->lines;
	free(l->rows);
	l->rows = NULL;
	l->n_rows = 0;
	if (!l->second_pass || !l->n)
		return 0;
	l->rows = calloc(l->n, sizeof(*l->rows));
	if (!l->rows)
		return -AP_ERR_NOMEM;
	for (size_t k = 0; k < l->n; k++) {
		struct ap_report_line *row = &l->rows[k];
		*row = l->acc[k].line;
		row->threads = (uint32_t)l->acc[k].n_ctx;
		row->sharing = sharing_of(row);
		line_functions(r, &l->acc[k], row);
	}
	qsort(l->rows, l->n, sizeof(*l->rows), cmp_lines);
	l->n_rows = l->n;
	return 0;
}

size_t ap_report_shared_lines(const struct ap_report *r, const struct ap_report_line **lines, uint64_t *dropped)
{
	*lines = r->lines.rows;
	if (dropped)
		*dropped = r->lines.dropped;
	return r->finished ? r->lines.n_rows : 0;
}

void report_lines_free(struct report_lines *l)
{
	for (size_t k = 0; k < l->n; k++) {
		free(l->acc[k].pcs);
		free(l->acc[k].ctx);
	}
	free(l->acc);
	free(l->index);
	free(l->rows);
	free(l->procs);
	memset(l, 0, sizeof(*l));
}

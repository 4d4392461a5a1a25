/* The pprof profile of `armprof report --format pprof`: see report_pprof.h.
 * The elements of pprof's proto/profile.proto are written here, each as
 * soon as it is known, into the gzip stream of report_pprof_pb.c: a string
 * when first interned, a function and a location when a sample first
 * names them, the samples each time the table of report_pprof_samples.c
 * is full and at the end. string_table[0] is "" (written first), and the
 * mapping (id 1, which every location names) comes last. */
#include "report_pprof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/codec.h"
#include "armprof/data_source.h"
#include "armprof/number.h"
#include "report_pprof_pb.h"
#include "report_pprof_samples.h"

/* profile.proto field numbers */
enum { P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4, P_FUNCTION = 5, P_STRING = 6,
	P_PERIOD_TYPE = 11, P_PERIOD = 12, P_COMMENT = 13, P_DEFAULT_SAMPLE_TYPE = 14 };
static const char *const value_names[PPROF_N_VALUES][2] = { { "samples", "count" }, { "latency", "cycles" },
	{ "l1d_miss", "count" }, { "llc_miss", "count" }, { "tlb_walk", "count" }, { "mispredict", "count" } };
static const char *const op_names[] = { NULL, "LD", "ST", "B", "OTHER", "RESERVED" };
static const char *const label_keys[3] = { "op", "data_source", "events" };

struct report_pprof {
	struct pprof_samples samples;
	struct pprof_stream st;
	struct pb msg, sub; /* an element being encoded, a message nested in it */
	char **strs;        /* the string table, to find a string again */
	size_t n_strs, cap_strs;
	struct pprof_table str_index; /* string + 1 by hash */
	struct loc {                  /* a location by id - 1: its frame, kept to find it again */
		uint64_t addr;
		uint32_t ret;    /* a return address (looked up at addr - 1) */
		uint8_t kernel;  /* a kernel address ([kernel.kallsyms], a [module]) */
		uint8_t named;   /* a symbol names it */
	} *locs;
	size_t n_locs, cap_locs;
	struct pprof_table loc_index;
	uint32_t *fn_names; /* the name string of function id - 1 */
	size_t n_fns, cap_fns;
	struct pprof_table fn_index;
	uint32_t keys[3];   /* the strings of label_keys */
	uint32_t op_str[6]; /* the strings of op_names, 0 until interned */
	uint32_t ev_str[64]; /* the events' names, the same */
	uint64_t ids[AP_REPORT_MAX_FRAMES]; /* the location ids of the sample being written */
	uint64_t kernel, kernel_named;      /* samples written of a kernel PC, of a named one */
	int failed;         /* its reason printed */
};

/* -1 after saying why, once (the stream may have said it already). */
static int fail(struct report_pprof *p)
{
	if (!p->failed && !p->st.failed)
		fprintf(stderr, "armprof report: pprof: out of memory\n");
	p->failed = 1;
	return -1;
}

static void emit(struct report_pprof *p, unsigned field)
{
	pprof_stream_emit(&p->st, field, &p->msg);
	if (p->st.failed)
		p->failed = 1;
}

/* ---- the index of strings, functions and locations written ------------ */

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h ^ (h >> 29);
}

static uint64_t str_hash_k(const void *ctx, size_t k)
{
	const struct report_pprof *p = ctx;
	return str_hash(p->strs[k]);
}

/* The string's index in the string table, written and added if new; 0 on
 * failure (p->failed). */
static uint32_t intern(struct report_pprof *p, const char *s)
{
	struct pprof_table *t = &p->str_index;
	if (pprof_table_grow(t, p->n_strs, str_hash_k, p) < 0)
		return fail(p), 0;
	size_t i = str_hash(s) & (t->cap - 1);
	while (t->slot[i] && strcmp(p->strs[t->slot[i] - 1], s))
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i])
		return t->slot[i] - 1;
	char *copy = strdup(s);
	if (!copy || p->n_strs >= UINT32_MAX - 1 ||
	    report_pprof_reserve((void **)&p->strs, &p->cap_strs, p->n_strs + 1, sizeof(*p->strs)) < 0) {
		free(copy);
		return fail(p), 0;
	}
	p->strs[p->n_strs] = copy;
	t->slot[i] = (uint32_t)++p->n_strs;
	size_t len = strlen(s);
	pb_bytes(&p->st.top, P_STRING, s, len);
	if (p->st.top.len >= (1u << 16) && pprof_stream_drain(&p->st, 0) < 0)
		p->failed = 1;
	return (uint32_t)(p->n_strs - 1);
}

static uint64_t fn_hash_k(const void *ctx, size_t k)
{
	const struct report_pprof *p = ctx;
	return report_pprof_mix(0, p->fn_names[k]);
}

/* The function id of a name, written (with file, the source file string of
 * the location that first names it) when new. */
static uint32_t function_of(struct report_pprof *p, uint32_t name, uint32_t file)
{
	struct pprof_table *t = &p->fn_index;
	if (pprof_table_grow(t, p->n_fns, fn_hash_k, p) < 0)
		return fail(p), 0;
	size_t i = report_pprof_mix(0, name) & (t->cap - 1);
	while (t->slot[i] && p->fn_names[t->slot[i] - 1] != name)
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i])
		return t->slot[i];
	if (report_pprof_reserve((void **)&p->fn_names, &p->cap_fns, p->n_fns + 1, sizeof(*p->fn_names)) < 0)
		return fail(p), 0;
	p->fn_names[p->n_fns] = name;
	t->slot[i] = (uint32_t)++p->n_fns;
	pb_int(&p->msg, 1, p->n_fns);
	pb_int(&p->msg, 2, name);
	pb_int(&p->msg, 3, name);
	pb_int(&p->msg, 4, file);
	emit(p, P_FUNCTION);
	return (uint32_t)p->n_fns;
}

static uint64_t loc_hash(uint64_t addr, uint32_t ret)
{
	return report_pprof_mix(report_pprof_mix(0, addr), ret);
}

static uint64_t loc_hash_k(const void *ctx, size_t k)
{
	const struct report_pprof *p = ctx;
	return loc_hash(p->locs[k].addr, p->locs[k].ret);
}

/* The location id of a frame at addr (ret: a return address, looked up at
 * addr - 1, inside the call, as the report's stacks do), written with its
 * function and line when new. */
static uint64_t location_of(struct report_pprof *p, const struct ap_report *r, uint64_t addr, uint32_t ret)
{
	struct pprof_table *t = &p->loc_index;
	if (pprof_table_grow(t, p->n_locs, loc_hash_k, p) < 0)
		return fail(p), 0;
	size_t i = loc_hash(addr, ret) & (t->cap - 1);
	while (t->slot[i] && (p->locs[t->slot[i] - 1].addr != addr || p->locs[t->slot[i] - 1].ret != ret))
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i])
		return t->slot[i];
	if (p->n_locs >= UINT32_MAX - 1 ||
	    report_pprof_reserve((void **)&p->locs, &p->cap_locs, p->n_locs + 1, sizeof(*p->locs)) < 0)
		return fail(p), 0;
	uint64_t at = ret ? addr - 1 : addr;
	const char *bin = NULL, *name = ap_report_symbol_name(r, at, &bin);
	p->locs[p->n_locs] = (struct loc){ addr, ret, bin && bin[0] == '[', name != NULL };
	t->slot[i] = (uint32_t)++p->n_locs;
	char line[512], file[512] = "";
	uint64_t lineno = 0;
	if (ap_report_source_line(r, at, line, sizeof(line)) == 0) {
		char *colon = strrchr(line, ':');
		if (colon && ap_parse_u64(colon + 1, &lineno) == 0) {
			*colon = 0;
			snprintf(file, sizeof(file), "%s", line);
		}
	}
	uint32_t fn = function_of(p, intern(p, name ? name : "[unknown]"), intern(p, file));
	pb_int(&p->msg, 1, p->n_locs);
	pb_int(&p->msg, 2, 1); /* the one mapping */
	pb_int(&p->msg, 3, addr);
	p->sub.len = 0;
	pb_int(&p->sub, 1, fn);
	pb_int(&p->sub, 2, lineno);
	pb_bytes(&p->msg, 4, p->sub.p, p->sub.len);
	if (p->sub.oom)
		p->msg.oom = 1;
	emit(p, P_LOCATION);
	return p->n_locs;
}

/* ---- samples ---------------------------------------------------------- */

/* The strings of a label set's values: an operation's and an event's kept
 * by number once interned, a data source's interned again for each part
 * (a label set lives as long as the samples that name it). */
static void label_strings(struct report_pprof *p, const struct ap_report *r, struct pprof_label *l)
{
	if (l->op && !p->op_str[l->op])
		p->op_str[l->op] = intern(p, op_names[l->op]);
	if (l->ds >= 0 && !l->ds_str) {
		char num[16];
		const char *name = ap_report_source_label(r, (unsigned)l->ds);
		snprintf(num, sizeof(num), "%d", l->ds);
		l->ds_str = intern(p, name ? name : num);
	}
}

/* An event's name (docs/jsonl-schema.md), e<N> for a bit without one: at
 * most 64 strings, whatever the records' event words. */
static uint32_t event_string(struct report_pprof *p, unsigned b)
{
	if (!p->ev_str[b]) {
		char num[8];
		const char *name = ap_event_name(b);
		if (!name) {
			snprintf(num, sizeof(num), "e%u", b);
			name = num;
		}
		p->ev_str[b] = intern(p, name);
	}
	return p->ev_str[b];
}

static void put_label(struct report_pprof *p, uint32_t key, uint32_t value)
{
	p->sub.len = 0;
	pb_int(&p->sub, 1, key);
	pb_int(&p->sub, 2, value);
	pb_bytes(&p->msg, 3, p->sub.p, p->sub.len);
}

static void write_sample(struct report_pprof *p, const struct ap_report *r, const struct pprof_sample *e)
{
	/* the locations and strings it names first: they use msg and sub */
	const uint64_t *f = pprof_frames(&p->samples, e);
	for (uint32_t k = 0; k < e->n; k++)
		p->ids[k] = location_of(p, r, f[k], k > 0);
	if (p->ids[0] && p->locs[p->ids[0] - 1].kernel) {
		p->kernel += e->samples;
		p->kernel_named += p->locs[p->ids[0] - 1].named ? e->samples : 0;
	}
	struct pprof_label *l = &p->samples.labels[e->label];
	label_strings(p, r, l);
	p->sub.len = 0; /* location_id, packed */
	for (uint32_t k = 0; k < e->n; k++)
		pb_varint(&p->sub, p->ids[k]);
	pb_bytes(&p->msg, 1, p->sub.p, p->sub.len);
	uint64_t v[PPROF_N_VALUES];
	pprof_sample_values(&p->samples, e, v);
	p->sub.len = 0; /* value, packed */
	for (int k = 0; k < PPROF_N_VALUES; k++)
		pb_varint(&p->sub, v[k]);
	pb_bytes(&p->msg, 2, p->sub.p, p->sub.len);
	if (l->op)
		put_label(p, p->keys[0], p->op_str[l->op]);
	if (l->ds >= 0)
		put_label(p, p->keys[1], l->ds_str);
	for (uint64_t bits = l->events; bits; bits &= bits - 1) /* a label each: see report_pprof.h */
		put_label(p, p->keys[2], event_string(p, (unsigned)__builtin_ctzll(bits)));
	if (p->sub.oom)
		p->msg.oom = 1;
	emit(p, P_SAMPLE);
}

/* The table's samples into the profile, and the table emptied. */
static int write_samples(struct report_pprof *p, const struct ap_report *r)
{
	/* A sample's innermost frame is found in the locations' index, and
	 * then its entry: two cache misses when the PCs are many (location_of
	 * took 29% of the time at 80 MiB, 262 144 PCs). Fetched ahead: the
	 * slot 16 samples on, the entry the slot 8 on names. */
	const struct pprof_table *t = &p->loc_index;
	for (size_t k = 0, n = p->samples.n; k < n && !p->failed; k++) {
		if (t->cap && k + 16 < n) {
			const struct pprof_sample *e = &p->samples.e[k + 16];
			__builtin_prefetch(&t->slot[loc_hash(pprof_frames(&p->samples, e)[0], 0) & (t->cap - 1)]);
		}
		if (t->cap && k + 8 < n) {
			const struct pprof_sample *e = &p->samples.e[k + 8];
			uint32_t id = t->slot[loc_hash(pprof_frames(&p->samples, e)[0], 0) & (t->cap - 1)];
			if (id)
				__builtin_prefetch(&p->locs[id - 1]);
		}
		write_sample(p, r, &p->samples.e[k]);
	}
	pprof_samples_clear(&p->samples);
	return p->failed ? fail(p) : 0;
}

/* ---- the profile -------------------------------------------------------- */

struct report_pprof *report_pprof_create(size_t max_samples)
{
	struct report_pprof *p = calloc(1, sizeof(*p));
	if (!p) {
		fprintf(stderr, "armprof report: pprof: out of memory\n");
		return NULL;
	}
	pprof_samples_init(&p->samples, max_samples ? max_samples : REPORT_PPROF_SAMPLES_DEFAULT);
	if (pprof_stream_init(&p->st) < 0) {
		free(p);
		return NULL;
	}
	intern(p, ""); /* string 0 is "" (profile.proto) */
	for (int k = 0; k < PPROF_N_VALUES; k++) {
		pb_int(&p->msg, 1, intern(p, value_names[k][0]));
		pb_int(&p->msg, 2, intern(p, value_names[k][1]));
		emit(p, P_SAMPLE_TYPE);
	}
	for (int k = 0; k < 3; k++)
		p->keys[k] = intern(p, label_keys[k]);
	if (p->failed || p->st.top.oom) {
		fail(p);
		report_pprof_destroy(p);
		return NULL;
	}
	return p;
}

void report_pprof_destroy(struct report_pprof *p)
{
	if (!p)
		return;
	pprof_samples_fini(&p->samples);
	pprof_stream_fini(&p->st);
	pb_free(&p->msg);
	pb_free(&p->sub);
	for (size_t k = 0; k < p->n_strs; k++)
		free(p->strs[k]);
	free(p->strs);
	free(p->str_index.slot);
	free(p->locs);
	free(p->loc_index.slot);
	free(p->fn_names);
	free(p->fn_index.slot);
	free(p);
}

int report_pprof_add(struct report_pprof *p, const struct ap_report *r, const struct ap_record *rec,
                     const uint64_t *frames, size_t n)
{
	if (p->failed)
		return -1;
	if (!(rec->has & AP_HAS_PC))
		return 0;
	if (!n) {
		frames = &rec->pc;
		n = 1;
	}
	if (n > AP_REPORT_MAX_FRAMES)
		n = AP_REPORT_MAX_FRAMES; /* the innermost, as the report keeps them */
	struct pprof_label l = { .ds = -1, .events = (rec->has & AP_HAS_EVENTS) ? rec->events : 0 };
	if (rec->has & AP_HAS_OP) {
		const char *op = ap_record_op_name(rec);
		l.op = op[0] == 'L' ? 1 : op[0] == 'S' ? 2 : op[0] == 'B' ? 3 : op[0] == 'O' ? 4 : 5;
	}
	if (rec->has & AP_HAS_DATA_SOURCE) { /* counted as the report counts it */
		enum ap_ds_encoding enc = ap_report_data_source_encoding(r);
		l.ds = enc == AP_DS_ENC_RAW ? (int32_t)rec->data_source : ap_ds_common(enc, rec->data_source);
	}
	uint32_t label = pprof_label_of(&p->samples, &l);
	if (label == UINT32_MAX)
		return fail(p);
	uint64_t lat = (rec->has & AP_HAS_LAT_TOTAL) ? rec->lat_total : 0;
	int rc = pprof_samples_add(&p->samples, label, frames, (uint32_t)n, lat);
	if (rc == 1 && write_samples(p, r) == 0) { /* the label sets went with the samples */
		label = pprof_label_of(&p->samples, &l);
		rc = label == UINT32_MAX ? -1 : pprof_samples_add(&p->samples, label, frames, (uint32_t)n, lat);
	}
	return rc == 0 ? 0 : fail(p);
}

int report_pprof_write(struct report_pprof *p, const struct ap_report *r, const char *binary,
                       struct cli_output *out)
{
	if (p->failed || write_samples(p, r) < 0 || pprof_stream_to_output(&p->st, out) < 0)
		return fail(p);
	/* one mapping over the whole address space, its functions known: pprof
	 * then looks up no binary of its own */
	pb_int(&p->msg, 1, 1);
	pb_int(&p->msg, 3, UINT64_MAX);
	pb_int(&p->msg, 5, intern(p, binary ? binary : ""));
	pb_int(&p->msg, 7, 1);
	pb_int(&p->msg, 8, 1);
	pb_int(&p->msg, 9, 1);
	emit(p, P_MAPPING);
	uint32_t comment = intern(p, "armprof report --format pprof (SPE samples)");
	pb_int(&p->msg, 1, intern(p, "samples"));
	pb_int(&p->msg, 2, intern(p, "count"));
	emit(p, P_PERIOD_TYPE);
	pb_int(&p->st.top, P_PERIOD, 1);
	pb_int(&p->st.top, P_COMMENT, comment);
	pb_int(&p->st.top, P_DEFAULT_SAMPLE_TYPE, intern(p, "samples"));
	if (p->failed || pprof_stream_drain(&p->st, 1) < 0)
		return fail(p);
	return 0;
}

void report_pprof_kernel_samples(const struct report_pprof *p, uint64_t *kernel, uint64_t *named)
{
	*kernel = p->kernel;
	*named = p->kernel_named;
}

/* The pprof profile of `armprof report --format pprof`: see report_pprof.h.
 * The protobuf encoding (protobuf.dev/programming-guides/encoding: varints,
 * length-delimited fields, packed repeated scalars) of pprof's
 * proto/profile.proto is written here, element by element, straight into
 * zlib's gzip stream: the profile is never held whole. */
#include "report_pprof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "armprof/codec.h"
#include "armprof/data_source.h"
#include "report_pprof_samples.h"

/* profile.proto field numbers */
enum { P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4, P_FUNCTION = 5, P_STRING = 6,
	P_PERIOD_TYPE = 11, P_PERIOD = 12, P_COMMENT = 13, P_DEFAULT_SAMPLE_TYPE = 14 };
static const char *const value_names[PPROF_N_VALUES][2] = { { "samples", "count" }, { "latency", "cycles" },
	{ "l1d_miss", "count" }, { "llc_miss", "count" }, { "tlb_walk", "count" }, { "mispredict", "count" } };
static const char *const op_names[] = { NULL, "LD", "ST", "B", "OTHER", "RESERVED" };

/* ---- writing ---------------------------------------------------------- */

/* A protobuf message being encoded. */
struct pb {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

static void pb_raw(struct pb *b, const void *d, size_t n)
{
	if (b->oom || report_pprof_reserve((void **)&b->p, &b->cap, b->len + n, 1) < 0) {
		b->oom = 1;
		return;
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void pb_varint(struct pb *b, uint64_t v)
{
	uint8_t t[10];
	size_t n = 0;
	do {
		t[n++] = (uint8_t)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_raw(b, t, n);
}

/* A scalar field (wire type 0); proto3 leaves zero out. */
static void pb_int(struct pb *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(b, (uint64_t)field << 3);
	pb_varint(b, v);
}

/* A length-delimited field (wire type 2): bytes, or a message. */
static void pb_bytes(struct pb *b, unsigned field, const void *d, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	pb_raw(b, d, n);
}

/* The writer: strings interned, locations and functions numbered as met;
 * the encoded profile goes to zlib as it grows. */
struct w {
	const struct ap_report *r;
	struct cli_output *out;
	z_stream z;
	struct pb top, msg, sub; /* the profile's pending bytes, an element, a nested one */
	char **strs;
	size_t n_strs, cap_strs;
	struct pprof_table str_index; /* string + 1 by hash */
	struct pprof_table loc_ids;   /* location id by its key's hash */
	size_t n_locs;
	struct loc { /* by id - 1 */
		uint64_t addr;
		uint32_t fn;
		uint32_t line : 31, ret : 1; /* ret: a return address */
	} *locs;
	size_t cap_locs;
	uint32_t *fn_names;      /* per function id - 1: name string, file string */
	uint32_t *fn_files;
	size_t n_fns, cap_fns, cap_fn_files;
	struct pprof_table fn_index;  /* name string -> function id */
	int failed;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static uint64_t str_hash_k(const void *ctx, size_t k)
{
	const struct w *w = ctx;
	return str_hash(w->strs[k]);
}

/* The string's index in the string table, added if new; 0 on failure. */
static uint32_t intern(struct w *w, const char *s)
{
	struct pprof_table *t = &w->str_index;
	if (pprof_table_grow(t, w->n_strs, str_hash_k, w) < 0)
		return w->failed = 1, 0;
	size_t i = str_hash(s) & (t->cap - 1);
	while (t->slot[i] && strcmp(w->strs[t->slot[i] - 1], s))
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i])
		return t->slot[i] - 1;
	char *copy = strdup(s);
	if (!copy || report_pprof_reserve((void **)&w->strs, &w->cap_strs, w->n_strs + 1, sizeof(*w->strs)) < 0) {
		free(copy);
		return w->failed = 1, 0;
	}
	w->strs[w->n_strs] = copy;
	t->slot[i] = (uint32_t)++w->n_strs;
	return (uint32_t)(w->n_strs - 1);
}

/* Deflate what the profile has pending (all of it at the end). */
static void drain(struct w *w, int finish)
{
	uint8_t buf[1 << 16];
	w->z.next_in = w->top.p;
	w->z.avail_in = (uInt)w->top.len;
	int rc;
	do {
		w->z.next_out = buf;
		w->z.avail_out = sizeof(buf);
		rc = deflate(&w->z, finish ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR) {
			w->failed = 1;
			return;
		}
		size_t n = sizeof(buf) - w->z.avail_out;
		if (n && cli_output_write(w->out, buf, n) != 0)
			w->failed = 1;
	} while (w->z.avail_out == 0 || (finish && rc != Z_STREAM_END));
	w->top.len = 0;
}

/* The element in w->msg, as field of the profile. */
static void emit(struct w *w, unsigned field)
{
	pb_bytes(&w->top, field, w->msg.p, w->msg.len);
	w->failed |= w->msg.oom | w->top.oom;
	w->msg.len = 0;
	if (w->top.len >= (1u << 16))
		drain(w, 0);
}

static uint64_t fn_hash_k(const void *ctx, size_t k)
{
	const struct w *w = ctx;
	return w->fn_names[k] * 0x9E3779B1u;
}

/* The function id of a name (and source file string), numbered as met. */
static uint32_t function_of(struct w *w, uint32_t name, uint32_t file)
{
	struct pprof_table *t = &w->fn_index;
	if (pprof_table_grow(t, w->n_fns, fn_hash_k, w) < 0)
		return w->failed = 1, 0;
	size_t i = (name * 0x9E3779B1u) & (t->cap - 1);
	while (t->slot[i] && w->fn_names[t->slot[i] - 1] != name)
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i])
		return t->slot[i];
	if (report_pprof_reserve((void **)&w->fn_names, &w->cap_fns, w->n_fns + 1, sizeof(*w->fn_names)) < 0 ||
	    report_pprof_reserve((void **)&w->fn_files, &w->cap_fn_files, w->n_fns + 1, sizeof(*w->fn_files)) < 0)
		return w->failed = 1, 0;
	w->fn_names[w->n_fns] = name;
	w->fn_files[w->n_fns] = file;
	t->slot[i] = (uint32_t)++w->n_fns;
	return (uint32_t)w->n_fns;
}

static uint64_t loc_hash_k(const void *ctx, size_t k)
{
	const struct w *w = ctx;
	return report_pprof_mix(0, w->locs[k].addr << 1 | w->locs[k].ret);
}

/* The location id of frame k (k > 0: a return address) at addr; the
 * function and line found for it now (a return address looked up at
 * addr - 1, inside the call, as the report's stacks do). */
static uint64_t location_of(struct w *w, uint64_t addr, int ret)
{
	struct pprof_table *t = &w->loc_ids;
	if (pprof_table_grow(t, w->n_locs, loc_hash_k, w) < 0)
		return w->failed = 1, 0;
	size_t i = report_pprof_mix(0, addr << 1 | (uint64_t)ret) & (t->cap - 1);
	while (t->slot[i] && (w->locs[t->slot[i] - 1].addr != addr || w->locs[t->slot[i] - 1].ret != ret))
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i])
		return t->slot[i];
	if (report_pprof_reserve((void **)&w->locs, &w->cap_locs, w->n_locs + 1, sizeof(*w->locs)) < 0)
		return w->failed = 1, 0;
	uint64_t at = ret ? addr - 1 : addr;
	const char *name = ap_report_symbol_name(w->r, at, NULL);
	char line[512], file[512] = "";
	int64_t lineno = 0;
	if (ap_report_source_line(w->r, at, line, sizeof(line)) == 0) {
		char *colon = strrchr(line, ':');
		if (colon) {
			*colon = 0;
			lineno = strtoll(colon + 1, NULL, 10);
			snprintf(file, sizeof(file), "%s", line);
		}
	}
	uint32_t fn = function_of(w, intern(w, name ? name : "[unknown]"), intern(w, file));
	w->locs[w->n_locs] = (struct loc){ addr, fn, (uint32_t)lineno & 0x7FFFFFFF, (unsigned)ret };
	t->slot[i] = (uint32_t)++w->n_locs;
	return w->n_locs;
}

static void write_label(struct w *w, const char *key, const char *str)
{
	w->sub.len = 0;
	pb_int(&w->sub, 1, intern(w, key));
	pb_int(&w->sub, 2, intern(w, str));
	pb_bytes(&w->msg, 3, w->sub.p, w->sub.len);
	w->failed |= w->sub.oom;
}

static void write_sample(struct w *w, const struct report_pprof *p, const struct pprof_sample *e)
{
	const uint64_t *f = pprof_frames(p, e);
	const struct pprof_label *l = &p->labels[e->label];
	w->sub.len = 0; /* location_id, packed */
	for (uint32_t k = 0; k < e->n; k++)
		pb_varint(&w->sub, location_of(w, f[k], k > 0));
	pb_bytes(&w->msg, 1, w->sub.p, w->sub.len);
	uint64_t v[PPROF_N_VALUES];
	report_pprof_sample_values(p, e, v);
	w->sub.len = 0; /* value, packed */
	for (int k = 0; k < PPROF_N_VALUES; k++)
		pb_varint(&w->sub, v[k]);
	pb_bytes(&w->msg, 2, w->sub.p, w->sub.len);
	if (l->op)
		write_label(w, "op", op_names[l->op]);
	if (l->ds >= 0) {
		char num[16];
		const char *name = ap_report_source_label(w->r, (unsigned)l->ds);
		snprintf(num, sizeof(num), "%d", l->ds);
		write_label(w, "data_source", name ? name : num);
	}
	if (l->events) { /* the set events by their names (docs/jsonl-schema.md), e<N> unnamed */
		char ev[64 * 24];
		size_t n = 0;
		for (uint64_t bits = l->events; bits && n < sizeof(ev) - 32; bits &= bits - 1) {
			unsigned b = (unsigned)__builtin_ctzll(bits);
			const char *name = ap_event_name(b);
			if (name)
				n += (size_t)snprintf(ev + n, sizeof(ev) - n, "%s%s", n ? "," : "", name);
			else
				n += (size_t)snprintf(ev + n, sizeof(ev) - n, "%se%u", n ? "," : "", b);
		}
		write_label(w, "events", ev);
	}
	emit(w, P_SAMPLE);
}

int report_pprof_write(const struct report_pprof *p, const struct ap_report *r, const char *binary,
                       struct cli_output *out)
{
	struct w w;
	memset(&w, 0, sizeof(w));
	w.r = r;
	w.out = out;
	if (deflateInit2(&w.z, 6, Z_DEFLATED, 15 + 16 /* gzip */, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		fprintf(stderr, "armprof report: pprof: zlib: cannot start a gzip stream\n");
		return -1;
	}
	intern(&w, ""); /* string 0 is "" (profile.proto) */
	for (int k = 0; k < PPROF_N_VALUES; k++) {
		pb_int(&w.msg, 1, intern(&w, value_names[k][0]));
		pb_int(&w.msg, 2, intern(&w, value_names[k][1]));
		emit(&w, P_SAMPLE_TYPE);
	}
	for (size_t k = 0; k < p->n && !w.failed; k++)
		write_sample(&w, p, &p->e[k]);
	/* one mapping over the whole address space, its functions known: pprof
	 * then looks up no binary of its own */
	pb_int(&w.msg, 1, 1);
	pb_int(&w.msg, 3, UINT64_MAX);
	pb_int(&w.msg, 5, intern(&w, binary ? binary : ""));
	pb_int(&w.msg, 7, 1);
	pb_int(&w.msg, 8, 1);
	pb_int(&w.msg, 9, 1);
	emit(&w, P_MAPPING);
	for (size_t k = 0; k < w.n_locs && !w.failed; k++) {
		pb_int(&w.msg, 1, k + 1);
		pb_int(&w.msg, 2, 1);
		pb_int(&w.msg, 3, w.locs[k].addr);
		w.sub.len = 0;
		pb_int(&w.sub, 1, w.locs[k].fn);
		pb_int(&w.sub, 2, w.locs[k].line);
		pb_bytes(&w.msg, 4, w.sub.p, w.sub.len);
		emit(&w, P_LOCATION);
	}
	for (size_t k = 0; k < w.n_fns; k++) {
		pb_int(&w.msg, 1, k + 1);
		pb_int(&w.msg, 2, w.fn_names[k]);
		pb_int(&w.msg, 3, w.fn_names[k]);
		pb_int(&w.msg, 4, w.fn_files[k]);
		emit(&w, P_FUNCTION);
	}
	uint32_t comment = intern(&w, "armprof report --format pprof (SPE samples)");
	uint32_t samples = intern(&w, "samples"), count = intern(&w, "count");
	pb_int(&w.msg, 1, samples);
	pb_int(&w.msg, 2, count);
	emit(&w, P_PERIOD_TYPE);
	pb_int(&w.top, P_PERIOD, 1);
	pb_int(&w.top, P_COMMENT, comment);
	pb_int(&w.top, P_DEFAULT_SAMPLE_TYPE, samples);
	for (size_t k = 0; k < w.n_strs; k++) {
		pb_bytes(&w.top, P_STRING, w.strs[k], strlen(w.strs[k]));
		if (w.top.len >= (1u << 16))
			drain(&w, 0);
	}
	w.failed |= w.top.oom;
	if (!w.failed)
		drain(&w, 1);
	deflateEnd(&w.z);
	int failed = w.failed;
	for (size_t k = 0; k < w.n_strs; k++)
		free(w.strs[k]);
	free(w.strs);
	free(w.str_index.slot);
	free(w.loc_ids.slot);
	free(w.locs);
	free(w.fn_names);
	free(w.fn_files);
	free(w.fn_index.slot);
	free(w.top.p);
	free(w.msg.p);
	free(w.sub.p);
	if (failed && !out->err)
		fprintf(stderr, "armprof report: pprof: out of memory\n");
	return failed ? -1 : 0;
}

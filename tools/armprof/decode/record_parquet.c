/* Records as Parquet rows: see record_parquet.h and docs/parquet-schema.md. */
#include "record_parquet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "armprof/parquet.h"
#include "armprof/report.h"
#include "decode_spe_parser.h"

/* The columns, in file order. A change here is a change of
 * docs/parquet-schema.md, which tests/export/decode_parquet.sh checks. */
enum col {
	C_OFFSET, C_CPU, C_TID, C_PC, C_EL, C_NS, C_SYMBOL, C_CLASS, C_OP, C_SUBCLASS, C_COND,
	C_INDIRECT, C_SIMD, C_ATOMIC, C_EXCL, C_AR, C_BR_TGT, C_BR_TGT_EL, C_BR_TGT_NS, C_VADDR,
	C_TAG, C_PADDR, C_PA_NS, C_EVENTS, C_EVENT, C_TOTAL_LAT, C_ISSUE_LAT, C_XLAT_LAT, C_TS,
	C_CONTEXT, C_CONTEXT_EL2, C_DATA_SOURCE, C_DATA_SOURCE_NAME, C_END, C_ERRORS, C_PREV_BR_TGT,
	C_PREV_BR_TGT_EL, C_PREV_BR_TGT_NS, C_BR_GCS, C_BR_CR, C_COUNT
};

/* Enumeration columns: their values (the writer's dictionary, set by index). */
static const char *const class_values[] = { "ldst", "br", "other" };
static const char *const op_values[] = { "LD", "ST", "B", "OTHER", "RESERVED" };
static const char *const end_values[] = { "truncated", "end", "timestamp", "forced" }; /* enum ap_record_end */
/* A branch's call/return subclass (FEAT_SPE_CRR), by its CR field's value
 * 1..3 (AP_OP_BR_CR_*): index value - 1. */
static const char *const cr_values[] = { "BL", "RET", "NON_BL_RET" };
#define N_OF(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

static const struct ap_parquet_column columns[C_COUNT] = {
	[C_OFFSET] = { "offset", AP_PARQUET_INT64, 0 },
	[C_CPU] = { "cpu", AP_PARQUET_INT32, 1 },
	[C_TID] = { "tid", AP_PARQUET_INT32, 1 },
	[C_PC] = { "pc", AP_PARQUET_UINT64, 1 },
	[C_EL] = { "el", AP_PARQUET_INT32, 1 },
	[C_NS] = { "ns", AP_PARQUET_INT32, 1 },
	[C_SYMBOL] = { "symbol", AP_PARQUET_STRING, 1 },
	[C_CLASS] = { "class", AP_PARQUET_STRING, 0, class_values, N_OF(class_values) },
	[C_OP] = { "op", AP_PARQUET_STRING, 1, op_values, N_OF(op_values) },
	[C_SUBCLASS] = { "subclass", AP_PARQUET_INT32, 1 },
	[C_COND] = { "cond", AP_PARQUET_BOOLEAN, 1 },
	[C_INDIRECT] = { "indirect", AP_PARQUET_BOOLEAN, 1 },
	[C_SIMD] = { "simd", AP_PARQUET_BOOLEAN, 1 },
	[C_ATOMIC] = { "atomic", AP_PARQUET_BOOLEAN, 1 },
	[C_EXCL] = { "excl", AP_PARQUET_BOOLEAN, 1 },
	[C_AR] = { "ar", AP_PARQUET_BOOLEAN, 1 },
	[C_BR_TGT] = { "br_tgt", AP_PARQUET_UINT64, 1 },
	[C_BR_TGT_EL] = { "br_tgt_el", AP_PARQUET_INT32, 1 },
	[C_BR_TGT_NS] = { "br_tgt_ns", AP_PARQUET_INT32, 1 },
	[C_VADDR] = { "vaddr", AP_PARQUET_UINT64, 1 },
	[C_TAG] = { "tag", AP_PARQUET_INT32, 1 },
	[C_PADDR] = { "paddr", AP_PARQUET_UINT64, 1 },
	[C_PA_NS] = { "pa_ns", AP_PARQUET_INT32, 1 },
	[C_EVENTS] = { "events", AP_PARQUET_INT64, 1 },
	[C_EVENT] = { "event", AP_PARQUET_STRING, 1 },
	[C_TOTAL_LAT] = { "total_lat", AP_PARQUET_INT32, 1 },
	[C_ISSUE_LAT] = { "issue_lat", AP_PARQUET_INT32, 1 },
	[C_XLAT_LAT] = { "xlat_lat", AP_PARQUET_INT32, 1 },
	[C_TS] = { "ts", AP_PARQUET_UINT64, 1 },
	[C_CONTEXT] = { "context", AP_PARQUET_INT64, 1 },
	[C_CONTEXT_EL2] = { "context_el2", AP_PARQUET_INT64, 1 },
	[C_DATA_SOURCE] = { "data_source", AP_PARQUET_INT32, 1 },
	[C_DATA_SOURCE_NAME] = { "data_source_name", AP_PARQUET_STRING, 1 },
	[C_END] = { "end", AP_PARQUET_STRING, 0, end_values, N_OF(end_values) },
	[C_ERRORS] = { "errors", AP_PARQUET_INT32, 0 },
	[C_PREV_BR_TGT] = { "prev_br_tgt", AP_PARQUET_UINT64, 1 },
	[C_PREV_BR_TGT_EL] = { "prev_br_tgt_el", AP_PARQUET_INT32, 1 },
	[C_PREV_BR_TGT_NS] = { "prev_br_tgt_ns", AP_PARQUET_INT32, 1 },
	[C_BR_GCS] = { "br_gcs", AP_PARQUET_BOOLEAN, 1 },
	[C_BR_CR] = { "br_cr", AP_PARQUET_STRING, 1, cr_values, N_OF(cr_values) },
};

struct record_parquet {
	struct ap_parquet_writer *w;
	struct cli_output *out;
	const struct ap_report *symbols;
	int err; /* first negative enum ap_error */
	/* The event column's string of the last events value: records of a
	 * stream repeat few event sets, so it is rebuilt only on a change. */
	uint64_t last_events;
	int have_last;
	char event_str[64 * 24];
	size_t event_len;
	enum ap_ds_encoding enc; /* names data_source values */
	int spe_class; /* -1: this schema; else the spe-parser file of that class */
};

enum record_class record_class_of(const struct ap_record *rec)
{
	if (!(rec->has & AP_HAS_OP))
		return CLASS_OTHER;
	switch (rec->op_class) {
	case AP_OP_CLASS_LDST: return CLASS_LDST;
	case AP_OP_CLASS_BRANCH: return CLASS_BRANCH;
	default: return CLASS_OTHER;
	}
}

const char *record_class_name(enum record_class c)
{
	return class_values[c];
}

/* index in op_values of ap_record_op_name's name */
static uint32_t op_index(const struct ap_record *r)
{
	switch (ap_record_op_name(r)[0]) {
	case 'L': return 0;
	case 'S': return 1;
	case 'B': return 2;
	case 'O': return 3;
	default: return 4;
	}
}

static int write_out(void *ctx, const void *buf, size_t len)
{
	return cli_output_write(ctx, buf, len);
}

static struct record_parquet *table_new(struct cli_output *out, const struct ap_report *symbols,
                                        const struct ap_parquet_column *cols, size_t n_cols,
                                        const char *created_by, int spe_class)
{
	struct record_parquet *t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "armprof decode: out of memory\n");
		return NULL;
	}
	struct ap_parquet_writer_config cfg;
	ap_parquet_writer_config_init(&cfg);
	cfg.columns = cols;
	cfg.n_columns = n_cols;
	cfg.write = out ? write_out : NULL; /* NULL: row groups in memory */
	cfg.ctx = out;
	cfg.created_by = created_by;
	cfg.zstd_level = 1; /* level 3: 25% more CPU time, and no smaller here (docs/PERFORMANCE.md) */
	t->out = out;
	t->symbols = symbols;
	t->spe_class = spe_class;
	int rc = ap_parquet_writer_create(&t->w, &cfg);
	if (rc) {
		if (rc != -AP_ERR_IO) /* a write error is told by cli_output_close */
			fprintf(stderr, "armprof decode: parquet: %s\n", ap_errstr(rc));
		free(t);
		return NULL;
	}
	return t;
}

struct record_parquet *record_parquet_new(struct cli_output *out, const struct ap_report *symbols)
{
	return table_new(out, symbols, columns, C_COUNT, "armprof decode --format parquet", -1);
}

struct record_parquet *record_parquet_new_spe_parser(struct cli_output *out, enum record_class c)
{
	size_t n;
	const struct ap_parquet_column *cols = spe_parser_columns(c, &n);
	return table_new(out, NULL, cols, n, "armprof decode --format spe-parser", (int)c);
}

/* "retired:l1d-access:...": the set event bits by the names of
 * docs/jsonl-schema.md; other bits as e<N>. */
static void event_string(struct record_parquet *t, uint64_t events)
{
	size_t n = 0;
	for (uint64_t ev = events; ev; ev &= ev - 1) {
		unsigned b = (unsigned)__builtin_ctzll(ev);
		const char *name = b < AP_EV_NAMED_COUNT ? ap_event_name(b) : NULL;
		char other[4] = { 'e', (char)('0' + b / 10), (char)('0' + b % 10), 0 };
		if (!name)
			name = b < 10 ? (other[1] = other[2], other[2] = 0, other) : other;
		size_t k = strlen(name);
		if (n + k + 1 > sizeof(t->event_str))
			break; /* 64 names of up to 15 characters fit: not reached */
		if (n)
			t->event_str[n++] = ':';
		memcpy(t->event_str + n, name, k);
		n += k;
	}
	t->event_len = n;
	t->last_events = events;
	t->have_last = 1;
}

static int set_str(struct ap_parquet_writer *w, enum col c, const char *s)
{
	return ap_parquet_set_string(w, c, s, strlen(s));
}

int record_parquet_put(struct record_parquet *t, const struct ap_record *r,
                       const struct record_origin *origin)
{
	if (t->err)
		return -1;
	struct ap_parquet_writer *w = t->w;
	uint32_t h = r->has;
	int rc;
	if (t->spe_class >= 0) { /* a record spe-parser drops has no row */
		if (!spe_parser_keeps(r))
			return 0;
		rc = spe_parser_put(w, (enum record_class)t->spe_class, r,
		                    origin && origin->has ? origin->cpu : 0);
		goto done;
	}
	rc = ap_parquet_set_int64(w, C_OFFSET, (int64_t)r->offset);
	if (origin && origin->has) {
		rc |= ap_parquet_set_int32(w, C_CPU, origin->cpu);
		rc |= ap_parquet_set_int32(w, C_TID, origin->tid);
	}
	if (h & AP_HAS_PC) {
		rc |= ap_parquet_set_uint64(w, C_PC, r->pc);
		rc |= ap_parquet_set_int32(w, C_EL, r->el);
		rc |= ap_parquet_set_int32(w, C_NS, r->ns);
		const char *sym = t->symbols ? ap_report_symbol_name(t->symbols, r->pc, NULL) : NULL;
		if (sym)
			rc |= set_str(w, C_SYMBOL, sym);
	}
	rc |= ap_parquet_set_enum(w, C_CLASS, (uint32_t)record_class_of(r));
	if (h & AP_HAS_OP) {
		unsigned sub = r->op_subclass;
		rc |= ap_parquet_set_enum(w, C_OP, op_index(r));
		rc |= ap_parquet_set_int32(w, C_SUBCLASS, (int32_t)sub);
		/* the flags as docs/jsonl-schema.md gives them, per class */
		switch (r->op_class) {
		case AP_OP_CLASS_BRANCH:
			rc |= ap_parquet_set_bool(w, C_COND, !!(sub & AP_OP_BR_COND));
			rc |= ap_parquet_set_bool(w, C_INDIRECT, !!(sub & AP_OP_BR_INDIRECT));
			break;
		case AP_OP_CLASS_OTHER:
			rc |= ap_parquet_set_bool(w, C_COND, sub == AP_OP_OTHER_COND);
			break;
		case AP_OP_CLASS_LDST: {
			int ext = (sub & 0xE2u) == AP_OP_LDST_EXT;
			rc |= ap_parquet_set_bool(w, C_SIMD, (sub & 0xFEu) == AP_OP_LDST_SIMD);
			rc |= ap_parquet_set_bool(w, C_ATOMIC, ext && (sub & AP_OP_LDST_AT));
			rc |= ap_parquet_set_bool(w, C_EXCL, ext && (sub & AP_OP_LDST_EXCL));
			rc |= ap_parquet_set_bool(w, C_AR, ext && (sub & AP_OP_LDST_AR));
			break;
		}
		}
	}
	if (h & AP_HAS_TARGET) {
		rc |= ap_parquet_set_uint64(w, C_BR_TGT, r->target);
		rc |= ap_parquet_set_int32(w, C_BR_TGT_EL, r->target_el);
		rc |= ap_parquet_set_int32(w, C_BR_TGT_NS, r->target_ns);
	}
	if (h & AP_HAS_VADDR) { /* canonical, and the tag apart, as the JSONL has them */
		rc |= ap_parquet_set_uint64(w, C_VADDR, ap_record_vaddr(r));
		rc |= ap_parquet_set_int32(w, C_TAG, (int32_t)ap_record_vaddr_tag(r));
	}
	if (h & AP_HAS_PADDR) {
		rc |= ap_parquet_set_uint64(w, C_PADDR, r->paddr);
		rc |= ap_parquet_set_int32(w, C_PA_NS, r->pa_ns);
	}
	if (h & AP_HAS_EVENTS) {
		if (!t->have_last || t->last_events != r->events)
			event_string(t, r->events);
		rc |= ap_parquet_set_int64(w, C_EVENTS, (int64_t)r->events);
		rc |= ap_parquet_set_string(w, C_EVENT, t->event_str, t->event_len);
	}
	if (h & AP_HAS_LAT_TOTAL)
		rc |= ap_parquet_set_int32(w, C_TOTAL_LAT, r->lat_total);
	if (h & AP_HAS_LAT_ISSUE)
		rc |= ap_parquet_set_int32(w, C_ISSUE_LAT, r->lat_issue);
	if (h & AP_HAS_LAT_XLAT)
		rc |= ap_parquet_set_int32(w, C_XLAT_LAT, r->lat_xlat);
	if (h & AP_HAS_TS)
		rc |= ap_parquet_set_uint64(w, C_TS, r->ts);
	if (h & AP_HAS_CTX_EL1)
		rc |= ap_parquet_set_int64(w, C_CONTEXT, r->ctx_el1);
	if (h & AP_HAS_CTX_EL2)
		rc |= ap_parquet_set_int64(w, C_CONTEXT_EL2, r->ctx_el2);
	if (h & AP_HAS_DATA_SOURCE) {
		rc |= ap_parquet_set_int32(w, C_DATA_SOURCE, r->data_source);
		const char *ds = ap_ds_name(t->enc, r->data_source); /* as the JSONL names it */
		if (ds)
			rc |= set_str(w, C_DATA_SOURCE_NAME, ds);
	}
	rc |= ap_parquet_set_enum(w, C_END, r->end < N_OF(end_values) ? r->end : 0);
	rc |= ap_parquet_set_int32(w, C_ERRORS, r->n_errors_total);
	/* SPE after v1 (decode --spe-later; LATER-OUT-1), as the JSONL has them. */
	if (h & AP_HAS_PREV_TARGET) {
		rc |= ap_parquet_set_uint64(w, C_PREV_BR_TGT, r->prev_target);
		rc |= ap_parquet_set_int32(w, C_PREV_BR_TGT_EL, r->prev_target_el);
		rc |= ap_parquet_set_int32(w, C_PREV_BR_TGT_NS, r->prev_target_ns);
	}
	if (h & AP_HAS_OP && r->op_class == AP_OP_CLASS_BRANCH) {
		unsigned sub = r->op_subclass, cr = (sub & AP_OP_BR_CR_MASK) >> AP_OP_BR_CR_SHIFT;
		if (sub & AP_OP_BR_GCS)
			rc |= ap_parquet_set_bool(w, C_BR_GCS, 1);
		if (cr >= 1 && cr <= N_OF(cr_values))
			rc |= ap_parquet_set_enum(w, C_BR_CR, cr - 1);
	}
	if (rc == 0)
		rc = ap_parquet_end_row(w);
done:
	if (rc) {
		/* the setters fail on memory (a dictionary), or with the writer's
		 * sticky -AP_ERR_IO after a failed write; end_row on either */
		t->err = rc == -AP_ERR_IO ? -AP_ERR_IO : -AP_ERR_NOMEM;
		return -1;
	}
	return 0;
}

void record_parquet_set_encoding(struct record_parquet *t, enum ap_ds_encoding enc)
{
	t->enc = enc;
}

int record_parquet_end_group(struct record_parquet *t)
{
	int rc = t->err ? t->err : ap_parquet_writer_flush(t->w);
	if (rc && !t->err)
		t->err = rc;
	return rc ? -1 : 0;
}

int record_parquet_append(struct record_parquet *t, struct record_parquet *from)
{
	int rc = t->err ? t->err : from->err ? from->err : ap_parquet_writer_append(t->w, from->w);
	if (rc && !t->err)
		t->err = rc;
	return rc ? -1 : 0;
}

uint64_t record_parquet_rows(const struct record_parquet *t)
{
	return ap_parquet_rows(t->w);
}

int record_parquet_finish(struct record_parquet *t)
{
	int rc = t->err ? t->err : ap_parquet_writer_finish(t->w);
	if (rc && rc != -AP_ERR_IO)
		fprintf(stderr, "armprof decode: parquet: %s\n", ap_errstr(rc));
	return rc ? -1 : 0;
}

void record_parquet_free(struct record_parquet *t)
{
	if (!t)
		return;
	ap_parquet_writer_destroy(t->w);
	free(t);
}

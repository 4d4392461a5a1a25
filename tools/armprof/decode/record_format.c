#include "record_format.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_line.h"

int record_format_parse(const char *name, enum record_format *fmt)
{
	if (!strcmp(name, "text"))
		*fmt = FMT_TEXT;
	else if (!strcmp(name, "jsonl") || !strcmp(name, "json"))
		*fmt = FMT_JSONL;
	else if (!strcmp(name, "csv"))
		*fmt = FMT_CSV;
	else
		return -1;
	return 0;
}

/* The named events' names in quotes, in 32-byte slots so that one
 * fixed-size copy (a vector move or two) writes any of them: a memcpy call
 * per name was 15% of `decode --format jsonl`. Built once, before any
 * record is formatted (formatters_ready), by whichever thread comes first:
 * `decode -j`'s threads format at once. */
static char quoted[AP_EV_NAMED_COUNT][32];
static uint8_t quoted_len[AP_EV_NAMED_COUNT];
static pthread_once_t quoted_once = PTHREAD_ONCE_INIT;

static void build_quoted(void)
{
	for (unsigned b = 0; b < AP_EV_NAMED_COUNT; b++) {
		const char *n = ap_event_name(b);
		size_t k = n ? strlen(n) : 0;
		if (k > 29)
			k = 29;
		quoted[b][0] = '"';
		memcpy(quoted[b] + 1, n ? n : "", k);
		quoted[b][k + 1] = '"';
		quoted_len[b] = (uint8_t)(k + 2);
	}
}

/* What every formatting entry point makes sure of first. */
static void formatters_ready(void)
{
	pthread_once(&quoted_once, build_quoted);
}

/* An event's name in quotes, for named bits (ap_event_name not NULL). The
 * line always has MAX_RECORD_LINE bytes free. */
static void put_quoted_name(struct line *l, unsigned b)
{
	if (l->len + 32 < LINE_CAP) {
		memcpy(l->buf + l->len, quoted[b], 32);
		l->len += quoted_len[b];
	}
}

/* ---- jsonl --------------------------------------------------------- */
/* ,"key": with the key a string literal */
#define json_key(l, k) PUT_LIT((l), ",\"" k "\":")

static void put_quoted_hex(struct line *l, uint64_t v)
{
	put_char(l, '"');
	put_hex(l, v);
	put_char(l, '"');
}

static void put_bool(struct line *l, int v)
{
	if (v)
		PUT_LIT(l, "true");
	else
		PUT_LIT(l, "false");
}

#define json_hex(l, k, v) (json_key(l, k), put_quoted_hex((l), (v)))
#define json_u64(l, k, v) (json_key(l, k), put_u64((l), (v)))
#define json_bool(l, k, v) (json_key(l, k), put_bool((l), (v)))

static void write_jsonl(struct line *l, const struct ap_record *r, enum ap_ds_encoding enc)
{
	uint32_t h = r->has;
	PUT_LIT(l, "{\"offset\":");
	put_u64(l, r->offset);
	if (h & AP_HAS_PC) {
		json_hex(l, "pc", r->pc);
		json_u64(l, "el", r->el);
		json_u64(l, "ns", r->ns);
	}
	if (h & AP_HAS_OP) {
		struct op_flags f = op_flags_of(r);
		json_key(l, "op");
		put_char(l, '"');
		put_str(l, ap_record_op_name(r));
		put_char(l, '"');
		if (f.has_branch || f.has_other)
			json_bool(l, "cond", f.cond);
		if (f.has_branch)
			json_bool(l, "indirect", f.indirect);
		if (f.gcs) /* LATER-OUT-1: only with spe_later decoding */
			json_bool(l, "br_gcs", 1);
		if (f.cr) {
			json_key(l, "br_cr");
			put_char(l, '"');
			put_str(l, br_cr_name(f.cr));
			put_char(l, '"');
		}
		if (f.has_ldst) {
			json_bool(l, "simd", f.simd);
			json_bool(l, "atomic", f.atomic);
			json_bool(l, "excl", f.excl);
			json_bool(l, "ar", f.ar);
		}
	}
	if (h & AP_HAS_TARGET) {
		json_hex(l, "target", r->target);
		json_u64(l, "target_el", r->target_el);
		json_u64(l, "target_ns", r->target_ns);
	}
	if (h & AP_HAS_PREV_TARGET) { /* perf: prev_br_tgt (LATER-OUT-1) */
		json_hex(l, "prev_br_tgt", r->prev_target);
		json_u64(l, "prev_br_tgt_el", r->prev_target_el);
		json_u64(l, "prev_br_tgt_ns", r->prev_target_ns);
	}
	if (h & AP_HAS_VADDR) {
		json_hex(l, "vaddr", ap_record_vaddr(r));
		json_hex(l, "tag", ap_record_vaddr_tag(r));
	}
	if (h & AP_HAS_PADDR) {
		json_hex(l, "paddr", r->paddr);
		json_u64(l, "pa_ns", r->pa_ns);
	}
	if (h & AP_HAS_EVENTS) {
		json_u64(l, "events", r->events);
		json_key(l, "event_names");
		put_char(l, '[');
		int first = 1;
		for (uint64_t ev = r->events; ev; ev &= ev - 1) {
			unsigned b = (unsigned)__builtin_ctzll(ev);
			if (!first)
				put_char(l, ',');
			first = 0;
			if (b < AP_EV_NAMED_COUNT && ap_event_name(b)) {
				put_quoted_name(l, b);
			} else {
				PUT_LIT(l, "\"e");
				put_u64(l, b);
				put_char(l, '"');
			}
		}
		put_char(l, ']');
	}
	if (h & AP_HAS_LAT_TOTAL)
		json_u64(l, "lat_total", r->lat_total);
	if (h & AP_HAS_LAT_ISSUE)
		json_u64(l, "lat_issue", r->lat_issue);
	if (h & AP_HAS_LAT_XLAT)
		json_u64(l, "lat_xlat", r->lat_xlat);
	if (h & AP_HAS_TS)
		json_u64(l, "ts", r->ts);
	if (h & AP_HAS_CTX_EL1)
		json_u64(l, "ctx_el1", r->ctx_el1);
	if (h & AP_HAS_CTX_EL2)
		json_u64(l, "ctx_el2", r->ctx_el2);
	if (h & AP_HAS_DATA_SOURCE) {
		json_u64(l, "data_source", r->data_source);
		const char *n = ap_ds_name(enc, r->data_source);
		if (n) {
			json_key(l, "data_source_name");
			put_char(l, '"');
			put_str(l, n);
			put_char(l, '"');
		}
	}
	if (r->n_impdef) {
		json_key(l, "impdef");
		put_char(l, '[');
		for (unsigned i = 0; i < r->n_impdef; i++) {
			put_str(l, i ? ",{\"kind\":\"" : "{\"kind\":\"");
			put_str(l, r->impdef[i].is_counter ? "counter" : "address");
			PUT_LIT(l, "\",\"index\":");
			put_u64(l, r->impdef[i].index);
			PUT_LIT(l, ",\"value\":\"");
			put_hex(l, r->impdef[i].value);
			PUT_LIT(l, "\"}");
		}
		put_char(l, ']');
	}
	if (r->end == AP_END_END || r->end == AP_END_TIMESTAMP) {
		json_key(l, "end");
		put_char(l, '"');
		put_str(l, end_name(r));
		put_char(l, '"');
	} else {
		if (r->end == AP_END_FORCED)
			json_bool(l, "forced", 1);
		else
			json_bool(l, "truncated", 1);
	}
	if (r->n_errors_total) {
		json_key(l, "errors");
		put_char(l, '[');
		for (unsigned i = 0; i < r->n_errors; i++) {
			if (i)
				put_char(l, ',');
			PUT_LIT(l, "{\"kind\":\"");
			put_str(l, ap_decode_error_name((enum ap_decode_error_kind)r->errors[i].kind));
			PUT_LIT(l, "\",\"offset\":");
			put_u64(l, r->errors[i].offset);
			put_char(l, '}');
		}
		put_char(l, ']');
		if (r->n_errors_total > r->n_errors)
			json_u64(l, "errors_total", r->n_errors_total);
	}
	PUT_LIT(l, "}\n");
}

/* ---- text ---------------------------------------------------------- */
static void write_text(struct line *l, const struct ap_record *r, enum ap_ds_encoding enc)
{
	uint32_t h = r->has;
	put_char(l, '@');
	put_hex(l, r->offset);
	if (h & AP_HAS_PC) {
		PUT_LIT(l, " pc=");
		put_hex(l, r->pc);
		PUT_LIT(l, " el");
		put_u64(l, r->el);
		put_str(l, r->ns ? " ns" : " s");
	}
	if (h & AP_HAS_OP) {
		struct op_flags f = op_flags_of(r);
		put_char(l, ' ');
		put_str(l, ap_record_op_name(r));
		if (f.cond)
			PUT_LIT(l, "-cond");
		if (f.indirect)
			PUT_LIT(l, "-ind");
		if (f.simd)
			PUT_LIT(l, "-simd");
		if (f.atomic)
			PUT_LIT(l, "-atomic");
		if (f.excl)
			PUT_LIT(l, "-excl");
		if (f.ar)
			PUT_LIT(l, "-ar");
		if (f.gcs)
			PUT_LIT(l, "-gcs");
		if (f.cr == AP_OP_BR_CR_BL)
			PUT_LIT(l, "-bl");
		else if (f.cr == AP_OP_BR_CR_RET)
			PUT_LIT(l, "-ret");
		else if (f.cr == AP_OP_BR_CR_NON_BL_RET)
			PUT_LIT(l, "-non-bl-ret");
	}
	if (h & AP_HAS_TARGET) {
		PUT_LIT(l, " tgt=");
		put_hex(l, r->target);
	}
	if (h & AP_HAS_PREV_TARGET) {
		PUT_LIT(l, " pbt=");
		put_hex(l, r->prev_target);
	}
	if (h & AP_HAS_VADDR) {
		PUT_LIT(l, " va=");
		put_hex(l, ap_record_vaddr(r));
		if (ap_record_vaddr_tag(r)) {
			PUT_LIT(l, " tag=");
			put_hex(l, ap_record_vaddr_tag(r));
		}
	}
	if (h & AP_HAS_PADDR) {
		PUT_LIT(l, " pa=");
		put_hex(l, r->paddr);
		put_str(l, r->pa_ns ? " pa-ns" : " pa-s");
	}
	if (h & AP_HAS_EVENTS) {
		PUT_LIT(l, " ev=");
		int first = 1;
		for (unsigned b = 0; b < 64; b++) {
			if (!(r->events >> b & 1u))
				continue;
			if (!first)
				put_char(l, ',');
			first = 0;
			const char *n = ap_event_name(b);
			if (n) {
				put_str(l, n);
			} else {
				put_char(l, 'e');
				put_u64(l, b);
			}
		}
		if (first)
			put_char(l, '-');
	}
	if (h & (AP_HAS_LAT_TOTAL | AP_HAS_LAT_ISSUE | AP_HAS_LAT_XLAT)) {
		PUT_LIT(l, " lat=");
		if (h & AP_HAS_LAT_TOTAL)
			put_u64(l, r->lat_total);
		put_char(l, '/');
		if (h & AP_HAS_LAT_ISSUE)
			put_u64(l, r->lat_issue);
		put_char(l, '/');
		if (h & AP_HAS_LAT_XLAT)
			put_u64(l, r->lat_xlat);
	}
	if (h & AP_HAS_DATA_SOURCE) {
		PUT_LIT(l, " ds=");
		put_u64(l, r->data_source);
		const char *n = ap_ds_name(enc, r->data_source);
		if (n) {
			put_char(l, '(');
			put_str(l, n);
			put_char(l, ')');
		}
	}
	if (h & AP_HAS_CTX_EL1) {
		PUT_LIT(l, " ctx1=");
		put_hex(l, r->ctx_el1);
	}
	if (h & AP_HAS_CTX_EL2) {
		PUT_LIT(l, " ctx2=");
		put_hex(l, r->ctx_el2);
	}
	if (h & AP_HAS_TS) {
		PUT_LIT(l, " ts=");
		put_u64(l, r->ts);
	}
	if (r->end != AP_END_END && r->end != AP_END_TIMESTAMP) {
		put_char(l, ' ');
		put_str(l, end_name(r));
	}
	for (unsigned i = 0; i < r->n_errors; i++) {
		PUT_LIT(l, " error:");
		put_str(l, ap_decode_error_name((enum ap_decode_error_kind)r->errors[i].kind));
		put_char(l, '@');
		put_hex(l, r->errors[i].offset);
	}
	put_char(l, '\n');
}

void record_format_header(FILE *out, enum record_format fmt)
{
	if (fmt == FMT_CSV)
		fputs(record_csv_header, out);
}

static void format_into(struct line *l, enum record_format fmt, const struct ap_record *rec,
                        enum ap_ds_encoding enc)
{
	switch (fmt) {
	case FMT_JSONL: write_jsonl(l, rec, enc); break;
	case FMT_CSV: record_csv_write(l, rec, enc); break;
	default: write_text(l, rec, enc); break;
	}
}

size_t record_format_write(FILE *out, enum record_format fmt, const struct ap_record *rec,
                           enum ap_ds_encoding enc)
{
	char buf[LINE_CAP];
	struct line l = { buf, 0 };
	formatters_ready();
	format_into(&l, fmt, rec, enc);
	return fwrite(l.buf, 1, l.len, out);
}

struct record_writer {
	FILE *out;
	enum record_format fmt;
	enum ap_ds_encoding enc;
	int failed; /* a write failed: output is incomplete */
	record_write_fn write; /* instead of out: where each full block goes */
	void *ctx;
	struct line line;
	/* memory (record_writer_new_mem): the text so far is mem[0..mem_len),
	 * and line the window after it, in mem's mem_cap bytes */
	char *mem;
	size_t mem_len, mem_cap;
	char block[LINE_CAP]; /* line.buf, unless memory */
};

struct record_writer *record_writer_new(FILE *out, enum record_format fmt)
{
	formatters_ready();
	struct record_writer *w = calloc(1, sizeof(*w));
	if (w) {
		w->out = out;
		w->fmt = fmt;
		w->enc = AP_DS_ENC_RAW;
		w->line.buf = w->block;
	}
	return w;
}

struct record_writer *record_writer_new_fn(record_write_fn write, void *ctx, enum record_format fmt)
{
	struct record_writer *w = record_writer_new(NULL, fmt);
	if (w) {
		w->write = write;
		w->ctx = ctx;
	}
	return w;
}

struct record_writer *record_writer_new_mem(enum record_format fmt)
{
	struct record_writer *w = record_writer_new(NULL, fmt);
	if (w && !(w->mem = malloc(w->mem_cap = 4 * LINE_CAP))) {
		free(w);
		return NULL;
	}
	if (w)
		w->line.buf = w->mem;
	return w;
}

/* Memory: the window's text joins the text, and a new window of LINE_CAP
 * bytes follows it (the memory doubled when needed: kept from job to job,
 * it soon holds a job's text without growing). */
static void mem_advance(struct record_writer *w)
{
	w->mem_len += w->line.len;
	w->line.len = 0;
	if (w->mem_cap - w->mem_len < LINE_CAP) {
		size_t cap = w->mem_cap * 2;
		char *p = realloc(w->mem, cap);
		if (!p) { /* the text so far is kept, the rest lost: failed */
			w->failed = ENOMEM;
			w->mem_len = 0;
		} else {
			w->mem = p;
			w->mem_cap = cap;
		}
	}
	w->line.buf = w->mem + w->mem_len;
}

void record_writer_put(struct record_writer *w, const struct ap_record *rec)
{
	if (w->line.len > LINE_CAP - MAX_RECORD_LINE)
		record_writer_flush(w);
	format_into(&w->line, w->fmt, rec, w->enc);
}

void record_writer_set_encoding(struct record_writer *w, enum ap_ds_encoding enc)
{
	w->enc = enc;
}

/* Straight to the file descriptor: through fwrite the 64 KiB block was
 * copied once more into stdio's buffer. Anything already in that buffer (a
 * csv header) goes first. */
void record_writer_flush(struct record_writer *w)
{
	if (w->mem) {
		mem_advance(w);
		return;
	}
	const char *p = w->line.buf;
	size_t left = w->line.len;
	w->line.len = 0;
	if (!left || w->failed)
		return;
	if (w->write) {
		if (w->write(w->ctx, p, left) != 0)
			w->failed = errno ? errno : EIO;
		return;
	}
	if (fflush(w->out) != 0) {
		w->failed = errno ? errno : EIO;
		return;
	}
	int fd = fileno(w->out);
	while (left) {
		ssize_t n = write(fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->failed = n < 0 ? errno : EIO;
			return;
		}
		p += n;
		left -= (size_t)n;
	}
}

const char *record_writer_text(struct record_writer *w, size_t *len)
{
	mem_advance(w);
	*len = w->mem_len;
	return w->mem;
}

void record_writer_clear(struct record_writer *w)
{
	w->mem_len = w->line.len = 0;
	w->line.buf = w->mem;
}

int record_writer_failed(const struct record_writer *w)
{
	return w->failed;
}

void record_writer_free(struct record_writer *w)
{
	if (w && !w->mem)
		record_writer_flush(w);
	if (w)
		free(w->mem);
	free(w);
}

void packet_format_write(FILE *out, uint64_t offset, const uint8_t *bytes,
                         const struct ap_packet *pkt, int in_record)
{
	char desc[256];
	char hex[3 * 16 + 1];
	size_t n = 0;
	for (unsigned i = 0; i < pkt->size && i < 16; i++)
		n += (size_t)snprintf(hex + n, sizeof(hex) - n, "%02x ", bytes[i]);
	if (pkt->truncated)
		snprintf(desc, sizeof(desc), "TRUNCATED packet (%u of its bytes present)", pkt->size);
	else
		ap_pkt_describe(desc, sizeof(desc), pkt);
	fprintf(out, "%08" PRIx64 ":  %-33s%s%s\n", offset, hex, in_record ? "" : "  ", desc);
}

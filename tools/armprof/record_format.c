#include "record_format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A line is built in a fixed buffer with small appenders (no printf in the
 * per-record path: decode --format jsonl is benchmarked against perf). */
struct line {
	char buf[1 << 16];
	size_t len;
};
/* A record's line is far shorter than this; the buffer is flushed before a
 * record when less than this is left. */
#define MAX_RECORD_LINE 2048

/* always inlined: with a constant n (PUT_LIT) the copy becomes a few moves
 * instead of a call to memcpy (13% of `decode --format jsonl`, perf record) */
#define AP_INLINE __attribute__((always_inline)) static inline

AP_INLINE void put_mem(struct line *l, const char *s, size_t n)
{
	if (l->len + n < sizeof(l->buf)) {
		memcpy(l->buf + l->len, s, n);
		l->len += n;
	}
}

static void put_str(struct line *l, const char *s)
{
	put_mem(l, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define PUT_LIT(l, lit) put_mem((l), "" lit, sizeof(lit) - 1)

AP_INLINE void put_char(struct line *l, char c)
{
	if (l->len + 1 < sizeof(l->buf))
		l->buf[l->len++] = c;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Up to 8 digits of v (< 10^8) ending at end; pad: exactly 8 with zeros. */
static char *digits32(char *end, uint32_t v, int pad)
{
	char *p = end;
	while (v >= 100) {
		uint32_t r = v % 100;
		v /= 100;
		*--p = digit_pairs[2 * r + 1];
		*--p = digit_pairs[2 * r];
	}
	if (v >= 10) {
		*--p = digit_pairs[2 * v + 1];
		*--p = digit_pairs[2 * v];
	} else if (v || !pad || p == end) {
		*--p = (char)('0' + v);
	}
	while (pad && end - p < 8)
		*--p = '0';
	return p;
}

/* Decimal, split into 32-bit chunks of 8 digits: 64-bit division chains
 * made this a third of `decode --format jsonl` (perf record). */
static void put_u64(struct line *l, uint64_t v)
{
	if (v < 10) {
		put_char(l, (char)('0' + v));
		return;
	}
	char tmp[24];
	char *end = tmp + sizeof(tmp), *p;
	if (v < 100000000u) {
		p = digits32(end, (uint32_t)v, 0);
	} else {
		p = digits32(end, (uint32_t)(v % 100000000u), 1);
		v /= 100000000u;
		if (v < 100000000u) {
			p = digits32(p, (uint32_t)v, 0);
		} else {
			p = digits32(p, (uint32_t)(v % 100000000u), 1);
			p = digits32(p, (uint32_t)(v / 100000000u), 0);
		}
	}
	put_mem(l, p, (size_t)(end - p));
}

/* 0x and the hex digits of v, no leading zeros: the digit count comes from
 * the highest set bit, and the digits are written from the end. */
static void put_hex(struct line *l, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned n = v ? (67u - (unsigned)__builtin_clzll(v)) / 4u : 1u;
	if (l->len + n + 2 >= sizeof(l->buf))
		return;
	char *p = l->buf + l->len;
	p[0] = '0';
	p[1] = 'x';
	for (char *q = p + 2 + n; q > p + 2; v >>= 4)
		*--q = digits[v & 15];
	l->len += n + 2;
}

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

/* An event's name in quotes, for named bits (b < AP_EV_NAMED_COUNT). The
 * quoted names are kept in 16-byte slots so that one fixed-size copy (a
 * single vector move) writes any of them: a memcpy call per name was 15% of
 * `decode --format jsonl`. The line always has MAX_RECORD_LINE bytes free. */
static void put_quoted_name(struct line *l, unsigned b)
{
	static char quoted[AP_EV_NAMED_COUNT][16];
	static uint8_t len[AP_EV_NAMED_COUNT];
	if (!len[b]) {
		const char *n = ap_event_name(b);
		size_t k = strlen(n);
		if (k > 13)
			k = 13;
		quoted[b][0] = '"';
		memcpy(quoted[b] + 1, n, k);
		quoted[b][k + 1] = '"';
		len[b] = (uint8_t)(k + 2);
	}
	if (l->len + 16 < sizeof(l->buf)) {
		memcpy(l->buf + l->len, quoted[b], 16);
		l->len += len[b];
	}
}

/* Flags the Operation Type payload carries (5.3.8). */
struct op_flags {
	int cond, indirect, simd, atomic, excl, ar;
	int has_branch, has_other, has_ldst;
};

static struct op_flags op_flags_of(const struct ap_record *r)
{
	struct op_flags f;
	memset(&f, 0, sizeof(f));
	unsigned sub = r->op_subclass;
	switch (r->op_class) {
	case AP_OP_CLASS_BRANCH:
		f.has_branch = 1;
		f.cond = !!(sub & AP_OP_BR_COND);
		f.indirect = !!(sub & AP_OP_BR_INDIRECT);
		break;
	case AP_OP_CLASS_OTHER:
		f.has_other = 1;
		f.cond = sub == AP_OP_OTHER_COND;
		break;
	case AP_OP_CLASS_LDST:
		f.has_ldst = 1;
		f.simd = (sub & 0xFEu) == AP_OP_LDST_SIMD;
		if ((sub & 0xE2u) == AP_OP_LDST_EXT) {
			f.atomic = !!(sub & AP_OP_LDST_AT);
			f.excl = !!(sub & AP_OP_LDST_EXCL);
			f.ar = !!(sub & AP_OP_LDST_AR);
		}
		break;
	}
	return f;
}

static const char *end_name(const struct ap_record *r)
{
	switch (r->end) {
	case AP_END_END: return "end";
	case AP_END_TIMESTAMP: return "timestamp";
	case AP_END_FORCED: return "forced";
	default: return "truncated";
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

static void write_jsonl(struct line *l, const struct ap_record *r)
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
	if (h & AP_HAS_VADDR)
		json_hex(l, "vaddr", r->vaddr);
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
			if (b < AP_EV_NAMED_COUNT) {
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
	if (h & AP_HAS_DATA_SOURCE)
		json_u64(l, "data_source", r->data_source);
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
static void write_text(struct line *l, const struct ap_record *r)
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
	}
	if (h & AP_HAS_TARGET) {
		PUT_LIT(l, " tgt=");
		put_hex(l, r->target);
	}
	if (h & AP_HAS_VADDR) {
		PUT_LIT(l, " va=");
		put_hex(l, r->vaddr);
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

/* ---- csv ----------------------------------------------------------- */
static const char csv_header[] =
	"offset,pc,el,ns,op,cond,indirect,simd,atomic,excl,ar,target,target_el,target_ns,"
	"vaddr,paddr,pa_ns,events,lat_total,lat_issue,lat_xlat,ts,ctx_el1,ctx_el2,"
	"data_source,end,errors\n";

static void csv_hex(struct line *l, int present, uint64_t v)
{
	put_char(l, ',');
	if (present)
		put_hex(l, v);
}

static void csv_u64(struct line *l, int present, uint64_t v)
{
	put_char(l, ',');
	if (present)
		put_u64(l, v);
}

static void write_csv(struct line *l, const struct ap_record *r)
{
	uint32_t h = r->has;
	struct op_flags f = op_flags_of(r);
	int op = !!(h & AP_HAS_OP);
	put_u64(l, r->offset);
	csv_hex(l, h & AP_HAS_PC, r->pc);
	csv_u64(l, h & AP_HAS_PC, r->el);
	csv_u64(l, h & AP_HAS_PC, r->ns);
	put_char(l, ',');
	if (op)
		put_str(l, ap_record_op_name(r));
	csv_u64(l, op && (f.has_branch || f.has_other), (uint64_t)f.cond);
	csv_u64(l, op && f.has_branch, (uint64_t)f.indirect);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.simd);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.atomic);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.excl);
	csv_u64(l, op && f.has_ldst, (uint64_t)f.ar);
	csv_hex(l, h & AP_HAS_TARGET, r->target);
	csv_u64(l, h & AP_HAS_TARGET, r->target_el);
	csv_u64(l, h & AP_HAS_TARGET, r->target_ns);
	csv_hex(l, h & AP_HAS_VADDR, r->vaddr);
	csv_hex(l, h & AP_HAS_PADDR, r->paddr);
	csv_u64(l, h & AP_HAS_PADDR, r->pa_ns);
	csv_u64(l, h & AP_HAS_EVENTS, r->events);
	csv_u64(l, h & AP_HAS_LAT_TOTAL, r->lat_total);
	csv_u64(l, h & AP_HAS_LAT_ISSUE, r->lat_issue);
	csv_u64(l, h & AP_HAS_LAT_XLAT, r->lat_xlat);
	csv_u64(l, h & AP_HAS_TS, r->ts);
	csv_u64(l, h & AP_HAS_CTX_EL1, r->ctx_el1);
	csv_u64(l, h & AP_HAS_CTX_EL2, r->ctx_el2);
	csv_u64(l, h & AP_HAS_DATA_SOURCE, r->data_source);
	put_char(l, ',');
	put_str(l, end_name(r));
	csv_u64(l, 1, r->n_errors_total);
	put_char(l, '\n');
}

void record_format_header(FILE *out, enum record_format fmt)
{
	if (fmt == FMT_CSV)
		fputs(csv_header, out);
}

static void format_into(struct line *l, enum record_format fmt, const struct ap_record *rec)
{
	switch (fmt) {
	case FMT_JSONL: write_jsonl(l, rec); break;
	case FMT_CSV: write_csv(l, rec); break;
	default: write_text(l, rec); break;
	}
}

size_t record_format_write(FILE *out, enum record_format fmt, const struct ap_record *rec)
{
	struct line l;
	l.len = 0;
	format_into(&l, fmt, rec);
	return fwrite(l.buf, 1, l.len, out);
}

struct record_writer {
	FILE *out;
	enum record_format fmt;
	int failed; /* a write failed: output is incomplete */
	record_write_fn write; /* instead of out: where each full block goes */
	void *ctx;
	struct line line;
};

struct record_writer *record_writer_new(FILE *out, enum record_format fmt)
{
	struct record_writer *w = calloc(1, sizeof(*w));
	if (w) {
		w->out = out;
		w->fmt = fmt;
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

void record_writer_put(struct record_writer *w, const struct ap_record *rec)
{
	if (w->line.len > sizeof(w->line.buf) - MAX_RECORD_LINE)
		record_writer_flush(w);
	format_into(&w->line, w->fmt, rec);
}

/* Straight to the file descriptor: through fwrite the 64 KiB block was
 * copied once more into stdio's buffer. Anything already in that buffer (a
 * csv header) goes first. */
void record_writer_flush(struct record_writer *w)
{
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

int record_writer_failed(const struct record_writer *w)
{
	return w->failed;
}

void record_writer_free(struct record_writer *w)
{
	if (w)
		record_writer_flush(w);
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

/* The SPE text format assembler (docs/spe-text-format.md). Each line holds
 * statements separated by ';'; '#' starts a comment. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/number.h"
#include "armprof/asm.h"
#include "armprof/codec.h"
#include "armprof/record.h"

#define MAX_WORDS 24

struct out_buf {
	uint8_t *data;
	size_t len, cap;
};

struct ctx {
	struct out_buf out;
	uint64_t base;
	struct ap_error_ctx *err;
	unsigned line;
};

static int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	c->err->line = c->line;
	vsnprintf(c->err->message, sizeof(c->err->message), fmt, ap);
	va_end(ap);
	return -AP_ERR_FORMAT;
}

/* Room for n more bytes. The buffer exists after the first call even for
 * n = 0, so that callers may memset/memcpy zero bytes at its end (a null
 * pointer there is undefined behaviour, as fuzz_asm found with "pad 0"). */
static int reserve(struct ctx *c, size_t n)
{
	if (c->out.data && c->out.len + n <= c->out.cap)
		return 0;
	size_t cap = c->out.cap ? c->out.cap : 4096;
	while (cap < c->out.len + n)
		cap *= 2;
	uint8_t *d = realloc(c->out.data, cap);
	if (!d) {
		c->err->line = c->line;
		snprintf(c->err->message, sizeof(c->err->message), "out of memory");
		return -AP_ERR_NOMEM;
	}
	c->out.data = d;
	c->out.cap = cap;
	return 0;
}

static int put_bytes(struct ctx *c, const uint8_t *b, size_t n)
{
	int rc = reserve(c, n);
	if (rc)
		return rc;
	memcpy(c->out.data + c->out.len, b, n);
	c->out.len += n;
	return 0;
}

static int put_packet(struct ctx *c, const struct ap_packet *p)
{
	uint8_t b[16];
	int n = ap_pkt_encode(b, sizeof(b), p);
	if (n < 0)
		return fail(c, "no packet encoding for this statement (%s)", ap_errstr(n));
	return put_bytes(c, b, (size_t)n);
}

static int parse_u64(struct ctx *c, const char *s, uint64_t *v)
{
	if (ap_parse_u64(s, v) < 0)
		return fail(c, "'%s' is not a number (decimal, 0x hex or 0b binary)", s);
	return 0;
}

/* key=value word: returns the value if word starts with "key=". */
static const char *kv(const char *word, const char *key)
{
	size_t n = strlen(key);
	return !strncmp(word, key, n) && word[n] == '=' ? word + n + 1 : NULL;
}

/* Options after the operands: el=, ns=, ext, size=. */
struct opts {
	uint64_t el, ns, size;
	int ext, has_size;
};

/* Which options a statement takes: one it has no field for is refused
 * rather than ignored (issue 32: nothing given is silently dropped). */
enum { OPT_EL = 1, OPT_NS = 2, OPT_EXT = 4, OPT_SIZE = 8 };

static int parse_opts(struct ctx *c, char **w, int n, int first, unsigned allowed, struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ns = 1;
	for (int i = first; i < n; i++) {
		const char *v;
		int rc = 0;
		if (!strcmp(w[i], "ext") && (allowed & OPT_EXT))
			o->ext = 1;
		else if ((v = kv(w[i], "el")) && (allowed & OPT_EL))
			rc = parse_u64(c, v, &o->el);
		else if ((v = kv(w[i], "ns")) && (allowed & OPT_NS))
			rc = parse_u64(c, v, &o->ns);
		else if ((v = kv(w[i], "size")) && (allowed & OPT_SIZE)) {
			rc = parse_u64(c, v, &o->size);
			o->has_size = 1;
		} else
			return fail(c, "unexpected '%s'", w[i]);
		if (rc)
			return rc;
	}
	if (o->el > 3)
		return fail(c, "el=%llu: must be 0-3", (unsigned long long)o->el);
	if (o->ns > 1)
		return fail(c, "ns=%llu: must be 0 or 1", (unsigned long long)o->ns);
	return 0;
}

static int need(struct ctx *c, int n, int min, const char *usage)
{
	return n < min ? fail(c, "usage: %s", usage) : 0;
}

static int st_address(struct ctx *c, char **w, int n, unsigned index)
{
	uint64_t v = 0;
	struct opts o;
	int rc = need(c, n, 2, "pc|tgt|pbt|va|pa ADDRESS [el=N] [ns=N] [ext]");
	if (!rc)
		rc = parse_u64(c, w[1], &v);
	/* el= and ns= are fields of an instruction address (PC, branch
	 * targets: SPE-5.3.1-18, -19) and ns= of a physical one (SPE-5.3.1-22);
	 * a data virtual address has TAG there instead (SPE-5.3.1-17). */
	int ip = index == AP_ADDR_PC || index == AP_ADDR_TARGET || index == AP_ADDR_PREV_TARGET;
	unsigned allowed = OPT_EXT | (ip ? OPT_EL | OPT_NS : index == AP_ADDR_DATA_PA ? OPT_NS : 0);
	if (!rc)
		rc = parse_opts(c, w, n, 2, allowed, &o);
	if (rc)
		return rc;
	/* ADDR is bytes 6:0, address bits [55:0] (SPE-5.3.1-23); byte 7 holds
	 * NS/EL (SPE-5.3.1-19, -21, -22), so a physical address above bit 55
	 * does not fit, nor a PC or target whose bits [63:56] are not bit 55
	 * repeated (a canonical virtual address, as a kernel's 0xffff..., is
	 * recovered from bits [55:0] by sign extension). A data VA's byte 7 is
	 * its TAG (SPE-5.3.1-17): all 64 bits are its field. */
	int canonical = v <= AP_ADDR_MASK || (ip && (v >> 55) == 0x1FF);
	if ((ip || index == AP_ADDR_DATA_PA) && !canonical)
		return fail(c, "%s 0x%llx does not fit the Address packet's 56-bit ADDR (bits [55:0]%s; byte 7 "
		            "holds %s)", w[0], (unsigned long long)v, ip ? ", sign-extended" : "",
		            ip ? "NS and EL" : "NS");
	uint64_t payload = v;
	if (index == AP_ADDR_PC || index == AP_ADDR_TARGET || index == AP_ADDR_PREV_TARGET)
		payload = ap_addr_ip(v, (unsigned)o.el, (unsigned)o.ns);
	else if (index == AP_ADDR_DATA_PA)
		payload = ap_addr_pa(v, (unsigned)o.ns);
	struct ap_packet p = ap_pkt_address(index, payload);
	p.ext = (uint8_t)(p.ext || o.ext);
	return put_packet(c, &p);
}

static int st_addr_raw(struct ctx *c, char **w, int n)
{
	uint64_t index = 0, v = 0;
	struct opts o;
	int rc = need(c, n, 3, "addr INDEX PAYLOAD [ext]");
	if (!rc)
		rc = parse_u64(c, w[1], &index);
	if (!rc)
		rc = parse_u64(c, w[2], &v);
	if (!rc)
		rc = parse_opts(c, w, n, 3, OPT_EXT, &o);
	if (rc)
		return rc;
	if (index > 31)
		return fail(c, "address INDEX %llu: must be 0-31", (unsigned long long)index);
	struct ap_packet p = ap_pkt_address((unsigned)index, v);
	p.ext = (uint8_t)(p.ext || o.ext);
	return put_packet(c, &p);
}

/* An INDEX given by name (names[i] is index i) or as a number up to max. */
static int parse_index(struct ctx *c, const char *word, const char *const *names, uint64_t max,
                       const char *what, uint64_t *index)
{
	for (uint64_t i = 0; names[i]; i++) {
		if (!strcmp(word, names[i])) {
			*index = i;
			return 0;
		}
	}
	int rc = parse_u64(c, word, index);
	if (rc)
		return rc;
	if (*index > max)
		return fail(c, "%s INDEX %llu: must be 0-%llu", what, (unsigned long long)*index,
		            (unsigned long long)max);
	return 0;
}

static int st_counter(struct ctx *c, char **w, int n)
{
	uint64_t index = 0, v = 0;
	struct opts o;
	int rc = need(c, n, 3, "lat total|issue|xlat|INDEX COUNT [ext]");
	if (rc)
		return rc;
	static const char *const names[] = { "total", "issue", "xlat", NULL }; /* AP_CTR_* */
	if ((rc = parse_index(c, w[1], names, 31, "counter", &index)))
		return rc;
	if ((rc = parse_u64(c, w[2], &v)) || (rc = parse_opts(c, w, n, 3, OPT_EXT, &o)))
		return rc;
	if (v > 0xFFFF)
		return fail(c, "counter payload %llu does not fit 16 bits", (unsigned long long)v);
	struct ap_packet p = { .type = AP_PKT_COUNTER, .psize = 2, .index = (uint8_t)index,
	                       .ext = (uint8_t)(index > 7 || o.ext), .payload = v };
	return put_packet(c, &p);
}

static int st_context(struct ctx *c, char **w, int n)
{
	uint64_t index = 0, v = 0;
	int rc = need(c, n, 3, "ctx el1|el2|INDEX VALUE");
	if (rc)
		return rc;
	static const char *const names[] = { "el1", "el2", NULL }; /* AP_CTX_* */
	if ((rc = parse_index(c, w[1], names, 3, "context", &index)))
		return rc;
	if ((rc = parse_u64(c, w[2], &v)))
		return rc;
	if (v > 0xFFFFFFFFu)
		return fail(c, "context value does not fit 32 bits");
	if (n > 3)
		return fail(c, "unexpected '%s'", w[3]);
	struct ap_packet p = { .type = AP_PKT_CONTEXT, .psize = 4, .index = (uint8_t)index,
	                       .payload = v };
	return put_packet(c, &p);
}

/* op ld|st [simd] [at] [excl] [ar] | op b [cond] [ind] | op other [cond]
 * | op raw CLASS SUBCLASS (5.3.8) */
static int st_op(struct ctx *c, char **w, int n)
{
	int rc = need(c, n, 2, "op ld|st|b|other [flags] | op raw CLASS SUBCLASS");
	if (rc)
		return rc;
	unsigned cls, sub = 0;
	if (!strcmp(w[1], "raw")) {
		uint64_t a = 0, b = 0;
		if ((rc = need(c, n, 4, "op raw CLASS SUBCLASS")) || (rc = parse_u64(c, w[2], &a)) ||
		    (rc = parse_u64(c, w[3], &b)))
			return rc;
		if (a > 3 || b > 255)
			return fail(c, "op raw: CLASS 0-3, SUBCLASS 0-255");
		struct ap_packet p = ap_pkt_op_type((unsigned)a, (unsigned)b);
		return put_packet(c, &p);
	}
	if (!strcmp(w[1], "ld") || !strcmp(w[1], "st")) {
		int simd = 0, ext = 0;
		cls = AP_OP_CLASS_LDST;
		sub = w[1][0] == 's' ? AP_OP_ST : 0;
		for (int i = 2; i < n; i++) {
			if (!strcmp(w[i], "simd"))
				simd = 1;
			else if (!strcmp(w[i], "gp"))
				;
			else if (!strcmp(w[i], "at"))
				ext |= AP_OP_LDST_AT;
			else if (!strcmp(w[i], "excl"))
				ext |= AP_OP_LDST_EXCL;
			else if (!strcmp(w[i], "ar"))
				ext |= AP_OP_LDST_AR;
			else if (!strcmp(w[i], "ext"))
				ext |= AP_OP_LDST_EXT;
			else
				return fail(c, "op %s: unknown flag '%s' (simd, at, excl, ar, ext)", w[1], w[i]);
		}
		if (simd && ext)
			return fail(c, "op %s: simd cannot combine with at/excl/ar", w[1]);
		if (simd)
			sub |= AP_OP_LDST_SIMD;
		if (ext)
			sub |= (unsigned)ext | AP_OP_LDST_EXT;
	} else if (!strcmp(w[1], "b")) {
		cls = AP_OP_CLASS_BRANCH;
		for (int i = 2; i < n; i++) {
			if (!strcmp(w[i], "cond"))
				sub |= AP_OP_BR_COND;
			else if (!strcmp(w[i], "ind"))
				sub |= AP_OP_BR_INDIRECT;
			else if (!strcmp(w[i], "gcs"))
				sub |= AP_OP_BR_GCS;
			/* FEAT_SPE_CRR's CR [4:3] (LATER-CRR-3) */
			else if (!strcmp(w[i], "bl"))
				sub = (sub & ~AP_OP_BR_CR_MASK) | AP_OP_BR_CR_BL << AP_OP_BR_CR_SHIFT;
			else if (!strcmp(w[i], "ret"))
				sub = (sub & ~AP_OP_BR_CR_MASK) | AP_OP_BR_CR_RET << AP_OP_BR_CR_SHIFT;
			else if (!strcmp(w[i], "non-bl-ret"))
				sub = (sub & ~AP_OP_BR_CR_MASK) | AP_OP_BR_CR_NON_BL_RET << AP_OP_BR_CR_SHIFT;
			else
				return fail(c, "op b: unknown flag '%s' (cond, ind, gcs, bl, ret, non-bl-ret)", w[i]);
		}
	} else if (!strcmp(w[1], "other")) {
		cls = AP_OP_CLASS_OTHER;
		for (int i = 2; i < n; i++) {
			if (!strcmp(w[i], "cond"))
				sub = AP_OP_OTHER_COND;
			else
				return fail(c, "op other: unknown flag '%s' (cond)", w[i]);
		}
	} else {
		return fail(c, "op: unknown class '%s' (ld, st, b, other, raw)", w[1]);
	}
	struct ap_packet p = ap_pkt_op_type(cls, sub);
	return put_packet(c, &p);
}

static int event_bit(const char *name)
{
	for (unsigned b = 0; b < AP_EV_NAMED_COUNT; b++)
		if (ap_event_name(b) && !strcmp(name, ap_event_name(b)))
			return (int)b;
	if (name[0] == 'e' && isdigit((unsigned char)name[1])) {
		uint64_t b;
		if (ap_parse_u64(name + 1, &b) == 0 && b < 64)
			return (int)b;
	}
	return -1;
}

static int st_events(struct ctx *c, char **w, int n)
{
	uint64_t mask = 0, size = 0;
	int rc;
	for (int i = 1; i < n; i++) {
		const char *v = kv(w[i], "size");
		if (v) {
			if ((rc = parse_u64(c, v, &size)))
				return rc;
			if (size != 1 && size != 2 && size != 4 && size != 8)
				return fail(c, "ev size=%llu: must be 1, 2, 4 or 8", (unsigned long long)size);
		} else if (isdigit((unsigned char)w[i][0])) {
			uint64_t m = 0;
			if ((rc = parse_u64(c, w[i], &m)))
				return rc;
			mask |= m;
		} else {
			int b = event_bit(w[i]);
			if (b < 0)
				return fail(c, "ev: unknown event '%s'", w[i]);
			mask |= 1ull << b;
		}
	}
	struct ap_packet p = ap_pkt_events(mask);
	if (size) {
		if (size < p.psize)
			return fail(c, "ev: the events do not fit in size=%llu", (unsigned long long)size);
		p.psize = (uint8_t)size;
	}
	return put_packet(c, &p);
}

static int st_simple_value(struct ctx *c, char **w, int n, enum ap_pkt_type type)
{
	uint64_t v = 0;
	struct opts o;
	int rc = need(c, n, 2, type == AP_PKT_TIMESTAMP ? "ts VALUE" : "ds VALUE [size=1|2|4|8]");
	if (!rc)
		rc = parse_u64(c, w[1], &v);
	if (!rc)
		rc = parse_opts(c, w, n, 2, type == AP_PKT_DATA_SOURCE ? OPT_SIZE : 0, &o);
	if (rc)
		return rc;
	struct ap_packet p = { .type = (uint8_t)type, .psize = 8, .payload = v };
	if (type == AP_PKT_DATA_SOURCE) {
		/* SOURCE is 8 or 16 bits (SPE-5.3.5-5, -6); size=4 and 8 make the
		 * reserved sizes a decoder must still step over (SPE-5.1.1-3). */
		if (!o.has_size && v > 0xFFFF)
			return fail(c, "ds 0x%llx does not fit the Data Source packet's 16-bit SOURCE (size=4 or "
			            "size=8 for a reserved size)", (unsigned long long)v);
		if (o.has_size && o.size != 1 && o.size != 2 && o.size != 4 && o.size != 8)
			return fail(c, "ds size=%llu: must be 1, 2, 4 or 8", (unsigned long long)o.size);
		p.psize = o.has_size ? (uint8_t)o.size : (v > 0xFF ? 2 : 1);
		if (p.psize < 8 && v >> (8 * p.psize))
			return fail(c, "ds 0x%llx does not fit size=%u (%u bits)", (unsigned long long)v, p.psize,
			            8 * p.psize);
	}
	return put_packet(c, &p);
}

static int st_pad(struct ctx *c, char **w, int n)
{
	uint64_t count = 1;
	int rc;
	if (n > 1 && (rc = parse_u64(c, w[1], &count)))
		return rc;
	if (count > (1u << 20))
		return fail(c, "pad %llu: at most 1048576", (unsigned long long)count);
	if ((rc = reserve(c, count)))
		return rc;
	memset(c->out.data + c->out.len, AP_HDR_PAD, count);
	c->out.len += count;
	return 0;
}

/* align BYTES [fill=0xNN]: Alignment command then UNKNOWN fill bytes up to
 * the next multiple of BYTES in the stream (5.3.2). align-raw SIZE writes
 * only the two command bytes, for reserved SIZE values. */
static int st_align(struct ctx *c, char **w, int n, int raw)
{
	uint64_t v = 0, fill = 0;
	int rc = need(c, n, 2, raw ? "align-raw SIZEFIELD" : "align BYTES [fill=0xNN]");
	if (!rc)
		rc = parse_u64(c, w[1], &v);
	if (rc)
		return rc;
	for (int i = 2; i < n; i++) {
		const char *f = kv(w[i], "fill");
		if (!f || raw)
			return fail(c, "unexpected '%s'", w[i]);
		if ((rc = parse_u64(c, f, &fill)))
			return rc;
		if (fill > 255)
			return fail(c, "fill=%llu: a byte value", (unsigned long long)fill);
	}
	unsigned size_field = 0;
	if (raw) {
		if (v > 15)
			return fail(c, "align-raw %llu: SIZE is 0-15", (unsigned long long)v);
		size_field = (unsigned)v;
	} else {
		while (size_field < 16 && ap_align_bytes(size_field) != v)
			size_field++;
		if (size_field == 0 || size_field > 15)
			return fail(c, "align %llu: a power of two from 4 to 65536", (unsigned long long)v);
	}
	struct ap_packet p = { .type = AP_PKT_ALIGN, .index = (uint8_t)size_field };
	if ((rc = put_packet(c, &p)))
		return rc;
	if (raw)
		return 0;
	uint64_t pos = c->base + c->out.len;
	uint64_t next = (pos + v - 1) & ~(v - 1);
	if ((rc = reserve(c, next - pos)))
		return rc;
	memset(c->out.data + c->out.len, (int)fill, next - pos);
	c->out.len += next - pos;
	return 0;
}

static int st_bytes(struct ctx *c, char **w, int n)
{
	for (int i = 1; i < n; i++) {
		uint64_t v = 0;
		int rc = parse_u64(c, w[i], &v);
		if (rc)
			return rc;
		if (v > 255)
			return fail(c, "bytes: %s is not a byte value", w[i]);
		uint8_t b = (uint8_t)v;
		if ((rc = put_bytes(c, &b, 1)))
			return rc;
	}
	return 0;
}

static int statement(struct ctx *c, char **w, int n)
{
	const char *k = w[0];
	if (!strcmp(k, "pc"))
		return st_address(c, w, n, AP_ADDR_PC);
	if (!strcmp(k, "tgt"))
		return st_address(c, w, n, AP_ADDR_TARGET);
	if (!strcmp(k, "pbt")) /* previous branch target, FEAT_SPE_PBT (LATER-PBT-3) */
		return st_address(c, w, n, AP_ADDR_PREV_TARGET);
	if (!strcmp(k, "va"))
		return st_address(c, w, n, AP_ADDR_DATA_VA);
	if (!strcmp(k, "pa"))
		return st_address(c, w, n, AP_ADDR_DATA_PA);
	if (!strcmp(k, "addr"))
		return st_addr_raw(c, w, n);
	if (!strcmp(k, "lat"))
		return st_counter(c, w, n);
	if (!strcmp(k, "ctx"))
		return st_context(c, w, n);
	if (!strcmp(k, "op"))
		return st_op(c, w, n);
	if (!strcmp(k, "ev"))
		return st_events(c, w, n);
	if (!strcmp(k, "ds"))
		return st_simple_value(c, w, n, AP_PKT_DATA_SOURCE);
	if (!strcmp(k, "ts"))
		return st_simple_value(c, w, n, AP_PKT_TIMESTAMP);
	if (!strcmp(k, "end") && n == 1) {
		struct ap_packet p = ap_pkt_simple(AP_PKT_END);
		return put_packet(c, &p);
	}
	if (!strcmp(k, "pad"))
		return st_pad(c, w, n);
	if (!strcmp(k, "align"))
		return st_align(c, w, n, 0);
	if (!strcmp(k, "align-raw"))
		return st_align(c, w, n, 1);
	if (!strcmp(k, "bytes"))
		return st_bytes(c, w, n);
	return fail(c, "unknown statement '%s'", k);
}

/* Split one statement into words (in place). */
static int split_words(char *s, char **w)
{
	int n = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			*s++ = '\0';
		if (!*s)
			break;
		if (n == MAX_WORDS)
			return -1;
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
	}
	return n;
}

int ap_asm_assemble(const char *text, size_t len, uint64_t base_offset, uint8_t **out,
                    size_t *out_len, struct ap_error_ctx *err)
{
	struct ap_error_ctx dummy;
	struct ctx c = { .base = base_offset, .err = err ? err : &dummy };
	memset(c.err, 0, sizeof(*c.err));
	char line[1024];
	size_t pos = 0;
	int rc = 0;
	while (pos < len && !rc) {
		c.line++;
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		size_t n = end - pos;
		if (n >= sizeof(line)) {
			rc = fail(&c, "line longer than %zu characters", sizeof(line) - 1);
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos = end + 1;
		if (memchr(line, '\0', n)) {
			rc = fail(&c, "NUL byte in text");
			break;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *save = NULL;
		for (char *st = strtok_r(line, ";", &save); st && !rc; st = strtok_r(NULL, ";", &save)) {
			char *w[MAX_WORDS];
			int nw = split_words(st, w);
			if (nw < 0)
				rc = fail(&c, "too many words in one statement");
			else if (nw > 0)
				rc = statement(&c, w, nw);
		}
	}
	if (rc) {
		free(c.out.data);
		return rc;
	}
	if (!c.out.data && reserve(&c, 1) != 0)
		return -AP_ERR_NOMEM;
	*out = c.out.data;
	*out_len = c.out.len;
	return 0;
}

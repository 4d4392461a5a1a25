/* The line buffer the record formats (record_format.c, record_csv.c) build
 * their output in, with small appenders: no printf in the per-record path
 * (decode --format jsonl is benchmarked against perf). Private to the
 * armprof tool. */
#ifndef ARMPROF_TOOL_RECORD_LINE_H
#define ARMPROF_TOOL_RECORD_LINE_H

#include <stdint.h>
#include <string.h>

#include "armprof/data_source.h"
#include "armprof/record.h"

/* A window of LINE_CAP bytes at buf: the writer's own block, or the end of
 * a parallel decode job's text, which the record is formatted straight into
 * (record_writer_new_mem: no copy of the text). */
#define LINE_CAP (1u << 16)
struct line {
	char *buf;
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
	if (l->len + n < LINE_CAP) {
		memcpy(l->buf + l->len, s, n);
		l->len += n;
	}
}

static inline void put_str(struct line *l, const char *s)
{
	put_mem(l, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define PUT_LIT(l, lit) put_mem((l), "" lit, sizeof(lit) - 1)

AP_INLINE void put_char(struct line *l, char c)
{
	if (l->len + 1 < LINE_CAP)
		l->buf[l->len++] = c;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Up to 8 digits of v (< 10^8) ending at end; pad: exactly 8 with zeros. */
static inline char *digits32(char *end, uint32_t v, int pad)
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
static inline void put_u64(struct line *l, uint64_t v)
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
static inline void put_hex(struct line *l, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned n = v ? (67u - (unsigned)__builtin_clzll(v)) / 4u : 1u;
	if (l->len + n + 2 >= LINE_CAP)
		return;
	char *p = l->buf + l->len;
	p[0] = '0';
	p[1] = 'x';
	for (char *q = p + 2 + n; q > p + 2; v >>= 4)
		*--q = digits[v & 15];
	l->len += n + 2;
}

/* Flags the Operation Type payload carries (5.3.8). */
struct op_flags {
	int cond, indirect, simd, atomic, excl, ar;
	int gcs;     /* branch GCS [2] (decoded with spe_later only) */
	unsigned cr; /* branch CR [4:3], FEAT_SPE_CRR (LATER-CRR-3) */
	int has_branch, has_other, has_ldst;
};

static inline struct op_flags op_flags_of(const struct ap_record *r)
{
	struct op_flags f;
	memset(&f, 0, sizeof(f));
	unsigned sub = r->op_subclass;
	switch (r->op_class) {
	case AP_OP_CLASS_BRANCH:
		f.has_branch = 1;
		f.cond = !!(sub & AP_OP_BR_COND);
		f.indirect = !!(sub & AP_OP_BR_INDIRECT);
		f.gcs = !!(sub & AP_OP_BR_GCS);
		f.cr = (sub & AP_OP_BR_CR_MASK) >> AP_OP_BR_CR_SHIFT;
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

/* FEAT_SPE_CRR's CR as perf 7.x names it (ARM_SPE_OP_BR_CR_*), or NULL. */
static inline const char *br_cr_name(unsigned cr)
{
	return cr == AP_OP_BR_CR_BL ? "BL" : cr == AP_OP_BR_CR_RET ? "RET"
	     : cr == AP_OP_BR_CR_NON_BL_RET ? "NON_BL_RET" : NULL;
}

static inline const char *end_name(const struct ap_record *r)
{
	switch (r->end) {
	case AP_END_END: return "end";
	case AP_END_TIMESTAMP: return "timestamp";
	case AP_END_FORCED: return "forced";
	default: return "truncated";
	}
}

/* record_csv.c: the header line, and one record's row. enc: the Data
 * Source encoding of the CPU that wrote the records (its names). */
extern const char record_csv_header[];
void record_csv_write(struct line *l, const struct ap_record *r, enum ap_ds_encoding enc);

#endif

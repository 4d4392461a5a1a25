/* Encoding a whole sample record (5.1.2) from its fields. */
#include <string.h>

#include "armprof/record.h"

/* The record is built in a local buffer with 8 bytes of slack, so every
 * payload is one 8-byte little-endian store (5.1.3) and the pointer moves by
 * the payload size; it is copied out only when it fits, so a failed encode
 * writes nothing. This is the model's per-record path (< 150 ns budget). */
static inline uint8_t *put_le(uint8_t *p, uint64_t v, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
#else
	memcpy(p, &v, 8);
#endif
	return p + n;
}

/* Address (5.3.1) and Counter (5.3.4) headers: short when INDEX < 8 and the
 * caller did not ask for the extended form. */
static inline uint8_t *put_indexed_header(uint8_t *p, uint8_t base, unsigned index, int ext)
{
	if (ext || index > 7) {
		*p++ = (uint8_t)(AP_HDR_EXT_PREFIX | (index >> 3 & 3u));
		*p++ = (uint8_t)(base | (index & 7u));
	} else {
		*p++ = (uint8_t)(base | index);
	}
	return p;
}

static inline uint8_t *put_address(uint8_t *p, unsigned index, uint64_t payload, int ext)
{
	return put_le(put_indexed_header(p, AP_HDR_ADDRESS, index, ext), payload, 8);
}

static inline uint8_t *put_counter(uint8_t *p, unsigned index, unsigned count, int ext)
{
	/* 12-bit saturating (SPE-5.3.4-18) */
	return put_le(put_indexed_header(p, AP_HDR_COUNTER, index, ext),
	              count > AP_COUNTER_MAX ? AP_COUNTER_MAX : count, 2);
}

static inline unsigned sz_of(unsigned bytes)
{
	return bytes == 8 ? 3u : bytes == 4 ? 2u : bytes == 2 ? 1u : 0u;
}

int ap_record_encode(uint8_t *buf, size_t cap, const struct ap_record *r,
                     const struct ap_record_encode_opts *opts)
{
	static const struct ap_record_encode_opts defaults;
	if (!opts)
		opts = &defaults;
	uint8_t tmp[AP_RECORD_MAX_BYTES + 8];
	uint8_t *p = tmp;
	const uint32_t has = r->has;
	const int aext = opts->address_ext, cext = opts->counter_ext;

	if (has & AP_HAS_PC)
		p = put_address(p, AP_ADDR_PC, ap_addr_ip(r->pc, r->el, r->ns), aext);
	if (has & AP_HAS_CTX_EL1) {
		*p++ = AP_HDR_CONTEXT | AP_CTX_EL1;
		p = put_le(p, r->ctx_el1, 4);
	}
	if (has & AP_HAS_CTX_EL2) {
		*p++ = AP_HDR_CONTEXT | AP_CTX_EL2;
		p = put_le(p, r->ctx_el2, 4);
	}
	if (has & AP_HAS_OP) {
		*p++ = (uint8_t)(AP_HDR_OP_TYPE | (r->op_class & 3u));
		*p++ = r->op_subclass;
	}
	if (has & AP_HAS_EVENTS) {
		/* at least events_size bytes, more if the events need them */
		unsigned n = ap_events_min_size(r->events);
		unsigned want = opts->events_size;
		if ((want == 2 || want == 4 || want == 8) && want > n)
			n = want;
		*p++ = (uint8_t)(AP_HDR_EVENTS | sz_of(n) << 4);
		p = put_le(p, r->events, n);
	}
	if (has & AP_HAS_LAT_ISSUE)
		p = put_counter(p, AP_CTR_ISSUE, r->lat_issue, cext);
	if (has & AP_HAS_LAT_TOTAL)
		p = put_counter(p, AP_CTR_TOTAL, r->lat_total, cext);
	if (has & AP_HAS_TARGET)
		p = put_address(p, AP_ADDR_TARGET, ap_addr_ip(r->target, r->target_el, r->target_ns), aext);
	if (has & AP_HAS_PREV_TARGET) /* FEAT_SPE_PBT (LATER-PBT-3) */
		p = put_address(p, AP_ADDR_PREV_TARGET,
		                ap_addr_ip(r->prev_target, r->prev_target_el, r->prev_target_ns), aext);
	if (has & AP_HAS_VADDR)
		p = put_address(p, AP_ADDR_DATA_VA, r->vaddr, aext);
	if (has & AP_HAS_LAT_XLAT)
		p = put_counter(p, AP_CTR_XLAT, r->lat_xlat, cext);
	if (has & AP_HAS_PADDR)
		p = put_address(p, AP_ADDR_DATA_PA, ap_addr_pa(r->paddr, r->pa_ns), aext);
	if (has & AP_HAS_DATA_SOURCE) {
		unsigned n = r->data_source_size == 2 ? 2 : 1;
		*p++ = (uint8_t)(AP_HDR_DATA_SOURCE | sz_of(n) << 4);
		p = put_le(p, r->data_source, n);
	}
	for (unsigned i = 0; i < r->n_impdef && i < AP_RECORD_MAX_IMPDEF; i++) {
		const struct ap_impdef_value *v = &r->impdef[i];
		if (v->index > 31)
			return -AP_ERR_INVALID;
		if (v->is_counter)
			p = put_counter(p, v->index, (unsigned)(v->value > AP_COUNTER_MAX ? AP_COUNTER_MAX : v->value), cext);
		else
			p = put_address(p, v->index, v->value, aext);
	}
	if (has & AP_HAS_TS) {
		*p++ = AP_HDR_TIMESTAMP;
		p = put_le(p, r->ts, 8);
	} else {
		*p++ = AP_HDR_END;
	}
	size_t len = (size_t)(p - tmp);
	if (len > cap)
		return -AP_ERR_NOSPACE;
	memcpy(buf, tmp, len);
	return (int)len;
}

const char *ap_record_op_name(const struct ap_record *rec)
{
	if (!(rec->has & AP_HAS_OP))
		return NULL;
	switch (rec->op_class) {
	case AP_OP_CLASS_OTHER: return "OTHER";
	case AP_OP_CLASS_LDST: return rec->op_subclass & AP_OP_ST ? "ST" : "LD";
	case AP_OP_CLASS_BRANCH: return "B";
	default: return "RESERVED";
	}
}

const char *ap_decode_error_name(enum ap_decode_error_kind k)
{
	switch (k) {
	case AP_DERR_UNKNOWN_PACKET: return "unknown-packet";
	case AP_DERR_RESERVED_VALUE: return "reserved-value";
	case AP_DERR_TRUNCATED: return "truncated";
	case AP_DERR_DUPLICATE: return "duplicate";
	case AP_DERR_TOO_LONG: return "too-long";
	}
	return "error";
}

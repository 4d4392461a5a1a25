/* The engine's record writer (see record_emit.h): packet order and
 * encodings of ap_record_encode(), spec/002 5.2-5.3. */
#include "model/spe/record_emit.h"

#include <string.h>

/* 5.1.3: payloads are little-endian. buf always has 8 bytes of room past
 * the payload (AP_RECORD_MAX_BYTES exceeds any record), so a whole word
 * is stored and the pointer advanced by n. */
static inline uint8_t *le(uint8_t *p, uint64_t v, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
#else
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
#endif
	return p + n;
}

static inline uint8_t *address(uint8_t *p, unsigned index, uint64_t payload)
{
	*p++ = (uint8_t)(AP_HDR_ADDRESS | index); /* short header, SZ = 0b11 (5.3.1) */
	return le(p, payload, 8);
}

static inline uint8_t *counter(uint8_t *p, unsigned index, unsigned count)
{
	*p++ = (uint8_t)(AP_HDR_COUNTER | index); /* short header, SZ = 0b01 (5.3.4) */
	return le(p, count > AP_COUNTER_MAX ? AP_COUNTER_MAX : count, 2);
}

static unsigned log2_of(unsigned bytes)
{
	return bytes == 8 ? 3 : bytes == 4 ? 2 : bytes == 2 ? 1 : 0;
}

unsigned ap_spe_record_emit(uint8_t *buf, const struct ap_record *r, unsigned events_size)
{
	uint8_t *p = buf;
	uint32_t has = r->has;
	if (has & AP_HAS_PC)
		p = address(p, AP_ADDR_PC, ap_addr_ip(r->pc, r->el, r->ns));
	if (has & AP_HAS_CTX_EL1) {
		*p++ = AP_HDR_CONTEXT | AP_CTX_EL1;
		p = le(p, r->ctx_el1, 4);
	}
	if (has & AP_HAS_CTX_EL2) {
		*p++ = AP_HDR_CONTEXT | AP_CTX_EL2;
		p = le(p, r->ctx_el2, 4);
	}
	if (has & AP_HAS_OP) {
		*p++ = (uint8_t)(AP_HDR_OP_TYPE | (r->op_class & 3u));
		*p++ = r->op_subclass;
	}
	if (has & AP_HAS_EVENTS) {
		unsigned n = ap_events_min_size(r->events);
		if (events_size == 1 || events_size == 2 || events_size == 4 || events_size == 8)
			n = events_size > n ? events_size : n;
		*p++ = (uint8_t)(AP_HDR_EVENTS | log2_of(n) << 4);
		p = le(p, r->events, n);
	}
	if (has & AP_HAS_LAT_ISSUE)
		p = counter(p, AP_CTR_ISSUE, r->lat_issue);
	if (has & AP_HAS_LAT_TOTAL)
		p = counter(p, AP_CTR_TOTAL, r->lat_total);
	if (has & AP_HAS_TARGET)
		p = address(p, AP_ADDR_TARGET, ap_addr_ip(r->target, r->target_el, r->target_ns));
	if (has & AP_HAS_VADDR)
		p = address(p, AP_ADDR_DATA_VA, r->vaddr);
	if (has & AP_HAS_LAT_XLAT)
		p = counter(p, AP_CTR_XLAT, r->lat_xlat);
	if (has & AP_HAS_PADDR)
		p = address(p, AP_ADDR_DATA_PA, ap_addr_pa(r->paddr, r->pa_ns));
	if (has & AP_HAS_DATA_SOURCE) {
		unsigned n = r->data_source_size == 2 ? 2 : 1;
		*p++ = (uint8_t)(AP_HDR_DATA_SOURCE | log2_of(n) << 4);
		p = le(p, r->data_source, n);
	}
	if (has & AP_HAS_TS) {
		*p++ = AP_HDR_TIMESTAMP;
		p = le(p, r->ts, 8);
	} else {
		*p++ = AP_HDR_END;
	}
	return (unsigned)(p - buf);
}

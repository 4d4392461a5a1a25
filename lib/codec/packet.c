/* SPE packet encode and decode (spec/002 section 5). */
#include <string.h>

#include "armprof/codec.h"
#include "codec/packet_decode.h"

int ap_pkt_size(const uint8_t *buf, size_t len)
{
	return pd_size(buf, len);
}

int ap_pkt_decode(struct ap_packet *pkt, const uint8_t *buf, size_t len)
{
	return pd_decode(pkt, buf, len);
}

/* The header byte(s) that carry pkt, or -AP_ERR_INVALID. Returns the number
 * of header bytes. */
static int header_for(const struct ap_packet *pkt, uint8_t hdr[2])
{
	static const uint8_t sz_of_psize[9] = { 0xFF, 0, 1, 0xFF, 2, 0xFF, 0xFF, 0xFF, 3 };
	unsigned sz = pkt->psize <= 8 ? sz_of_psize[pkt->psize] : 0xFFu;

	switch (pkt->type) {
	case AP_PKT_PAD: hdr[0] = AP_HDR_PAD; return 1;
	case AP_PKT_END: hdr[0] = AP_HDR_END; return 1;
	case AP_PKT_TIMESTAMP: hdr[0] = AP_HDR_TIMESTAMP; return 1;
	case AP_PKT_EVENTS:
		if (sz > 3)
			return -AP_ERR_INVALID;
		hdr[0] = (uint8_t)(AP_HDR_EVENTS | (sz << 4));
		return 1;
	case AP_PKT_DATA_SOURCE:
		if (sz > 3)
			return -AP_ERR_INVALID;
		hdr[0] = (uint8_t)(AP_HDR_DATA_SOURCE | (sz << 4));
		return 1;
	case AP_PKT_CONTEXT:
		if (pkt->index > 3)
			return -AP_ERR_INVALID;
		hdr[0] = (uint8_t)(AP_HDR_CONTEXT | pkt->index);
		return 1;
	case AP_PKT_OP_TYPE:
		if (pkt->index > 3)
			return -AP_ERR_INVALID;
		hdr[0] = (uint8_t)(AP_HDR_OP_TYPE | pkt->index);
		return 1;
	case AP_PKT_ADDRESS:
	case AP_PKT_COUNTER: {
		uint8_t base = pkt->type == AP_PKT_ADDRESS ? AP_HDR_ADDRESS : AP_HDR_COUNTER;
		if (pkt->index > 31)
			return -AP_ERR_INVALID;
		if (!pkt->ext) {
			if (pkt->index > 7) /* short format: INDEX[4:3] == 0 only */
				return -AP_ERR_INVALID;
			hdr[0] = (uint8_t)(base | pkt->index);
			return 1;
		}
		hdr[0] = (uint8_t)(AP_HDR_EXT_PREFIX | (pkt->index >> 3));
		hdr[1] = (uint8_t)(base | (pkt->index & 7u));
		return 2;
	}
	case AP_PKT_ALIGN:
		if (pkt->index > 15)
			return -AP_ERR_INVALID;
		hdr[0] = (uint8_t)(AP_HDR_EXT_PREFIX | pkt->index);
		hdr[1] = AP_HDR_ALIGN1;
		return 2;
	case AP_PKT_UNKNOWN:
		hdr[0] = pkt->hdr0;
		hdr[1] = pkt->hdr1;
		return pd_is_prefix(pkt->hdr0) ? 2 : 1;
	default:
		return -AP_ERR_INVALID;
	}
}

int ap_pkt_encode(uint8_t *buf, size_t cap, const struct ap_packet *pkt)
{
	uint8_t hdr[2] = { 0, 0 };
	int nhdr = header_for(pkt, hdr);
	if (nhdr < 0)
		return nhdr;
	/* The payload length always follows from the header (SPE-5.1.1-3), so
	 * what is written can be parsed without knowing the packet type. */
	int size = ap_pkt_size(hdr, (size_t)nhdr);
	if (size < 0)
		return -AP_ERR_INTERNAL;
	if ((size_t)size > cap)
		return -AP_ERR_NOSPACE;
	memcpy(buf, hdr, (size_t)nhdr);
	pd_store_le(buf + nhdr, pkt->payload, (unsigned)(size - nhdr));
	return size;
}

struct ap_packet ap_pkt_address(unsigned index, uint64_t payload)
{
	struct ap_packet p = { .type = AP_PKT_ADDRESS, .psize = 8, .index = (uint8_t)index,
	                       .ext = index > 7, .payload = payload };
	return p;
}

struct ap_packet ap_pkt_counter(unsigned index, unsigned count)
{
	struct ap_packet p = { .type = AP_PKT_COUNTER, .psize = 2, .index = (uint8_t)index,
	                       .ext = index > 7,
	                       .payload = count > AP_COUNTER_MAX ? AP_COUNTER_MAX : count };
	return p;
}

unsigned ap_events_min_size(uint64_t events)
{
	if (events >> 32)
		return 8;
	if (events >> 16)
		return 4;
	if (events >> 8)
		return 2;
	return 1;
}

struct ap_packet ap_pkt_events(uint64_t events)
{
	struct ap_packet p = { .type = AP_PKT_EVENTS, .psize = (uint8_t)ap_events_min_size(events),
	                       .payload = events };
	return p;
}

struct ap_packet ap_pkt_op_type(unsigned cls, unsigned subclass)
{
	struct ap_packet p = { .type = AP_PKT_OP_TYPE, .psize = 1, .index = (uint8_t)cls,
	                       .payload = subclass & 0xFFu };
	return p;
}

struct ap_packet ap_pkt_simple(enum ap_pkt_type type)
{
	struct ap_packet p = { .type = (uint8_t)type };
	return p;
}

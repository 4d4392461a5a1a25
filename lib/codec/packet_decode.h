/* SPE packet decoding (spec/002 5.1-5.3) as static inline functions, so that
 * the streaming decoder's loop and ap_pkt_decode share one implementation. */
#ifndef ARMPROF_CODEC_PACKET_DECODE_H
#define ARMPROF_CODEC_PACKET_DECODE_H

#include <string.h>

#include "armprof/codec.h"

/* Little-endian payload load/store (5.1.3). */
static inline uint64_t pd_load_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static inline void pd_store_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Header classes for a one-byte header (SPE-5.1.1-3): 0x00-0x1F no payload,
 * 0x20-0x3F prefix of a 16-bit header, 0x40-0xFF payload of 2^SZ bytes. */
static inline int pd_is_prefix(uint8_t b) { return (b & 0xE0u) == AP_HDR_EXT_PREFIX; }

static inline int pd_size(const uint8_t *buf, size_t len)
{
	uint8_t b0 = buf[0];
	if (b0 < 0x20u)
		return 1;
	if (!pd_is_prefix(b0))
		return 1 + (int)AP_PAYLOAD_LEN(b0);
	if (len < 2)
		return -AP_ERR_NEED_MORE;
	/* Figure 2: the second byte's own class gives the payload size; a
	 * second prefix (0x20-0x3F) is reserved and taken as header only. */
	if (buf[1] < 0x40u)
		return 2;
	return 2 + (int)AP_PAYLOAD_LEN(buf[1]);
}

/* Address INDEX (5.3.1) and Counter INDEX (5.3.4) share their layout of
 * defined, IMPLEMENTATION DEFINED and reserved values. */
static inline int pd_addr_index_reserved(unsigned index)
{
	if (index <= 3)
		return 0; /* defined */
	if (index == 6 || index == 7 || index >= 16)
		return 0; /* 0b0011x, 0b1xxxx: IMPLEMENTATION DEFINED */
	return 1;     /* 0b00100, 0b00101, 0b01xxx */
}

static inline int pd_ctr_index_reserved(unsigned index)
{
	if (index <= 2)
		return 0;
	if (index == 6 || index == 7 || index >= 16)
		return 0;
	return 1;
}

static inline int pd_op_type_reserved(unsigned cls, unsigned sub)
{
	switch (cls) {
	case AP_OP_CLASS_OTHER:
		return sub > AP_OP_OTHER_COND; /* SPE-5.3.8-9 */
	case AP_OP_CLASS_BRANCH:
		return (sub & ~3u) != 0; /* SPE-5.3.8-12 */
	case AP_OP_CLASS_LDST:
		if ((sub & 0xFEu) == AP_OP_LDST_GP || (sub & 0xFEu) == AP_OP_LDST_SIMD)
			return 0;
		return (sub & 0xE2u) != AP_OP_LDST_EXT;
	default:
		return 1; /* CLASS 0b11, SPE-5.3.8-6 */
	}
}

static inline void pd_one_byte_header(struct ap_packet *pkt, uint8_t b0)
{
	if (b0 == AP_HDR_PAD) {
		pkt->type = AP_PKT_PAD;
	} else if (b0 == AP_HDR_END) {
		pkt->type = AP_PKT_END;
	} else if (b0 == AP_HDR_TIMESTAMP) {
		pkt->type = AP_PKT_TIMESTAMP;
	} else if ((b0 & 0xCFu) == AP_HDR_EVENTS) {
		pkt->type = AP_PKT_EVENTS;
	} else if ((b0 & 0xCFu) == AP_HDR_DATA_SOURCE) {
		pkt->type = AP_PKT_DATA_SOURCE;
		pkt->reserved = AP_HDR_SZ(b0) > 1; /* only byte and halfword */
	} else if ((b0 & 0xFCu) == AP_HDR_CONTEXT) {
		pkt->type = AP_PKT_CONTEXT;
		pkt->index = b0 & 3u;
		pkt->reserved = pkt->index > AP_CTX_EL2; /* SPE-5.3.3-5 */
	} else if ((b0 & 0xFCu) == AP_HDR_OP_TYPE) {
		pkt->type = AP_PKT_OP_TYPE;
		pkt->index = b0 & 3u;
		pkt->reserved = (uint8_t)pd_op_type_reserved(pkt->index, (unsigned)pkt->payload);
	} else if ((b0 & 0xF8u) == AP_HDR_ADDRESS) {
		pkt->type = AP_PKT_ADDRESS;
		pkt->index = b0 & 7u;
		pkt->reserved = (uint8_t)pd_addr_index_reserved(pkt->index);
	} else if ((b0 & 0xF8u) == AP_HDR_COUNTER) {
		pkt->type = AP_PKT_COUNTER;
		pkt->index = b0 & 7u;
		pkt->reserved = (uint8_t)pd_ctr_index_reserved(pkt->index);
	} else {
		pkt->type = AP_PKT_UNKNOWN;
	}
}

static inline void pd_two_byte_header(struct ap_packet *pkt, uint8_t b0, uint8_t b1)
{
	unsigned hi = (b0 & 3u) << 3; /* INDEX[4:3] in byte 0 bits [1:0] */
	if (b1 == AP_HDR_ALIGN1) {
		pkt->type = AP_PKT_ALIGN; /* Figure 6, 5.3.2 */
		pkt->index = b0 & 0xFu;
		/* SIZE 0b0000 is reserved; byte 0 bit 4 reads as zero */
		pkt->reserved = pkt->index == 0 || (b0 & 0x10u);
	} else if ((b1 & 0xF8u) == AP_HDR_ADDRESS) {
		pkt->type = AP_PKT_ADDRESS;
		pkt->index = (uint8_t)(hi | (b1 & 7u));
		pkt->reserved = (b0 & 0x1Cu) || pd_addr_index_reserved(pkt->index);
	} else if ((b1 & 0xF8u) == AP_HDR_COUNTER) {
		pkt->type = AP_PKT_COUNTER;
		pkt->index = (uint8_t)(hi | (b1 & 7u));
		pkt->reserved = (b0 & 0x1Cu) || pd_ctr_index_reserved(pkt->index);
	} else {
		pkt->type = AP_PKT_UNKNOWN;
	}
}

static inline int pd_decode(struct ap_packet *pkt, const uint8_t *buf, size_t len)
{
	if (len == 0)
		return -AP_ERR_NEED_MORE;
	int size = pd_size(buf, len);
	if (size < 0 || (size_t)size > len)
		return -AP_ERR_NEED_MORE;
	memset(pkt, 0, sizeof(*pkt));
	pkt->size = (uint8_t)size;
	pkt->hdr0 = buf[0];
	if (pd_is_prefix(buf[0])) {
		pkt->ext = 1;
		pkt->hdr1 = buf[1];
		pkt->psize = (uint8_t)(size - 2);
		pkt->payload = pd_load_le(buf + 2, pkt->psize);
		pd_two_byte_header(pkt, buf[0], buf[1]);
	} else {
		pkt->psize = (uint8_t)(size - 1);
		pkt->payload = pd_load_le(buf + 1, pkt->psize);
		pd_one_byte_header(pkt, buf[0]);
	}
	return size;
}

/* ---- Fast path ----------------------------------------------------------
 * A 256-entry table classifies one-byte headers (as OpenCSD does), built at
 * compile time from the same encodings as pd_one_byte_header:
 *   bits [3:0] type (PD_PREFIX for 0x20-0x3F), [7:4] payload bytes,
 *   bit 8 reserved value in the header, bits [11:9] INDEX mask. */
#define PD_PREFIX 15u
#define PD_TYPE1(b)                                                              \
	((b) == 0x00 ? AP_PKT_PAD : (b) == 0x01 ? AP_PKT_END : (b) < 0x20 ? AP_PKT_UNKNOWN \
	 : (b) < 0x40 ? PD_PREFIX : (b) == 0x71 ? AP_PKT_TIMESTAMP                  \
	 : ((b) & 0xCF) == 0x42 ? AP_PKT_EVENTS : ((b) & 0xCF) == 0x43 ? AP_PKT_DATA_SOURCE \
	 : ((b) & 0xFC) == 0x64 ? AP_PKT_CONTEXT : ((b) & 0xFC) == 0x48 ? AP_PKT_OP_TYPE \
	 : ((b) & 0xF8) == 0xB0 ? AP_PKT_ADDRESS : ((b) & 0xF8) == 0x98 ? AP_PKT_COUNTER \
	 : AP_PKT_UNKNOWN)
#define PD_PSIZE1(b) ((b) < 0x40 ? 0u : 1u << (((b) >> 4) & 3))
#define PD_RESERVED1(b)                                                          \
	(PD_TYPE1(b) == AP_PKT_DATA_SOURCE ? ((b) >> 4 & 3) > 1                    \
	 : PD_TYPE1(b) == AP_PKT_CONTEXT ? ((b) & 3) > 1                              \
	 : PD_TYPE1(b) == AP_PKT_ADDRESS ? ((b) & 7) == 4 || ((b) & 7) == 5          \
	 : PD_TYPE1(b) == AP_PKT_COUNTER ? ((b) & 7) >= 3 && ((b) & 7) <= 5 : 0)
#define PD_IDXMASK1(b)                                                           \
	(PD_TYPE1(b) == AP_PKT_CONTEXT || PD_TYPE1(b) == AP_PKT_OP_TYPE ? 3u          \
	 : PD_TYPE1(b) == AP_PKT_ADDRESS || PD_TYPE1(b) == AP_PKT_COUNTER ? 7u : 0u)
#define PD_ENTRY(b) \
	(uint16_t)(PD_TYPE1(b) | PD_PSIZE1(b) << 4 | (unsigned)PD_RESERVED1(b) << 8 | PD_IDXMASK1(b) << 9)
#define PD_ROW4(b) PD_ENTRY(b), PD_ENTRY((b) + 1), PD_ENTRY((b) + 2), PD_ENTRY((b) + 3)
#define PD_ROW16(b) PD_ROW4(b), PD_ROW4((b) + 4), PD_ROW4((b) + 8), PD_ROW4((b) + 12)
#define PD_ROW64(b) PD_ROW16(b), PD_ROW16((b) + 16), PD_ROW16((b) + 32), PD_ROW16((b) + 48)

static const uint16_t pd_header_table[256] = { PD_ROW64(0x00), PD_ROW64(0x40), PD_ROW64(0x80),
	                                           PD_ROW64(0xC0) };
static const uint64_t pd_payload_mask[9] = { 0, 0xFF, 0xFFFF, 0, 0xFFFFFFFFull, 0, 0, 0,
	                                         ~0ull };

/* pd_decode for a buffer known to hold at least 9 bytes (the largest packet
 * with a one-byte header): one table look-up and one 8-byte load. */
static inline int pd_decode_fast(struct ap_packet *pkt, const uint8_t *buf, size_t len)
{
	uint8_t b0 = buf[0];
	unsigned e = pd_header_table[b0];
	unsigned type = e & 0xFu;
	if (type == PD_PREFIX || len < 9)
		return pd_decode(pkt, buf, len);
	unsigned psize = (e >> 4) & 0xFu;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	uint64_t raw = pd_load_le(buf + 1, 8);
#else
	uint64_t raw;
	memcpy(&raw, buf + 1, 8); /* payloads are little-endian (5.1.3) */
#endif
	pkt->type = (uint8_t)type;
	pkt->ext = 0;
	pkt->size = (uint8_t)(1 + psize);
	pkt->psize = (uint8_t)psize;
	pkt->index = (uint8_t)(b0 & (e >> 9));
	pkt->hdr0 = b0;
	pkt->hdr1 = 0;
	pkt->truncated = 0;
	pkt->payload = raw & pd_payload_mask[psize];
	pkt->reserved = (uint8_t)((e >> 8) & 1u);
	if (type == AP_PKT_OP_TYPE)
		pkt->reserved = (uint8_t)pd_op_type_reserved(pkt->index, (unsigned)pkt->payload);
	return (int)(1 + psize);
}

#endif

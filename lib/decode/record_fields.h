/* Applying one decoded packet to the record being assembled. */
#ifndef ARMPROF_DECODE_RECORD_FIELDS_H
#define ARMPROF_DECODE_RECORD_FIELDS_H

#include "armprof/record.h"

/* Note an error in rec (kept up to AP_RECORD_MAX_ERRORS, counted beyond). */
void ap_record_add_error(struct ap_record *rec, enum ap_decode_error_kind kind,
                         uint64_t offset, const struct ap_packet *pkt);

/* An instruction address's ADDR is bits [55:0] (SPE-5.3.1-23); the VA it
 * stands for has bits [63:56] equal to bit 55. */
static inline uint64_t sign_extend_56(uint64_t v)
{
	v &= AP_ADDR_MASK;
	return (v & (1ull << 55)) ? (v | ~AP_ADDR_MASK) : v;
}

static inline void set_once(struct ap_record *rec, uint32_t bit, uint64_t offset,
                     const struct ap_packet *pkt)
{
	if (rec->has & bit)
		ap_record_add_error(rec, AP_DERR_DUPLICATE, offset, pkt);
	rec->has |= bit;
}

static inline void add_impdef(struct ap_record *rec, const struct ap_packet *pkt, int is_counter)
{
	if (rec->n_impdef >= AP_RECORD_MAX_IMPDEF)
		return;
	struct ap_impdef_value *v = &rec->impdef[rec->n_impdef++];
	v->is_counter = (uint8_t)is_counter;
	v->index = pkt->index;
	v->value = pkt->payload;
}

/* ---- The one description of the record's fields ----------------------
 * Where a field packet (type, index, payload of psize bytes) goes in a
 * record: its has-bit (0: an IMPLEMENTATION DEFINED Address or Counter
 * INDEX, kept in impdef[]) and its store. The generic path
 * (ap_record_apply) and the decoder's fast path (fast_run, fuse_after_pc in
 * lib/decode/decoder.c) both use these two functions; the fast path calls
 * them with the type and index of a constant header, so they fold to the
 * stores themselves. */
static inline uint32_t ap_record_field_bit(unsigned type, unsigned index)
{
	switch (type) {
	case AP_PKT_ADDRESS: /* 5.3.1 */
		return index == AP_ADDR_PC ? AP_HAS_PC
		     : index == AP_ADDR_TARGET ? AP_HAS_TARGET
		     : index == AP_ADDR_DATA_VA ? AP_HAS_VADDR
		     : index == AP_ADDR_DATA_PA ? AP_HAS_PADDR
		     : index == AP_ADDR_PREV_TARGET ? AP_HAS_PREV_TARGET : 0;
	case AP_PKT_COUNTER: /* 5.3.4 */
		return index == AP_CTR_TOTAL ? AP_HAS_LAT_TOTAL
		     : index == AP_CTR_ISSUE ? AP_HAS_LAT_ISSUE
		     : index == AP_CTR_XLAT ? AP_HAS_LAT_XLAT : 0;
	case AP_PKT_OP_TYPE: return AP_HAS_OP;             /* 5.3.8 */
	case AP_PKT_EVENTS: return AP_HAS_EVENTS;          /* 5.3.7 */
	case AP_PKT_CONTEXT: return index == AP_CTX_EL1 ? AP_HAS_CTX_EL1 : AP_HAS_CTX_EL2; /* 5.3.3 */
	case AP_PKT_DATA_SOURCE: return AP_HAS_DATA_SOURCE; /* 5.3.5 */
	case AP_PKT_TIMESTAMP: return AP_HAS_TS;           /* 5.3.10 */
	default: return 0;
	}
}

/* Store the field of a packet with a has-bit (payload already cut to its
 * psize bytes): the values the record holds for it. The has-bit itself is
 * the caller's (duplicates are handled differently by the two paths). */
__attribute__((always_inline)) static inline void ap_record_store(struct ap_record *rec, unsigned type,
                                                                  unsigned index, uint64_t v, unsigned psize)
{
	switch (type) {
	case AP_PKT_ADDRESS: {
		uint8_t el = (uint8_t)((v >> AP_ADDR_EL_SHIFT) & 3u);
		uint8_t ns = (uint8_t)((v >> AP_ADDR_NS_BIT) & 1u);
		if (index == AP_ADDR_PC) {
			rec->pc = sign_extend_56(v);
			rec->el = el;
			rec->ns = ns;
		} else if (index == AP_ADDR_TARGET) {
			rec->target = sign_extend_56(v);
			rec->target_el = el;
			rec->target_ns = ns;
		} else if (index == AP_ADDR_DATA_VA) {
			rec->vaddr = v; /* with the TAG byte (SPE-5.3.1-17) */
		} else if (index == AP_ADDR_PREV_TARGET) {
			rec->prev_target = sign_extend_56(v); /* as the PC packet (LATER-PBT-3) */
			rec->prev_target_el = el;
			rec->prev_target_ns = ns;
		} else {
			rec->paddr = v & AP_ADDR_MASK;
			rec->pa_ns = ns;
		}
		break;
	}
	case AP_PKT_COUNTER: {
		uint16_t count = (uint16_t)(v & AP_COUNTER_MAX);
		if (index == AP_CTR_TOTAL)
			rec->lat_total = count;
		else if (index == AP_CTR_ISSUE)
			rec->lat_issue = count;
		else
			rec->lat_xlat = count;
		break;
	}
	case AP_PKT_OP_TYPE:
		rec->op_class = (uint8_t)index;
		rec->op_subclass = (uint8_t)v;
		break;
	case AP_PKT_EVENTS:
		rec->events = v;
		rec->events_size = (uint8_t)psize;
		break;
	case AP_PKT_CONTEXT:
		if (index == AP_CTX_EL1)
			rec->ctx_el1 = (uint32_t)v;
		else
			rec->ctx_el2 = (uint32_t)v;
		break;
	case AP_PKT_DATA_SOURCE:
		rec->data_source = (uint16_t)v;
		rec->data_source_size = (uint8_t)psize;
		break;
	case AP_PKT_TIMESTAMP:
		rec->ts = v;
		break;
	default:
		break;
	}
}

/* Store pkt's field in rec. pkt is a defined, non-reserved, non-framing
 * packet (the caller handles PAD, ALIGN, END, UNKNOWN and reserved ones).
 * A field given twice is noted (AP_DERR_DUPLICATE) and the last one wins;
 * a Timestamp is not a field of that kind (it ends the record).
 * Inline: it runs once per packet in the decoder's loop. */
__attribute__((always_inline)) static inline void ap_record_apply(struct ap_record *rec, uint64_t off, const struct ap_packet *pkt)
{
	uint32_t bit = ap_record_field_bit(pkt->type, pkt->index);
	if (!bit) {
		if (pkt->type == AP_PKT_ADDRESS || pkt->type == AP_PKT_COUNTER)
			add_impdef(rec, pkt, pkt->type == AP_PKT_COUNTER);
		return;
	}
	if (pkt->type == AP_PKT_TIMESTAMP)
		rec->has |= bit;
	else
		set_once(rec, bit, off, pkt);
	ap_record_store(rec, pkt->type, pkt->index, pkt->payload, pkt->psize);
}

#endif


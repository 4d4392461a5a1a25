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

static inline void apply_address(struct ap_record *rec, uint64_t off, const struct ap_packet *pkt)
{
	uint64_t v = pkt->payload;
	uint8_t el = (uint8_t)((v >> AP_ADDR_EL_SHIFT) & 3u);
	uint8_t ns = (uint8_t)((v >> AP_ADDR_NS_BIT) & 1u);
	switch (pkt->index) {
	case AP_ADDR_PC:
		set_once(rec, AP_HAS_PC, off, pkt);
		rec->pc = sign_extend_56(v);
		rec->el = el;
		rec->ns = ns;
		break;
	case AP_ADDR_TARGET:
		set_once(rec, AP_HAS_TARGET, off, pkt);
		rec->target = sign_extend_56(v);
		rec->target_el = el;
		rec->target_ns = ns;
		break;
	case AP_ADDR_DATA_VA:
		set_once(rec, AP_HAS_VADDR, off, pkt);
		rec->vaddr = v; /* with the TAG byte (SPE-5.3.1-17) */
		break;
	case AP_ADDR_DATA_PA:
		set_once(rec, AP_HAS_PADDR, off, pkt);
		rec->paddr = v & AP_ADDR_MASK;
		rec->pa_ns = ns;
		break;
	default:
		add_impdef(rec, pkt, 0);
	}
}

static inline void apply_counter(struct ap_record *rec, uint64_t off, const struct ap_packet *pkt)
{
	uint16_t count = (uint16_t)(pkt->payload & AP_COUNTER_MAX);
	switch (pkt->index) {
	case AP_CTR_TOTAL:
		set_once(rec, AP_HAS_LAT_TOTAL, off, pkt);
		rec->lat_total = count;
		break;
	case AP_CTR_ISSUE:
		set_once(rec, AP_HAS_LAT_ISSUE, off, pkt);
		rec->lat_issue = count;
		break;
	case AP_CTR_XLAT:
		set_once(rec, AP_HAS_LAT_XLAT, off, pkt);
		rec->lat_xlat = count;
		break;
	default:
		add_impdef(rec, pkt, 1);
	}
}

/* Store pkt's field in rec. pkt is a defined, non-reserved, non-framing
 * packet (the caller handles PAD, ALIGN, END, UNKNOWN and reserved ones).
 * Inline: it runs once per packet in the decoder's loop. */
__attribute__((always_inline)) static inline void ap_record_apply(struct ap_record *rec, uint64_t off, const struct ap_packet *pkt)
{
	switch (pkt->type) {
	case AP_PKT_ADDRESS:
		apply_address(rec, off, pkt);
		break;
	case AP_PKT_COUNTER:
		apply_counter(rec, off, pkt);
		break;
	case AP_PKT_OP_TYPE:
		set_once(rec, AP_HAS_OP, off, pkt);
		rec->op_class = pkt->index;
		rec->op_subclass = (uint8_t)pkt->payload;
		break;
	case AP_PKT_EVENTS:
		set_once(rec, AP_HAS_EVENTS, off, pkt);
		rec->events = pkt->payload;
		rec->events_size = pkt->psize;
		break;
	case AP_PKT_CONTEXT:
		if (pkt->index == AP_CTX_EL1) {
			set_once(rec, AP_HAS_CTX_EL1, off, pkt);
			rec->ctx_el1 = (uint32_t)pkt->payload;
		} else {
			set_once(rec, AP_HAS_CTX_EL2, off, pkt);
			rec->ctx_el2 = (uint32_t)pkt->payload;
		}
		break;
	case AP_PKT_DATA_SOURCE:
		set_once(rec, AP_HAS_DATA_SOURCE, off, pkt);
		rec->data_source = (uint16_t)pkt->payload;
		rec->data_source_size = pkt->psize;
		break;
	case AP_PKT_TIMESTAMP:
		rec->has |= AP_HAS_TS;
		rec->ts = pkt->payload;
		break;
	default:
		break;
	}
}

#endif


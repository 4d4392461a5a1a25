/* Random but valid SPE records, shared by the round-trip property test, the
 * decoder tests and the decode benchmark. Deterministic for a given seed. */
#ifndef ARMPROF_TEST_RANDOM_RECORD_H
#define ARMPROF_TEST_RANDOM_RECORD_H

#include <string.h>

#include "armprof/record.h"

static inline uint64_t rr_next(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A canonical instruction address: bits [63:56] copy bit 55. */
static inline uint64_t rr_ip(uint64_t *s)
{
	uint64_t v = rr_next(s) & 0x00FFFFFFFFFFFFFCull;
	return (v & (1ull << 55)) ? (v | 0xFF00000000000000ull) : v;
}

/* realistic = 1: the packets a Neoverse-like PE writes for loads, stores,
 * branches and other operations; 0: any field combination. */
static inline void rr_record(struct ap_record *r, uint64_t *s, int realistic)
{
	memset(r, 0, sizeof(*r));
	uint64_t x = rr_next(s);
	r->has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_LAT_TOTAL | AP_HAS_LAT_ISSUE;
	r->pc = rr_ip(s);
	r->el = (uint8_t)(x & 3);
	r->ns = (uint8_t)(x >> 2 & 1);
	unsigned kind = (unsigned)(x >> 3) % 4;
	r->op_class = kind == 3 ? AP_OP_CLASS_LDST : (uint8_t)kind; /* loads twice as often */
	static const uint8_t ldst_subs[] = { 0x00, 0x01, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b,
		                                 0x12, 0x13, 0x1e, 0x1f };
	switch (r->op_class) {
	case AP_OP_CLASS_LDST:
		r->op_subclass = ldst_subs[(x >> 8) % sizeof(ldst_subs)];
		r->has |= AP_HAS_VADDR | AP_HAS_PADDR | AP_HAS_LAT_XLAT;
		r->vaddr = rr_next(s);
		r->paddr = rr_next(s) & AP_ADDR_MASK;
		r->pa_ns = (uint8_t)(x >> 12 & 1);
		r->lat_xlat = (uint16_t)(rr_next(s) & 0xFFF);
		if (!(r->op_subclass & AP_OP_ST)) {
			r->has |= AP_HAS_DATA_SOURCE;
			r->data_source = (uint16_t)(x >> 16 & 0xF);
			r->data_source_size = 1;
		}
		break;
	case AP_OP_CLASS_BRANCH:
		r->op_subclass = (uint8_t)(x >> 8 & 3);
		r->has |= AP_HAS_TARGET;
		r->target = rr_ip(s);
		r->target_el = r->el;
		r->target_ns = r->ns;
		break;
	default:
		r->op_subclass = (uint8_t)(x >> 8 & 1);
	}
	r->events = rr_next(s) & 0x7FF;
	r->lat_total = (uint16_t)(rr_next(s) & 0xFFF);
	r->lat_issue = (uint16_t)(rr_next(s) & 0xFFF);
	uint64_t y = rr_next(s);
	if (realistic || (y & 1)) {
		r->has |= AP_HAS_TS;
		r->ts = rr_next(s);
	}
	if (!realistic) {
		/* any subset of the optional fields, wide events, IMP DEF values */
		if (y & 2) {
			r->has |= AP_HAS_CTX_EL1;
			r->ctx_el1 = (uint32_t)rr_next(s);
		}
		if (y & 4) {
			r->has |= AP_HAS_CTX_EL2;
			r->ctx_el2 = (uint32_t)rr_next(s);
		}
		if (y & 8)
			r->events = rr_next(s) & ~AP_EV_RAZ_MASK;
		if (y & 16) {
			r->has |= AP_HAS_DATA_SOURCE;
			r->data_source_size = (y & 32) ? 2 : 1;
			r->data_source = (uint16_t)(rr_next(s) & (r->data_source_size == 2 ? 0xFFFF : 0xFF));
		}
		if (y & 64) {
			static const uint8_t idx[] = { 6, 7, 16, 23, 31 };
			r->n_impdef = (uint8_t)(1 + (y >> 8) % AP_RECORD_MAX_IMPDEF);
			for (unsigned i = 0; i < r->n_impdef; i++) {
				r->impdef[i].is_counter = (uint8_t)(y >> (12 + i) & 1);
				r->impdef[i].index = idx[(y >> (20 + 3 * i)) % sizeof(idx)];
				r->impdef[i].value = r->impdef[i].is_counter ? (rr_next(s) & 0xFFF) : rr_next(s);
			}
		}
		if (y & 128)
			r->has &= ~(AP_HAS_LAT_ISSUE | AP_HAS_EVENTS);
	}
	r->events_size = (uint8_t)ap_events_min_size(r->events);
}

#endif

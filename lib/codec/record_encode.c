/* Encoding a whole sample record (5.1.2) from its fields. */
#include <string.h>

#include "armprof/record.h"

struct writer {
	uint8_t *buf;
	size_t cap, len;
	int err;
};

static void emit(struct writer *w, const struct ap_packet *p)
{
	if (w->err)
		return;
	int n = ap_pkt_encode(w->buf + w->len, w->cap - w->len, p);
	if (n < 0)
		w->err = n;
	else
		w->len += (size_t)n;
}

static void emit_address(struct writer *w, unsigned index, uint64_t payload, int ext)
{
	struct ap_packet p = ap_pkt_address(index, payload);
	p.ext = (uint8_t)(ext || index > 7);
	emit(w, &p);
}

static void emit_counter(struct writer *w, unsigned index, unsigned count, int ext)
{
	struct ap_packet p = ap_pkt_counter(index, count);
	p.ext = (uint8_t)(ext || index > 7);
	emit(w, &p);
}

int ap_record_encode(uint8_t *buf, size_t cap, const struct ap_record *r,
                     const struct ap_record_encode_opts *opts)
{
	static const struct ap_record_encode_opts defaults;
	if (!opts)
		opts = &defaults;
	uint8_t tmp[AP_RECORD_MAX_BYTES];
	struct writer w = { tmp, sizeof(tmp), 0, 0 };
	uint32_t has = r->has;
	int aext = opts->address_ext, cext = opts->counter_ext;

	if (has & AP_HAS_PC)
		emit_address(&w, AP_ADDR_PC, ap_addr_ip(r->pc, r->el, r->ns), aext);
	if (has & AP_HAS_CTX_EL1) {
		struct ap_packet p = { .type = AP_PKT_CONTEXT, .psize = 4, .index = AP_CTX_EL1,
		                       .payload = r->ctx_el1 };
		emit(&w, &p);
	}
	if (has & AP_HAS_CTX_EL2) {
		struct ap_packet p = { .type = AP_PKT_CONTEXT, .psize = 4, .index = AP_CTX_EL2,
		                       .payload = r->ctx_el2 };
		emit(&w, &p);
	}
	if (has & AP_HAS_OP) {
		struct ap_packet p = ap_pkt_op_type(r->op_class, r->op_subclass);
		emit(&w, &p);
	}
	if (has & AP_HAS_EVENTS) {
		struct ap_packet p = ap_pkt_events(r->events);
		if (opts->events_size) {
			if (opts->events_size < p.psize)
				return -AP_ERR_INVALID; /* the events do not fit */
			p.psize = opts->events_size;
		}
		emit(&w, &p);
	}
	if (has & AP_HAS_LAT_ISSUE)
		emit_counter(&w, AP_CTR_ISSUE, r->lat_issue, cext);
	if (has & AP_HAS_LAT_TOTAL)
		emit_counter(&w, AP_CTR_TOTAL, r->lat_total, cext);
	if (has & AP_HAS_TARGET)
		emit_address(&w, AP_ADDR_TARGET, ap_addr_ip(r->target, r->target_el, r->target_ns),
		             aext);
	if (has & AP_HAS_VADDR)
		emit_address(&w, AP_ADDR_DATA_VA, r->vaddr, aext);
	if (has & AP_HAS_LAT_XLAT)
		emit_counter(&w, AP_CTR_XLAT, r->lat_xlat, cext);
	if (has & AP_HAS_PADDR)
		emit_address(&w, AP_ADDR_DATA_PA, ap_addr_pa(r->paddr, r->pa_ns), aext);
	if (has & AP_HAS_DATA_SOURCE) {
		struct ap_packet p = { .type = AP_PKT_DATA_SOURCE,
		                       .psize = r->data_source_size == 2 ? 2 : 1,
		                       .payload = r->data_source };
		emit(&w, &p);
	}
	for (unsigned i = 0; i < r->n_impdef && i < AP_RECORD_MAX_IMPDEF; i++) {
		const struct ap_impdef_value *v = &r->impdef[i];
		if (v->is_counter)
			emit_counter(&w, v->index, (unsigned)v->value, cext);
		else
			emit_address(&w, v->index, v->value, aext);
	}
	if (has & AP_HAS_TS) {
		struct ap_packet p = { .type = AP_PKT_TIMESTAMP, .psize = 8, .payload = r->ts };
		emit(&w, &p);
	} else {
		struct ap_packet p = ap_pkt_simple(AP_PKT_END);
		emit(&w, &p);
	}
	if (w.err)
		return w.err;
	if (w.len > cap)
		return -AP_ERR_NOSPACE;
	memcpy(buf, tmp, w.len);
	return (int)w.len;
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

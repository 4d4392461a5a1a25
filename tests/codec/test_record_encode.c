/* ap_record_encode (the fast, whole-record encoder the model writes records
 * with) against a reference built packet by packet with ap_pkt_encode:
 * byte-identical on random records of every field combination, Events payload
 * size and header form (spec/002 5.1.2, 5.1.3, 5.3; SPE-5.1.2-1, SPE-5.1.3-1,
 * SPE-5.3.7-4), and nothing written when it does not fit. */
#include "armprof/record.h"
#include "harness.h"
#include "random_record.h"

struct ref {
	uint8_t buf[256];
	size_t len;
};

static void ref_put(struct ref *w, struct ap_packet p)
{
	int n = ap_pkt_encode(w->buf + w->len, sizeof(w->buf) - w->len, &p);
	CHECK(n > 0);
	if (n > 0)
		w->len += (size_t)n;
}

static struct ap_packet with_ext(struct ap_packet p, int ext)
{
	p.ext = (uint8_t)(p.ext || ext);
	return p;
}

/* The packet order of ap_record_encode's contract (record.h). */
static size_t reference(uint8_t *out, const struct ap_record *r, unsigned events_size, int aext,
                        int cext)
{
	struct ref w = { .len = 0 };
	uint32_t h = r->has;
	if (h & AP_HAS_PC)
		ref_put(&w, with_ext(ap_pkt_address(AP_ADDR_PC, ap_addr_ip(r->pc, r->el, r->ns)), aext));
	if (h & AP_HAS_CTX_EL1)
		ref_put(&w, (struct ap_packet){ .type = AP_PKT_CONTEXT, .psize = 4, .index = AP_CTX_EL1,
		                                .payload = r->ctx_el1 });
	if (h & AP_HAS_CTX_EL2)
		ref_put(&w, (struct ap_packet){ .type = AP_PKT_CONTEXT, .psize = 4, .index = AP_CTX_EL2,
		                                .payload = r->ctx_el2 });
	if (h & AP_HAS_OP)
		ref_put(&w, ap_pkt_op_type(r->op_class, r->op_subclass));
	if (h & AP_HAS_EVENTS) {
		struct ap_packet p = ap_pkt_events(r->events);
		if (events_size > p.psize)
			p.psize = (uint8_t)events_size;
		ref_put(&w, p);
	}
	if (h & AP_HAS_LAT_ISSUE)
		ref_put(&w, with_ext(ap_pkt_counter(AP_CTR_ISSUE, r->lat_issue), cext));
	if (h & AP_HAS_LAT_TOTAL)
		ref_put(&w, with_ext(ap_pkt_counter(AP_CTR_TOTAL, r->lat_total), cext));
	if (h & AP_HAS_TARGET)
		ref_put(&w, with_ext(ap_pkt_address(AP_ADDR_TARGET,
		                                    ap_addr_ip(r->target, r->target_el, r->target_ns)), aext));
	if (h & AP_HAS_VADDR)
		ref_put(&w, with_ext(ap_pkt_address(AP_ADDR_DATA_VA, r->vaddr), aext));
	if (h & AP_HAS_LAT_XLAT)
		ref_put(&w, with_ext(ap_pkt_counter(AP_CTR_XLAT, r->lat_xlat), cext));
	if (h & AP_HAS_PADDR)
		ref_put(&w, with_ext(ap_pkt_address(AP_ADDR_DATA_PA, ap_addr_pa(r->paddr, r->pa_ns)), aext));
	if (h & AP_HAS_DATA_SOURCE)
		ref_put(&w, (struct ap_packet){ .type = AP_PKT_DATA_SOURCE,
		                                .psize = r->data_source_size == 2 ? 2 : 1,
		                                .payload = r->data_source });
	for (unsigned i = 0; i < r->n_impdef; i++) {
		const struct ap_impdef_value *v = &r->impdef[i];
		if (v->is_counter)
			ref_put(&w, with_ext(ap_pkt_counter(v->index, (unsigned)v->value), cext));
		else
			ref_put(&w, with_ext(ap_pkt_address(v->index, v->value), aext));
	}
	if (h & AP_HAS_TS)
		ref_put(&w, (struct ap_packet){ .type = AP_PKT_TIMESTAMP, .psize = 8, .payload = r->ts });
	else
		ref_put(&w, ap_pkt_simple(AP_PKT_END));
	memcpy(out, w.buf, w.len);
	return w.len;
}

TEST(matches_packet_by_packet_reference)
{
	uint64_t seed = 42;
	static const uint8_t sizes[] = { 0, 1, 2, 4, 8 };
	int compared = 0;
	for (int i = 0; i < 200000; i++) {
		struct ap_record r;
		rr_record(&r, &seed, i & 1);
		if (i % 3 == 0) /* any presence bits */
			r.has = (uint32_t)rr_next(&seed) & 0x1FFFu;
		if (r.has & AP_HAS_DATA_SOURCE)
			r.data_source_size = (uint8_t)(1 + (i & 1));
		unsigned es = sizes[i % 5];
		int aext = (i / 5) % 2, cext = (i / 10) % 2;
		struct ap_record_encode_opts o = { .events_size = (uint8_t)es,
			                               .address_ext = (uint8_t)aext,
			                               .counter_ext = (uint8_t)cext };
		uint8_t want[256], got[AP_RECORD_MAX_BYTES];
		size_t n = reference(want, &r, es, aext, cext);
		int m = ap_record_encode(got, sizeof(got), &r, &o);
		CHECK_EQ_U64(m, n);
		if (m > 0 && (size_t)m == n && memcmp(want, got, n) != 0) {
			CHECK(!"bytes differ");
			break;
		}
		compared++;
	}
	CHECK_EQ_U64(compared, 200000);
}

TEST(nothing_written_when_it_does_not_fit)
{
	struct ap_record r;
	uint64_t seed = 7;
	rr_record(&r, &seed, 1);
	uint8_t full[AP_RECORD_MAX_BYTES];
	int n = ap_record_encode(full, sizeof(full), &r, NULL);
	CHECK(n > 0);
	uint8_t small[AP_RECORD_MAX_BYTES];
	memset(small, 0xEE, sizeof(small));
	CHECK_EQ_U64(ap_record_encode(small, (size_t)n - 1, &r, NULL), (uint64_t)-AP_ERR_NOSPACE);
	for (size_t i = 0; i < sizeof(small); i++)
		CHECK(small[i] == 0xEE);
	r.n_impdef = 1;
	r.impdef[0].index = 40;
	CHECK_EQ_U64(ap_record_encode(small, sizeof(small), &r, NULL), (uint64_t)-AP_ERR_INVALID);
}

TEST_MAIN(CASE(matches_packet_by_packet_reference), CASE(nothing_written_when_it_does_not_fit))

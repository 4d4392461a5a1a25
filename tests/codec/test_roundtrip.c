/* Property test: 100k random records encode -> decode -> equal
 * (SPE-5.1.2-1 records, SPE-5.1.1-3 sizes, SPE-5.1.3-1 byte order). */
#include "armprof/decode.h"
#include "harness.h"
#include "random_record.h"

#define N_RECORDS 100000

struct collect {
	const struct ap_record *want;
	size_t n, mismatches;
};

static int compare_fields(const struct ap_record *a, const struct ap_record *b)
{
	if (a->has != b->has)
		return 0;
	uint32_t h = a->has;
#define SAME(f) (a->f == b->f)
	if ((h & AP_HAS_PC) && !(SAME(pc) && SAME(el) && SAME(ns)))
		return 0;
	if ((h & AP_HAS_TARGET) && !(SAME(target) && SAME(target_el) && SAME(target_ns)))
		return 0;
	if ((h & AP_HAS_VADDR) && !SAME(vaddr))
		return 0;
	if ((h & AP_HAS_PADDR) && !(SAME(paddr) && SAME(pa_ns)))
		return 0;
	if ((h & AP_HAS_OP) && !(SAME(op_class) && SAME(op_subclass)))
		return 0;
	if ((h & AP_HAS_EVENTS) && !(SAME(events) && SAME(events_size)))
		return 0;
	if ((h & AP_HAS_LAT_TOTAL) && !SAME(lat_total))
		return 0;
	if ((h & AP_HAS_LAT_ISSUE) && !SAME(lat_issue))
		return 0;
	if ((h & AP_HAS_LAT_XLAT) && !SAME(lat_xlat))
		return 0;
	if ((h & AP_HAS_TS) && !SAME(ts))
		return 0;
	if ((h & AP_HAS_CTX_EL1) && !SAME(ctx_el1))
		return 0;
	if ((h & AP_HAS_CTX_EL2) && !SAME(ctx_el2))
		return 0;
	if ((h & AP_HAS_DATA_SOURCE) && !(SAME(data_source) && SAME(data_source_size)))
		return 0;
	if (!SAME(n_impdef))
		return 0;
	for (unsigned i = 0; i < a->n_impdef; i++)
		if (a->impdef[i].is_counter != b->impdef[i].is_counter ||
		    a->impdef[i].index != b->impdef[i].index || a->impdef[i].value != b->impdef[i].value)
			return 0;
#undef SAME
	return b->n_errors_total == 0 &&
	       b->end == ((h & AP_HAS_TS) ? AP_END_TIMESTAMP : AP_END_END);
}

static int on_record(void *ctx, const struct ap_record *rec)
{
	struct collect *c = ctx;
	if (c->n >= N_RECORDS || !compare_fields(&c->want[c->n], rec)) {
		if (c->mismatches++ < 5)
			fprintf(stderr, "record %zu at offset %llu differs\n", c->n,
			        (unsigned long long)rec->offset);
	}
	c->n++;
	return 0;
}

static void roundtrip(int realistic, uint64_t seed, int ext)
{
	static struct ap_record recs[N_RECORDS];
	static uint8_t buf[N_RECORDS * AP_RECORD_MAX_BYTES];
	size_t len = 0;
	struct ap_record_encode_opts opts = { .counter_ext = (uint8_t)ext, .address_ext = (uint8_t)ext };
	for (size_t i = 0; i < N_RECORDS; i++) {
		rr_record(&recs[i], &seed, realistic);
		int n = ap_record_encode(buf + len, sizeof(buf) - len, &recs[i], &opts);
		CHECK(n > 0);
		if (n > 0)
			len += (size_t)n;
	}
	struct collect c = { recs, 0, 0 };
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.ctx = &c;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	/* odd chunk sizes exercise packets split across chunks */
	for (size_t off = 0, step = 1; off < len; off += step, step = step * 7 % 4093 + 1)
		ap_decoder_feed(&dec, buf + off, off + step > len ? len - off : step);
	ap_decoder_finish(&dec);
	CHECK_EQ_U64(c.n, N_RECORDS);
	CHECK_EQ_U64(c.mismatches, 0);
	CHECK_EQ_U64(dec.stats.records_with_errors, 0);
}

TEST(realistic_records) { roundtrip(1, 1, 0); }
TEST(arbitrary_records) { roundtrip(0, 2, 0); }
TEST(arbitrary_records_extended_headers) { roundtrip(0, 3, 1); }

TEST_MAIN(CASE(realistic_records), CASE(arbitrary_records), CASE(arbitrary_records_extended_headers))

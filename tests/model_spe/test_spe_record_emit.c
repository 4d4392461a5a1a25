/* The engine's fast record writer (lib/model/spe/record_emit.c) against the
 * codec's reference ap_record_encode(): byte-identical on random records of
 * every field combination and every Events payload size (spec/002 5.1.2,
 * 5.1.3, 5.3; SPE-5.1.2-1, SPE-5.1.3-1, SPE-5.3.7-4). */
#include "harness.h"
#include "model/spe/record_emit.h"
#include "random_record.h"

TEST(matches_reference_encoder)
{
	uint64_t seed = 42;
	static const uint8_t sizes[] = { 0, 1, 2, 4, 8 };
	int compared = 0;
	for (int i = 0; i < 200000; i++) {
		struct ap_record r;
		rr_record(&r, &seed, i & 1);
		r.n_impdef = 0; /* the engine never writes IMPLEMENTATION DEFINED values */
		/* also random presence bits */
		if (i % 3 == 0)
			r.has = (uint32_t)rr_next(&seed) & 0x1FFFu;
		if (r.has & AP_HAS_DATA_SOURCE)
			r.data_source_size = (uint8_t)(1 + (i & 1));
		unsigned es = sizes[i % 5];
		struct ap_record_encode_opts o = { .events_size = (uint8_t)es };
		uint8_t want[AP_RECORD_MAX_BYTES], got[AP_RECORD_MAX_BYTES];
		int n = ap_record_encode(want, sizeof(want), &r, &o);
		if (n < 0) { /* events do not fit es: the writer uses the smallest */
			o.events_size = 0;
			n = ap_record_encode(want, sizeof(want), &r, &o);
		}
		unsigned m = ap_spe_record_emit(got, &r, es);
		CHECK_EQ_U64(m, (uint64_t)n);
		if (n > 0 && m == (unsigned)n && memcmp(want, got, m) != 0) {
			CHECK(!"bytes differ");
			break;
		}
		compared++;
	}
	CHECK(compared == 200000);
}

TEST_MAIN(CASE(matches_reference_encoder))

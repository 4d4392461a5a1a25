/* The sample interval counters (spec/002 2.2.1, 3.1.1, 3.1.2, 4.3.10;
 * spec/004 PMSICR_EL1): lib/model/spe/interval.c on its own. */
#include "harness.h"
#include "model/spe/interval.h"

static struct ap_spe_icr make(uint32_t interval, bool rnd, bool ernd, bool next_op)
{
	struct ap_spe_icr c = { 0 };
	uint64_t irr = ((uint64_t)interval << AP_PMSIRR_INTERVAL_SHIFT) | (rnd ? AP_PMSIRR_RND : 0);
	ap_spe_icr_params(&c, irr, ernd, next_op, 1);
	ap_spe_icr_load(&c, 0);
	return c;
}

/* Positions (1-based member numbers since enable) of the first n selections,
 * one member at a time. */
static void selections(struct ap_spe_icr *c, struct ap_spe_rng *rng, uint64_t *pos, int n)
{
	uint64_t member = 0;
	for (int k = 0; k < n;) {
		member++;
		if (ap_spe_icr_tick(c, rng))
			pos[k++] = member;
	}
}

/* SPE-3.1.1-3, SPE-3.1.2-1, SPE-3.1.2-2, SPE-3.1.2-3, PMSICR-13, PMSICR-14, PMSICR-15: RND == 0,
 * the member after
 * the one that reaches zero is selected: INTERVAL*256+1 apart. */
TEST(rnd0_interval_is_interval_x256_plus_1)
{
	const uint32_t intervals[] = { 1, 2, 4, 0x10, 0x123 };
	for (size_t i = 0; i < sizeof(intervals) / sizeof(intervals[0]); i++) {
		struct ap_spe_icr c = make(intervals[i], false, false, true);
		struct ap_spe_rng rng;
		ap_spe_rng_seed(&rng, 7);
		ap_spe_icr_enable(&c, &rng);
		CHECK_EQ_U64(ap_spe_icr_value(&c), (uint64_t)intervals[i] << 8); /* COUNT[7:0] = 0 */
		uint64_t pos[6];
		selections(&c, &rng, pos, 6);
		uint64_t n = (uint64_t)intervals[i] * 256;
		CHECK_EQ_U64(pos[0], n + 1);
		for (int k = 1; k < 6; k++)
			CHECK_EQ_U64(pos[k] - pos[k - 1], n + 1);
		/* Reloaded at each selection (SPE-3.1.2-2). */
		CHECK_EQ_U64(ap_spe_icr_value(&c), n);
	}
}

/* SPE-2.2.1-4: the other choice, the member that reaches zero is selected. */
TEST(rnd0_sample_reaching_op_gives_interval_x256)
{
	struct ap_spe_icr c = make(3, false, false, false);
	struct ap_spe_rng rng;
	ap_spe_rng_seed(&rng, 7);
	ap_spe_icr_enable(&c, &rng);
	uint64_t pos[4];
	selections(&c, &rng, pos, 4);
	CHECK_EQ_U64(pos[0], 3 * 256);
	CHECK_EQ_U64(pos[3] - pos[2], 3 * 256);
}

/* SPE-3.1.1-4, SPE-3.1.2-4, SPE-3.1.2-5 (note read as RND == 1, ERnd == 0, gap
 * SPE-3.1.2-6): COUNT[7:0] random; intervals INTERVAL*256 + r + 1 with r
 * uniform in 0..255, mean INTERVAL*256 + 128.5. */
TEST(rnd1_ernd0_random_low_byte_and_mean)
{
	struct ap_spe_icr c = make(2, true, false, true);
	struct ap_spe_rng rng;
	ap_spe_rng_seed(&rng, 12345);
	ap_spe_icr_enable(&c, &rng);
	CHECK_EQ_U64(ap_spe_icr_value(&c) >> 8, 2); /* COUNT[31:8] = INTERVAL */
	enum { N = 20000 };
	static uint64_t pos[N];
	selections(&c, &rng, pos, N);
	uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
	static int seen[256];
	for (int k = 1; k < N; k++) {
		uint64_t d = pos[k] - pos[k - 1];
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		sum += d;
		if (d >= 513 && d <= 768)
			seen[d - 513] = 1;
	}
	CHECK(lo >= 2 * 256 + 1);
	CHECK(hi <= 2 * 256 + 256);
	double mean = (double)sum / (N - 1);
	/* sd of r is 73.9; of the mean over 19999 intervals 0.52: +-3 is ~6 sd. */
	CHECK(mean > 512 + 128.5 - 3 && mean < 512 + 128.5 + 3);
	int distinct = 0;
	for (int i = 0; i < 256; i++)
		distinct += seen[i];
	CHECK(distinct == 256); /* every value in 0x00..0xFF occurs */
}

/* SPE-3.1.1-5, SPE-3.1.2-7, SPE-3.1.2-8, SPE-3.1.2-9, SPE-3.1.2-10, PMSICR-5, PMSICR-6,
 * PMSICR-7, PMSICR-16: RND == 1, ERnd == 1:
 * COUNT reloads with [7:0] = 0 and ECOUNT takes the random value; the
 * member on which ECOUNT reaches zero is selected; mean INTERVAL*256 + 1. */
TEST(rnd1_ernd1_secondary_counter_and_mean)
{
	struct ap_spe_icr c = make(1, true, true, true);
	struct ap_spe_rng rng;
	ap_spe_rng_seed(&rng, 99);
	ap_spe_icr_enable(&c, &rng);
	CHECK_EQ_U64(ap_spe_icr_value(&c), 0x100); /* no random part at enable */
	/* 256 members decrement COUNT, the 257th finds zero: reload + ECOUNT. */
	for (int i = 0; i < 256; i++)
		CHECK(!ap_spe_icr_tick(&c, &rng));
	struct ap_spe_rng peek = rng;
	uint8_t r = ap_spe_rng_byte(&peek);
	bool sel = ap_spe_icr_tick(&c, &rng);
	CHECK(sel == (r == 0));
	CHECK_EQ_U64(ap_spe_icr_value(&c), ((uint64_t)r << 56) | 0x100);
	if (r > 1) {
		/* Both counters decrement together (PMSICR-6). */
		CHECK(!ap_spe_icr_tick(&c, &rng));
		CHECK_EQ_U64(ap_spe_icr_value(&c), ((uint64_t)(r - 1) << 56) | 0xFF);
	}

	enum { N = 20000 };
	static uint64_t pos[N];
	struct ap_spe_icr c2 = make(4, true, true, true);
	ap_spe_rng_seed(&rng, 4242);
	ap_spe_icr_enable(&c2, &rng);
	selections(&c2, &rng, pos, N);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int k = 1; k < N; k++) {
		uint64_t d = pos[k] - pos[k - 1];
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	double mean = (double)(pos[N - 1] - pos[0]) / (N - 1);
	CHECK(mean > 1025 - 1 && mean < 1025 + 1);
	CHECK(lo >= 1025 - 255 && hi <= 1025 + 255);
	CHECK(lo < 1025 - 100 && hi > 1025 + 100); /* the jitter is really there */
}

/* SPE-3.1.1-1, SPE-3.1.1-6 (model choice): a nonzero PMSICR_EL1 restarts
 * from its value; ECOUNT alone nonzero counts as nonzero. */
TEST(enable_with_nonzero_value_restarts_from_it)
{
	struct ap_spe_icr c = make(8, false, false, true);
	struct ap_spe_rng rng;
	ap_spe_rng_seed(&rng, 1);
	ap_spe_icr_load(&c, 5);
	ap_spe_icr_enable(&c, &rng);
	CHECK_EQ_U64(ap_spe_icr_value(&c), 5);
	uint64_t pos[2];
	selections(&c, &rng, pos, 2);
	CHECK_EQ_U64(pos[0], 6);
	CHECK_EQ_U64(pos[1] - pos[0], 8 * 256 + 1);

	struct ap_spe_icr e = make(1, true, true, true);
	ap_spe_icr_load(&e, 3ull << 56); /* ECOUNT = 3, COUNT = 0 */
	ap_spe_icr_enable(&e, &rng);
	CHECK_EQ_U64(ap_spe_icr_value(&e), 3ull << 56);
}

/* SPE-3.1.2-11 (model choice): the armed secondary counter is all in
 * PMSICR_EL1, so a save/restore resumes at the same member. */
TEST(save_restore_keeps_secondary_counter)
{
	struct ap_spe_icr a = make(1, true, true, true), b;
	struct ap_spe_rng rng;
	ap_spe_rng_seed(&rng, 5);
	ap_spe_icr_enable(&a, &rng);
	uint8_t ecount = 0;
	while (ecount < 2) { /* stop somewhere with ECOUNT armed */
		ap_spe_icr_tick(&a, &rng);
		ecount = (uint8_t)(ap_spe_icr_value(&a) >> 56);
	}
	uint64_t saved = ap_spe_icr_value(&a);
	b = make(1, true, true, true);
	ap_spe_icr_load(&b, saved);
	ap_spe_icr_enable(&b, &rng);
	CHECK_EQ_U64(ap_spe_icr_until_selection(&a, &rng), ap_spe_icr_until_selection(&b, &rng));
	CHECK_EQ_U64(ap_spe_icr_until_selection(&b, &rng), ecount - 1);
}

/* PMSICR-9, SPE-4.3.10-11: ECOUNT reads as zero without ERnd. */
TEST(ecount_res0_without_ernd)
{
	struct ap_spe_icr c = make(1, true, false, true);
	ap_spe_icr_load(&c, 0xAB00000000000010ull);
	CHECK_EQ_U64(ap_spe_icr_value(&c), 0x10);
}

/* SPE-4.3.12-10: INTERVAL == 0 uses the configured UNKNOWN interval. */
TEST(zero_interval_uses_configured_value)
{
	struct ap_spe_icr c = { 0 };
	ap_spe_icr_params(&c, 0, false, true, 3);
	struct ap_spe_rng rng;
	ap_spe_rng_seed(&rng, 1);
	ap_spe_icr_enable(&c, &rng);
	CHECK_EQ_U64(ap_spe_icr_value(&c), 3 * 256);
}

/* The batch split (fast runs + boundary steps) selects exactly the same
 * members as ticking one by one, in every mode (the property the engine's
 * hot path and ap_spe_skip() rely on), and until_selection predicts them. */
TEST(fast_consume_step_equals_ticking)
{
	for (int mode = 0; mode < 8; mode++) {
		bool rnd = mode & 1, ernd = mode & 2, next = mode & 4;
		struct ap_spe_icr a = make(1, rnd, ernd, next), b;
		struct ap_spe_rng ra, rb;
		ap_spe_rng_seed(&ra, 77 + (uint64_t)mode);
		ap_spe_icr_enable(&a, &ra);
		b = a;
		rb = ra;
		uint64_t member_a = 0, member_b = 0;
		for (int k = 0; k < 300; k++) {
			uint64_t predicted = ap_spe_icr_until_selection(&b, &rb);
			for (;;) { /* b: batch */
				uint64_t n = ap_spe_icr_fast(&b);
				ap_spe_icr_consume(&b, n);
				member_b += n + 1;
				if (ap_spe_icr_step(&b, &rb))
					break;
			}
			uint64_t before = member_a;
			while (!ap_spe_icr_tick(&a, &ra)) /* a: one by one */
				member_a++;
			member_a++;
			CHECK_EQ_U64(member_a, member_b);
			CHECK_EQ_U64(member_a - before - 1, predicted);
			CHECK_EQ_U64(ap_spe_icr_value(&a), ap_spe_icr_value(&b));
		}
	}
}

/* SPE-2.2.2-1, SPE-2.2.2-2, SPE-3.1-2, SPE-4.3.12-12 (the generator is the model's
 * choice, not architected): the generator is seeded (reproducible) and any seed,
 * including 0, gives a usable sequence. */
TEST(rng_seeded_and_usable_from_zero)
{
	struct ap_spe_rng a, b;
	ap_spe_rng_seed(&a, 0);
	ap_spe_rng_seed(&b, 0);
	int distinct = 0, seen[256] = { 0 };
	for (int i = 0; i < 4096; i++) {
		uint8_t x = ap_spe_rng_byte(&a);
		CHECK(x == ap_spe_rng_byte(&b));
		if (!seen[x]++)
			distinct++;
	}
	CHECK(distinct == 256);
}

TEST_MAIN(CASE(rnd0_interval_is_interval_x256_plus_1), CASE(rnd0_sample_reaching_op_gives_interval_x256),
          CASE(rnd1_ernd0_random_low_byte_and_mean), CASE(rnd1_ernd1_secondary_counter_and_mean),
          CASE(enable_with_nonzero_value_restarts_from_it), CASE(save_restore_keeps_secondary_counter),
          CASE(ecount_res0_without_ernd), CASE(zero_interval_uses_configured_value),
          CASE(fast_consume_step_equals_ticking), CASE(rng_seeded_and_usable_from_zero))

/* Filtering: CollectRecord() (spec/002 3.2.2 Table 4, 3.2.3, 4.3.8, 4.3.9,
 * 4.3.13), lib/model/spe/filter.c on its own. */
#include "harness.h"
#include "model/spe/filter.h"

static const struct ap_spe_filter_policy keep_all = { false, false, false };
static const struct ap_spe_filter_policy discard_all = { true, true, true };

static bool collect(uint64_t fcr, uint64_t evfr, uint64_t latfr, const struct ap_spe_filter_policy *p,
                    uint64_t events, uint32_t lat, unsigned type)
{
	struct ap_spe_filter_regs r = { fcr, evfr, latfr };
	return ap_spe_collect_record(&r, p, events, lat, type);
}

/* Table 4, every row and every operation type (SPE-T4-row1, SPE-T4-row2, SPE-T4-row3,
 * SPE-T4-row4, SPE-T4-row5, SPE-T4-row6, SPE-T4-row7, SPE-T4-row8, SPE-T4-row9,
 * SPE-3.2.2-1, SPE-3.2.2-2, SPE-3.2.2-3, SPE-3.2.2-4, SPE-3.2.3-20, SPE-3.2.3-21, SPE-3.2.3-22,
 * SPE-3.2.3-23, SPE-4.3.9-9, SPE-4.3.9-10, SPE-4.3.9-11, SPE-4.3.9-14). Row 2 is the
 * CONSTRAINED UNPREDICTABLE case: the table's "D" is the discard choice. */
TEST(table4_every_row)
{
	/* {FT, LD, ST, B, Load, Store, Branch, Other}, C = 1 */
	static const int rows[9][8] = {
		{ 0, 0, 0, 0, 1, 1, 1, 1 }, /* row1: FT = 0, LD/ST/B X (here 0) */
		{ 1, 0, 0, 0, 0, 0, 0, 0 }, /* row2 */
		{ 1, 0, 0, 1, 0, 0, 1, 0 }, /* row3 */
		{ 1, 0, 1, 0, 0, 1, 0, 0 }, /* row4 */
		{ 1, 0, 1, 1, 0, 1, 1, 0 }, /* row5 */
		{ 1, 1, 0, 0, 1, 0, 0, 0 }, /* row6 */
		{ 1, 1, 0, 1, 1, 0, 1, 0 }, /* row7 */
		{ 1, 1, 1, 0, 1, 1, 0, 0 }, /* row8 */
		{ 1, 1, 1, 1, 1, 1, 1, 0 }, /* row9 */
	};
	static const unsigned types[4] = { AP_SPE_TYPE_LOAD, AP_SPE_TYPE_STORE, AP_SPE_TYPE_BRANCH,
	                                   AP_SPE_TYPE_OTHER };
	for (int row = 0; row < 9; row++) {
		uint64_t fcr = (rows[row][0] ? AP_PMSFCR_FT : 0) | (rows[row][1] ? AP_PMSFCR_LD : 0) |
		               (rows[row][2] ? AP_PMSFCR_ST : 0) | (rows[row][3] ? AP_PMSFCR_B : 0);
		for (int t = 0; t < 4; t++) {
			bool got = collect(fcr, 0, 0, &discard_all, 0, 0, types[t]);
			if (got != (rows[row][4 + t] != 0))
				fprintf(stderr, "Table 4 row %d type %d: got %d\n", row + 1, t, got);
			CHECK(got == (rows[row][4 + t] != 0));
		}
	}
	/* Row 1 with LD/ST/B set: still everything collected ("X"). */
	for (int t = 0; t < 4; t++)
		CHECK(collect(AP_PMSFCR_LD | AP_PMSFCR_ST | AP_PMSFCR_B, 0, 0, &discard_all, 0, 0, types[t]));
}

/* SPE-3.2.3-19, SPE-3.2.3-27, SPE-4.3.9-15: FT == 1 with no type selected, the
 * "as if FT == 0" choice collects everything. */
TEST(ft_with_no_type_as_if_disabled)
{
	CHECK(collect(AP_PMSFCR_FT, 0, 0, &keep_all, 0, 0, AP_SPE_TYPE_OTHER));
	CHECK(collect(AP_PMSFCR_FT, 0, 0, &keep_all, 0, 0, AP_SPE_TYPE_LOAD));
	CHECK(!collect(AP_PMSFCR_FT, 0, 0, &discard_all, 0, 0, AP_SPE_TYPE_LOAD));
}

/* SPE-3.2.2-6, SPE-3.2.2-2, SPE-3.2.2-3: an atomic returning a value is collected by
 * LD or ST; one returning nothing only by ST. */
TEST(atomics_by_ld_or_st)
{
	unsigned ret = AP_SPE_TYPE_LOAD | AP_SPE_TYPE_STORE, noret = AP_SPE_TYPE_STORE;
	CHECK(collect(AP_PMSFCR_FT | AP_PMSFCR_LD, 0, 0, &keep_all, 0, 0, ret));
	CHECK(collect(AP_PMSFCR_FT | AP_PMSFCR_ST, 0, 0, &keep_all, 0, 0, ret));
	CHECK(!collect(AP_PMSFCR_FT | AP_PMSFCR_LD, 0, 0, &keep_all, 0, 0, noret));
	CHECK(collect(AP_PMSFCR_FT | AP_PMSFCR_ST, 0, 0, &keep_all, 0, 0, noret));
	CHECK(!collect(AP_PMSFCR_FT | AP_PMSFCR_B, 0, 0, &keep_all, 0, 0, ret));
}

/* SPE-3.2.2-7, SPE-3.2.3-18, SPE-4.3.8-1, SPE-4.3.8-14, SPE-4.3.8-15, SPE-4.3.8-16,
 * SPE-4.3.8-17: every selected event must
 * be present (AND); bits outside <63:48,31:24,15:12,7,5,3,1> never filter. */
TEST(event_filter_is_and_of_selected_events)
{
	uint64_t m = (1u << 3) | (1u << 5);
	CHECK(collect(AP_PMSFCR_FE, m, 0, &keep_all, m, 0, 0));
	CHECK(collect(AP_PMSFCR_FE, m, 0, &keep_all, m | 0x80, 0, 0));
	CHECK(!collect(AP_PMSFCR_FE, m, 0, &keep_all, 1u << 3, 0, 0));
	CHECK(!collect(AP_PMSFCR_FE, m, 0, &keep_all, 1u << 5, 0, 0));
	CHECK(!collect(AP_PMSFCR_FE, 1u << 1, 0, &keep_all, 0, 0, 0)); /* E[1] retired */
	CHECK(!collect(AP_PMSFCR_FE, 1u << 7, 0, &keep_all, 0, 0, 0)); /* E[7] mispredicted */
	CHECK(!collect(AP_PMSFCR_FE, 1ull << 48, 0, &keep_all, 0, 0, 0)); /* IMP DEF E[48] */
	CHECK(collect(AP_PMSFCR_FE, 1ull << 48, 0, &keep_all, 1ull << 48, 0, 0));
	/* SPE-4.3.8-13: a RES0 position (E[2]) set in PMSEVFR_EL1 is ignored. */
	CHECK(collect(AP_PMSFCR_FE, (1u << 2) | (1u << 3), 0, &keep_all, 1u << 3, 0, 0));
	/* SPE-4.3.8-12: PMSEVFR_EL1 ignored when FE == 0. */
	CHECK(collect(0, m, 0, &keep_all, 0, 0, 0));
}

/* SPE-3.2.3-17, SPE-4.3.9-17: FE == 1 with PMSEVFR_EL1 == 0. */
TEST(fe_with_zero_evfr_both_choices)
{
	CHECK(collect(AP_PMSFCR_FE, 0, 0, &keep_all, 0, 0, 0));
	CHECK(!collect(AP_PMSFCR_FE, 0, 0, &discard_all, 0xFF, 0, 0));
}

/* SPE-3.2.2-8, SPE-3.2.3-25, SPE-4.3.9-12, SPE-4.3.13-8, SPE-4.3.13-9, gap SPE-2.4-7:
 * total latency >= MINLAT is kept (equal included). */
TEST(latency_filter_keeps_equal)
{
	CHECK(!collect(AP_PMSFCR_FL, 0, 100, &keep_all, 0, 99, 0));
	CHECK(collect(AP_PMSFCR_FL, 0, 100, &keep_all, 0, 100, 0));
	CHECK(collect(AP_PMSFCR_FL, 0, 100, &keep_all, 0, 5000, 0));
	CHECK(collect(0, 0, 100, &keep_all, 0, 1, 0)); /* ignored when FL == 0 */
	/* MINLAT is PMSLATFR_EL1[11:0]: higher bits are not part of it. */
	CHECK(collect(AP_PMSFCR_FL, 0, 0x1000 | 10, &keep_all, 0, 10, 0));
}

/* SPE-3.2.3-24, SPE-4.3.9-13: FL == 1 with MINLAT == 0. */
TEST(fl_with_zero_minlat_both_choices)
{
	CHECK(collect(AP_PMSFCR_FL, 0, 0, &keep_all, 0, 0, 0));
	CHECK(!collect(AP_PMSFCR_FL, 0, 0, &discard_all, 0, 4095, 0));
}

/* SPE-3.2.2-9, SPE-4.3.9-1: the three filters combine as a logical AND. */
TEST(filters_combine_with_and)
{
	uint64_t fcr = AP_PMSFCR_FE | AP_PMSFCR_FT | AP_PMSFCR_FL | AP_PMSFCR_LD;
	uint64_t ev = 1u << 3;
	CHECK(collect(fcr, ev, 50, &keep_all, ev, 50, AP_SPE_TYPE_LOAD));
	CHECK(!collect(fcr, ev, 50, &keep_all, ev, 50, AP_SPE_TYPE_STORE));
	CHECK(!collect(fcr, ev, 50, &keep_all, 0, 50, AP_SPE_TYPE_LOAD));
	CHECK(!collect(fcr, ev, 50, &keep_all, ev, 49, AP_SPE_TYPE_LOAD));
}

TEST_MAIN(CASE(table4_every_row), CASE(ft_with_no_type_as_if_disabled), CASE(atomics_by_ld_or_st),
          CASE(event_filter_is_and_of_selected_events), CASE(fe_with_zero_evfr_both_choices),
          CASE(latency_filter_keeps_equal), CASE(fl_with_zero_minlat_both_choices),
          CASE(filters_combine_with_and))

/* Collection controls (spec/002 3.3 prose against the 3.3.1 pseudocode that
 * lib/model/spe/collect.c transcribes): every combination of PE state,
 * owner and PMSCR_EL1/PMSCR_EL2 bits. */
#include "harness.h"
#include "model/spe/collect.h"

/* The 3.3 prose, written independently of the pseudocode. */
static bool prose_ctx1(const struct ap_spe_collect_view *v)
{
	/* SPE-3.3-1 */
	if (!(v->pmscr_el1 & AP_PMSCR_CX))
		return false;
	if (v->el == 1)
		return true;
	if (v->el == 0 && v->secure)
		return true;
	if (v->el == 0 && !v->secure && (!v->have_el2 || !v->tge))
		return true;
	return false;
}
static bool prose_ctx2(const struct ap_spe_collect_view *v)
{
	return v->have_el2 && (v->pmscr_el2 & AP_PMSCR_CX) && !v->secure; /* SPE-3.3-2 */
}
/* Without EL2 the PE behaves as if PMSCR_EL2.PA/PCT == 1 (SPE-3.3-9,
 * 4.3.7) and PMSCR_EL1.PCT is RES1 (SPE-3.3-7). */
static bool el2_bit(const struct ap_spe_collect_view *v, uint64_t bit)
{
	return !v->have_el2 || (v->pmscr_el2 & bit);
}
static enum ap_spe_ts_kind prose_ts(const struct ap_spe_collect_view *v)
{
	/* SPE-3.3-3 */
	bool on = ((v->pmscr_el1 & AP_PMSCR_TS) && v->owner_el == 1) ||
	          ((v->pmscr_el2 & AP_PMSCR_TS) && v->owner_el == 2);
	if (!on)
		return AP_SPE_TS_NONE;
	bool pct1 = !v->have_el2 || (v->pmscr_el1 & AP_PMSCR_PCT);
	/* SPE-3.3-6 */
	bool phys = (pct1 && v->owner_secure && v->owner_el == 1) ||
	            (el2_bit(v, AP_PMSCR_PCT) && v->owner_el == 2) ||
	            (pct1 && el2_bit(v, AP_PMSCR_PCT) && !v->owner_secure && v->owner_el == 1);
	return phys ? AP_SPE_TS_PHYSICAL : AP_SPE_TS_VIRTUAL;
}
static bool prose_pa(const struct ap_spe_collect_view *v)
{
	bool pa1 = (v->pmscr_el1 & AP_PMSCR_PA) != 0;
	/* SPE-3.3-8 */
	return (pa1 && v->owner_secure && v->owner_el == 1) ||
	       (el2_bit(v, AP_PMSCR_PA) && v->owner_el == 2) ||
	       (pa1 && el2_bit(v, AP_PMSCR_PA) && !v->owner_secure && v->owner_el == 1);
}

/* SPE-3.3-1, SPE-3.3-2, SPE-3.3-3, SPE-3.3-4, SPE-3.3-6, SPE-3.3-7, SPE-3.3-8,
 * SPE-3.3-9, SPE-3.3-11, SPE-3.3.1-1 .. SPE-3.3.1-21 (SPE-3.3.1-2, SPE-3.3.1-3,
 * SPE-3.3.1-4, SPE-3.3.1-5, SPE-3.3.1-8, SPE-3.3.1-9, SPE-3.3.1-13, SPE-3.3.1-14,
 * SPE-3.3.1-15, SPE-3.3.1-16, SPE-3.3.1-17, SPE-3.3.1-20, SPE-3.3.1-21), gap
 * SPE-3.3.1-12 (TimeStamp_None). */
TEST(pseudocode_matches_prose_everywhere)
{
	const uint64_t bits = AP_PMSCR_CX | AP_PMSCR_PA | AP_PMSCR_TS | AP_PMSCR_PCT;
	int compared = 0;
	for (int el = 0; el <= 2; el++)
		for (int sec = 0; sec < 2; sec++)
			for (int have2 = 0; have2 < 2; have2++)
				for (int tge = 0; tge < 2; tge++)
					for (int owner = 0; owner < 3; owner++)
						for (uint64_t m = 0; m < 256; m++) {
							if ((el == 2 || owner == 2) && !have2)
								continue;
							if (owner == 2 && sec) /* EL2 owner is Non-secure */
								continue;
							if (!sec && tge && el == 1)
								continue; /* EL1 is not used with TGE == 1 */
							struct ap_spe_collect_view v = {
								.enabled = true, .el = (uint8_t)el, .secure = sec,
								.have_el2 = have2, .tge = have2 && tge,
								.owner_secure = owner == 0, .owner_el = owner == 2 ? 2 : 1,
							};
							/* spread the 8 bits of m over the two registers */
							uint64_t b1 = 0, b2 = 0;
							for (int i = 0, j = 0; i < 64 && j < 8; i++) {
								if (!((bits >> i) & 1))
									continue;
								if ((m >> j) & 1)
									b1 |= 1ull << i;
								if ((m >> (j + 4)) & 1)
									b2 |= 1ull << i;
								j++;
							}
							v.pmscr_el1 = b1;
							v.pmscr_el2 = b2;
							CHECK(ap_spe_collect_contextidr1(&v) == prose_ctx1(&v));
							CHECK(ap_spe_collect_contextidr2(&v) == prose_ctx2(&v));
							CHECK(ap_spe_collect_timestamp(&v) == prose_ts(&v));
							CHECK(ap_spe_collect_physical_address(&v) == prose_pa(&v));
							compared++;
						}
	CHECK(compared > 1000);
}

/* SPE-3.3.1-2, SPE-3.3.1-7, SPE-3.3.1-11, SPE-3.3.1-19: nothing is collected while profiling is
 * disabled
 * (CollectContextIDR1/2, CollectTimeStamp, CollectPhysicalAddress: SPE-3.3.1-1, SPE-3.3.1-6,
 * SPE-3.3.1-10, SPE-3.3.1-18). */
TEST(nothing_when_disabled)
{
	struct ap_spe_collect_view v = { .enabled = false, .el = 1, .have_el2 = true, .owner_el = 1,
	                                 .pmscr_el1 = 0x78, .pmscr_el2 = 0x78 };
	CHECK(!ap_spe_collect_contextidr1(&v));
	CHECK(!ap_spe_collect_contextidr2(&v));
	CHECK(ap_spe_collect_timestamp(&v) == AP_SPE_TS_NONE);
	CHECK(!ap_spe_collect_physical_address(&v));
	v.enabled = true;
	CHECK(ap_spe_collect_contextidr1(&v));
	CHECK(ap_spe_collect_timestamp(&v) == AP_SPE_TS_PHYSICAL);
}

/* SPE-3.3.1-3, SPE-3.3.1-4: CONTEXTIDR_EL1 never at EL2, nor in the host (TGE == 1). */
TEST(ctx1_not_at_el2_or_in_host)
{
	struct ap_spe_collect_view v = { .enabled = true, .el = 2, .have_el2 = true, .owner_el = 2,
	                                 .pmscr_el1 = AP_PMSCR_CX };
	CHECK(!ap_spe_collect_contextidr1(&v));
	v.el = 0;
	v.tge = true;
	CHECK(!ap_spe_collect_contextidr1(&v));
	v.tge = false;
	CHECK(ap_spe_collect_contextidr1(&v));
}

/* The "ignored by the PE" sentences of the register pages (4.3.5 PMSCR_EL1,
 * 4.3.7 PMSCR_EL2), checked on their own: in every state where a page says a
 * bit is ignored, flipping that bit changes none of the four collection
 * results. SPE-4.3.5-12 (EL1.PCT, Non-secure, E2PB == 0b00), SPE-4.3.5-14
 * (EL1.TS, same), SPE-4.3.5-16 (EL1.PA, same), SPE-4.3.5-18 (EL1.CX at EL2 and
 * in Non-secure state with TGE == 1), SPE-4.3.7-10 (EL2.PCT in Secure state),
 * SPE-4.3.7-12 (EL2.TS in Non-secure state with E2PB != 0b00, and in Secure
 * state), SPE-4.3.7-14 (EL2.PA in Secure state), SPE-4.3.7-16 (EL2.CX in Secure
 * state). The owner stands for MDCR_EL2.E2PB: EL2 owns iff E2PB == 0b00. */
static bool same_results(const struct ap_spe_collect_view *a, const struct ap_spe_collect_view *b)
{
	return ap_spe_collect_contextidr1(a) == ap_spe_collect_contextidr1(b) &&
	       ap_spe_collect_contextidr2(a) == ap_spe_collect_contextidr2(b) &&
	       ap_spe_collect_timestamp(a) == ap_spe_collect_timestamp(b) &&
	       ap_spe_collect_physical_address(a) == ap_spe_collect_physical_address(b);
}

TEST(register_pages_ignored_bits)
{
	const uint64_t bits = AP_PMSCR_CX | AP_PMSCR_PA | AP_PMSCR_TS | AP_PMSCR_PCT;
	int flips = 0;
	for (int el = 0; el <= 2; el++)
		for (int sec = 0; sec < 2; sec++)
			for (int tge = 0; tge < 2; tge++)
				for (int owner_el = 1; owner_el <= 2; owner_el++)
					for (uint64_t b1 = 0; b1 < 0x80; b1 += 8)
						for (uint64_t b2 = 0; b2 < 0x80; b2 += 8) {
							if (owner_el == 2 && sec)
								continue; /* an EL2 owner is Non-secure */
							if (!sec && tge && el == 1)
								continue;
							/* profiling happens only in the owner's Security state */
							struct ap_spe_collect_view v = {
								.enabled = true, .el = (uint8_t)el, .secure = sec,
								.have_el2 = true, .tge = tge, .owner_secure = sec,
								.owner_el = (uint8_t)owner_el,
								.pmscr_el1 = b1 & bits, .pmscr_el2 = b2 & bits,
							};
							bool ns = !sec, e2pb0 = owner_el == 2;
							struct { bool ignored; bool el2; uint64_t bit; } rules[] = {
								{ ns && e2pb0, false, AP_PMSCR_PCT },          /* SPE-4.3.5-12 */
								{ ns && e2pb0, false, AP_PMSCR_TS },           /* SPE-4.3.5-14 */
								{ ns && e2pb0, false, AP_PMSCR_PA },           /* SPE-4.3.5-16 */
								{ el == 2 || (ns && tge), false, AP_PMSCR_CX }, /* SPE-4.3.5-18 */
								{ sec, true, AP_PMSCR_PCT },                   /* SPE-4.3.7-10 */
								{ (ns && !e2pb0) || sec, true, AP_PMSCR_TS },  /* SPE-4.3.7-12 */
								{ sec, true, AP_PMSCR_PA },                    /* SPE-4.3.7-14 */
								{ sec, true, AP_PMSCR_CX },                    /* SPE-4.3.7-16 */
							};
							for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
								if (!rules[i].ignored)
									continue;
								struct ap_spe_collect_view w = v;
								if (rules[i].el2)
									w.pmscr_el2 ^= rules[i].bit;
								else
									w.pmscr_el1 ^= rules[i].bit;
								CHECK(same_results(&v, &w));
								flips++;
							}
						}
	CHECK(flips > 1000);
}

/* Where the pages say a bit is not ignored, it matters: each bit changes a
 * result in at least one state (so the loop above cannot pass by ignoring
 * everything). PCT: SPE-4.3.5-9, SPE-4.3.7-9, combined (both needed for a
 * Non-secure EL1 owner) SPE-4.3.5-10, SPE-4.3.7-10; TS: SPE-4.3.5-13,
 * SPE-4.3.7-11; PA: SPE-4.3.5-15, SPE-4.3.7-13, combined SPE-4.3.5-16,
 * SPE-4.3.7-14; CX: SPE-4.3.5-17, SPE-4.3.7-15. */
TEST(register_pages_bits_matter)
{
	struct ap_spe_collect_view ns1 = { .enabled = true, .el = 1, .have_el2 = true, .owner_el = 1 };
	struct ap_spe_collect_view v = ns1;
	/* TS (bit 5) with PCT (bit 6) 0/1 in both registers. */
	CHECK(AP_PMSCR_TS == 1ull << 5 && AP_PMSCR_PCT == 1ull << 6);
	CHECK(AP_PMSCR_PA == 1ull << 4 && AP_PMSCR_CX == 1ull << 3);
	v.pmscr_el1 = 1ull << 5;
	CHECK(ap_spe_collect_timestamp(&v) == AP_SPE_TS_VIRTUAL);
	v.pmscr_el1 = 0;
	CHECK(ap_spe_collect_timestamp(&v) == AP_SPE_TS_NONE);
	v.pmscr_el1 = (1ull << 5) | (1ull << 6);
	CHECK(ap_spe_collect_timestamp(&v) == AP_SPE_TS_VIRTUAL); /* EL2.PCT = 0 */
	v.pmscr_el2 = 1ull << 6;
	CHECK(ap_spe_collect_timestamp(&v) == AP_SPE_TS_PHYSICAL);
	v.pmscr_el1 = 1ull << 5;
	CHECK(ap_spe_collect_timestamp(&v) == AP_SPE_TS_VIRTUAL); /* EL1.PCT = 0 */
	/* PA (bit 4): both registers for a Non-secure EL1 owner. */
	v = ns1;
	v.pmscr_el1 = 1ull << 4;
	CHECK(!ap_spe_collect_physical_address(&v));
	v.pmscr_el2 = 1ull << 4;
	CHECK(ap_spe_collect_physical_address(&v));
	v.pmscr_el1 = 0;
	CHECK(!ap_spe_collect_physical_address(&v));
	/* CX (bit 3) of each register picks its own CONTEXTIDR. */
	v = ns1;
	v.pmscr_el1 = 1ull << 3;
	CHECK(ap_spe_collect_contextidr1(&v) && !ap_spe_collect_contextidr2(&v));
	v.pmscr_el1 = 0;
	v.pmscr_el2 = 1ull << 3;
	CHECK(!ap_spe_collect_contextidr1(&v) && ap_spe_collect_contextidr2(&v));
	/* EL2 owner: PMSCR_EL2.TS/PCT/PA alone. */
	struct ap_spe_collect_view el2 = { .enabled = true, .el = 2, .have_el2 = true, .owner_el = 2,
	                                   .pmscr_el2 = (1ull << 5) | (1ull << 4) };
	CHECK(ap_spe_collect_timestamp(&el2) == AP_SPE_TS_VIRTUAL);
	CHECK(ap_spe_collect_physical_address(&el2));
	el2.pmscr_el2 |= 1ull << 6;
	CHECK(ap_spe_collect_timestamp(&el2) == AP_SPE_TS_PHYSICAL);
	/* SPE-4.3.7-6: without EL2, as if PMSCR_EL2.PA == PCT == 1 whatever it holds. */
	struct ap_spe_collect_view no2 = { .enabled = true, .el = 1, .have_el2 = false, .owner_el = 1,
	                                   .pmscr_el1 = (1ull << 4) | (1ull << 5) | (1ull << 6) };
	CHECK(ap_spe_collect_physical_address(&no2));
	CHECK(ap_spe_collect_timestamp(&no2) == AP_SPE_TS_PHYSICAL);
}

TEST_MAIN(CASE(pseudocode_matches_prose_everywhere), CASE(nothing_when_disabled),
          CASE(ctx1_not_at_el2_or_in_host), CASE(register_pages_ignored_bits),
          CASE(register_pages_bits_matter))

/* Values of the SPE System registers: encodings and names (Table 7), RES0 /
 * RES1 / read-only masks in each configuration (4.3.x), reset values (4.2,
 * Table 8), the computed ID registers (PMSIDR_EL1, PMBIDR_EL1 with P as a
 * function of the state), the PMSCR_EL1/PMSCR_EL2/PMSCR_EL12 aliasing, and
 * PMBIRQ following PMBSR_EL1.S. */
#include "harness.h"
#include "model_regs/model_fixture.h"

#define BIT(n) (1ull << (n))

/* Table 7: SPE-T7-row1 SPE-T7-row2 SPE-T7-row3 SPE-T7-row4 SPE-T7-row5
 * SPE-T7-row6 SPE-T7-row7 SPE-T7-row8 SPE-T7-row9 SPE-T7-row10 SPE-T7-row11
 * SPE-T7-row12 SPE-T7-row13, with SPE-4.1-1 (op2 = 4 is PMSFCR_EL1), and the
 * "Accessing" encodings of each page: SPE-4.3.1-4 SPE-4.3.2-6 SPE-4.3.3-6
 * SPE-4.3.4-6 SPE-4.3.5-7 SPE-4.3.6-7 SPE-4.3.7-7 SPE-4.3.8-7 SPE-4.3.9-7
 * SPE-4.3.10-7 SPE-4.3.11-6 SPE-4.3.12-6 SPE-4.3.13-6 PMSICR-18; SPE-1-3: every SPE
 * control and status register is an AArch64 System register (op0 == 3, MRS/MSR
 * S3_<op1>_C<n>_C<m>_<op2>); test_model_access.c shows them UNDEFINED from AArch32. */
TEST(table7_encodings_and_names)
{
	static const struct {
		const char *name;
		unsigned op0, op1, crn, crm, op2;
	} t7[] = {
		{ "PMSCR_EL1", 3, 0, 9, 9, 0 },     { "PMSICR_EL1", 3, 0, 9, 9, 2 },
		{ "PMSIRR_EL1", 3, 0, 9, 9, 3 },    { "PMSFCR_EL1", 3, 0, 9, 9, 4 },
		{ "PMSEVFR_EL1", 3, 0, 9, 9, 5 },   { "PMSLATFR_EL1", 3, 0, 9, 9, 6 },
		{ "PMSIDR_EL1", 3, 0, 9, 9, 7 },    { "PMBLIMITR_EL1", 3, 0, 9, 10, 0 },
		{ "PMBPTR_EL1", 3, 0, 9, 10, 1 },   { "PMBSR_EL1", 3, 0, 9, 10, 3 },
		{ "PMBIDR_EL1", 3, 0, 9, 10, 7 },   { "PMSCR_EL2", 3, 4, 9, 9, 0 },
		{ "PMSCR_EL12", 3, 5, 9, 9, 0 },
	};
	for (size_t i = 0; i < sizeof(t7) / sizeof(t7[0]); i++) {
		uint32_t enc = AP_SYSREG(t7[i].op0, t7[i].op1, t7[i].crn, t7[i].crm, t7[i].op2), got = 0;
		CHECK_EQ_U64(ap_sysreg_lookup(t7[i].name, &got), 0);
		CHECK_EQ_U64(got, enc);
		CHECK_EQ_STR(ap_sysreg_name(enc), t7[i].name);
		char generic[32];
		snprintf(generic, sizeof(generic), "s%u_%u_c%u_c%u_%u", t7[i].op0, t7[i].op1, t7[i].crn,
		         t7[i].crm, t7[i].op2);
		got = 0;
		CHECK_EQ_U64(ap_sysreg_lookup(generic, &got), 0);
		CHECK_EQ_U64(got, enc);
	}
	uint32_t enc;
	CHECK_EQ_U64(ap_sysreg_lookup("pmsfcr_el1", &enc), 0);
	CHECK_EQ_U64(enc, AP_PMSFCR_EL1);
	CHECK(ap_sysreg_lookup("PMSNOSUCH_EL1", &enc) < 0);
	CHECK(ap_sysreg_lookup("S3_0_C9_C9", &enc) < 0);
	CHECK(ap_sysreg_lookup("S4_0_C9_C9_0", &enc) < 0);
	/* SPE-4.1-2. (3, 0, 9, 9, 1) is PMSNEVFR_EL1 since FEAT_SPE_FnE: its
	 * name is known in every configuration, its access only with spe.fne
	 * (tests/model_regs/test_model_later.c, LATER-FNE-2). */
	CHECK(ap_sysreg_name(AP_SYSREG(3, 0, 9, 10, 2)) == NULL);
}

/* Write all ones and all zeros from EL3 (no traps) and read back: the
 * writable bits, RES0 and RES1 of each register page. */
struct mask_case {
	const char *ids;
	const char *cfg;
	uint32_t reg;
	uint64_t ones;  /* value after writing all ones */
	uint64_t zeros; /* value after writing zero */
};

static const struct mask_case mask_cases[] = {
	{ "SPE-4.3.5-8 (RES0 [63:7], [2])", "", AP_PMSCR_EL1, 0x7B, 0 },
	{ "SPE-4.3.5-11: PCT RES1 without EL2", "have_el2=0 have_vhe=0", AP_PMSCR_EL1, 0x7B, BIT(6) },
	{ "SPE-4.3.7-8 (RES0 [63:7], [2])", "", AP_PMSCR_EL2, 0x7B, 0 },
	{ "SPE-4.3.7-4: PMSCR_EL2 RES0 without EL2", "have_el2=0 have_vhe=0", AP_PMSCR_EL2, 0, 0 },
	{ "SPE-4.3.10-11 SPE-4.3.10-12 SPE-4.3.10-13 PMSICR-9 PMSICR-11 PMSICR-12: ERnd == 0, COUNT [31:0]", "", AP_PMSICR_EL1, 0xFFFFFFFF, 0 },
	{ "SPE-4.3.10-9 PMSICR-4 PMSICR-5: ERnd == 1, ECOUNT [63:56]", "spe.ernd=1", AP_PMSICR_EL1,
	  0xFF000000FFFFFFFFull, 0 },
	{ "SPE-4.3.12-7 SPE-4.3.12-8 SPE-4.3.12-11", "", AP_PMSIRR_EL1, 0xFFFFFF01, 0 },
	{ "SPE-4.3.9-8", "", AP_PMSFCR_EL1, 0x70007, 0 },
	{ "SPE-4.3.8-13: only E[7,5,3,1] without IMPDEF events", "", AP_PMSEVFR_EL1, 0xAA, 0 },
	{ "SPE-4.3.8-8 SPE-4.3.8-9: IMPDEF events implemented", "spe.evfr_impdef_mask=0xFFFF0000FF00F000",
	  AP_PMSEVFR_EL1, 0xFFFF0000FF00F0AAull, 0 },
	{ "SPE-4.3.8-9: only some IMPDEF events", "spe.evfr_impdef_mask=0x0001000001001000",
	  AP_PMSEVFR_EL1, 0x00010000010010AAull, 0 },
	{ "SPE-4.3.8-9: bits outside the IMPDEF ranges stay RES0", "spe.evfr_impdef_mask=0x0000FFFF00FF0F00",
	  AP_PMSEVFR_EL1, 0xAA, 0 },
	{ "SPE-4.3.8-18: E[1] RES1 without speculative sampling", "spe.speculative_sampling=0",
	  AP_PMSEVFR_EL1, 0xAA, BIT(1) },
	{ "SPE-4.3.13-7 SPE-4.3.13-8", "", AP_PMSLATFR_EL1, 0xFFF, 0 },
	{ "SPE-4.3.2-7 SPE-4.3.2-9 SPE-4.3.2-10 SPE-4.3.2-12 (4KB granule)", "", AP_PMBLIMITR_EL1,
	  0xFFFFFFFFFFFFF007ull, 0 },
	{ "SPE-4.3.2-8: 16KB smallest granule, [13:12] RES0", "spe.min_granule_log2=14", AP_PMBLIMITR_EL1,
	  0xFFFFFFFFFFFFC007ull, 0 },
	{ "SPE-4.3.2-8: 64KB smallest granule, [15:12] RES0", "spe.min_granule_log2=16", AP_PMBLIMITR_EL1,
	  0xFFFFFFFFFFFF0007ull, 0 },
	{ "SPE-4.3.3-7: PTR [63:0]", "", AP_PMBPTR_EL1, ~0ull, 0 },
	{ "SPE-4.3.3-9: with synchronous external aborts the low bits are kept", "spe.align=3",
	  AP_PMBPTR_EL1, ~0ull, 0 },
	{ "SPE-4.3.3-9 SPE-4.3.3-10: no synchronous aborts, Align 3: [2:0] RES0",
	  "spe.align=3 spe.ext_abort=async", AP_PMBPTR_EL1, ~0ull << 3, 0 },
	{ "SPE-4.3.3-10: Align 0 has no RES0 bits", "spe.ext_abort=async", AP_PMBPTR_EL1, ~0ull, 0 },
	{ "SPE-4.3.4-7 (RES0 [63:32], [25:20]); EC is the 6 bits [31:26] (SPE-4.3.4-24 typo)", "", AP_PMBSR_EL1, 0xFC0FFFFF, 0 },
	{ "SPE-4.3.4-16: EA RES0 when external aborts never reach SPE", "spe.ext_abort=serror",
	  AP_PMBSR_EL1, 0xFC0BFFFF, 0 },
};

TEST(write_masks_res0_res1)
{
	for (size_t i = 0; i < sizeof(mask_cases) / sizeof(mask_cases[0]); i++) {
		const struct mask_case *m = &mask_cases[i];
		struct ap_pe *pe = fixture_pe(m->cfg);
		CHECK_EQ_U64(fixture_state(pe, "el=3 ns=0"), 0);
		uint64_t v = 0;
		CHECK_EQ_U64(ap_pe_msr(pe, m->reg, ~0ull), AP_ACCESS_OK);
		CHECK_EQ_U64(ap_pe_mrs(pe, m->reg, &v), AP_ACCESS_OK);
		if (v != m->ones)
			fprintf(stderr, "  [%s] %s all ones\n", m->ids, ap_sysreg_name(m->reg));
		CHECK_EQ_U64(v, m->ones);
		CHECK_EQ_U64(ap_pe_msr(pe, m->reg, 0), AP_ACCESS_OK);
		CHECK_EQ_U64(ap_pe_mrs(pe, m->reg, &v), AP_ACCESS_OK);
		if (v != m->zeros)
			fprintf(stderr, "  [%s] %s zero\n", m->ids, ap_sysreg_name(m->reg));
		CHECK_EQ_U64(v, m->zeros);
		ap_pe_destroy(pe);
	}
}

/* SPE-4.3.11-7 SPE-4.3.11-8 SPE-4.3.11-9 SPE-4.3.11-10 SPE-4.3.11-11 SPE-4.3.11-12 SPE-4.3.11-13 SPE-4.3.11-14 SPE-4.3.11-15 SPE-4.3.11-16 SPE-4.3.11-17 SPE-4.3.11-18 SPE-4.3.11-19 SPE-4.3.11-20 SPE-4.3.11-21 SPE-4.3.11-22 SPE-4.3.11-23 SPE-4.3.11-24 SPE-4.3.11-25 SPE-4.3.11-26 SPE-4.3.11-27 SPE-4.3.11-28 SPE-4.3.11-29 SPE-4.3.11-30 SPE-4.3.11-31 SPE-4.3.11-32 SPE-4.3.11-33: PMSIDR_EL1 from the configuration; FL/FT/FE read 1. */
TEST(pmsidr_fields)
{
	struct ap_pe *pe = fixture_pe("spe.max_size=11 spe.interval=8 spe.ernd=1 spe.lds=0 spe.arch_inst=1");
	uint64_t v = 0;
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSIDR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, (2ull << 16) | (11ull << 12) | (8ull << 8) | BIT(5) | BIT(3) | 0x7);
	ap_pe_destroy(pe);
	pe = fixture_pe("spe.max_size=4 spe.interval=0 spe.ernd=0 spe.lds=1 spe.arch_inst=0");
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSIDR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, (2ull << 16) | (4ull << 12) | BIT(4) | 0x7);
	/* Read-only: an MSR is UNDEFINED and a poke is refused. */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSIDR_EL1, 0), AP_ACCESS_UNDEFINED);
	CHECK(ap_pe_poke(pe, AP_PMSIDR_EL1, 0) < 0);
	ap_pe_destroy(pe);
}

/* PMBIDR_EL1.P in each state (SPE-4.3.1-9 SPE-4.3.1-10 SPE-4.3.1-11 SPE-4.3.1-12 SPE-4.3.1-13 SPE-4.3.1-14 SPE-4.3.1-15), with Align and F. */
TEST(pmbidr_p_follows_the_owner)
{
	static const struct {
		const char *ids;
		const char *cfg;
		const char *state;
		int p;
	} rows[] = {
		{ "SPE-4.3.1-9: NS EL1 owns (NSPB 0b11, E2PB 0b11)", "", "el=1", 0 },
		{ "SPE-4.3.1-12: NS EL1, E2PB == 0b00", "", "el=1 mdcr_el2.e2pb=0", 1 },
		{ "SPE-4.3.1-13: NS EL1, NSPB == 0b01", "", "el=1 mdcr_el3.nspb=0b01", 1 },
		{ "SPE-4.3.1-13: NS EL1, NSPB == 0b00", "", "el=1 mdcr_el3.nspb=0b00", 1 },
		{ "SPE-4.3.1-13: EL2, NSPB == 0b01", "", "el=2 mdcr_el3.nspb=0b01", 1 },
		{ "SPE-4.3.1-9: EL2 owning (E2PB 0b00)", "", "el=2 mdcr_el2.e2pb=0", 0 },
		{ "SPE-4.3.1-9: EL2 above the NS EL1 owner", "", "el=2", 0 },
		{ "SPE-4.3.1-11: S EL1, NSPB == 0b10", "", "el=1 ns=0 mdcr_el3.nspb=0b10", 1 },
		{ "SPE-4.3.1-11: S EL1, NSPB == 0b11", "", "el=1 ns=0 mdcr_el3.nspb=0b11", 1 },
		{ "SPE-4.3.1-14: S EL1 owning (NSPB 0b01)", "", "el=1 ns=0 mdcr_el3.nspb=0b01", 0 },
		{ "SPE-4.3.1-14: EL3", "", "el=3 mdcr_el3.nspb=0b00", 0 },
		{ "SPE-4.3.1-15: NS EL1, E2PB == 0b01 (owner NS EL1)", "", "el=1 mdcr_el2.e2pb=0b01", 0 },
		{ "SPE-4.3.1-15: no EL3, Secure PE owns at EL1", "have_el3=0", "el=1 ns=0 mdcr_el3.nspb=0", 0 },
		{ "SPE-4.3.1-15: no EL2, NS EL1 owns whatever E2PB says", "have_el2=0 have_vhe=0",
		  "el=1 mdcr_el2.e2pb=0", 0 },
		{ "SPE-4.3.1-10: at EL0 the owner EL1 is higher (the MRS itself is UNDEFINED, SPE-4.3.1-1)", "", "el=0", 1 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ap_pe *pe = fixture_pe(rows[i].cfg);
		CHECK_EQ_U64(fixture_state(pe, rows[i].state), 0);
		uint64_t v = 0;
		CHECK_EQ_U64(ap_pe_peek(pe, AP_PMBIDR_EL1, &v), 0);
		if (((v >> 4) & 1) != (uint64_t)rows[i].p)
			fprintf(stderr, "  [%s]\n", rows[i].ids);
		CHECK_EQ_U64((v >> 4) & 1, rows[i].p);
		ap_pe_destroy(pe);
	}
	/* SPE-4.3.1-5 SPE-4.3.1-6 SPE-4.3.1-7 SPE-4.3.1-8, SPE-4.3.1-16 SPE-4.3.1-20 SPE-4.3.1-21
	 * SPE-4.3.1-24: Align [3:0] (0b1011 and 0b0011 from the configuration), F [5], RES0 [63:6]. */
	struct ap_pe *pe = fixture_pe("spe.align=11 spe.max_size=11 spe.f=0");
	uint64_t v = 0;
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMBIDR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0xB);
	ap_pe_destroy(pe);
	pe = fixture_pe("spe.align=3 spe.f=1");
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMBIDR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, BIT(5) | 3);
	ap_pe_destroy(pe);
}

/* SPE-4.3.5-2 SPE-4.3.7-2 SPE-4.3.6-1: the names and what they reach. */
TEST(pmscr_aliases)
{
	struct ap_pe *pe = fixture_pe("");
	CHECK_EQ_U64(fixture_state(pe, "el=2 e2h=1"), 0);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSCR_EL1, 0x3), AP_ACCESS_OK); /* E2SPE, E0HSPE */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSCR_EL12, 0x28), AP_ACCESS_OK); /* TS, CX of EL1 */
	uint64_t el1 = 0, el2 = 0, v = 0;
	ap_pe_peek(pe, AP_PMSCR_EL1, &el1);
	ap_pe_peek(pe, AP_PMSCR_EL2, &el2);
	CHECK_EQ_U64(el1, 0x28);
	CHECK_EQ_U64(el2, 0x3);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSCR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0x3);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSCR_EL12, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0x28);
	/* E2H == 0 at EL2: PMSCR_EL1 is PMSCR_EL1. */
	CHECK_EQ_U64(fixture_state(pe, "e2h=0"), 0);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSCR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0x28);
	/* At EL1 with E2H == 1 there is no redirection either. */
	CHECK_EQ_U64(fixture_state(pe, "el=1 e2h=1"), 0);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSCR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0x28);
	ap_pe_destroy(pe);
}

/* 4.2 Table 8 (SPE-T8-row1, SPE-4.3.2-13) and SPE-4.2-1: configurable reset
 * values, masked like a write, with PMBLIMITR_EL1.E always 0; the
 * architecturally UNKNOWN PMSICR_EL1 reset (PMSICR-8 PMSICR-17) is the
 * configured spe.reset.pmsicr_el1. */
TEST(reset_values)
{
	struct ap_pe *pe = fixture_pe("");
	static const uint32_t regs[] = { AP_PMSCR_EL1, AP_PMSCR_EL2, AP_PMSICR_EL1, AP_PMSIRR_EL1,
		                             AP_PMSFCR_EL1, AP_PMSEVFR_EL1, AP_PMSLATFR_EL1,
		                             AP_PMBLIMITR_EL1, AP_PMBPTR_EL1, AP_PMBSR_EL1 };
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint64_t v = 1;
		CHECK_EQ_U64(ap_pe_peek(pe, regs[i], &v), 0);
		CHECK_EQ_U64(v, 0);
	}
	CHECK_EQ_U64(fixture_host_state.irq_level, 0);
	ap_pe_destroy(pe);

	pe = fixture_pe("spe.reset.pmscr_el1=0xFFFF spe.reset.pmblimitr_el1=0x10000007 "
	                "spe.reset.pmbptr_el1=0x1234 spe.reset.pmsicr_el1=0xFF000000000000FF "
	                "spe.reset.pmbsr_el1=0x20000 spe.reset.pmsirr_el1=0x101");
	uint64_t v;
	ap_pe_peek(pe, AP_PMSCR_EL1, &v);
	CHECK_EQ_U64(v, 0x7B);
	ap_pe_peek(pe, AP_PMBLIMITR_EL1, &v);
	CHECK_EQ_U64(v, 0x10000006); /* E reset to 0 */
	ap_pe_peek(pe, AP_PMBPTR_EL1, &v);
	CHECK_EQ_U64(v, 0x1234);
	ap_pe_peek(pe, AP_PMSICR_EL1, &v);
	CHECK_EQ_U64(v, 0xFF); /* ECOUNT RES0 with ERnd == 0 */
	ap_pe_peek(pe, AP_PMSIRR_EL1, &v);
	CHECK_EQ_U64(v, 0x101);
	/* PMBSR_EL1.S = 1 out of reset asserts PMBIRQ (SPE-4.2-1, SPE-4.3.4-17). */
	ap_pe_peek(pe, AP_PMBSR_EL1, &v);
	CHECK_EQ_U64(v, 0x20000);
	CHECK_EQ_U64(fixture_host_state.irq_level, 1);
	/* Software changes, then a warm reset restores the reset values. */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBSR_EL1, 0), AP_ACCESS_OK);
	CHECK_EQ_U64(fixture_host_state.irq_level, 0);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBPTR_EL1, 0x9999), AP_ACCESS_OK);
	ap_pe_reset(pe);
	ap_pe_peek(pe, AP_PMBPTR_EL1, &v);
	CHECK_EQ_U64(v, 0x1234);
	CHECK_EQ_U64(fixture_host_state.irq_level, 1);
	ap_pe_destroy(pe);
}

/* SPE-4.3.4-17 (3.5): PMBIRQ is a level output driven by PMBSR_EL1.S, also
 * by a direct write; only level changes are reported. */
TEST(pmbirq_follows_pmbsr_s)
{
	struct ap_pe *pe = fixture_pe("");
	CHECK_EQ_U64(fixture_host_state.irq_level, 0);
	int changes = fixture_host_state.irq_changes;
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBSR_EL1, BIT(17)), AP_ACCESS_OK);
	CHECK_EQ_U64(fixture_host_state.irq_level, 1);
	CHECK_EQ_U64(fixture_host_state.irq_changes, changes + 1);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBSR_EL1, BIT(17) | BIT(16)), AP_ACCESS_OK);
	CHECK_EQ_U64(fixture_host_state.irq_changes, changes + 1); /* still high */
	/* A trapped write changes nothing. */
	CHECK_EQ_U64(fixture_state(pe, "mdcr_el2.e2pb=0"), 0);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBSR_EL1, 0), AP_ACCESS_TRAP_EL2);
	CHECK_EQ_U64(fixture_host_state.irq_level, 1);
	CHECK_EQ_U64(fixture_state(pe, "el=2"), 0);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBSR_EL1, 0), AP_ACCESS_OK);
	CHECK_EQ_U64(fixture_host_state.irq_level, 0);
	CHECK_EQ_U64(fixture_host_state.irq_changes, changes + 2);
	ap_pe_destroy(pe);
}

/* Reserved values read back as written (SPE-4.3.2-11 FM, SPE-4.3.4-11 EC):
 * the register keeps what software wrote. */
TEST(reserved_values_read_as_written)
{
	struct ap_pe *pe = fixture_pe("");
	uint64_t v;
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBLIMITR_EL1, 0x4000 | (3 << 1)), AP_ACCESS_OK);
	ap_pe_mrs(pe, AP_PMBLIMITR_EL1, &v);
	CHECK_EQ_U64(v, 0x4006);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBSR_EL1, 0x3Full << 26), AP_ACCESS_OK);
	ap_pe_mrs(pe, AP_PMBSR_EL1, &v);
	CHECK_EQ_U64(v, 0x3Full << 26);
	ap_pe_destroy(pe);
}

/* PMSIDR_EL1 and PMBIDR_EL1 encodings from the configuration: every defined
 * value is accepted and read back, reserved ones are refused.
 * MaxSize: SPE-4.3.11-9 SPE-4.3.11-10 SPE-4.3.11-11 SPE-4.3.11-12
 * SPE-4.3.11-13 SPE-4.3.11-14 SPE-4.3.11-15 SPE-4.3.11-16; Interval:
 * SPE-4.3.11-17 .. SPE-4.3.11-25 (SPE-4.3.11-18 SPE-4.3.11-19 SPE-4.3.11-20
 * SPE-4.3.11-21 SPE-4.3.11-22 SPE-4.3.11-23 SPE-4.3.11-24); CountSize
 * SPE-4.3.11-8; ERnd/LDS/ArchInst SPE-4.3.11-26 SPE-4.3.11-27 SPE-4.3.11-28
 * SPE-4.3.11-29; FT/FE SPE-4.3.11-31 SPE-4.3.11-32; SPE-4.3.11-33.
 * Align: SPE-4.3.1-16 SPE-4.3.1-17 SPE-4.3.1-18 SPE-4.3.1-19 SPE-4.3.1-20
 * SPE-4.3.1-21 SPE-4.3.1-22 SPE-4.3.1-23 SPE-4.3.1-24; F: SPE-4.3.1-6
 * SPE-4.3.1-7 SPE-4.3.1-8. */
TEST(id_register_encodings)
{
	for (unsigned m = 0; m < 16; m++) {
		struct ap_config cfg;
		ap_config_init(&cfg);
		char val[8];
		snprintf(val, sizeof(val), "%u", m);
		bool defined = m >= 4 && m <= 11;
		CHECK_EQ_U64(ap_config_set(&cfg, "spe.max_size", val, NULL) == 0, defined);
		if (!defined)
			continue;
		CHECK_EQ_U64(ap_config_set(&cfg, "spe.align", val, NULL), 0); /* Align up to MaxSize */
		struct ap_pe *pe = NULL;
		CHECK_EQ_U64(ap_pe_create(&cfg, NULL, &pe, NULL), 0);
		uint64_t v = 0;
		ap_pe_peek(pe, AP_PMSIDR_EL1, &v);
		CHECK_EQ_U64((v >> 12) & 0xF, m);
		ap_pe_peek(pe, AP_PMBIDR_EL1, &v);
		CHECK_EQ_U64(v & 0xF, m);
		/* Align m: PMBPTR_EL1[m-1:0] RES0 when synchronous aborts are not
		 * reported (SPE-4.3.3-9, SPE-4.3.3-10). */
		ap_pe_destroy(pe);
	}
	for (unsigned a = 0; a < 16; a++) {
		struct ap_config cfg;
		ap_config_init(&cfg);
		cfg.spe.max_size = 11;
		char val[8];
		snprintf(val, sizeof(val), "%u", a);
		CHECK_EQ_U64(ap_config_set(&cfg, "spe.align", val, NULL) == 0, a <= 11);
	}
	static const unsigned interval_defined[] = { 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0 };
	for (unsigned i = 0; i < 16; i++) {
		struct ap_config cfg;
		ap_config_init(&cfg);
		char val[8];
		snprintf(val, sizeof(val), "%u", i);
		int rc = ap_config_set(&cfg, "spe.interval", val, NULL);
		if (rc == 0)
			rc = ap_config_validate(&cfg, NULL);
		CHECK_EQ_U64(rc == 0, interval_defined[i]);
		if (rc)
			continue;
		struct ap_pe *pe = NULL;
		CHECK_EQ_U64(ap_pe_create(&cfg, NULL, &pe, NULL), 0);
		uint64_t v = 0;
		ap_pe_peek(pe, AP_PMSIDR_EL1, &v);
		CHECK_EQ_U64((v >> 8) & 0xF, i);
		CHECK_EQ_U64((v >> 16) & 0xF, 2); /* CountSize 0b0010 */
		CHECK_EQ_U64(v & 7, 7);           /* FL, FT, FE */
		ap_pe_destroy(pe);
	}
	struct ap_config cfg;
	ap_config_init(&cfg);
	CHECK(ap_config_set(&cfg, "spe.count_size", "3", NULL) < 0); /* SPE-4.3.11-8 reserved */
	for (unsigned bits = 0; bits < 16; bits++) {
		ap_config_init(&cfg);
		cfg.spe.ernd = bits & 1;
		cfg.spe.lds = (bits >> 1) & 1;
		cfg.spe.arch_inst = (bits >> 2) & 1;
		cfg.spe.f = (bits >> 3) & 1;
		struct ap_pe *pe = NULL;
		CHECK_EQ_U64(ap_pe_create(&cfg, NULL, &pe, NULL), 0);
		uint64_t v = 0;
		ap_pe_peek(pe, AP_PMSIDR_EL1, &v);
		CHECK_EQ_U64((v >> 5) & 1, bits & 1);
		CHECK_EQ_U64((v >> 4) & 1, (bits >> 1) & 1);
		CHECK_EQ_U64((v >> 3) & 1, (bits >> 2) & 1);
		ap_pe_peek(pe, AP_PMBIDR_EL1, &v);
		CHECK_EQ_U64((v >> 5) & 1, (bits >> 3) & 1);
		ap_pe_destroy(pe);
	}
}

/* The register table of every extension: encodings and names are unique,
 * and name and encoding lookups round-trip (sysreg.h; SPE-4.1-2 for the
 * encodings no table has). */
TEST(register_table_is_consistent)
{
	uint32_t regs[512];
	size_t n = 0;
	while (n < 512 && ap_sysreg_enum(n, &regs[n]) == 0)
		n++;
	CHECK(n >= 13);
	CHECK(n < 512);
	for (size_t i = 0; i < n; i++) {
		const char *name = ap_sysreg_name(regs[i]);
		CHECK(name != NULL);
		uint32_t back = 0;
		CHECK_EQ_U64(ap_sysreg_lookup(name, &back), 0);
		CHECK_EQ_U64(back, regs[i]);
		for (size_t j = i + 1; j < n; j++) {
			CHECK(regs[i] != regs[j]);
			CHECK(strcmp(name, ap_sysreg_name(regs[j])) != 0);
		}
	}
}

TEST_MAIN(CASE(register_table_is_consistent), CASE(id_register_encodings), CASE(table7_encodings_and_names), CASE(write_masks_res0_res1), CASE(pmsidr_fields),
          CASE(pmbidr_p_follows_the_owner), CASE(pmscr_aliases), CASE(reset_values),
          CASE(pmbirq_follows_pmbsr_s), CASE(reserved_values_read_as_written))

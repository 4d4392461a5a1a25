/* SPE enabling and ownership: every row of 3.2.1 Table 3 (sampling enabled
 * by Exception level and Security state) and of 3.4.2 Table 5 (owning
 * translation regime), the owning-EL rules of 3.4.2, and the pseudocode
 * functions StatisticalProfilingEnabled() (3.2.3), ProfilingBufferOwner()
 * and ProfilingBufferEnabled() (3.4.6), including "disabled in AArch32"
 * (2.1.1), in Debug state (3.2.1) and at EL3.
 *
 * IDs: SPE-3.2.1-1 SPE-3.2.1-2 SPE-3.2.1-3 SPE-3.2.1-4 SPE-3.2.1-5 (the Debug
 * state check the pseudocode lacks) SPE-3.2.1-6 SPE-3.2.1-7 SPE-3.2.1-8
 * SPE-3.2.1-9 (E2PB 0b01 as EL1 ownership; Secure EL2 and AArch32 outside the
 * table), SPE-3.2.3-1 SPE-3.2.3-2 SPE-3.2.3-3 SPE-3.2.3-4 SPE-3.2.3-5
 * SPE-3.2.3-6 SPE-3.2.3-7 SPE-3.2.3-8 SPE-3.2.3-9 SPE-3.2.3-10,
 * SPE-3.4.2-1 SPE-3.4.2-2 SPE-3.4.2-3 SPE-3.4.2-4 SPE-3.4.2-6 SPE-3.4.2-7
 * SPE-3.4.2-9 SPE-3.4.2-12 SPE-3.4.2-13 SPE-3.4.2-14 SPE-3.4.2-15,
 * SPE-3.4.6-1 SPE-3.4.6-2 SPE-3.4.6-3 SPE-3.4.6-4 SPE-3.4.6-5 SPE-3.4.6-6
 * SPE-3.4.6-7 SPE-3.4.6-8 SPE-3.4.6-9 SPE-3.4.6-10 SPE-3.4.6-11 (SCR_EL3.NS
 * without EL3 = the PE's Security state) SPE-3.4.6-17, SPE-2.1.1-1 (the
 * "disabled in AArch32" part), and the enable bits SPE-4.3.5-19 SPE-4.3.5-20
 * SPE-4.3.5-21 SPE-4.3.5-22 SPE-4.3.7-17 SPE-4.3.7-18 SPE-4.3.7-19
 * SPE-4.3.7-20 SPE-4.3.7-21 (E2SPE/E0HSPE kept but unused while E2PB != 0b00). */
#include "harness.h"
#include "model_regs/model_fixture.h"

#define PMBLIMITR_E 1ull
#define PMBSR_S (1ull << 17)

/* What a Table 3 cell says: D (disabled), n/a (state not reachable), or the
 * enable bit that decides. */
enum cell { D, NA, E2SPE, E1SPE, E0HSPE, E0SPE };

struct t3_row {
	const char *id;
	int s, e, ns;          /* -1 = X */
	int nspb_hi;           /* NSPB<1>: 1 = 0b1X, 0 = 0b0X, -1 = X */
	int e2pb;              /* 0 = 0b00, 2 = 0b1X, -1 = X */
	int tge;               /* -1 = X */
	enum cell el[4];       /* EL0, EL1, EL2, EL3 */
};

static const struct t3_row table3[] = {
	{ "SPE-T3-row1", 1, -1, -1, -1, -1, -1, { D, D, D, D } },
	{ "SPE-T3-row2", 0, 0, -1, -1, -1, -1, { D, D, D, D } },
	{ "SPE-T3-row3", 0, 1, 1, 1, 2, 0, { E0SPE, E1SPE, D, D } },
	{ "SPE-T3-row4", 0, 1, 1, 1, 2, 1, { D, NA, D, D } },
	{ "SPE-T3-row5", 0, 1, 1, 1, 0, 0, { E0SPE, E1SPE, E2SPE, D } },
	{ "SPE-T3-row6", 0, 1, 1, 1, 0, 1, { E0HSPE, NA, E2SPE, D } },
	{ "SPE-T3-row7", 0, 1, 1, 0, -1, -1, { D, D, D, D } },
	{ "SPE-T3-row8", 0, 1, 0, 1, -1, -1, { D, D, NA, D } },
	{ "SPE-T3-row9", 0, 1, 0, 0, -1, -1, { E0SPE, E1SPE, NA, D } },
};

/* The PMSCR bit a cell names: register and bit. */
static void cell_bit(enum cell c, uint32_t *reg, unsigned *bit)
{
	switch (c) {
	case E2SPE: *reg = AP_PMSCR_EL2; *bit = 1; break;
	case E1SPE: *reg = AP_PMSCR_EL1; *bit = 1; break;
	case E0HSPE: *reg = AP_PMSCR_EL2; *bit = 0; break;
	default: *reg = AP_PMSCR_EL1; *bit = 0; break;
	}
}

/* The column values a row's entry stands for (X = every value; E2PB 0b01 is
 * reserved and in no row). */
struct values { unsigned n; unsigned v[4]; };
static struct values bit_values(int x) { return x < 0 ? (struct values){ 2, { 0, 1 } } : (struct values){ 1, { (unsigned)x } }; }
static struct values nspb_values(int hi)
{
	if (hi < 0)
		return (struct values){ 4, { 0, 1, 2, 3 } };
	return (struct values){ 2, { (unsigned)hi * 2, (unsigned)hi * 2 + 1 } };
}
static struct values e2pb_values(int e2pb)
{
	if (e2pb == 0)
		return (struct values){ 1, { 0 } };
	if (e2pb == 2)
		return (struct values){ 2, { 2, 3 } };
	return (struct values){ 3, { 0, 2, 3 } };
}

static unsigned t3_cases, t3_checked;

static void t3_case(const struct t3_row *r, int ns, unsigned nspb, unsigned e2pb, int tge, unsigned el)
{
	enum cell c = r->el[el];
	if (el == 2 && !ns)
		return; /* Secure EL2 (FEAT_SEL2) is not in Table 3 */
	struct ap_pe *pe = fixture_pe("");
	char st[160];
	snprintf(st, sizeof(st), "el=%u ns=%d mdcr_el3.nspb=%u mdcr_el2.e2pb=%u tge=%d", el, ns, nspb, e2pb, tge);
	if (c == NA || (el == 1 && tge && ns)) {
		/* Non-secure EL1 with HCR_EL2.TGE == 1 cannot be entered (an
		 * exception return to it is illegal; Table 3 "n/a"): the model
		 * refuses the state, in every row. */
		CHECK(fixture_state(pe, st) < 0);
		ap_pe_destroy(pe);
		t3_cases++;
		return;
	}
	CHECK_EQ_U64(fixture_state(pe, st), 0);
	ap_pe_poke(pe, AP_PMBLIMITR_EL1, r->e ? PMBLIMITR_E | 0x10000 : 0x10000);
	ap_pe_poke(pe, AP_PMBSR_EL1, r->s ? PMBSR_S : 0);
	/* Every enable bit set. */
	ap_pe_poke(pe, AP_PMSCR_EL1, 0x3);
	ap_pe_poke(pe, AP_PMSCR_EL2, 0x3);
	bool want = c != D;
	bool got = ap_spe_profiling_enabled(pe);
	if (got != want)
		fprintf(stderr, "  %s: %s -> %d, want %d\n", r->id, st, got, want);
	CHECK_EQ_U64(got, want);
	t3_cases++;
	if (want) {
		/* The named bit decides: clear it alone, the others stay set. */
		uint32_t reg;
		unsigned bit;
		cell_bit(c, &reg, &bit);
		ap_pe_poke(pe, reg, 0x3 & ~(1ull << bit));
		CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 0);
		/* And it alone is enough. */
		ap_pe_poke(pe, AP_PMSCR_EL1, reg == AP_PMSCR_EL1 ? 1ull << bit : 0);
		ap_pe_poke(pe, AP_PMSCR_EL2, reg == AP_PMSCR_EL2 ? 1ull << bit : 0);
		CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 1);
		/* 3.2.1: disabled in Debug state. */
		CHECK_EQ_U64(fixture_state(pe, "debug=1"), 0);
		CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 0);
		t3_checked++;
	}
	ap_pe_destroy(pe);
}

TEST(table3_every_row)
{
	for (size_t i = 0; i < sizeof(table3) / sizeof(table3[0]); i++) {
		const struct t3_row *r = &table3[i];
		struct values ns = bit_values(r->ns), nspb = nspb_values(r->nspb_hi);
		struct values e2pb = e2pb_values(r->e2pb), tge = bit_values(r->tge);
		for (unsigned a = 0; a < ns.n; a++)
			for (unsigned b = 0; b < nspb.n; b++)
				for (unsigned c = 0; c < e2pb.n; c++)
					for (unsigned d = 0; d < tge.n; d++)
						for (unsigned el = 0; el < 4; el++)
							t3_case(r, (int)ns.v[a], nspb.v[b], e2pb.v[c], (int)tge.v[d], el);
	}
	/* Every row produced cases, and every enabled cell was checked. */
	CHECK(t3_cases > 100);
	CHECK(t3_checked > 20);
}

/* 2.1.1, 3.2.3 UsingAArch32(): disabled when the current EL uses AArch32,
 * 3.4.6 ELUsingAArch32(owner): the buffer is disabled when the owning EL
 * uses AArch32. */
TEST(aarch32_disables)
{
	struct ap_pe *pe = fixture_pe("aarch32_els=3");
	ap_pe_poke(pe, AP_PMBLIMITR_EL1, PMBLIMITR_E | 0x10000);
	ap_pe_poke(pe, AP_PMSCR_EL1, 0x3);
	CHECK_EQ_U64(fixture_state(pe, "el=0"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 1);
	CHECK_EQ_U64(fixture_state(pe, "aarch32=1"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 0);
	CHECK_EQ_U64(ap_spe_buffer_enabled(pe), 1); /* owner EL1 is AArch64 */
	CHECK_EQ_U64(fixture_state(pe, "aarch32=3"), 0);
	CHECK_EQ_U64(ap_spe_buffer_enabled(pe), 0); /* owner EL1 uses AArch32 */
	/* An impossible combination is refused: EL1 AArch32 over AArch64 EL0. */
	CHECK(fixture_state(pe, "aarch32=2") < 0);
	ap_pe_destroy(pe);
}

/* No SPE: nothing is ever enabled (HasStatisticalProfiling()). */
TEST(no_spe_never_enabled)
{
	struct ap_pe *pe = fixture_pe("have_spe=0");
	ap_pe_poke(pe, AP_PMBLIMITR_EL1, PMBLIMITR_E);
	ap_pe_poke(pe, AP_PMSCR_EL1, 0x3);
	CHECK_EQ_U64(ap_spe_buffer_enabled(pe), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 0);
	ap_pe_destroy(pe);
}

/* 3.4.2 Table 5: owning translation regime (SPE-T5-row1 SPE-T5-row2 SPE-T5-row3 SPE-T5-row4 SPE-T5-row5 SPE-T5-row6). */
TEST(table5_every_row)
{
	static const struct {
		const char *id;
		int e, ns, nspb_hi, e2pb; /* -1 = X; e2pb 2 = 0b1X */
		const char *owner;        /* NULL = Disabled */
	} t5[] = {
		{ "SPE-T5-row1", 0, -1, -1, -1, NULL },
		{ "SPE-T5-row2", 1, 1, 1, 2, "ns-el1" },
		{ "SPE-T5-row3", 1, 1, 1, 0, "ns-el2" },
		{ "SPE-T5-row4", 1, 1, 0, -1, NULL },
		{ "SPE-T5-row5", 1, 0, 1, -1, NULL },
		{ "SPE-T5-row6", 1, 0, 0, -1, "s-el1" },
	};
	unsigned cases = 0;
	for (size_t i = 0; i < sizeof(t5) / sizeof(t5[0]); i++)
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 4; b++)
				for (int c = 0; c < 3; c++) {
					int ns = t5[i].ns >= 0 ? t5[i].ns : a;
					unsigned nspb = (unsigned)(t5[i].nspb_hi >= 0 ? t5[i].nspb_hi * 2 + (b & 1) : b);
					static const unsigned any_e2pb[] = { 0, 2, 3 };
					unsigned e2pb = t5[i].e2pb == 0   ? 0u
					                : t5[i].e2pb == 2 ? 2u + (unsigned)(c & 1)
					                                  : any_e2pb[c];
					struct ap_pe *pe = fixture_pe("");
					char st[128];
					/* EL0 of the state's Security state: Table 5 does not depend on the EL. */
					snprintf(st, sizeof(st), "el=0 ns=%d mdcr_el3.nspb=%u mdcr_el2.e2pb=%u", ns, nspb, e2pb);
					CHECK_EQ_U64(fixture_state(pe, st), 0);
					ap_pe_poke(pe, AP_PMBLIMITR_EL1, t5[i].e ? PMBLIMITR_E : 0);
					bool enabled = ap_spe_buffer_enabled(pe);
					CHECK_EQ_U64(enabled, t5[i].owner != NULL);
					if (t5[i].owner) {
						struct ap_spe_owner o = ap_spe_buffer_owner(pe);
						const char *got = o.secure ? "s-el1" : o.el == AP_EL2 ? "ns-el2" : "ns-el1";
						CHECK_EQ_STR(got, t5[i].owner);
					}
					/* 3.2.1: PMBSR_EL1.S == 1 disables the buffer in every row. */
					ap_pe_poke(pe, AP_PMBSR_EL1, PMBSR_S);
					CHECK_EQ_U64(ap_spe_buffer_enabled(pe), 0);
					ap_pe_destroy(pe);
					cases++;
				}
	CHECK_EQ_U64(cases, 6 * 2 * 4 * 3);
}

/* 3.4.2 "The owning Exception level" with EL2/EL3 missing, and
 * ProfilingBufferOwner() for E2PB == 0b01 (SPE 3.4.2, 3.4.6). */
TEST(owner_without_el2_or_el3)
{
	static const struct {
		const char *why;
		const char *cfg;
		const char *state;
		const char *owner;
	} rows[] = {
		{ "3.4.2: no EL3, Non-secure, no EL2 -> NS EL1", "have_el3=0 have_el2=0 have_vhe=0",
		  "ns=1 mdcr_el2.e2pb=0", "ns-el1" },
		{ "3.4.2: no EL3, Non-secure, E2PB 0b00 -> EL2", "have_el3=0", "ns=1 mdcr_el2.e2pb=0", "ns-el2" },
		{ "3.4.2: no EL3, Non-secure, E2PB 0b1X -> NS EL1", "have_el3=0", "ns=1 mdcr_el2.e2pb=2", "ns-el1" },
		{ "3.4.2: no EL3, Secure -> S EL1", "have_el3=0 have_el2=0 have_vhe=0", "ns=0 mdcr_el3.nspb=3",
		  "s-el1" },
		{ "3.4.2: EL3, no EL2, NSPB 0b1X -> NS EL1", "have_el2=0 have_vhe=0",
		  "mdcr_el3.nspb=2 mdcr_el2.e2pb=0", "ns-el1" },
		{ "3.4.2: EL3, NSPB 0b0X -> S EL1 (even in Non-secure state)", "", "ns=1 mdcr_el3.nspb=1", "s-el1" },
		{ "3.4.6: E2PB 0b01 (reserved) -> NS EL1 per the pseudocode", "", "mdcr_el2.e2pb=1", "ns-el1" },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ap_pe *pe = fixture_pe(rows[i].cfg);
		CHECK_EQ_U64(fixture_state(pe, rows[i].state), 0);
		struct ap_spe_owner o = ap_spe_buffer_owner(pe);
		const char *got = o.secure ? "s-el1" : o.el == AP_EL2 ? "ns-el2" : "ns-el1";
		if (strcmp(got, rows[i].owner))
			fprintf(stderr, "  %s\n", rows[i].why);
		CHECK_EQ_STR(got, rows[i].owner);
		ap_pe_destroy(pe);
	}
}

/* 3.2.3: no EL2 -> no host (TGE ignored); EL3 never samples; a Secure
 * owner with EL3 missing samples Secure EL1/EL0. */
TEST(enable_without_el2_or_el3)
{
	struct ap_pe *pe = fixture_pe("have_el2=0 have_vhe=0");
	ap_pe_poke(pe, AP_PMBLIMITR_EL1, PMBLIMITR_E);
	ap_pe_poke(pe, AP_PMSCR_EL1, 0x3);
	CHECK_EQ_U64(fixture_state(pe, "el=1 tge=1"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 1);
	CHECK_EQ_U64(fixture_state(pe, "el=0"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 1);
	CHECK_EQ_U64(fixture_state(pe, "el=3"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 0);
	ap_pe_destroy(pe);

	pe = fixture_pe("have_el3=0 have_el2=0 have_vhe=0");
	CHECK_EQ_U64(fixture_state(pe, "el=1 ns=0 mdcr_el3.nspb=3"), 0);
	ap_pe_poke(pe, AP_PMBLIMITR_EL1, PMBLIMITR_E);
	ap_pe_poke(pe, AP_PMSCR_EL1, 0x2);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 1);
	ap_pe_destroy(pe);
}

/* SPE-4.3.7-18 SPE-4.3.7-20 SPE-4.3.7-21: PMSCR_EL2.{E2SPE,E0HSPE} are "RES0
 * if MDCR_EL2.E2PB != 0b00": the model keeps the written value, ignores it
 * while E2PB != 0b00, and uses it again when E2PB returns to 0b00. */
TEST(e2spe_kept_while_e2pb_not_zero)
{
	struct ap_pe *pe = fixture_pe("");
	ap_pe_poke(pe, AP_PMBLIMITR_EL1, PMBLIMITR_E);
	CHECK_EQ_U64(fixture_state(pe, "el=2 mdcr_el2.e2pb=0b11"), 0);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSCR_EL2, 0x3), AP_ACCESS_OK);
	uint64_t v = 0;
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSCR_EL2, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0x3);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 0); /* owner NS EL1: EL2 disabled */
	CHECK_EQ_U64(fixture_state(pe, "el=0 tge=1"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 0); /* E0HSPE unused: SPE-3.4.2-7 */
	CHECK_EQ_U64(fixture_state(pe, "mdcr_el2.e2pb=0b00"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 1); /* E0HSPE applies again */
	CHECK_EQ_U64(fixture_state(pe, "el=2"), 0);
	CHECK_EQ_U64(ap_spe_profiling_enabled(pe), 1); /* E2SPE */
	ap_pe_destroy(pe);
}

TEST_MAIN(CASE(e2spe_kept_while_e2pb_not_zero), CASE(table3_every_row), CASE(aarch32_disables), CASE(no_spe_never_enabled),
          CASE(table5_every_row), CASE(owner_without_el2_or_el3), CASE(enable_without_el2_or_el3))

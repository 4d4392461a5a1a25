/* Access checks of every SPE System register in every class of PE state
 * (SPE-3.2.3-11 SPE-3.2.3-12 SPE-3.2.3-13 SPE-3.2.3-14 SPE-3.2.3-15
 * SPE-3.4.6-12 SPE-3.4.6-13 SPE-3.4.6-14 SPE-3.4.6-15 SPE-3.4.6-16 SPE-3.4.6-17;
 * the MSR side of the PMSICR_EL1 pseudocode PMSICR-35 .. PMSICR-49 and its
 * MRS side PMSICR-20 .. PMSICR-34: PMSICR-33 PMSICR-34 PMSICR-36 PMSICR-37
 * PMSICR-38 PMSICR-39 PMSICR-40 PMSICR-41 PMSICR-42 PMSICR-43 PMSICR-44
 * PMSICR-45 PMSICR-46 PMSICR-47 PMSICR-48 PMSICR-49, each row checking MRS
 * and MSR alike):
 * each row is one condition of the register pages' "Usage constraints",
 * "Traps and enables" and "Configurations" text (4.3.1-4.3.13), of
 * CheckStatisticalProfilingAccess() (3.2.3), CheckProfilingBufferAccess()
 * (3.4.6) and of the PMSICR_EL1 access pseudocode (spec/004, PMSICR-20 PMSICR-21 PMSICR-22 PMSICR-23 PMSICR-24 PMSICR-25 PMSICR-26 PMSICR-27 PMSICR-28 PMSICR-29 PMSICR-30 PMSICR-31 PMSICR-32),
 * with the IDs it shows. For each row and register the test also checks that
 * the access has its value effect only when it is OK. */
#include "harness.h"
#include "model_regs/model_fixture.h"

/* Outcome letters: O ok, U UNDEFINED, 2 trap to EL2, 3 trap to EL3. */
static int outcome(char c)
{
	switch (c) {
	case 'O': return AP_ACCESS_OK;
	case 'U': return AP_ACCESS_UNDEFINED;
	case '2': return AP_ACCESS_TRAP_EL2;
	case '3': return AP_ACCESS_TRAP_EL3;
	}
	return -1;
}

struct row {
	const char *ids;   /* requirement IDs the row shows */
	const char *cfg;
	const char *state;
	char smp;          /* PMSCR_EL1, PMSICR/IRR/FCR/EVFR/LATFR_EL1, PMSIDR_EL1 (read) */
	char buf;          /* PMBLIMITR_EL1, PMBPTR_EL1, PMBSR_EL1 */
	char idr;          /* PMBIDR_EL1 (read) */
	char el2;          /* PMSCR_EL2 */
	char el12;         /* PMSCR_EL12 */
};

static const struct row rows[] = {
	{ "SPE-4.3.5-1 SPE-4.3.1-1 SPE-4.3.2-1 SPE-4.3.3-1 SPE-4.3.4-1 SPE-4.3.8-2 SPE-4.3.9-2 "
	  "SPE-4.3.10-2 SPE-4.3.11-1 SPE-4.3.12-1 SPE-4.3.13-1 SPE-4.3.7-1 SPE-4.3.6-2 PMSICR-21",
	  "", "el=0", 'U', 'U', 'U', 'U', 'U' },
	{ "SPE 3.2.3 CheckStatisticalProfilingAccess OK; SPE-4.3.7-1 SPE-4.3.6-2 PMSICR-29",
	  "", "el=1", 'O', 'O', 'O', 'U', 'U' },
	{ "SPE-4.3.5-3 SPE-4.3.8-3 SPE-4.3.9-3 SPE-4.3.10-3 SPE-4.3.11-2 SPE-4.3.12-2 SPE-4.3.13-2 "
	  "SPE-4.3.1-2 PMSICR-25",
	  "", "el=1 mdcr_el2.tpms=1", '2', 'O', 'O', 'U', 'U' },
	{ "SPE-4.3.2-2 SPE-4.3.3-2 SPE-4.3.4-2 (E2PB == 0b00) SPE-4.3.1-2",
	  "", "el=1 mdcr_el2.e2pb=0b00", 'O', '2', 'O', 'U', 'U' },
	{ "SPE-4.3.2-2 SPE-4.3.3-2 SPE-4.3.4-2 (E2PB == 0b10)",
	  "", "el=1 mdcr_el2.e2pb=0b10", 'O', '2', 'O', 'U', 'U' },
	{ "SPE 3.4.6 CheckProfilingBufferAccess: E2PB<0> == 1 does not trap (E2PB == 0b01)",
	  "", "el=1 mdcr_el2.e2pb=0b01", 'O', 'O', 'O', 'U', 'U' },
	{ "SPE-4.3.5-5 SPE-4.3.2-4 SPE-4.3.3-4 SPE-4.3.4-4 SPE-4.3.8-5 SPE-4.3.9-5 SPE-4.3.10-5 "
	  "SPE-4.3.11-4 SPE-4.3.12-4 SPE-4.3.13-4 PMSICR-27 (NS EL1, NSPB 0b10)",
	  "", "el=1 mdcr_el3.nspb=0b10", '3', '3', 'O', 'U', 'U' },
	{ "SPE-4.3.5-5 SPE-4.3.2-4 (NS EL1, NSPB 0b01)", "", "el=1 mdcr_el3.nspb=0b01", '3', '3', 'O', 'U', 'U' },
	{ "SPE-4.3.5-5 SPE-4.3.2-4 (NS EL1, NSPB 0b00)", "", "el=1 mdcr_el3.nspb=0b00", '3', '3', 'O', 'U', 'U' },
	{ "SPE-4.3.5-4 SPE-4.3.2-4 SPE-4.3.3-3 SPE-4.3.4-3: Secure EL1 with NSPB 0b01 is not trapped",
	  "", "el=1 ns=0 mdcr_el3.nspb=0b01", 'O', 'O', 'O', 'U', 'U' },
	{ "SPE-4.3.5-4 SPE-4.3.2-3 SPE-4.3.3-3 SPE-4.3.4-3 SPE-4.3.8-4 SPE-4.3.9-4 SPE-4.3.10-4 "
	  "SPE-4.3.11-3 SPE-4.3.12-3 SPE-4.3.13-3 PMSICR-26 (S EL1, NSPB 0b11)",
	  "", "el=1 ns=0 mdcr_el3.nspb=0b11", '3', '3', 'O', 'U', 'U' },
	{ "SPE-4.3.5-4 SPE-4.3.2-3 (S EL1, NSPB 0b00)", "", "el=1 ns=0 mdcr_el3.nspb=0b00", '3', '3', 'O', 'U', 'U' },
	{ "SPE-4.3.5-4 SPE-4.3.2-3 (S EL1, NSPB 0b10)", "", "el=1 ns=0 mdcr_el3.nspb=0b10", '3', '3', 'O', 'U', 'U' },
	{ "SPE 3.2.3 SPE 3.4.6: the EL2 traps apply only in Non-secure state (EL2 not enabled in Secure)",
	  "", "el=1 ns=0 mdcr_el3.nspb=0b01 mdcr_el2.tpms=1 mdcr_el2.e2pb=0", 'O', 'O', 'O', 'U', 'U' },
	{ "SPE 3.2.3 SPE 3.4.6 SPE-4.3.2-14 PMSICR-25: the EL2 trap has priority over the EL3 trap",
	  "", "el=1 mdcr_el2.tpms=1 mdcr_el2.e2pb=0 mdcr_el3.nspb=0b10", '2', '2', 'O', 'U', 'U' },
	{ "SPE-4.3.7-1 SPE-4.3.6-3: EL2, E2H == 0: PMSCR_EL12 UNDEFINED",
	  "", "el=2", 'O', 'O', 'O', 'O', 'U' },
	{ "SPE-4.3.7-3 SPE-4.3.5-5 SPE-4.3.2-4 PMSICR-32 (EL2, NSPB 0b10)",
	  "", "el=2 mdcr_el3.nspb=0b10", '3', '3', 'O', '3', 'U' },
	{ "SPE-4.3.5-2 SPE-4.3.7-2 SPE-4.3.6-1: EL2 with E2H == 1",
	  "", "el=2 e2h=1", 'O', 'O', 'O', 'O', 'O' },
	{ "SPE-4.3.6-5 SPE-4.3.7-3 (EL2, E2H == 1, NSPB 0b01)",
	  "", "el=2 e2h=1 mdcr_el3.nspb=0b01", '3', '3', 'O', '3', '3' },
	{ "SPE 3.2.3 SPE 3.4.6: MDCR_EL2.{TPMS,E2PB} trap EL1 only",
	  "", "el=2 mdcr_el2.tpms=1 mdcr_el2.e2pb=0", 'O', 'O', 'O', 'O', 'U' },
	{ "PMSICR-20 (EL3 returns the register) SPE-4.3.1-2; SPE-4.3.6-8 (EL3, E2H == 0: UNDEFINED)",
	  "", "el=3 ns=0 mdcr_el3.nspb=0b10 mdcr_el2.tpms=1", 'O', 'O', 'O', 'O', 'U' },
	{ "SPE-4.3.6-8 (gap, DDI 0487): PMSCR_EL12 at EL3 with EL2 enabled and E2H == 1",
	  "", "el=3 ns=1 e2h=1", 'O', 'O', 'O', 'O', 'O' },
	{ "SPE-4.3.6-8 (gap, DDI 0487): PMSCR_EL12 at EL3, E2H == 1 but EL2 not enabled (SCR_EL3.NS == 0)",
	  "", "el=3 ns=0 e2h=1", 'O', 'O', 'O', 'O', 'U' },
	{ "SPE 2.1.1 UsingAArch32(): AArch32 EL0", "", "el=0 aarch32=1", 'U', 'U', 'U', 'U', 'U' },
	{ "SPE 2.1.1 UsingAArch32(), SPE-1-3 (AArch64 System registers only): AArch32 EL1", "aarch32_els=3", "el=1 aarch32=3", 'U', 'U', 'U', 'U', 'U' },
	{ "SPE-4.3.5-6 SPE-4.3.1-3 SPE-4.3.2-5 SPE-4.3.3-5 SPE-4.3.4-5 SPE-4.3.7-5 SPE-4.3.8-6 "
	  "SPE-4.3.9-6 SPE-4.3.10-6 SPE-4.3.11-5 SPE-4.3.12-5 SPE-4.3.13-5 SPE-4.3.6-6 PMSICR-2 (EL1)",
	  "have_spe=0", "el=1", 'U', 'U', 'U', 'U', 'U' },
	{ "SPE-4.3.5-6 PMSICR-2: no SPE at EL2", "have_spe=0", "el=2 e2h=1", 'U', 'U', 'U', 'U', 'U' },
	{ "SPE-4.3.5-6 PMSICR-2: no SPE at EL3", "have_spe=0", "el=3", 'U', 'U', 'U', 'U', 'U' },
	{ "SPE 3.2.3 HaveEL(EL2) false: no EL2 traps; SPE-4.3.6-6 no PMSCR_EL12",
	  "have_el2=0 have_vhe=0", "el=1 mdcr_el2.tpms=1 mdcr_el2.e2pb=0", 'O', 'O', 'O', 'U', 'U' },
	{ "SPE-4.3.7-4: PMSCR_EL2 accessible (RES0) at EL3 without EL2",
	  "have_el2=0 have_vhe=0", "el=3", 'O', 'O', 'O', 'O', 'U' },
	{ "SPE 3.2.3 HaveEL(EL3) false: no EL3 traps", "have_el3=0",
	  "el=1 mdcr_el3.nspb=0b00", 'O', 'O', 'O', 'U', 'U' },
	{ "SPE-4.3.6-6: PMSCR_EL12 UNDEFINED without FEAT_VHE", "have_vhe=0", "el=2", 'O', 'O', 'O', 'O', 'U' },
	{ "PMSICR-27: EL1 NSPB trap in Debug state with EDSCR.SDD == 1 is UNDEFINED",
	  "", "el=1 debug=1 edscr.sdd=1 mdcr_el3.nspb=0b10", 'U', 'U', 'O', 'U', 'U' },
	{ "PMSICR-26: Secure EL1 NSPB trap, Halted and SDD: UNDEFINED",
	  "", "el=1 ns=0 debug=1 edscr.sdd=1 mdcr_el3.nspb=0b11", 'U', 'U', 'O', 'U', 'U' },
	{ "PMSICR-27: Halted with SDD == 0 still traps to EL3",
	  "", "el=1 debug=1 mdcr_el3.nspb=0b10", '3', '3', 'O', 'U', 'U' },
	{ "PMSICR-29: Halted with SDD == 1 and no NSPB trap: OK",
	  "", "el=1 debug=1 edscr.sdd=1", 'O', 'O', 'O', 'U', 'U' },
	{ "PMSICR-19 (priority option FALSE) PMSICR-25: EL2 trap before the SDD UNDEFINED",
	  "", "el=1 debug=1 edscr.sdd=1 mdcr_el2.tpms=1 mdcr_el3.nspb=0b10", '2', 'U', 'O', 'U', 'U' },
	{ "PMSICR-19 PMSICR-22 PMSICR-23 (priority option TRUE): UNDEFINED before the EL2 trap",
	  "el3_trap_priority_sdd=1", "el=1 debug=1 edscr.sdd=1 mdcr_el2.tpms=1 mdcr_el2.e2pb=0 mdcr_el3.nspb=0b10",
	  'U', 'U', 'O', 'U', 'U' },
	{ "PMSICR-19: priority option TRUE but NSPB does not trap: the EL2 trap stays",
	  "el3_trap_priority_sdd=1", "el=1 debug=1 edscr.sdd=1 mdcr_el2.tpms=1", '2', 'O', 'O', 'U', 'U' },
	{ "PMSICR-30 PMSICR-31 PMSICR-32: EL2, Halted, SDD, NSPB trap: UNDEFINED",
	  "", "el=2 debug=1 edscr.sdd=1 mdcr_el3.nspb=0b10", 'U', 'U', 'O', 'U', 'U' },
	{ "PMSICR-30: EL2 with the priority option", "el3_trap_priority_sdd=1",
	  "el=2 e2h=1 debug=1 edscr.sdd=1 mdcr_el3.nspb=0b00", 'U', 'U', 'O', 'U', 'U' },
	{ "PMSICR-51: EL2Enabled() includes Secure EL2 (FEAT_SEL2): Secure EL1 traps to EL2",
	  "have_sel2=1", "el=1 ns=0 scr_el3.eel2=1 mdcr_el3.nspb=0b01 mdcr_el2.tpms=1 mdcr_el2.e2pb=0b10",
	  '2', '2', 'O', 'U', 'U' },
	{ "SPE-4.3.6-4: PMSCR_EL12 UNDEFINED at Secure EL2 (SCR_EL3.NS == 0)",
	  "have_sel2=1", "el=2 ns=0 scr_el3.eel2=1 e2h=1 mdcr_el3.nspb=0b01", 'O', 'O', 'O', 'O', 'U' },
	{ "SPE-4.3.7-1 SPE-4.3.6-2 with FEAT_NV (DDI 0487): EL1 access to PMSCR_EL2/PMSCR_EL12 traps to EL2 when HCR_EL2.NV == 1",
	  "have_nv2=1", "el=1 hcr_el2.nv=1", 'O', 'O', 'O', '2', '2' },
};

static const uint32_t smp_regs[] = { AP_PMSCR_EL1, AP_PMSICR_EL1, AP_PMSIRR_EL1, AP_PMSFCR_EL1,
	                                 AP_PMSEVFR_EL1, AP_PMSLATFR_EL1 };
static const uint32_t buf_regs[] = { AP_PMBLIMITR_EL1, AP_PMBPTR_EL1, AP_PMBSR_EL1 };

/* One register in one row: the check, MRS and MSR agree with the expected
 * outcome, and only an OK MSR changes the register. */
static void check_reg(const struct row *r, struct ap_pe *pe, uint32_t reg, char want_read, char want_write)
{
	const char *name = ap_sysreg_name(reg);
	int rd = ap_pe_check_access(pe, reg, false);
	int wr = ap_pe_check_access(pe, reg, true);
	if (rd != outcome(want_read) || wr != outcome(want_write))
		fprintf(stderr, "row [%s] state '%s' cfg '%s': %s read %s (want %c) write %s (want %c)\n",
		        r->ids, r->state, r->cfg, name, ap_access_name((enum ap_access)rd), want_read,
		        ap_access_name((enum ap_access)wr), want_write);
	CHECK_EQ_U64(rd, outcome(want_read));
	CHECK_EQ_U64(wr, outcome(want_write));

	uint64_t v = 0x5a5a5a5a5a5a5a5aull;
	CHECK_EQ_U64(ap_pe_mrs(pe, reg, &v), outcome(want_read));
	if (outcome(want_read) != AP_ACCESS_OK)
		CHECK_EQ_U64(v, 0x5a5a5a5a5a5a5a5aull); /* nothing read */

	/* The storage an MSR under this name reaches (PMSCR_EL1 -> PMSCR_EL2 at
	 * EL2 with E2H, PMSCR_EL12 -> PMSCR_EL1). */
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(pe, &st);
	uint32_t target = reg;
	if (reg == AP_PMSCR_EL1 && st.el == AP_EL2 && ((st.hcr_el2 >> AP_HCR_EL2_E2H) & 1))
		target = AP_PMSCR_EL2;
	if (reg == AP_PMSCR_EL12)
		target = AP_PMSCR_EL1;
	uint64_t before = 0, after = 0;
	if (ap_pe_peek(pe, target, &before) < 0)
		return;
	uint64_t pattern = ~before;
	if (reg == AP_PMBSR_EL1)
		pattern &= ~(1ull << 17); /* keep PMBIRQ quiet */
	CHECK_EQ_U64(ap_pe_msr(pe, reg, pattern), outcome(want_write));
	ap_pe_peek(pe, target, &after);
	if (outcome(want_write) == AP_ACCESS_OK) {
		/* A register that is all RES0 here (PMSCR_EL2 without EL2) keeps 0. */
		bool all_res0 = ap_pe_poke(pe, target, ~0ull) == 0 && ap_pe_peek(pe, target, &v) == 0 && v == 0;
		if (after == before && pattern != before && !all_res0)
			fprintf(stderr, "  row [%s] state '%s' cfg '%s': MSR %s changed nothing\n", r->ids,
			        r->state, r->cfg, name);
		CHECK(after != before || pattern == before || all_res0);
		ap_pe_poke(pe, target, before); /* restore for the next register */
	} else {
		CHECK_EQ_U64(after, before);
	}
}

static void run_row(const struct row *r)
{
	struct ap_pe *pe = fixture_pe(r->cfg);
	CHECK_EQ_U64(fixture_state(pe, r->state), 0);
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(pe, &st);
	bool e2h_el2 = st.el == AP_EL2 && ((st.hcr_el2 >> AP_HCR_EL2_E2H) & 1);
	for (size_t i = 0; i < sizeof(smp_regs) / sizeof(smp_regs[0]); i++) {
		/* SPE-4.3.5-2: PMSCR_EL1 at EL2 with E2H == 1 is PMSCR_EL2. */
		char c = (smp_regs[i] == AP_PMSCR_EL1 && e2h_el2) ? r->el2 : r->smp;
		check_reg(r, pe, smp_regs[i], c, c);
	}
	/* SPE-4.3.11-6 SPE-4.3.1-4 SPE-4.1-2: ID registers are read-only; an
	 * MSR is UNDEFINED. */
	check_reg(r, pe, AP_PMSIDR_EL1, r->smp, 'U');
	for (size_t i = 0; i < sizeof(buf_regs) / sizeof(buf_regs[0]); i++)
		check_reg(r, pe, buf_regs[i], r->buf, r->buf);
	check_reg(r, pe, AP_PMBIDR_EL1, r->idr, 'U');
	check_reg(r, pe, AP_PMSCR_EL2, r->el2, r->el2);
	check_reg(r, pe, AP_PMSCR_EL12, r->el12, r->el12);
	ap_pe_destroy(pe);
}

TEST(access_table_every_register_every_row)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		run_row(&rows[i]);
}

/* PMSICR-24 (DDI 0487 for the other registers): with FEAT_FGT,
 * HDFGRTR_EL2.<reg> traps reads and HDFGWTR_EL2.<reg> writes of exactly that
 * register at EL1 to EL2, before MDCR_EL2.TPMS; SCR_EL3.FGTEn == 0 disables
 * the fine-grained traps. */
TEST(fine_grained_traps_per_register)
{
	static const struct {
		uint32_t reg;
		unsigned bit;
		bool writable;
	} fgt[] = {
		{ AP_PMBLIMITR_EL1, 23, true }, { AP_PMBPTR_EL1, 24, true }, { AP_PMBSR_EL1, 25, true },
		{ AP_PMSCR_EL1, 26, true },     { AP_PMSEVFR_EL1, 27, true }, { AP_PMSFCR_EL1, 28, true },
		{ AP_PMSICR_EL1, 29, true },    { AP_PMSIDR_EL1, 30, false }, { AP_PMSIRR_EL1, 31, true },
		{ AP_PMSLATFR_EL1, 32, true },  { AP_PMBIDR_EL1, 63, false },
	};
	const size_t n = sizeof(fgt) / sizeof(fgt[0]);
	for (size_t i = 0; i < n; i++) {
		struct ap_pe *pe = fixture_pe("have_fgt=1");
		char state[128];
		snprintf(state, sizeof(state), "el=1 scr_el3.fgten=1 hdfgrtr_el2=0x%llx",
		         (unsigned long long)(1ull << fgt[i].bit));
		CHECK_EQ_U64(fixture_state(pe, state), 0);
		for (size_t j = 0; j < n; j++) {
			int want = (i == j) ? AP_ACCESS_TRAP_EL2 : AP_ACCESS_OK;
			CHECK_EQ_U64(ap_pe_check_access(pe, fgt[j].reg, false), want);
			if (fgt[j].writable)
				CHECK_EQ_U64(ap_pe_check_access(pe, fgt[j].reg, true), AP_ACCESS_OK);
		}
		/* The write trap register, same bit. */
		snprintf(state, sizeof(state), "hdfgrtr_el2=0 hdfgwtr_el2=0x%llx",
		         (unsigned long long)(1ull << fgt[i].bit));
		CHECK_EQ_U64(fixture_state(pe, state), 0);
		for (size_t j = 0; j < n; j++) {
			CHECK_EQ_U64(ap_pe_check_access(pe, fgt[j].reg, false), AP_ACCESS_OK);
			if (fgt[j].writable)
				CHECK_EQ_U64(ap_pe_check_access(pe, fgt[j].reg, true),
				             (i == j) ? AP_ACCESS_TRAP_EL2 : AP_ACCESS_OK);
		}
		/* SCR_EL3.FGTEn == 0: no fine-grained trap. */
		snprintf(state, sizeof(state), "scr_el3.fgten=0 hdfgrtr_el2=0x%llx hdfgwtr_el2=0x%llx",
		         (unsigned long long)(1ull << fgt[i].bit), (unsigned long long)(1ull << fgt[i].bit));
		CHECK_EQ_U64(fixture_state(pe, state), 0);
		CHECK_EQ_U64(ap_pe_check_access(pe, fgt[i].reg, false), AP_ACCESS_OK);
		/* At EL2 the fine-grained traps do not apply. */
		CHECK_EQ_U64(fixture_state(pe, "el=2 scr_el3.fgten=1"), 0);
		CHECK_EQ_U64(ap_pe_check_access(pe, fgt[i].reg, false), AP_ACCESS_OK);
		/* The fine-grained trap comes before the NSPB trap (PMSICR-24 PMSICR-25 PMSICR-26 PMSICR-27). */
		CHECK_EQ_U64(fixture_state(pe, "el=1 mdcr_el3.nspb=0b10"), 0);
		CHECK_EQ_U64(ap_pe_check_access(pe, fgt[i].reg, false),
		             fgt[i].reg == AP_PMBIDR_EL1 ? AP_ACCESS_TRAP_EL2 : AP_ACCESS_TRAP_EL2);
		ap_pe_destroy(pe);
	}
	/* Without FEAT_FGT the bits are ignored. */
	struct ap_pe *pe = fixture_pe("");
	CHECK_EQ_U64(fixture_state(pe, "el=1 scr_el3.fgten=1 hdfgrtr_el2.pmsicr_el1=1"), 0);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSICR_EL1, false), AP_ACCESS_OK);
	ap_pe_destroy(pe);
}

/* PMSICR-28: with FEAT_NV2 and HCR_EL2.<NV2,NV1,NV> == '1x1' an EL1 access
 * reaches memory at VNCR_EL2 + offset (0x838 for PMSICR_EL1; the other
 * offsets are DDI 0487's) and leaves the register alone. */
TEST(nv2_redirects_el1_accesses_to_memory)
{
	static const struct {
		uint32_t reg;
		uint64_t offset;
	} nv[] = {
		{ AP_PMBLIMITR_EL1, 0x800 }, { AP_PMBPTR_EL1, 0x810 }, { AP_PMBSR_EL1, 0x820 },
		{ AP_PMSCR_EL1, 0x828 },     { AP_PMSEVFR_EL1, 0x830 }, { AP_PMSICR_EL1, 0x838 },
		{ AP_PMSIRR_EL1, 0x840 },    { AP_PMSLATFR_EL1, 0x848 },
	};
	struct ap_pe *pe = fixture_pe("have_nv2=1");
	CHECK_EQ_U64(fixture_state(pe, "el=1 hcr_el2.nv=1 hcr_el2.nv2=1 vncr_el2=0x10000"), 0);
	for (size_t i = 0; i < sizeof(nv) / sizeof(nv[0]); i++) {
		uint64_t before, after, v = 0;
		ap_pe_peek(pe, nv[i].reg, &before);
		CHECK_EQ_U64(ap_pe_msr(pe, nv[i].reg, 0x1234), AP_ACCESS_OK);
		CHECK_EQ_U64(fixture_host_state.nvmem_last_addr, 0x10000 + nv[i].offset);
		ap_pe_peek(pe, nv[i].reg, &after);
		CHECK_EQ_U64(after, before);
		CHECK_EQ_U64(ap_pe_mrs(pe, nv[i].reg, &v), AP_ACCESS_OK);
		CHECK_EQ_U64(v, 0x1234);
	}
	/* PMSFCR_EL1 has no VNCR slot: the register itself is written. */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSFCR_EL1, 0x7), AP_ACCESS_OK);
	uint64_t fcr;
	ap_pe_peek(pe, AP_PMSFCR_EL1, &fcr);
	CHECK_EQ_U64(fcr, 0x7);
	/* NV1 is "x" in '1x1'; NV2 without NV does not redirect. */
	CHECK_EQ_U64(fixture_state(pe, "hcr_el2.nv=0"), 0);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSICR_EL1, 0x55), AP_ACCESS_OK);
	uint64_t icr;
	ap_pe_peek(pe, AP_PMSICR_EL1, &icr);
	CHECK_EQ_U64(icr, 0x55);
	ap_pe_destroy(pe);
}

/* Unknown encodings are not the model's: the caller applies its own rule
 * (SPE-4.1-2: DDI 0487 makes them UNDEFINED). */
TEST(unknown_encoding_is_reported)
{
	struct ap_pe *pe = fixture_pe("");
	uint64_t v;
	CHECK(ap_pe_mrs(pe, AP_SYSREG(3, 0, 9, 9, 1), &v) == -AP_ERR_INVALID);
	CHECK(ap_pe_msr(pe, AP_SYSREG(3, 0, 9, 10, 2), 0) == -AP_ERR_INVALID);
	CHECK(ap_pe_check_access(pe, AP_SYSREG(3, 0, 9, 10, 6), false) == -AP_ERR_INVALID);
	ap_pe_destroy(pe);
}

/* PMSICR-50: a trap is AArch64.SystemAccessTrap(ELx, 0x18); the ISS the
 * host reports (DDI 0487): MRS X0, PMSCR_EL1 -> 0x302413; MSR PMSCR_EL12, X3
 * -> op0 3, op2 0, op1 5, CRn 9, Rt 3, CRm 9, write. */
TEST(trap_syndrome)
{
	CHECK_EQ_U64(AP_EC_SYSREG_TRAP, 0x18);
	CHECK_EQ_U64(ap_sysreg_trap_iss(AP_PMSCR_EL1, 0, true), 0x302413);
	CHECK_EQ_U64(ap_sysreg_trap_iss(AP_PMSCR_EL12, 3, false), (3u << 20) | (5u << 14) | (9u << 10) | (3u << 5) | (9u << 1));
	CHECK_EQ_U64(ap_sysreg_trap_iss(AP_PMBIDR_EL1, 30, true),
	             (3u << 20) | (7u << 17) | (9u << 10) | (30u << 5) | (10u << 1) | 1u);
}

TEST_MAIN(CASE(trap_syndrome), CASE(access_table_every_register_every_row), CASE(fine_grained_traps_per_register),
          CASE(nv2_redirects_el1_accesses_to_memory), CASE(unknown_encoding_is_reported))

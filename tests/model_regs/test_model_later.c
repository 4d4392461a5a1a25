/* SPE after v1 in the PE core: spe.version and the feature keys, their
 * consistency, the presets, PMSIDR_EL1, and the registers PMSNEVFR_EL1 and
 * PMSDSFR_EL1 with their RES0 bits and traps (docs/requirements-later.md). */
#include "harness.h"
#include "model_fixture.h"

#define MAX_CFG "spe.version=v1p5 spe.fne=1 spe.fds=1 spe.eft=1 spe.crr=1 spe.pbt=1 spe.fpf=1 spe.sme=1"

static int validate_text(const char *text)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	fixture_apply(text, fixture_cfg_set, &cfg);
	struct ap_error_ctx err = { 0 };
	return ap_config_validate(&cfg, &err);
}

/* LATER-VER-1, LATER-VER-2: each feature needs its version; v1p2 has FnE. */
TEST(version_and_feature_consistency)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	CHECK_EQ_U64(cfg.spe_later.version, AP_SPE_V1);
	CHECK_EQ_U64(ap_config_pmsver(&cfg), 1);
	char buf[32];
	CHECK_EQ_U64(ap_config_get(&cfg, "spe.version", buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "v1");
	CHECK_EQ_U64(validate_text(""), 0);
	CHECK(validate_text("spe.fne=1") < 0);                    /* needs v1p2 */
	CHECK(validate_text("spe.version=v1p2") < 0);             /* v1p2 includes FnE */
	CHECK_EQ_U64(validate_text("spe.version=v1p2 spe.fne=1"), 0);
	CHECK_EQ_U64(validate_text("spe.version=v1p2 spe.fne=1 spe.pbt=1"), 0);
	CHECK(validate_text("spe.version=v1p3 spe.fne=1 spe.fds=1") < 0); /* needs v1p4 */
	CHECK(validate_text("spe.version=v1p3 spe.fne=1 spe.eft=1") < 0);
	CHECK(validate_text("spe.version=v1p3 spe.fne=1 spe.crr=1") < 0);
	CHECK(validate_text("spe.version=v1p1 spe.pbt=1") < 0);
	CHECK_EQ_U64(validate_text(MAX_CFG), 0);
	CHECK(ap_config_set(&cfg, "spe.version", "v2", NULL) < 0);
	CHECK_EQ_U64(ap_config_set(&cfg, "spe.version", "v1p5", NULL), 0);
	CHECK_EQ_U64(cfg.spe_later.version, 6);
	cfg.have_spe = false;
	CHECK_EQ_U64(ap_config_pmsver(&cfg), 0);
}

/* LATER-VER-4: the presets; max has every feature and validates. */
TEST(presets)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	struct ap_error_ctx err = { 0 };
	CHECK_EQ_U64(ap_config_spe_preset(&cfg, "max", &err), 0);
	CHECK_EQ_U64(cfg.spe_later.version, AP_SPE_V1P5);
	CHECK(cfg.spe_later.fne && cfg.spe_later.fds && cfg.spe_later.eft && cfg.spe_later.crr &&
	      cfg.spe_later.pbt && cfg.spe_later.fpf && cfg.spe_later.sme);
	CHECK_EQ_U64(ap_config_validate(&cfg, &err), 0);
	CHECK_EQ_U64(ap_config_spe_preset(&cfg, "neoverse-n2", &err), 0);
	CHECK_EQ_U64(ap_config_pmsver(&cfg), AP_SPE_V1P2);
	CHECK_EQ_U64(ap_config_validate(&cfg, &err), 0);
	CHECK_EQ_U64(ap_config_spe_preset(&cfg, "neoverse-v1", &err), 0);
	CHECK_EQ_U64(ap_config_pmsver(&cfg), AP_SPE_V1P1);
	CHECK_EQ_U64(ap_config_spe_preset(&cfg, "neoverse-n1", &err), 0);
	struct ap_config def;
	ap_config_init(&def);
	CHECK(memcmp(&cfg.spe_later, &def.spe_later, sizeof(def.spe_later)) == 0);
	CHECK(ap_config_spe_preset(&cfg, "cortex-a53", &err) < 0);
	CHECK(strstr(err.message, "neoverse-n1") != NULL);
}

/* LATER-VER-3, LATER-FNE-1, LATER-FDS-1, LATER-PBT-1, LATER-CRR-1,
 * LATER-EFT-1: PMSIDR_EL1 says what is implemented (Linux sysreg PMSIDR_EL1). */
TEST(pmsidr_bits)
{
	struct ap_pe *pe = fixture_pe("");
	fixture_state(pe, "el=3");
	uint64_t v1 = 0, v = 0;
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSIDR_EL1, &v1), AP_ACCESS_OK);
	CHECK_EQ_U64(v1 & ((1ull << 6) | (1ull << 7) | (0xFull << 24) | (1ull << 32)), 0);
	ap_pe_destroy(pe);
	pe = fixture_pe(MAX_CFG);
	fixture_state(pe, "el=3");
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSIDR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, v1 | 1ull << 6 | 1ull << 7 | 1ull << 24 | 1ull << 25 | 1ull << 26 | 1ull << 27 |
	                    1ull << 32);
	ap_pe_destroy(pe);
	pe = fixture_pe("spe.version=v1p2 spe.fne=1 spe.pbt=1");
	fixture_state(pe, "el=3");
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSIDR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, v1 | 1ull << 6 | 1ull << 24);
	ap_pe_destroy(pe);
}

/* LATER-FNE-2, LATER-FDS-2: without the feature the encodings are not the
 * model's, as in SPEv1; with it they read and write. */
TEST(registers_exist_with_their_feature)
{
	struct ap_pe *pe = fixture_pe("");
	fixture_state(pe, "el=3");
	uint64_t v;
	CHECK(ap_pe_mrs(pe, AP_PMSNEVFR_EL1, &v) == -AP_ERR_INVALID);
	CHECK(ap_pe_msr(pe, AP_PMSDSFR_EL1, 1) == -AP_ERR_INVALID);
	CHECK(ap_pe_peek(pe, AP_PMSNEVFR_EL1, &v) == -AP_ERR_INVALID);
	CHECK(ap_pe_poke(pe, AP_PMSDSFR_EL1, 1) == -AP_ERR_INVALID);
	uint32_t enc;
	CHECK_EQ_U64(ap_sysreg_lookup("pmsnevfr_el1", &enc), 0);
	CHECK_EQ_U64(enc, AP_SYSREG(3, 0, 9, 9, 1));
	CHECK_EQ_U64(ap_sysreg_lookup("PMSDSFR_EL1", &enc), 0);
	CHECK_EQ_U64(enc, AP_SYSREG(3, 0, 9, 10, 4));
	ap_pe_destroy(pe);

	pe = fixture_pe(MAX_CFG);
	fixture_state(pe, "el=3");
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSDSFR_EL1, ~0ull), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSDSFR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, ~0ull); /* S<63:0>: every bit a data source */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSNEVFR_EL1, ~0ull), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSNEVFR_EL1, &v), AP_ACCESS_OK);
	/* LATER-EVF-1: E[1..11] but 0, E[17..25] (SME), nothing IMP DEF
	 * (evfr_impdef_mask = 0) */
	CHECK_EQ_U64(v, 0x3FE0FFEull);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSEVFR_EL1, ~0ull), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSEVFR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0x3FE0FFEull);
	ap_pe_destroy(pe);
}

/* LATER-EVF-1: the filterable event bits of each version (DDI 0487
 * SPEFilterByEvents); v1 keeps E[1,3,5,7] and its IMP DEF choice. */
TEST(event_filter_bits_by_version)
{
	static const struct { const char *cfg; uint64_t bits; } rows[] = {
		{ "", 0xAA },
		{ "spe.evfr_impdef_mask=0x3000000", 0x30000AA },
		{ "spe.version=v1p1", 0x608AA },
		{ "spe.version=v1p2 spe.fne=1", 0x608EA },
		{ "spe.version=v1p4 spe.fne=1", 0xFE0FFE },
		{ "spe.version=v1p4 spe.fne=1 spe.evfr_impdef_mask=0x3000000", 0xFE0FFE }, /* [31:24] not IMP DEF */
		{ "spe.version=v1p4 spe.fne=1 spe.sme=1", 0x3FE0FFE },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ap_pe *pe = fixture_pe(rows[i].cfg);
		fixture_state(pe, "el=3");
		uint64_t v = 0;
		CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSEVFR_EL1, ~0ull), AP_ACCESS_OK);
		CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSEVFR_EL1, &v), AP_ACCESS_OK);
		CHECK_EQ_U64(v, rows[i].bits);
		ap_pe_destroy(pe);
	}
}

/* LATER-FNE-1, LATER-FDS-1, LATER-EFT-1: PMSFCR_EL1 fields each feature brings. */
TEST(pmsfcr_fields)
{
	static const struct { const char *cfg; uint64_t bits; } rows[] = {
		{ "", 0x70007 },
		{ "spe.version=v1p2 spe.fne=1", 0x7000F },
		{ "spe.version=v1p4 spe.fne=1 spe.fds=1", 0x7001F },
		{ "spe.version=v1p4 spe.fne=1 spe.eft=1", 0x1F0000001F000Full },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ap_pe *pe = fixture_pe(rows[i].cfg);
		fixture_state(pe, "el=3");
		uint64_t v = 0;
		CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSFCR_EL1, ~0ull), AP_ACCESS_OK);
		CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSFCR_EL1, &v), AP_ACCESS_OK);
		CHECK_EQ_U64(v, rows[i].bits);
		ap_pe_destroy(pe);
	}
}

/* LATER-FNE-3: PMSNEVFR_EL1 traps as the other sampling registers (TPMS,
 * NSPB) and by HDFGRTR_EL2/HDFGWTR_EL2.nPMSNEVFR_EL1 == 0 with FEAT_FGT. */
TEST(pmsnevfr_traps)
{
	struct ap_pe *pe = fixture_pe("spe.version=v1p2 spe.fne=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_OK);
	fixture_state(pe, "el=0");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_UNDEFINED);
	fixture_state(pe, "el=1 mdcr_el2.tpms=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, true), AP_ACCESS_TRAP_EL2);
	fixture_state(pe, "mdcr_el2.tpms=0 mdcr_el3.nspb=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_TRAP_EL3);
	ap_pe_destroy(pe);

	pe = fixture_pe("spe.version=v1p2 spe.fne=1 have_fgt=1");
	fixture_state(pe, "scr_el3.fgten=1");
	/* nPMSNEVFR_EL1 = 0 (reset): trapped; 1: not */
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_TRAP_EL2);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, true), AP_ACCESS_TRAP_EL2);
	fixture_state(pe, "hdfgrtr_el2.npmsnevfr_el1=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, true), AP_ACCESS_TRAP_EL2);
	fixture_state(pe, "hdfgwtr_el2.npmsnevfr_el1=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, true), AP_ACCESS_OK);
	fixture_state(pe, "scr_el3.fgten=0 hdfgrtr_el2.npmsnevfr_el1=0");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_OK);
	fixture_state(pe, "el=2");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_OK);
	ap_pe_destroy(pe);
}

/* LATER-FDS-3: PMSDSFR_EL1 traps to EL3 when MDCR_EL3.EnPMS3 == 0, at EL1
 * and EL2, after the EL2 traps; UNDEFINED instead in Debug state with SDD. */
TEST(pmsdsfr_enpms3)
{
	struct ap_pe *pe = fixture_pe("spe.version=v1p4 spe.fne=1 spe.fds=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_TRAP_EL3);
	fixture_state(pe, "el=2");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, true), AP_ACCESS_TRAP_EL3);
	fixture_state(pe, "el=3");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, true), AP_ACCESS_OK);
	fixture_state(pe, "el=1 mdcr_el3.enpms3=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_OK);
	fixture_state(pe, "mdcr_el3.enpms3=0 mdcr_el2.tpms=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_TRAP_EL2);
	fixture_state(pe, "mdcr_el2.tpms=0 debug=1 edscr.sdd=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_UNDEFINED);
	ap_pe_destroy(pe);
	/* without EL3 there is no EnPMS3 */
	pe = fixture_pe("spe.version=v1p4 spe.fne=1 spe.fds=1 have_el3=0");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_OK);
	ap_pe_destroy(pe);
}

/* LATER-FNE-3, LATER-FDS-3: the order of the new registers' traps, as for
 * the other sampling registers (PMSICR-24..32): at EL1 the EL2 traps
 * (FGT nPMSNEVFR_EL1 == 0, MDCR_EL2.TPMS) before the EL3 ones (MDCR_EL3.NSPB,
 * then EnPMS3 for PMSDSFR_EL1); at EL2 only the EL3 ones; none of EL2's
 * when EL2 is not enabled (Secure EL1 without Secure EL2); in Debug state
 * with EDSCR.SDD an EL3 trap is UNDEFINED instead. */
TEST(later_trap_order)
{
	struct ap_pe *pe = fixture_pe("spe.version=v1p4 spe.fne=1 spe.fds=1 have_fgt=1 have_sel2=1");
	fixture_state(pe, "el=1 scr_el3.fgten=1 mdcr_el3.enpms3=1 mdcr_el3.nspb=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_TRAP_EL2); /* FGT before NSPB */
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_TRAP_EL3);  /* NSPB */
	fixture_state(pe, "mdcr_el2.tpms=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, true), AP_ACCESS_TRAP_EL2); /* TPMS before NSPB */
	fixture_state(pe, "mdcr_el2.tpms=0 hdfgrtr_el2.npmsnevfr_el1=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_TRAP_EL3); /* NSPB */
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, true), AP_ACCESS_TRAP_EL2);  /* write FGT still 0 */

	/* At EL2: TPMS and the fine-grained traps are EL1's only. */
	fixture_state(pe, "el=2 mdcr_el2.tpms=1 hdfgrtr_el2.npmsnevfr_el1=0");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_TRAP_EL3);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_TRAP_EL3);
	fixture_state(pe, "mdcr_el3.nspb=3");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, true), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, true), AP_ACCESS_OK);
	fixture_state(pe, "mdcr_el3.enpms3=0");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_TRAP_EL3);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_OK); /* EnPMS3 is PMSDSFR's */
	fixture_state(pe, "halted=1 edscr.sdd=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_UNDEFINED);
	fixture_state(pe, "halted=0 edscr.sdd=0 mdcr_el3.nspb=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_TRAP_EL3);
	fixture_state(pe, "halted=1 edscr.sdd=1");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_UNDEFINED);

	/* Secure EL1 without Secure EL2: EL2 is not enabled, its traps do not
	 * apply; NSPB wants 0b01 in Secure state. */
	fixture_state(pe, "el=1 halted=0 edscr.sdd=0 scr_el3.ns=0 scr_el3.eel2=0 mdcr_el3.enpms3=1 "
	                  "mdcr_el2.tpms=1 hdfgrtr_el2.npmsnevfr_el1=0 hdfgwtr_el2.npmsnevfr_el1=0");
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, true), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, true), AP_ACCESS_OK);
	fixture_state(pe, "scr_el3.eel2=1"); /* with Secure EL2: both EL2 traps again */
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSNEVFR_EL1, false), AP_ACCESS_TRAP_EL2);
	CHECK_EQ_U64(ap_pe_check_access(pe, AP_PMSDSFR_EL1, false), AP_ACCESS_TRAP_EL2);
	ap_pe_destroy(pe);
}

TEST_MAIN(CASE(version_and_feature_consistency), CASE(presets), CASE(pmsidr_bits),
          CASE(registers_exist_with_their_feature), CASE(event_filter_bits_by_version),
          CASE(pmsfcr_fields), CASE(pmsnevfr_traps), CASE(pmsdsfr_enpms3), CASE(later_trap_order))

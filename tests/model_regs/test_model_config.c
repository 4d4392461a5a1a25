/* The model configuration and PE-state APIs: key=value setting with clear
 * errors (every IMPLEMENTATION DEFINED choice a named key, SPE-4.2-1,
 * SPE-4.3.11-33, ...), validation, older-caller struct sizes, PE-state
 * fields by spec name and the consistency check of ap_pe_set_state(). */
#include "harness.h"
#include "model_regs/model_fixture.h"

TEST(config_set_and_get)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	CHECK_EQ_U64(cfg.size, sizeof(cfg));
	struct ap_error_ctx err = { 0 };
	CHECK_EQ_U64(ap_config_set(&cfg, "spe.max_size", "0b1011", &err), 0);
	CHECK_EQ_U64(cfg.spe.max_size, 11);
	CHECK_EQ_U64(ap_config_set(&cfg, "HAVE_EL2", "false", &err), 0); /* keys are case-insensitive */
	CHECK_EQ_U64(cfg.have_el2, 0);
	CHECK_EQ_U64(ap_config_set(&cfg, "spe.ext_abort", "async", &err), 0);
	CHECK_EQ_U64(cfg.spe.ext_abort, AP_SPE_EA_ASYNC);
	CHECK_EQ_U64(ap_config_set(&cfg, "spe.evfr_impdef_mask", "0xFFFF_0000_0000_0000", &err), 0);
	CHECK_EQ_U64(cfg.spe.evfr_impdef_mask, 0xFFFF000000000000ull);
	CHECK_EQ_U64(ap_config_set(&cfg, "seed", "18446744073709551615", &err), 0);
	CHECK_EQ_U64(cfg.seed, UINT64_MAX);
	char buf[64];
	CHECK_EQ_U64(ap_config_get(&cfg, "spe.ext_abort", buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "async");
	CHECK_EQ_U64(ap_config_get(&cfg, "spe.max_size", buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "0xb");
	CHECK_EQ_U64(ap_config_get(&cfg, "have_el2", buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "0");
	/* A program may store an out-of-range enum: get prints the number and
	 * validation names the key. */
	cfg.spe.ext_abort = 9;
	CHECK_EQ_U64(ap_config_get(&cfg, "spe.ext_abort", buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "9");
	struct ap_error_ctx verr = { 0 };
	CHECK(ap_config_validate(&cfg, &verr) < 0);
	CHECK(strstr(verr.message, "spe.ext_abort") != NULL);
}

TEST(config_errors_name_the_problem)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	struct ap_config before = cfg;
	struct ap_error_ctx err = { 0 };
	CHECK(ap_config_set(&cfg, "spe.maxsize", "6", &err) < 0);
	CHECK(strstr(err.message, "unknown config key 'spe.maxsize'") != NULL);
	CHECK(ap_config_set(&cfg, "spe.max_size", "12", &err) < 0);
	CHECK(strstr(err.message, "out of range [4, 11]") != NULL);
	CHECK(ap_config_set(&cfg, "spe.max_size", "six", &err) < 0);
	CHECK(strstr(err.message, "not a number") != NULL);
	CHECK(ap_config_set(&cfg, "have_el2", "maybe", &err) < 0);
	CHECK(strstr(err.message, "not a boolean") != NULL);
	CHECK(ap_config_set(&cfg, "spe.ext_abort", "sometimes", &err) < 0);
	CHECK(strstr(err.message, "serror|sync|async") != NULL);
	CHECK(ap_config_set(&cfg, "seed", "18446744073709551616", &err) < 0); /* overflow */
	CHECK(ap_config_set(&cfg, "seed", "0x", &err) < 0);
	CHECK(ap_config_set(&cfg, "seed", "", &err) < 0);
	CHECK(ap_config_set(&cfg, "seed", "_1", &err) < 0);
	CHECK(memcmp(&cfg, &before, sizeof(cfg)) == 0); /* nothing changed */
	CHECK(ap_config_set(&cfg, "nope", "1", NULL) < 0);      /* err may be NULL */
}

TEST(config_validation)
{
	struct ap_config cfg;
	struct ap_error_ctx err = { 0 };
	ap_config_init(&cfg);
	CHECK_EQ_U64(ap_config_validate(&cfg, &err), 0);
	cfg.spe.interval = 1; /* SPE-4.3.11-25: reserved */
	CHECK(ap_config_validate(&cfg, &err) < 0);
	CHECK(strstr(err.message, "SPE-4.3.11-25") != NULL);
	ap_config_init(&cfg);
	cfg.spe.max_size = 3; /* SPE-4.3.11-16: reserved */
	CHECK(ap_config_validate(&cfg, &err) < 0);
	ap_config_init(&cfg);
	cfg.spe.min_granule_log2 = 13;
	CHECK(ap_config_validate(&cfg, &err) < 0);
	ap_config_init(&cfg);
	cfg.spe.align = 7; /* larger than max_size 6 */
	CHECK(ap_config_validate(&cfg, &err) < 0);
	ap_config_init(&cfg);
	cfg.have_el2 = false; /* VHE without EL2 */
	CHECK(ap_config_validate(&cfg, &err) < 0);
	CHECK(strstr(err.message, "have_vhe") != NULL);
	/* ap_pe_create refuses an invalid config and reports why. */
	struct ap_pe *pe = (struct ap_pe *)&cfg;
	CHECK(ap_pe_create(&cfg, NULL, &pe, &err) < 0);
	CHECK(pe == NULL);
}

/* An older caller's smaller struct: the missing fields take the defaults. */
TEST(config_from_older_smaller_struct)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	cfg.have_el3 = false;
	cfg.size = offsetof(struct ap_config, spe);
	cfg.spe.max_size = 99; /* beyond size: must be ignored */
	struct ap_pe *pe = NULL;
	CHECK_EQ_U64(ap_pe_create(&cfg, NULL, &pe, NULL), 0);
	CHECK_EQ_U64(ap_pe_config(pe)->have_el3, 0);
	CHECK_EQ_U64(ap_pe_config(pe)->spe.max_size, 6);
	/* Without callbacks the PE still works. */
	uint64_t v;
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBSR_EL1, 1ull << 17), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMBSR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 1ull << 17);
	ap_pe_destroy(pe);
	/* A key beyond the caller's struct is refused. */
	struct ap_error_ctx err = { 0 };
	CHECK(ap_config_set(&cfg, "spe.max_size", "5", &err) < 0);
}

TEST(key_enumeration)
{
	size_t n = 0;
	for (; ap_config_key_name(n); n++) {
		CHECK(ap_config_key_doc(n) != NULL);
		struct ap_config cfg;
		ap_config_init(&cfg);
		char buf[64];
		/* Every key reads back and accepts its own default. */
		CHECK_EQ_U64(ap_config_get(&cfg, ap_config_key_name(n), buf, sizeof(buf)), 0);
		CHECK_EQ_U64(ap_config_set(&cfg, ap_config_key_name(n), buf, NULL), 0);
	}
	CHECK(n >= 40);
	CHECK(ap_config_key_name(n) == NULL);
}

TEST(state_fields_by_name)
{
	struct ap_pe_state st;
	ap_pe_state_init(&st);
	uint64_t v;
	CHECK_EQ_U64(ap_pe_state_get_field(&st, "mdcr_el3.nspb", &v), 0);
	CHECK_EQ_U64(v, 3);
	CHECK_EQ_U64(ap_pe_state_set_field(&st, "mdcr_el2.e2pb", 0b10), 0);
	CHECK_EQ_U64(st.mdcr_el2, 2ull << 12);
	CHECK_EQ_U64(ap_pe_state_set_field(&st, "MDCR_EL2.TPMS", 1), 0);
	CHECK_EQ_U64(st.mdcr_el2, (2ull << 12) | (1ull << 14));
	CHECK_EQ_U64(ap_pe_state_set_field(&st, "e2h", 1), 0);
	CHECK_EQ_U64(st.hcr_el2, 1ull << 34);
	CHECK_EQ_U64(ap_pe_state_set_field(&st, "hdfgwtr_el2.pmslatfr_el1", 1), 0);
	CHECK_EQ_U64(st.hdfgwtr_el2, 1ull << 32);
	CHECK_EQ_U64(ap_pe_state_set_field(&st, "debug", 1), 0);
	CHECK_EQ_U64(st.halted, 1);
	CHECK_EQ_U64(ap_pe_state_set_field(&st, "vmid", 0xFFFF), 0);
	CHECK_EQ_U64(st.vmid, 0xFFFF);
	CHECK(ap_pe_state_set_field(&st, "mdcr_el2.e2pb", 4) < 0); /* does not fit */
	CHECK(ap_pe_state_set_field(&st, "el", 4) < 0);
	CHECK(ap_pe_state_set_field(&st, "mdcr_el2.nope", 0) < 0);
	CHECK(ap_pe_state_get_field(&st, "nope", &v) < 0);
}

/* ap_pe_set_state refuses states the configuration cannot be in and keeps
 * the old state. */
TEST(impossible_states)
{
	static const struct {
		const char *cfg;
		const char *state;
	} bad[] = {
		{ "have_el2=0 have_vhe=0", "el=2" },
		{ "have_el3=0", "el=3" },
		{ "", "el=0 aarch32=2" },            /* EL1 cannot use AArch32 (aarch32_els=1) */
		{ "aarch32_els=3", "el=0 aarch32=2" }, /* AArch32 EL1 over AArch64 EL0 */
		{ "have_vhe=0", "e2h=1" },           /* E2H is RES0 without FEAT_VHE */
		{ "", "el=2 ns=0" },                 /* Secure EL2 needs FEAT_SEL2 */
		{ "have_sel2=1", "el=2 ns=0" },      /* ... and SCR_EL3.EEL2 */
		{ "have_rme=1", "el=1 ns=0 scr_el3.nse=1" }, /* {NSE,NS} = {1,0} reserved */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ap_pe *pe = fixture_pe(bad[i].cfg);
		struct ap_pe_state before, after;
		before.size = after.size = sizeof(before);
		ap_pe_get_state(pe, &before);
		CHECK(fixture_state(pe, bad[i].state) < 0);
		ap_pe_get_state(pe, &after);
		CHECK(memcmp(&before, &after, sizeof(before)) == 0);
		ap_pe_destroy(pe);
	}
	/* The same states are fine where the configuration allows them. */
	struct ap_pe *pe = fixture_pe("have_sel2=1");
	CHECK_EQ_U64(fixture_state(pe, "el=2 ns=0 scr_el3.eel2=1"), 0);
	CHECK_EQ_U64(ap_pe_security(pe), AP_SS_SECURE);
	ap_pe_destroy(pe);
	pe = fixture_pe("have_rme=1");
	CHECK_EQ_U64(fixture_state(pe, "el=1 ns=1 scr_el3.nse=1"), 0);
	CHECK_EQ_U64(ap_pe_security(pe), AP_SS_REALM);
	CHECK_EQ_U64(fixture_state(pe, "el=3"), 0);
	CHECK_EQ_U64(ap_pe_security(pe), AP_SS_ROOT);
	ap_pe_destroy(pe);
}

/* An older caller's smaller struct ap_pe_state: only the fields it has are
 * replaced; the others keep their values. */
TEST(state_from_older_smaller_struct)
{
	struct ap_pe *pe = fixture_pe("");
	CHECK_EQ_U64(fixture_state(pe, "contextidr_el1=0x1234 el=1"), 0);
	struct ap_pe_state old;
	ap_pe_state_init(&old);
	old.size = offsetof(struct ap_pe_state, contextidr_el1);
	old.el = AP_EL2;
	old.contextidr_el1 = 0x9999; /* beyond size: ignored */
	CHECK_EQ_U64(ap_pe_set_state(pe, &old), 0);
	struct ap_pe_state now;
	now.size = sizeof(now);
	ap_pe_get_state(pe, &now);
	CHECK_EQ_U64(now.el, AP_EL2);
	CHECK_EQ_U64(now.contextidr_el1, 0x1234);
	/* get_state copies only what the caller's struct holds. */
	struct ap_pe_state small;
	memset(&small, 0xAB, sizeof(small));
	small.size = offsetof(struct ap_pe_state, contextidr_el1);
	ap_pe_get_state(pe, &small);
	CHECK_EQ_U64(small.el, AP_EL2);
	CHECK_EQ_U64(small.contextidr_el1, 0xABABABABABABABABull);
	struct ap_pe_state tiny = { 0 };
	tiny.size = 1; /* smaller than the size field itself */
	CHECK(ap_pe_set_state(pe, &tiny) < 0);
	ap_pe_destroy(pe);
}

/* SPE-1-1 (spec/002 1): SPE is OPTIONAL (have_spe) and needs at least Armv8.1:
 * an Armv8.0 version (pcsr.arch_major/arch_minor) with SPE is refused, without
 * SPE, or with SPE from Armv8.1 on (the default is Armv8.2), it is accepted. */
TEST(spe_needs_armv8_1)
{
	struct ap_config cfg;
	struct ap_error_ctx err = { 0 };
	ap_config_init(&cfg);
	CHECK(cfg.have_spe);
	CHECK_EQ_U64(cfg.pcsr.arch_major, 8);
	CHECK_EQ_U64(cfg.pcsr.arch_minor, 2);
	CHECK_EQ_U64(ap_config_validate(&cfg, &err), 0);
	cfg.pcsr.arch_minor = 1;
	CHECK_EQ_U64(ap_config_validate(&cfg, &err), 0);
	cfg.pcsr.arch_minor = 0;
	CHECK(ap_config_validate(&cfg, &err) < 0);
	CHECK(strstr(err.message, "SPE-1-1") != NULL);
	cfg.have_spe = false;
	CHECK_EQ_U64(ap_config_validate(&cfg, &err), 0);
	cfg.have_spe = true;
	cfg.pcsr.arch_major = 9; /* Armv9.0 includes Armv8.5 */
	CHECK_EQ_U64(ap_config_validate(&cfg, &err), 0);
}

TEST_MAIN(CASE(state_from_older_smaller_struct), CASE(spe_needs_armv8_1), CASE(config_set_and_get), CASE(config_errors_name_the_problem), CASE(config_validation),
          CASE(config_from_older_smaller_struct), CASE(key_enumeration), CASE(state_fields_by_name),
          CASE(impossible_states))

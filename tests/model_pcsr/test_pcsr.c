/* PC Sample-based Profiling (spec/001 H7.1, spec/003 PMPCSR): the sample,
 * its 0xFFFFFFFF/UNKNOWN cases, context side-effects, the Software Lock,
 * the authentication rules and suspend/activate. The behaviour follows the
 * DDI 0487 pseudocode bodies spec/001 only names (PCS-H7.1.4-3):
 * CreatePCSample, Read_PMPCSR, Read_EDPCSRlo, SetPCSample, SetPCSRUnknown,
 * PCSRSuspended, SetPCSRActive. */
#include "armprof/error.h"
#include "harness.h"
#include "model/pcsr/pcsr.h"

#define FILL 0x5A5A5A5A5A5A5A5Aull

/* A PE whose PC sampling is the one these tests were written for:
 * FEAT_PCSRv8p2 + v8p9 + FEAT_PMUv3_SS, Armv9.4, EXT64, active from reset
 * (PMPCSCTL.IMP = 0, reset_suspended false), UNKNOWN bits = FILL. The PE
 * state is driven through ap_pe_set_state(); the sample logic's functions
 * (lib/model/pcsr/pcsr.h) are called on the PE. */
struct rig {
	struct ap_config cfg;
	struct ap_pe_state st;
	struct ap_pe *pe;
};
#define P (&r.pe->pcsr)

static void cfg_default(struct rig *r)
{
	ap_config_init(&r->cfg);
	r->cfg.pcsr.feat_pcsrv8p9 = true;
	r->cfg.snapshot.feat_pmuv3_ss = true;
	r->cfg.pcsr.arch_major = 9;
	r->cfg.pcsr.arch_minor = 4;
	r->cfg.pcsr.pmu_ext = AP_PCSR_EXT64;
	r->cfg.pcsr.atomic64 = true;
	r->cfg.pcsr.unknown_fill = FILL;
	r->cfg.pcsr.pmpcsctl_imp = false; /* active from reset: reset_suspended is false */
}

static void set(struct rig *r)
{
	CHECK(ap_pe_set_state(r->pe, &r->st) == 0);
}

/* (Re)create the PE from r->cfg in Non-secure EL1 with known context. */
static void make(struct rig *r)
{
	struct ap_error_ctx err = { 0 };
	ap_pe_destroy(r->pe);
	r->pe = NULL;
	int rc = ap_pe_create(&r->cfg, NULL, &r->pe, &err);
	if (rc != 0)
		fprintf(stderr, "ap_pe_create: %s\n", err.message);
	CHECK(rc == 0);
	ap_pe_state_init(&r->st);
	r->st.contextidr_el1 = 0x1111;
	r->st.contextidr_el2 = 0x2222;
	r->st.vmid = 0x0123;
	set(r);
}

static void done(struct rig *r)
{
	ap_pe_destroy(r->pe);
	r->pe = NULL;
}

/* PCS-H7.1.2-4, PCS-H7.1.2-5, PCS-H7.1.2-13: forbidden configurations are
 * rejected with a message naming the rule. */
TEST(config_rules)
{
	struct rig r = { .pe = NULL };
	const char *why = NULL;
	cfg_default(&r);
	CHECK(ap_pcsr_config_check(&r.cfg, &why) == 0 && why == NULL);
	r.cfg.pcsr.feat_pcsrv8 = true;
	CHECK(ap_pcsr_config_check(&r.cfg, &why) == -AP_ERR_INVALID);
	CHECK(why && strstr(why, "PCS-H7.1.2-4"));
	cfg_default(&r);
	r.cfg.pcsr.feat_pcsrv8p2 = r.cfg.pcsr.feat_pcsrv8p9 = false;
	r.cfg.pcsr.feat_pcsrv8 = true;
	CHECK(ap_pcsr_config_check(&r.cfg, &why) == -AP_ERR_INVALID && strstr(why, "PCS-H7.1.2-5"));
	r.cfg.pcsr.arch_major = 8;
	r.cfg.pcsr.arch_minor = 1;
	CHECK(ap_pcsr_config_check(&r.cfg, &why) == 0);
	r.cfg.pcsr.arch_minor = 2;
	CHECK(ap_pcsr_config_check(&r.cfg, &why) == -AP_ERR_INVALID);
	cfg_default(&r);
	r.cfg.pcsr.feat_pcsrv8p9 = false;
	r.cfg.snapshot.feat_pmuv3_ss = false;
	r.cfg.pcsr.pmu_ext = AP_PCSR_EXT_NONE;
	r.cfg.pcsr.pmdevarch_archid = 0x0A30;
	CHECK(ap_pcsr_config_check(&r.cfg, &why) == -AP_ERR_INVALID && strstr(why, "PCS-H7.1.2-13"));
	r.cfg.pcsr.pmdevarch_archid = 0x0A10;
	CHECK(ap_pcsr_config_check(&r.cfg, &why) == 0);
	/* The PE refuses such a configuration, naming the rule. */
	struct ap_error_ctx err = { 0 };
	r.cfg.pcsr.feat_pcsrv8 = true;
	CHECK(ap_pe_create(&r.cfg, NULL, &r.pe, &err) == -AP_ERR_INVALID && r.pe == NULL);
	CHECK(strstr(err.message, "PCS-H7.1.2-4"));
}

/* H7.1.1: PCS-H7.1.1-2, PCS-H7.1.1-3, PCS-H7.1.1-4, PCS-H7.1.1-5, PCS-H7.1.1-6, PCS-H7.1.1-7,
 * PCS-H7.1.1-8, every allowing condition and its absence, in the Security
 * state the PE is in (SCR_EL3.{NSE,NS}, the Exception level). */
TEST(authentication_rules)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.have_rme = true;
	make(&r);
	r.st.ext_noninvasive = r.st.ext_secure_noninvasive = false;
	r.st.ext_realm_noninvasive = r.st.ext_root_noninvasive = false;
	set(&r);                                   /* Non-secure EL1 */
	CHECK(!ap_pcsr_allowed(r.pe)); /* -2: niden required */
	r.st.ext_noninvasive = true;
	set(&r);
	CHECK(ap_pcsr_allowed(r.pe));  /* -3 */
	r.st.scr_el3 = 0;                          /* Secure EL1 */
	set(&r);
	CHECK(ap_pe_security(r.pe) == AP_SS_SECURE);
	CHECK(!ap_pcsr_allowed(r.pe));
	r.st.ext_secure_noninvasive = true;
	set(&r);
	CHECK(ap_pcsr_allowed(r.pe));  /* -5 */
	r.st.ext_secure_noninvasive = false;
	r.st.scr_el3 = 1ull << AP_SCR_EL3_NSE | 1ull << AP_SCR_EL3_NS; /* Realm EL1 */
	set(&r);
	CHECK(ap_pe_security(r.pe) == AP_SS_REALM);
	CHECK(!ap_pcsr_allowed(r.pe));
	r.st.ext_realm_noninvasive = true;
	set(&r);
	CHECK(ap_pcsr_allowed(r.pe));  /* -6 */
	r.st.el = 3;                               /* Root: EL3 with FEAT_RME */
	r.st.scr_el3 = 0;
	set(&r);
	CHECK(ap_pe_security(r.pe) == AP_SS_ROOT);
	CHECK(!ap_pcsr_allowed(r.pe));
	r.st.ext_root_noninvasive = true;
	set(&r);
	CHECK(ap_pcsr_allowed(r.pe));  /* -7 */
	done(&r);
	/* -8: Secure EL0 with EL1 or EL3 in AArch32 and SDER.SUNIDEN (EL3 in
	 * AArch32 has every lower EL in AArch32 too). */
	cfg_default(&r);
	r.cfg.aarch32_els = 0xF;
	make(&r);
	r.st.ext_secure_noninvasive = false;
	r.st.scr_el3 = 0;
	r.st.el = 0;
	CHECK(ap_pe_state_set_field(&r.st, "sder.suniden", 1) == 0);
	set(&r);
	CHECK(!ap_pcsr_allowed(r.pe));
	r.st.aarch32 = 0x3;                        /* EL0, EL1 AArch32 */
	set(&r);
	CHECK(ap_pcsr_allowed(r.pe));
	r.st.aarch32 = 0xF;                        /* EL3 (and all below) AArch32 */
	set(&r);
	CHECK(ap_pcsr_allowed(r.pe));
	r.st.el = 1;
	set(&r);
	CHECK(!ap_pcsr_allowed(r.pe));
	CHECK(ap_pe_state_set_field(&r.st, "sder.suniden", 0) == 0);
	r.st.aarch32 = 0x3;
	r.st.el = 0;
	set(&r);
	CHECK(!ap_pcsr_allowed(r.pe));
	done(&r);
	/* -4: no EL3 allows Secure state without spniden. */
	cfg_default(&r);
	r.cfg.have_el3 = false;
	make(&r);
	r.st.ext_secure_noninvasive = false;
	r.st.scr_el3 = 0;                          /* the PE's fixed Security state: Secure */
	set(&r);
	CHECK(ap_pe_security(r.pe) == AP_SS_SECURE);
	CHECK(ap_pcsr_allowed(r.pe));
	r.st.ext_noninvasive = false;
	set(&r);
	CHECK(!ap_pcsr_allowed(r.pe));
	done(&r);
}

/* PCS-H7.1-3, PCS-H7.1-5, PCS-H7.1-6, PMPCSR-26, PMPCSR-28, PMPCSR-33: a read returns the last
 * branch target and
 * writes the context registers; other instructions are sampled only when
 * the implementation can (sample_any). */
TEST(read_returns_branch_target_and_context)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.pcsr.pmu_ext = AP_PCSR_EXT32;
	make(&r);
	ap_pcsr_retire(r.pe, 0xFFFF800012345678ull, true);
	ap_pcsr_retire(r.pe, 0xFFFF80001234567Cull, false);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x12345678);
	/* NS=1 (Non-secure), EL=01, PCSample[55:32] = 0xFF8000. */
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe), 0x80000000ull << 32 | 1ull << 61 | 0x00FF800012345678ull);
	CHECK_EQ_U64(P->pmcid1sr, 0x1111);
	CHECK_EQ_U64(P->pmcid2sr, 0x2222);
	CHECK_EQ_U64(P->pmvidsr, 0x0123);
	CHECK_EQ_U64(ap_pcsr_pmccidsr(r.pe), 0x0000222200001111ull);
	CHECK_EQ_U64(ap_pcsr_pmvcidsr(r.pe), 0x0000012300001111ull);
	r.cfg.pcsr.sample_any = true;
	make(&r);
	ap_pcsr_retire(r.pe, 0x1000, true);
	ap_pcsr_retire(r.pe, 0x1004, false);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x1004);
	done(&r);
}

/* PMPCSR-11 PMPCSR-12 PMPCSR-13 PMPCSR-14 PMPCSR-15 PMPCSR-19 PMPCSR-21
 * PMPCSR-23 PMPCSR-24 PMPCSR-25: the NS, NSE, EL and T fields. */
TEST(security_el_and_t_fields)
{
	static const struct { enum ap_security s; uint8_t el; uint64_t scr, ns, nse; } rows[] = {
		{ AP_SS_SECURE, 0, 0, 0, 0 },
		{ AP_SS_NONSECURE, 1, 1ull << AP_SCR_EL3_NS, 1, 0 },
		{ AP_SS_ROOT, 3, 0, 0, 1 },
		{ AP_SS_REALM, 2, 1ull << AP_SCR_EL3_NSE | 1ull << AP_SCR_EL3_NS, 1, 1 },
	};
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.have_rme = r.cfg.pcsr.feat_tme = true;
	for (unsigned i = 0; i < 4; i++) {
		make(&r);
		r.st.scr_el3 = rows[i].scr;
		r.st.el = rows[i].el;
		r.st.tstate = i & 1;
		set(&r);
		CHECK(ap_pe_security(r.pe) == rows[i].s);
		ap_pcsr_retire(r.pe, 0x4000 + i * 4, true);
		CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x4000 + i * 4);
		uint64_t v = ap_pcsr_pmpcsr(r.pe);
		CHECK_EQ_U64(v >> 63, rows[i].ns);
		CHECK_EQ_U64((v >> 59) & 1, rows[i].nse);
		CHECK_EQ_U64((v >> 61) & 3, rows[i].el);
		CHECK_EQ_U64((v >> 60) & 1, i & 1);
		CHECK_EQ_U64((v >> 56) & 7, 0); /* PMPCSR-25 RES0 */
	}
	/* Without FEAT_RME/FEAT_TME: NSE and T are RES0, NS = not Secure. */
	r.cfg.have_rme = r.cfg.pcsr.feat_tme = false;
	make(&r);
	r.st.scr_el3 = 0; /* Secure EL1 */
	r.st.tstate = true;
	set(&r);
	ap_pcsr_retire(r.pe, 0x10, true);
	ap_pcsr_read_pmpcsr_lo(r.pe, false);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) >> 59, 1ull << 2); /* only EL=01 */
	done(&r);
}

/* SetPCSample: AArch32 samples have PCSample[55:32] == 0; VMID is UNKNOWN at
 * EL2, at EL0 in host, and when EL2 is disabled; CONTEXTIDR_EL2 is UNKNOWN
 * when EL2 is disabled. */
TEST(context_unknown_cases)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	make(&r);
	r.st.aarch32 = 1; /* EL0 in AArch32 */
	r.st.el = 0;
	set(&r);
	ap_pcsr_retire(r.pe, 0x1234567800008000ull, true);
	ap_pcsr_read_pmpcsr_lo(r.pe, false);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0x00FFFFFF00000000ull, 0);
	CHECK_EQ_U64(P->pmvidsr, 0x0123);
	r.st.aarch32 = 0;
	r.st.hcr_el2 = 1ull << AP_HCR_EL2_E2H | 1ull << AP_HCR_EL2_TGE; /* EL0 in host */
	set(&r);
	ap_pcsr_retire(r.pe, 0x9000, true);
	ap_pcsr_read_pmpcsr_lo(r.pe, false);
	CHECK_EQ_U64(P->pmvidsr, FILL & 0xffff);
	r.st.hcr_el2 = 0;
	r.st.el = 2;
	set(&r);
	ap_pcsr_retire(r.pe, 0x9004, true);
	ap_pcsr_read_pmpcsr_lo(r.pe, false);
	CHECK_EQ_U64(P->pmvidsr, FILL & 0xffff);
	CHECK_EQ_U64(P->pmcid2sr, 0x2222);
	r.st.el = 1;
	r.st.scr_el3 = 0; /* Secure EL1, no FEAT_SEL2: EL2 disabled */
	set(&r);
	ap_pcsr_retire(r.pe, 0x9008, true);
	ap_pcsr_read_pmpcsr_lo(r.pe, false);
	CHECK_EQ_U64(P->pmcid2sr, (uint32_t)FILL);
	CHECK_EQ_U64(P->pmvidsr, FILL & 0xffff);
	done(&r);
}

/* PMPCSR-29, PMPCSR-32, PMPCSR-8: Debug state and prohibited reads return
 * 0xFFFFFFFF and make the rest UNKNOWN; PCS-H7.1.3-3: after leaving either
 * state the sample is UNKNOWN until a branch retires. */
TEST(debug_and_prohibited_reads)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	make(&r);
	ap_pcsr_retire(r.pe, 0x2000, true);
	r.st.halted = true;
	set(&r);
	uint64_t v = ap_pcsr_read_pmpcsr64(r.pe, false);
	CHECK_EQ_U64(v & 0xffffffff, 0xffffffff);
	CHECK_EQ_U64(v >> 32 & 0xE0FFFFFF, (FILL >> 32) & 0xE0FFFFFF);
	CHECK_EQ_U64(P->pmcid1sr, (uint32_t)FILL);
	r.st.halted = false;
	set(&r);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff); /* UNKNOWN -> ones */
	ap_pcsr_retire(r.pe, 0x2004, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x2004);
	r.st.ext_noninvasive = false;
	set(&r);
	ap_pcsr_retire(r.pe, 0x2008, true); /* not sampled while prohibited */
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff);
	r.st.ext_noninvasive = true;
	set(&r);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff);
	/* The stale policy returns the last sample instead. */
	r.cfg.pcsr.unknown = AP_PCSR_UNKNOWN_STALE;
	make(&r);
	ap_pcsr_retire(r.pe, 0x3000, true);
	r.st.halted = true;
	set(&r);
	r.st.halted = false;
	set(&r);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x3000);
	done(&r);
}

/* PMPCSR-30: the first read after reset may return 0xFFFFFFFF (config). */
TEST(first_read_after_reset)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.pcsr.first_read_ones = true;
	make(&r);
	ap_pcsr_retire(r.pe, 0x40, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x40);
	ap_pe_reset(r.pe); /* Warm reset */
	ap_pcsr_retire(r.pe, 0x44, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff);
	done(&r);
}

/* PMPCSR-34, PMPCSR-35: a memory-mapped read with PMLSR.SLK == 1 has no
 * side-effect; an external-debug (not memory-mapped) read does. */
TEST(software_lock)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	make(&r);
	CHECK_EQ_U64(ap_pcsr_read_lsr(r.pe, true), 3);  /* SLI, SLK: locked at reset */
	CHECK_EQ_U64(ap_pcsr_read_lsr(r.pe, false), 0);
	ap_pcsr_retire(r.pe, 0x5000, true);
	uint64_t before = ap_pcsr_pmpcsr(r.pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, true), 0x5000);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe), before);
	CHECK_EQ_U64(P->pmcid1sr, (uint32_t)FILL);
	ap_pcsr_write_lar(r.pe, 0xC5ACCE55);
	CHECK_EQ_U64(ap_pcsr_read_lsr(r.pe, true), 1);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, true), 0x5000);
	CHECK_EQ_U64(P->pmcid1sr, 0x1111);
	ap_pcsr_write_lar(r.pe, 0);
	CHECK_EQ_U64(ap_pcsr_read_lsr(r.pe, true), 3);
	r.cfg.pcsr.software_lock = false;
	make(&r);
	CHECK_EQ_U64(ap_pcsr_read_lsr(r.pe, true), 0);
	ap_pcsr_retire(r.pe, 0x5004, true);
	ap_pcsr_read_pmpcsr_lo(r.pe, true);
	CHECK_EQ_U64(P->pmcid1sr, 0x1111);
	done(&r);
}

/* H7.1.1.1 with FEAT_PCSRv8p9 and PMPCSCTL.IMP == 1: PCS-H7.1.1.1-1, PCS-H7.1.1.1-2,
 * PCS-H7.1.1.1-5, PCS-H7.1.1.1-6, PCS-H7.1.1.1-7,
 * PCS-H7.1.3-4. */
TEST(suspend_and_activate_imp1)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.pcsr.pmpcsctl_imp = true;
	make(&r);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(r.pe), 0x2); /* IMP=1, EN=0: suspended */
	CHECK(ap_pcsr_suspended(r.pe));
	ap_pcsr_retire(r.pe, 0x6000, true); /* not sampled while suspended */
	CHECK(!P->have_sample);
	/* Reading while suspended and allowed activates: EN=1, value 0xFFFFFFFF. */
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(r.pe), 0x3);
	CHECK(!ap_pcsr_suspended(r.pe));
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff); /* no branch since */
	ap_pcsr_retire(r.pe, 0x6004, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x6004);
	/* Software suspends again by writing EN=0. */
	ap_pcsr_write_pmpcsctl(r.pe, 0);
	CHECK(ap_pcsr_suspended(r.pe));
	ap_pcsr_retire(r.pe, 0x6008, true);
	/* A prohibited read does not activate. */
	r.st.ext_noninvasive = false;
	set(&r);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff);
	CHECK(ap_pcsr_suspended(r.pe));
	r.st.ext_noninvasive = true;
	set(&r);
	/* A Software-locked memory-mapped read has no side-effects: no activation. */
	ap_pcsr_read_pmpcsr_lo(r.pe, true);
	CHECK(ap_pcsr_suspended(r.pe));
	ap_pcsr_write_pmpcsctl(r.pe, 1);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff); /* left suspended, no branch */
	ap_pcsr_retire(r.pe, 0x600C, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x600C);
	/* PCS-H7.1.3-4 alternative: the activating read returns an UNKNOWN value. */
	r.cfg.pcsr.activate_read_ones = false;
	r.cfg.pcsr.unknown = AP_PCSR_UNKNOWN_STALE;
	make(&r);
	ap_pcsr_write_pmpcsctl(r.pe, 1);
	ap_pcsr_retire(r.pe, 0x7000, true);
	ap_pcsr_write_pmpcsctl(r.pe, 0);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x7000);
	done(&r);
}

/* PCS-H7.1.1.1-3, PCS-H7.1.1.1-4, PCS-H7.1.1.1-8: without IMP, EN is RAZ/WI; the suspended state at
 * reset is IMPLEMENTATION DEFINED and only a Warm reset returns to it. */
TEST(suspend_imp0_and_no_v8p9)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.pcsr.reset_suspended = true;
	make(&r);
	ap_pcsr_write_pmpcsctl(r.pe, 1);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(r.pe), 0);
	CHECK(ap_pcsr_suspended(r.pe));
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xffffffff);
	CHECK(!ap_pcsr_suspended(r.pe));
	ap_pcsr_retire(r.pe, 0x8000, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0x8000);
	ap_pe_reset(r.pe); /* Warm reset */
	CHECK(ap_pcsr_suspended(r.pe));
	r.cfg.pcsr.feat_pcsrv8p9 = false;
	make(&r);
	ap_pcsr_write_pmpcsctl(r.pe, 0x13);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(r.pe), 0); /* PMPCSCTL RES0 without v8p9 */
	CHECK(ap_pcsr_suspended(r.pe));
	done(&r);
}

/* PCS-H7.1.1.1-9, PCS-H7.1.1.1-10, PCS-H7.1.1.1-11, PCS-H7.1.1.1-12, PCS-H7.1.1.1-13,
 * PCS-H7.1.1.1-14: PMPCSCTL.SS = 1 makes profiling active whatever EN,
 * disables sampling on reads: reads return the last sample, no side-effects. */
TEST(sample_on_snapshot_disables_read_sampling)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.pcsr.pmpcsctl_imp = true;
	make(&r);
	ap_pcsr_write_pmpcsctl(r.pe, 0x10); /* SS=1, EN=0 */
	CHECK(!ap_pcsr_suspended(r.pe));
	CHECK(!ap_pcsr_sampling_on_reads(r.pe));
	ap_pcsr_retire(r.pe, 0xA000, true);
	CHECK(P->have_sample);
	uint64_t cold = ap_pcsr_pmpcsr(r.pe);
	CHECK_EQ_U64(cold, FILL); /* Cold reset value (UNKNOWN: the fill) */
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), (uint32_t)FILL);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe), cold);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(r.pe) & 1, 0); /* EN unchanged */
	ap_pcsr_capture(r.pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0xA000);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(r.pe) & 1, 1); /* SetPCSRActive on capture */
	/* Without FEAT_PMUv3_SS the bit is RES0 and reads sample. */
	r.cfg.snapshot.feat_pmuv3_ss = false;
	make(&r);
	ap_pcsr_write_pmpcsctl(r.pe, 0x11);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(r.pe), 0x3);
	CHECK(ap_pcsr_sampling_on_reads(r.pe));
	done(&r);
}

/* SS-RVPZHN-4, SS-RVPZHN-5, SS-RVPZHN-6, SS-RVPZHN-7, SS-RVPZHN-8, SS-RWSVYM-2, SS-RWSVYM-3:
 * the Capture-event sample. */
TEST(capture_sample_rules)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	make(&r);
	ap_pcsr_write_pmpcsctl(r.pe, 0x10);
	ap_pcsr_retire(r.pe, 0xB000, true);
	ap_pcsr_capture(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0xffffffff, 0xB000);
	CHECK_EQ_U64(P->pmcid1sr, 0x1111);
	/* No branch since the previous Capture: UNKNOWN (ones policy). */
	r.st.contextidr_el1 = 0x7777;
	set(&r);
	uint64_t hi = ap_pcsr_pmpcsr(r.pe) >> 32;
	ap_pcsr_capture(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0xffffffff, 0xffffffff);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) >> 32, hi);     /* unchanged, SS-RVPZHN-8 */
	CHECK_EQ_U64(P->pmcid1sr, 0x1111);
	/* Debug state: ones, the rest unchanged. */
	ap_pcsr_retire(r.pe, 0xB004, true);
	r.st.halted = true;
	set(&r);
	ap_pcsr_capture(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0xffffffff, 0xffffffff);
	CHECK_EQ_U64(P->pmcid1sr, 0x1111);
	/* SS-RWSVYM-3 option: the first Capture after SS=1 records ones. */
	r.cfg.pcsr.capture_unknown_ones = true;
	make(&r);
	ap_pcsr_write_pmpcsctl(r.pe, 0x10);
	ap_pcsr_retire(r.pe, 0xC000, true);
	ap_pcsr_capture(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0xffffffff, 0xffffffff);
	ap_pcsr_retire(r.pe, 0xC004, true);
	ap_pcsr_capture(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0xffffffff, 0xC004);
	done(&r);
}

/* FEAT_PCSRv8: Read_EDPCSRlo (PCS-H7.1.4-1, PCS-H7.1.2-7, PCS-H7.1.3-5). */
TEST(edpcsr_v8)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.pcsr.feat_pcsrv8 = true;
	r.cfg.pcsr.feat_pcsrv8p2 = r.cfg.pcsr.feat_pcsrv8p9 = r.cfg.snapshot.feat_pmuv3_ss = false;
	r.cfg.pcsr.arch_major = 8;
	r.cfg.pcsr.arch_minor = 1;
	make(&r);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(r.pe, false), 0); /* PMPCSR-2: RES0 */
	ap_pcsr_retire(r.pe, 0x0000123480001000ull, true);
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(r.pe, false), 0x80001000);
	CHECK_EQ_U64(P->edpcsr_hi, 0x1234);
	CHECK_EQ_U64(P->edcidsr, 0x1111);
	/* EDVIDSR: NS [31], E2 [30], E3 [29], HV [28], VMID [15:0]. */
	CHECK_EQ_U64(P->edvidsr, 1u << 31 | 1u << 28 | 0x0123);
	/* No branch since the last read: UNKNOWN -> ones. */
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(r.pe, false), 0xffffffff);
	CHECK_EQ_U64(P->edcidsr, (uint32_t)FILL);
	/* EDSCR.SC2 == 1: EDPCSRhi holds NS, EL, PC[55:32]; EDVIDSR CONTEXTIDR_EL2. */
	CHECK(ap_pe_state_set_field(&r.st, "edscr.sc2", 1) == 0);
	r.st.el = 2;
	set(&r);
	ap_pcsr_retire(r.pe, 0x00AB000000002000ull, true);
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(r.pe, false), 0x2000);
	CHECK_EQ_U64(P->edpcsr_hi, 1u << 31 | 2u << 29 | 0xAB0000);
	CHECK_EQ_U64(P->edvidsr, 0x2222);
	/* At EL3 in AArch64, E3 is set; a zero high word gives HV as configured. */
	CHECK(ap_pe_state_set_field(&r.st, "edscr.sc2", 0) == 0);
	r.st.el = 3; /* EL3 without FEAT_RME: Secure */
	set(&r);
	CHECK(ap_pe_security(r.pe) == AP_SS_SECURE);
	ap_pcsr_retire(r.pe, 0x3000, true);
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(r.pe, false), 0x3000);
	CHECK_EQ_U64(P->edvidsr, 1u << 29 | 1u << 28);
	done(&r);
}

TEST_MAIN(CASE(config_rules), CASE(authentication_rules), CASE(read_returns_branch_target_and_context),
          CASE(security_el_and_t_fields), CASE(context_unknown_cases), CASE(debug_and_prohibited_reads),
          CASE(first_read_after_reset), CASE(software_lock), CASE(suspend_and_activate_imp1),
          CASE(suspend_imp0_and_no_v8p9), CASE(sample_on_snapshot_disables_read_sampling),
          CASE(capture_sample_rules), CASE(edpcsr_v8))

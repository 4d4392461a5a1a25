/* PC Sample-based Profiling (spec/001 H7.1, spec/003 PMPCSR): the sample,
 * its 0xFFFFFFFF/UNKNOWN cases, context side-effects, the Software Lock,
 * the authentication rules and suspend/activate. The behaviour follows the
 * DDI 0487 pseudocode bodies spec/001 only names (PCS-H7.1.4-3):
 * CreatePCSample, Read_PMPCSR, Read_EDPCSRlo, SetPCSample, SetPCSRUnknown,
 * PCSRSuspended, SetPCSRActive. */
#include "armprof/error.h"
#include "armprof/pcsr.h"
#include "harness.h"

#define FILL 0x5A5A5A5A5A5A5A5Aull

static void cfg_default(struct ap_pcsr_config *cfg)
{
	ap_pcsr_config_init(cfg);
	cfg->unknown_fill = FILL;
	cfg->pmpcsctl_imp = false; /* active from reset: reset_suspended is false */
}

static void make(struct ap_pcsr *p, const struct ap_pcsr_config *cfg, struct ap_pcsr_pe *pe)
{
	ap_pcsr_pe_init(pe);
	pe->contextidr_el1 = 0x1111;
	pe->contextidr_el2 = 0x2222;
	pe->vmid = 0x0123;
	CHECK(ap_pcsr_init(p, cfg, pe) == 0);
}

/* PCS-H7.1.2-4, PCS-H7.1.2-5, PCS-H7.1.2-13: forbidden configurations are
 * rejected with a message naming the rule. */
TEST(config_rules)
{
	struct ap_pcsr_config cfg;
	const char *why = NULL;
	ap_pcsr_config_init(&cfg);
	CHECK(ap_pcsr_config_check(&cfg, &why) == 0 && why == NULL);
	cfg.feat_pcsrv8 = true;
	CHECK(ap_pcsr_config_check(&cfg, &why) == -AP_ERR_INVALID);
	CHECK(why && strstr(why, "PCS-H7.1.2-4"));
	ap_pcsr_config_init(&cfg);
	cfg.feat_pcsrv8p2 = cfg.feat_pcsrv8p9 = false;
	cfg.feat_pcsrv8 = true;
	CHECK(ap_pcsr_config_check(&cfg, &why) == -AP_ERR_INVALID && strstr(why, "PCS-H7.1.2-5"));
	cfg.arch_major = 8;
	cfg.arch_minor = 1;
	CHECK(ap_pcsr_config_check(&cfg, &why) == 0);
	cfg.arch_minor = 2;
	CHECK(ap_pcsr_config_check(&cfg, &why) == -AP_ERR_INVALID);
	ap_pcsr_config_init(&cfg);
	cfg.feat_pcsrv8p9 = false;
	cfg.pmu_ext = AP_PCSR_EXT_NONE;
	cfg.pmdevarch_archid = 0x0A30;
	CHECK(ap_pcsr_config_check(&cfg, &why) == -AP_ERR_INVALID && strstr(why, "PCS-H7.1.2-13"));
	cfg.pmdevarch_archid = 0x0A10;
	CHECK(ap_pcsr_config_check(&cfg, &why) == 0);
	struct ap_pcsr p;
	struct ap_pcsr_pe pe;
	ap_pcsr_pe_init(&pe);
	cfg.feat_pcsrv8 = true;
	CHECK(ap_pcsr_init(&p, &cfg, &pe) == -AP_ERR_INVALID);
}

/* H7.1.1: PCS-H7.1.1-2, PCS-H7.1.1-3, PCS-H7.1.1-4, PCS-H7.1.1-5, PCS-H7.1.1-6, PCS-H7.1.1-7,
 * PCS-H7.1.1-8, every allowing condition and its absence. */
TEST(authentication_rules)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	cfg_default(&cfg);
	cfg.feat_rme = true;
	ap_pcsr_pe_init(&pe);
	pe.niden = pe.spniden = pe.rlpniden = pe.rtpniden = false;
	pe.security = AP_PCSR_NONSECURE;
	CHECK(!ap_pcsr_allowed(&cfg, &pe)); /* -2: niden required */
	pe.niden = true;
	CHECK(ap_pcsr_allowed(&cfg, &pe));  /* -3 */
	pe.security = AP_PCSR_SECURE;
	CHECK(!ap_pcsr_allowed(&cfg, &pe));
	pe.spniden = true;
	CHECK(ap_pcsr_allowed(&cfg, &pe));  /* -5 */
	pe.spniden = false;
	pe.security = AP_PCSR_REALM;
	CHECK(!ap_pcsr_allowed(&cfg, &pe));
	pe.rlpniden = true;
	CHECK(ap_pcsr_allowed(&cfg, &pe));  /* -6 */
	pe.security = AP_PCSR_ROOT;
	CHECK(!ap_pcsr_allowed(&cfg, &pe));
	pe.rtpniden = true;
	CHECK(ap_pcsr_allowed(&cfg, &pe));  /* -7 */
	/* -8: Secure EL0 with EL1 or EL3 in AArch32 and SDER.SUNIDEN. */
	pe.security = AP_PCSR_SECURE;
	pe.el = 0;
	pe.sder_suniden = true;
	CHECK(!ap_pcsr_allowed(&cfg, &pe));
	pe.el1_aarch32 = true;
	CHECK(ap_pcsr_allowed(&cfg, &pe));
	pe.el1_aarch32 = false;
	pe.el3_aarch32 = true;
	CHECK(ap_pcsr_allowed(&cfg, &pe));
	pe.el = 1;
	CHECK(!ap_pcsr_allowed(&cfg, &pe));
	/* -4: no EL3 allows Secure state without spniden. */
	cfg.feat_rme = false;
	cfg.have_el3 = false;
	CHECK(ap_pcsr_allowed(&cfg, &pe));
	pe.niden = false;
	CHECK(!ap_pcsr_allowed(&cfg, &pe));
}

/* PCS-H7.1-3, PCS-H7.1-5, PCS-H7.1-6, PMPCSR-26, PMPCSR-28, PMPCSR-33: a read returns the last
 * branch target and
 * writes the context registers; other instructions are sampled only when
 * the implementation can (sample_any). */
TEST(read_returns_branch_target_and_context)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	cfg.pmu_ext = AP_PCSR_EXT32;
	make(&p, &cfg, &pe);
	ap_pcsr_retire(&p, 0xFFFF800012345678ull, true);
	ap_pcsr_retire(&p, 0xFFFF80001234567Cull, false);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x12345678);
	/* NS=1 (Non-secure), EL=01, PCSample[55:32] = 0xFF8000. */
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p), 0x80000000ull << 32 | 1ull << 61 | 0x00FF800012345678ull);
	CHECK_EQ_U64(p.pmcid1sr, 0x1111);
	CHECK_EQ_U64(p.pmcid2sr, 0x2222);
	CHECK_EQ_U64(p.pmvidsr, 0x0123);
	CHECK_EQ_U64(ap_pcsr_pmccidsr(&p), 0x0000222200001111ull);
	CHECK_EQ_U64(ap_pcsr_pmvcidsr(&p), 0x0000012300001111ull);
	cfg.sample_any = true;
	make(&p, &cfg, &pe);
	ap_pcsr_retire(&p, 0x1000, true);
	ap_pcsr_retire(&p, 0x1004, false);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x1004);
}

/* PMPCSR-11 PMPCSR-12 PMPCSR-13 PMPCSR-14 PMPCSR-15 PMPCSR-19 PMPCSR-21
 * PMPCSR-23 PMPCSR-24 PMPCSR-25: the NS, NSE, EL and T fields. */
TEST(security_el_and_t_fields)
{
	static const struct { enum ap_pcsr_security s; uint64_t ns, nse; } rows[] = {
		{ AP_PCSR_SECURE, 0, 0 }, { AP_PCSR_NONSECURE, 1, 0 },
		{ AP_PCSR_ROOT, 0, 1 }, { AP_PCSR_REALM, 1, 1 },
	};
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	cfg.feat_rme = cfg.feat_tme = true;
	for (unsigned i = 0; i < 4; i++) {
		make(&p, &cfg, &pe);
		pe.security = rows[i].s;
		pe.el = (uint8_t)(i == 2 ? 3 : i);
		pe.tstate = i & 1;
		ap_pcsr_set_pe(&p, &pe);
		ap_pcsr_retire(&p, 0x4000 + i * 4, true);
		CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x4000 + i * 4);
		uint64_t v = ap_pcsr_pmpcsr(&p);
		CHECK_EQ_U64(v >> 63, rows[i].ns);
		CHECK_EQ_U64((v >> 59) & 1, rows[i].nse);
		CHECK_EQ_U64((v >> 61) & 3, pe.el);
		CHECK_EQ_U64((v >> 60) & 1, i & 1);
		CHECK_EQ_U64((v >> 56) & 7, 0); /* PMPCSR-25 RES0 */
	}
	/* Without FEAT_RME/FEAT_TME: NSE and T are RES0, NS = not Secure. */
	cfg.feat_rme = cfg.feat_tme = false;
	make(&p, &cfg, &pe);
	pe.security = AP_PCSR_SECURE;
	pe.tstate = true;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x10, true);
	ap_pcsr_read_pmpcsr_lo(&p, false);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) >> 59, 1ull << 2); /* only EL=01 */
}

/* SetPCSample: AArch32 samples have PCSample[55:32] == 0; VMID is UNKNOWN at
 * EL2, at EL0 in host, and when EL2 is disabled; CONTEXTIDR_EL2 is UNKNOWN
 * when EL2 is disabled. */
TEST(context_unknown_cases)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	make(&p, &cfg, &pe);
	pe.aarch32 = true;
	pe.el = 0;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x1234567800008000ull, true);
	ap_pcsr_read_pmpcsr_lo(&p, false);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) & 0x00FFFFFF00000000ull, 0);
	CHECK_EQ_U64(p.pmvidsr, 0x0123);
	pe.aarch32 = false;
	pe.in_host = true;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x9000, true);
	ap_pcsr_read_pmpcsr_lo(&p, false);
	CHECK_EQ_U64(p.pmvidsr, FILL & 0xffff);
	pe.in_host = false;
	pe.el = 2;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x9004, true);
	ap_pcsr_read_pmpcsr_lo(&p, false);
	CHECK_EQ_U64(p.pmvidsr, FILL & 0xffff);
	CHECK_EQ_U64(p.pmcid2sr, 0x2222);
	pe.el = 1;
	pe.el2_enabled = false;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x9008, true);
	ap_pcsr_read_pmpcsr_lo(&p, false);
	CHECK_EQ_U64(p.pmcid2sr, (uint32_t)FILL);
	CHECK_EQ_U64(p.pmvidsr, FILL & 0xffff);
}

/* PMPCSR-29, PMPCSR-32, PMPCSR-8: Debug state and prohibited reads return
 * 0xFFFFFFFF and make the rest UNKNOWN; PCS-H7.1.3-3: after leaving either
 * state the sample is UNKNOWN until a branch retires. */
TEST(debug_and_prohibited_reads)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	make(&p, &cfg, &pe);
	ap_pcsr_retire(&p, 0x2000, true);
	pe.halted = true;
	ap_pcsr_set_pe(&p, &pe);
	uint64_t v = ap_pcsr_read_pmpcsr64(&p, false);
	CHECK_EQ_U64(v & 0xffffffff, 0xffffffff);
	CHECK_EQ_U64(v >> 32 & 0xE0FFFFFF, (FILL >> 32) & 0xE0FFFFFF);
	CHECK_EQ_U64(p.pmcid1sr, (uint32_t)FILL);
	pe.halted = false;
	ap_pcsr_set_pe(&p, &pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff); /* UNKNOWN -> ones */
	ap_pcsr_retire(&p, 0x2004, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x2004);
	pe.niden = false;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x2008, true); /* not sampled while prohibited */
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff);
	pe.niden = true;
	ap_pcsr_set_pe(&p, &pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff);
	/* The stale policy returns the last sample instead. */
	cfg.unknown = AP_PCSR_UNKNOWN_STALE;
	make(&p, &cfg, &pe);
	ap_pcsr_retire(&p, 0x3000, true);
	pe.halted = true;
	ap_pcsr_set_pe(&p, &pe);
	pe.halted = false;
	ap_pcsr_set_pe(&p, &pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x3000);
}

/* PMPCSR-30: the first read after reset may return 0xFFFFFFFF (config). */
TEST(first_read_after_reset)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	cfg.first_read_ones = true;
	make(&p, &cfg, &pe);
	ap_pcsr_retire(&p, 0x40, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x40);
	ap_pcsr_reset(&p, false);
	ap_pcsr_retire(&p, 0x44, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff);
}

/* PMPCSR-34, PMPCSR-35: a memory-mapped read with PMLSR.SLK == 1 has no
 * side-effect; an external-debug (not memory-mapped) read does. */
TEST(software_lock)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	make(&p, &cfg, &pe);
	CHECK_EQ_U64(ap_pcsr_read_lsr(&p, true), 3);  /* SLI, SLK: locked at reset */
	CHECK_EQ_U64(ap_pcsr_read_lsr(&p, false), 0);
	ap_pcsr_retire(&p, 0x5000, true);
	uint64_t before = ap_pcsr_pmpcsr(&p);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, true), 0x5000);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p), before);
	CHECK_EQ_U64(p.pmcid1sr, (uint32_t)FILL);
	ap_pcsr_write_lar(&p, 0xC5ACCE55);
	CHECK_EQ_U64(ap_pcsr_read_lsr(&p, true), 1);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, true), 0x5000);
	CHECK_EQ_U64(p.pmcid1sr, 0x1111);
	ap_pcsr_write_lar(&p, 0);
	CHECK_EQ_U64(ap_pcsr_read_lsr(&p, true), 3);
	cfg.software_lock = false;
	make(&p, &cfg, &pe);
	CHECK_EQ_U64(ap_pcsr_read_lsr(&p, true), 0);
	ap_pcsr_retire(&p, 0x5004, true);
	ap_pcsr_read_pmpcsr_lo(&p, true);
	CHECK_EQ_U64(p.pmcid1sr, 0x1111);
}

/* H7.1.1.1 with FEAT_PCSRv8p9 and PMPCSCTL.IMP == 1: PCS-H7.1.1.1-1, PCS-H7.1.1.1-2,
 * PCS-H7.1.1.1-5, PCS-H7.1.1.1-6, PCS-H7.1.1.1-7,
 * PCS-H7.1.3-4. */
TEST(suspend_and_activate_imp1)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	cfg.pmpcsctl_imp = true;
	make(&p, &cfg, &pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(&p), 0x2); /* IMP=1, EN=0: suspended */
	CHECK(ap_pcsr_suspended(&p));
	ap_pcsr_retire(&p, 0x6000, true); /* not sampled while suspended */
	CHECK(!p.have_sample);
	/* Reading while suspended and allowed activates: EN=1, value 0xFFFFFFFF. */
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(&p), 0x3);
	CHECK(!ap_pcsr_suspended(&p));
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff); /* no branch since */
	ap_pcsr_retire(&p, 0x6004, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x6004);
	/* Software suspends again by writing EN=0. */
	ap_pcsr_write_pmpcsctl(&p, 0);
	CHECK(ap_pcsr_suspended(&p));
	ap_pcsr_retire(&p, 0x6008, true);
	/* A prohibited read does not activate. */
	pe.niden = false;
	ap_pcsr_set_pe(&p, &pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff);
	CHECK(ap_pcsr_suspended(&p));
	pe.niden = true;
	ap_pcsr_set_pe(&p, &pe);
	/* A Software-locked memory-mapped read has no side-effects: no activation. */
	ap_pcsr_read_pmpcsr_lo(&p, true);
	CHECK(ap_pcsr_suspended(&p));
	ap_pcsr_write_pmpcsctl(&p, 1);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff); /* left suspended, no branch */
	ap_pcsr_retire(&p, 0x600C, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x600C);
	/* PCS-H7.1.3-4 alternative: the activating read returns an UNKNOWN value. */
	cfg.activate_read_ones = false;
	cfg.unknown = AP_PCSR_UNKNOWN_STALE;
	make(&p, &cfg, &pe);
	ap_pcsr_write_pmpcsctl(&p, 1);
	ap_pcsr_retire(&p, 0x7000, true);
	ap_pcsr_write_pmpcsctl(&p, 0);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x7000);
}

/* PCS-H7.1.1.1-3, PCS-H7.1.1.1-4, PCS-H7.1.1.1-8: without IMP, EN is RAZ/WI; the suspended state at
 * reset is IMPLEMENTATION DEFINED and only a Warm reset returns to it. */
TEST(suspend_imp0_and_no_v8p9)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	cfg.reset_suspended = true;
	make(&p, &cfg, &pe);
	ap_pcsr_write_pmpcsctl(&p, 1);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(&p), 0);
	CHECK(ap_pcsr_suspended(&p));
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xffffffff);
	CHECK(!ap_pcsr_suspended(&p));
	ap_pcsr_retire(&p, 0x8000, true);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0x8000);
	ap_pcsr_reset(&p, false);
	CHECK(ap_pcsr_suspended(&p));
	cfg.feat_pcsrv8p9 = false;
	make(&p, &cfg, &pe);
	ap_pcsr_write_pmpcsctl(&p, 0x13);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(&p), 0); /* PMPCSCTL RES0 without v8p9 */
	CHECK(ap_pcsr_suspended(&p));
}

/* PCS-H7.1.1.1-9, PCS-H7.1.1.1-10, PCS-H7.1.1.1-11, PCS-H7.1.1.1-12, PCS-H7.1.1.1-13,
 * PCS-H7.1.1.1-14: PMPCSCTL.SS = 1 makes profiling active whatever EN,
 * disables sampling on reads: reads return the last sample, no side-effects. */
TEST(sample_on_snapshot_disables_read_sampling)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	cfg.pmpcsctl_imp = true;
	make(&p, &cfg, &pe);
	ap_pcsr_write_pmpcsctl(&p, 0x10); /* SS=1, EN=0 */
	CHECK(!ap_pcsr_suspended(&p));
	CHECK(!ap_pcsr_sampling_on_reads(&p));
	ap_pcsr_retire(&p, 0xA000, true);
	CHECK(p.have_sample);
	uint64_t cold = ap_pcsr_pmpcsr(&p);
	CHECK_EQ_U64(cold, FILL); /* Cold reset value (UNKNOWN: the fill) */
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), (uint32_t)FILL);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p), cold);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(&p) & 1, 0); /* EN unchanged */
	ap_pcsr_capture(&p);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0xA000);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(&p) & 1, 1); /* SetPCSRActive on capture */
	/* Without FEAT_PMUv3_SS the bit is RES0 and reads sample. */
	cfg.feat_pmuv3_ss = false;
	make(&p, &cfg, &pe);
	ap_pcsr_write_pmpcsctl(&p, 0x11);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsctl(&p), 0x3);
	CHECK(ap_pcsr_sampling_on_reads(&p));
}

/* SS-RVPZHN-4, SS-RVPZHN-5, SS-RVPZHN-6, SS-RVPZHN-7, SS-RVPZHN-8, SS-RWSVYM-2, SS-RWSVYM-3:
 * the Capture-event sample. */
TEST(capture_sample_rules)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	make(&p, &cfg, &pe);
	ap_pcsr_write_pmpcsctl(&p, 0x10);
	ap_pcsr_retire(&p, 0xB000, true);
	ap_pcsr_capture(&p);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) & 0xffffffff, 0xB000);
	CHECK_EQ_U64(p.pmcid1sr, 0x1111);
	/* No branch since the previous Capture: UNKNOWN (ones policy). */
	pe.contextidr_el1 = 0x7777;
	ap_pcsr_set_pe(&p, &pe);
	uint64_t hi = ap_pcsr_pmpcsr(&p) >> 32;
	ap_pcsr_capture(&p);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) & 0xffffffff, 0xffffffff);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) >> 32, hi);     /* unchanged, SS-RVPZHN-8 */
	CHECK_EQ_U64(p.pmcid1sr, 0x1111);
	/* Debug state: ones, the rest unchanged. */
	ap_pcsr_retire(&p, 0xB004, true);
	pe.halted = true;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_capture(&p);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) & 0xffffffff, 0xffffffff);
	CHECK_EQ_U64(p.pmcid1sr, 0x1111);
	/* SS-RWSVYM-3 option: the first Capture after SS=1 records ones. */
	cfg.capture_unknown_ones = true;
	make(&p, &cfg, &pe);
	ap_pcsr_write_pmpcsctl(&p, 0x10);
	ap_pcsr_retire(&p, 0xC000, true);
	ap_pcsr_capture(&p);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) & 0xffffffff, 0xffffffff);
	ap_pcsr_retire(&p, 0xC004, true);
	ap_pcsr_capture(&p);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&p) & 0xffffffff, 0xC004);
}

/* FEAT_PCSRv8: Read_EDPCSRlo (PCS-H7.1.4-1, PCS-H7.1.2-7, PCS-H7.1.3-5). */
TEST(edpcsr_v8)
{
	struct ap_pcsr_config cfg;
	struct ap_pcsr_pe pe;
	struct ap_pcsr p;
	cfg_default(&cfg);
	cfg.feat_pcsrv8 = true;
	cfg.feat_pcsrv8p2 = cfg.feat_pcsrv8p9 = cfg.feat_pmuv3_ss = false;
	cfg.arch_major = 8;
	cfg.arch_minor = 1;
	make(&p, &cfg, &pe);
	CHECK_EQ_U64(ap_pcsr_read_pmpcsr_lo(&p, false), 0); /* PMPCSR-2: RES0 */
	ap_pcsr_retire(&p, 0x0000123480001000ull, true);
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(&p, false), 0x80001000);
	CHECK_EQ_U64(p.edpcsr_hi, 0x1234);
	CHECK_EQ_U64(p.edcidsr, 0x1111);
	/* EDVIDSR: NS [31], E2 [30], E3 [29], HV [28], VMID [15:0]. */
	CHECK_EQ_U64(p.edvidsr, 1u << 31 | 1u << 28 | 0x0123);
	/* No branch since the last read: UNKNOWN -> ones. */
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(&p, false), 0xffffffff);
	CHECK_EQ_U64(p.edcidsr, (uint32_t)FILL);
	/* EDSCR.SC2 == 1: EDPCSRhi holds NS, EL, PC[55:32]; EDVIDSR CONTEXTIDR_EL2. */
	pe.edscr_sc2 = true;
	pe.el = 2;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x00AB000000002000ull, true);
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(&p, false), 0x2000);
	CHECK_EQ_U64(p.edpcsr_hi, 1u << 31 | 2u << 29 | 0xAB0000);
	CHECK_EQ_U64(p.edvidsr, 0x2222);
	/* At EL3 in AArch64, E3 is set; a zero high word gives HV as configured. */
	pe.edscr_sc2 = false;
	pe.el = 3;
	pe.security = AP_PCSR_SECURE;
	ap_pcsr_set_pe(&p, &pe);
	ap_pcsr_retire(&p, 0x3000, true);
	CHECK_EQ_U64(ap_pcsr_read_edpcsr_lo(&p, false), 0x3000);
	CHECK_EQ_U64(p.edvidsr, 1u << 29 | 1u << 28);
}

TEST_MAIN(CASE(config_rules), CASE(authentication_rules), CASE(read_returns_branch_target_and_context),
          CASE(security_el_and_t_fields), CASE(context_unknown_cases), CASE(debug_and_prohibited_reads),
          CASE(first_read_after_reset), CASE(software_lock), CASE(suspend_and_activate_imp1),
          CASE(suspend_imp0_and_no_v8p9), CASE(sample_on_snapshot_disables_read_sampling),
          CASE(capture_sample_rules), CASE(edpcsr_v8))

/* External register frames by offset and size: spec/001 Table H7-1 (every
 * row), spec/003 "Accessing PMPCSR" (PMPCSR-39, PMPCSR-40, PMPCSR-41, PMPCSR-42, PMPCSR-43,
 * PMPCSR-44, PMPCSR-45), DDI 0487 Tables I5-1
 * and I5-2, and the FEAT_PCSRv8 debug map; error responses and RES0. */
#include "armprof/error.h"
#include "armprof/extregs.h"
#include "harness.h"

#define FILL 0x5A5A5A5A5A5A5A5Aull

struct rig {
	struct ap_pmu pmu;
	struct ap_pcsr pcsr;
	struct ap_snapshot ss;
	struct ap_snapshot_pe ss_pe;
	struct ap_pcsr_pe pe;
	struct ap_ext_frame f;
};

static void rig_init(struct rig *r, enum ap_pcsr_pmu_ext ext, bool v8)
{
	struct ap_pmu_config pc;
	struct ap_pcsr_config cc;
	struct ap_snapshot_config sc;
	ap_pmu_config_init(&pc);
	ap_pcsr_config_init(&cc);
	ap_snapshot_config_init(&sc);
	cc.pmu_ext = ext;
	cc.unknown_fill = FILL;
	cc.pmpcsctl_imp = false;
	if (ext == AP_PCSR_EXT_NONE)
		cc.feat_pcsrv8p9 = false;
	if (v8) {
		cc.feat_pcsrv8 = true;
		cc.feat_pcsrv8p2 = cc.feat_pcsrv8p9 = false;
		cc.arch_major = 8;
		cc.arch_minor = 1;
	}
	ap_pcsr_pe_init(&r->pe);
	r->pe.contextidr_el1 = 0xC1;
	r->pe.contextidr_el2 = 0xC2;
	r->pe.vmid = 0x42;
	CHECK(ap_pmu_init(&r->pmu, &pc) == 0);
	CHECK(ap_pcsr_init(&r->pcsr, &cc, &r->pe) == 0);
	CHECK(ap_snapshot_init(&r->ss, &sc) == 0);
	ap_snapshot_pe_init(&r->ss_pe);
	r->f.pmu = ext == AP_PCSR_EXT_NONE ? NULL : &r->pmu;
	r->f.pcsr = &r->pcsr;
	r->f.ss = ext == AP_PCSR_EXT_NONE ? NULL : &r->ss;
	r->f.ss_pe = &r->ss_pe;
	r->f.pmss_access = true;
}

static int rd(struct rig *r, uint32_t off, unsigned size, uint64_t *v)
{
	struct ap_ext_access a = { AP_EXT_PMU, off, size, false };
	return ap_ext_read(&r->f, &a, v);
}

static int wr(struct rig *r, uint32_t off, unsigned size, uint64_t v, bool mm)
{
	struct ap_ext_access a = { AP_EXT_PMU, off, size, mm };
	return ap_ext_write(&r->f, &a, v);
}

/* Table H7-1, rows 1-8 (PCS-TH7-1-row1, PCS-TH7-1-row2, PCS-TH7-1-row3,
 * PCS-TH7-1-row4, PCS-TH7-1-row5, PCS-TH7-1-row6, PCS-TH7-1-row7, PCS-TH7-1-row8), with a
 * PMU-less frame:
 * the primary offsets and their aliases sample and read the same registers. */
TEST(table_h7_1_rows_1_to_8)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT_NONE, false);
	ap_pcsr_retire(&r.pcsr, 0x0000001280004000ull, true);
	CHECK(rd(&r, 0x200, 4, &v) == AP_EXT_OK);            /* row1: PMPCSR[31:0] */
	CHECK_EQ_U64(v, 0x80004000);
	CHECK(rd(&r, 0x204, 4, &v) == AP_EXT_OK);            /* row2: PMPCSR[63:32] */
	CHECK_EQ_U64(v, 0x80000000 | 1u << 29 | 0x12);
	CHECK(rd(&r, 0x208, 4, &v) == AP_EXT_OK);            /* row3: PMCID1SR */
	CHECK_EQ_U64(v, 0xC1);
	CHECK(rd(&r, 0x20C, 4, &v) == AP_EXT_OK);            /* row4: PMVIDSR */
	CHECK_EQ_U64(v, 0x42);
	CHECK(rd(&r, 0x22C, 4, &v) == AP_EXT_OK);            /* row8: PMCID2SR */
	CHECK_EQ_U64(v, 0xC2);
	CHECK(rd(&r, 0x228, 4, &v) == AP_EXT_OK);            /* row7: PMCID1SR (alias) */
	CHECK_EQ_U64(v, 0xC1);
	/* row5: the alias of PMPCSR[31:0] samples like the primary offset. */
	ap_pcsr_retire(&r.pcsr, 0x0000003400005000ull, true);
	CHECK(rd(&r, 0x220, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0x5000);
	CHECK(rd(&r, 0x224, 4, &v) == AP_EXT_OK);            /* row6: PMPCSR[63:32] (alias) */
	CHECK_EQ_U64(v & 0xffffff, 0x34);
	CHECK(ap_ext_name(&r.f, AP_EXT_PMU, 0x224) && strcmp(ap_ext_name(&r.f, AP_EXT_PMU, 0x224),
	                                                      "PMPCSR[63:32] (alias)") == 0);
}

/* Rows 9-11: IMPLEMENTATION DEFINED ranges (nothing implemented: RES0,
 * visible as such) and the CoreSight component ID registers; PCS-H7.1.2-12, PCS-H7.1.2-13. */
TEST(table_h7_1_rows_9_to_11)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT_NONE, false);
	for (uint32_t off = 0x600; off <= 0x6FC; off += 4)
		CHECK(rd(&r, off, 4, &v) == AP_EXT_RES0 && v == 0);   /* row9 */
	for (uint32_t off = 0xE80; off <= 0xEFC; off += 4)
		CHECK(rd(&r, off, 4, &v) == AP_EXT_RES0 && v == 0);   /* row10 */
	static const uint8_t cidr[4] = { 0x0D, 0x90, 0x05, 0xB1 };
	for (unsigned i = 0; i < 4; i++) {                          /* row11 */
		CHECK(rd(&r, 0xFF0 + 4 * i, 4, &v) == AP_EXT_OK);
		CHECK_EQ_U64(v, cidr[i]);
	}
	CHECK(rd(&r, 0xFCC, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xf, 0);                 /* PMDEVTYPE.MAJOR == 0x0 */
	CHECK(rd(&r, 0xFBC, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xffff, 0x0A20);         /* PMDEVARCH.ARCHID */
	CHECK(rd(&r, 0xFC8, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xf, 1);                 /* PMDEVID.PCSample */
	/* No PMU: counters and snapshot registers are absent. */
	CHECK(rd(&r, 0x0F8, 4, &v) == AP_EXT_RES0);
	CHECK(rd(&r, 0xE30, 4, &v) == AP_EXT_RES0);
	CHECK(rd(&r, 0x210, 4, &v) == AP_EXT_RES0);
}

/* PMPCSR-39: a 32-bit read of PMPCSR[63:32] never samples; only [31:0]
 * (or a 64-bit read) updates, including what [63:32] then returns. */
TEST(high_half_read_does_not_sample)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT32, false);
	ap_pcsr_retire(&r.pcsr, 0x0000000500001000ull, true);
	CHECK(rd(&r, 0x204, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, FILL >> 32);              /* Cold reset UNKNOWN value */
	CHECK(rd(&r, 0x208, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, (uint32_t)FILL);
	CHECK(rd(&r, 0x200, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0x1000);
	ap_pcsr_retire(&r.pcsr, 0x0000000700002000ull, true);
	CHECK(rd(&r, 0x204, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xffffff, 5);            /* still the sample of the [31:0] read */
}

/* PMPCSR-6, PMPCSR-7, PMPCSR-41, PMPCSR-42, PMPCSR-44, PMPCSR-45: EXT32 offsets; 64-bit atomic
 * reads only if
 * implemented (otherwise the access gets an error response). */
TEST(ext32_map_and_atomic64)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT32, false);
	ap_pcsr_retire(&r.pcsr, 0x0000000900003000ull, true);
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, (0x80000000ull | 1u << 29 | 9) << 32 | 0x3000);
	CHECK(rd(&r, 0x220, 8, &v) == AP_EXT_OK);
	/* FEAT_PCSRv8p2: no branch since the last read is not an UNKNOWN case
	 * (PCS-H7.1.3-5 needs FEAT_PCSRv8p2 absent): the same sample again. */
	CHECK_EQ_U64(v & 0xffffffff, 0x3000);
	r.pcsr.cfg.atomic64 = false;
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_ERROR);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_ERROR); /* EXT32 frame: 32-bit accesses */
	CHECK(rd(&r, 0x22C, 4, &v) == AP_EXT_OK);
	CHECK(rd(&r, 0xE04, 4, &v) == AP_EXT_OK);    /* PMCR_EL0 at 0xE04 in EXT32 */
	CHECK_EQ_U64((v >> 11) & 0x1f, 6);
	CHECK(rd(&r, 0xE10, 4, &v) == AP_EXT_RES0);
}

/* PMPCSR-40, PMPCSR-43, PCS-H7.1.2-9: EXT64 has PMVCIDSR at 0x208 and PMCCIDSR at
 * 0x228, PMPCSR[63:0] at 0x200 and 0x220. */
TEST(ext64_map)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT64, false);
	ap_pcsr_retire(&r.pcsr, 0x0000000900003000ull, true);
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xffffffff, 0x3000);
	CHECK(rd(&r, 0x208, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0x42ull << 32 | 0xC1);
	CHECK(rd(&r, 0x228, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0xC2ull << 32 | 0xC1);
	CHECK(rd(&r, 0x22C, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0xC2);
	ap_pcsr_retire(&r.pcsr, 0x4000, true);
	CHECK(rd(&r, 0x220, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xffffffff, 0x4000);
	CHECK(rd(&r, 0x20C, 8, &v) == -AP_ERR_INVALID); /* misaligned */
	CHECK(strcmp(ap_ext_name(&r.f, AP_EXT_PMU, 0x228), "PMCCIDSR") == 0);
}

/* Error responses: Core powered down (PMPCSR-3: the Core power domain), OS
 * Lock and Double Lock for the PC sample and counter registers (PMPCSR-46:
 * from DDI 0487); the snapshot registers ignore the OS Lock (SS-IKGJMV) but
 * follow AllowExternalPMSSAccess(). */
TEST(error_responses)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT64, false);
	r.pe.oslk = true;
	ap_pcsr_set_pe(&r.pcsr, &r.pe);
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_ERROR);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_ERROR);
	CHECK(rd(&r, 0x6F8, 8, &v) == AP_EXT_OK);  /* PMCCNTSVR_EL1 */
	CHECK(rd(&r, 0x600, 8, &v) == AP_EXT_OK);  /* PMEVCNTSVR0_EL1 */
	CHECK(rd(&r, 0xE30, 8, &v) == AP_EXT_OK);  /* PMSSCR_EL1 */
	CHECK(rd(&r, 0xFF0, 4, &v) == AP_EXT_OK);  /* management registers */
	r.f.pmss_access = false;
	CHECK(rd(&r, 0x6F8, 8, &v) == AP_EXT_ERROR);
	r.pe.oslk = false;
	r.pe.powered = false;
	ap_pcsr_set_pe(&r.pcsr, &r.pe);
	CHECK(rd(&r, 0x200, 4, &v) == AP_EXT_ERROR);
	r.pe.powered = true;
	r.pe.double_lock = true;
	ap_pcsr_set_pe(&r.pcsr, &r.pe);
	CHECK(rd(&r, 0xE50, 8, &v) == AP_EXT_ERROR);
}

/* The Software Lock: memory-mapped writes other than PMLAR are ignored while
 * locked; PMLAR with the key unlocks (DDI 0487 I5.3.41). */
TEST(software_lock_writes)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT64, false);
	CHECK(wr(&r, 0x0F8, 8, 1234, true) == AP_EXT_OK);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_OK && v == 0);
	CHECK(wr(&r, 0xFB0, 4, 0xC5ACCE55, true) == AP_EXT_OK);
	CHECK(wr(&r, 0x0F8, 8, 1234, true) == AP_EXT_OK);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_OK && v == 1234);
	CHECK(wr(&r, 0x0FC, 4, 1, false) == AP_EXT_OK);      /* [63:32] half */
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_OK && v == (1ull << 32 | 1234));
	/* PMCR_EL0.E and PMCNTENSET through the frame make the counters count. */
	CHECK(wr(&r, 0xC00, 8, 1ull << 31, false) == AP_EXT_OK);
	CHECK(wr(&r, 0xE10, 8, 1, false) == AP_EXT_OK);
	ap_pmu_cycles(&r.pmu, 10);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_OK && v == (1ull << 32 | 1244));
	/* Read-only registers ignore writes. */
	ap_pcsr_retire(&r.pcsr, 0x10, true);
	rd(&r, 0x200, 8, &v);
	CHECK(wr(&r, 0x200, 8, 0x99, false) == AP_EXT_OK);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&r.pcsr) & 0xffffffff, 0x10);
	CHECK(wr(&r, 0x300, 4, 1, false) == AP_EXT_RES0);
	/* PMPCSCTL at 0xE50: writes take effect (FEAT_PCSRv8p9, IMP=0 here). */
	CHECK(wr(&r, 0xE50, 8, 0x10, false) == AP_EXT_OK);
	CHECK(rd(&r, 0xE50, 8, &v) == AP_EXT_OK && v == 0x10);
}

/* Bad requests never crash: -AP_ERR_INVALID for sizes, alignment, range. */
TEST(bad_requests)
{
	struct rig r;
	uint64_t v = 7;
	rig_init(&r, AP_PCSR_EXT64, false);
	CHECK(rd(&r, 0x200, 2, &v) == -AP_ERR_INVALID);
	CHECK(rd(&r, 0x202, 4, &v) == -AP_ERR_INVALID);
	CHECK(rd(&r, 0x1000, 4, &v) == -AP_ERR_INVALID);
	CHECK(wr(&r, 0xFFFFFFF0u, 4, 0, false) == -AP_ERR_INVALID);
	for (uint32_t off = 0; off < 0x1000; off += 4)
		CHECK(rd(&r, off, 4, &v) >= 0);
	for (uint32_t off = 0; off < 0x1000; off += 8)
		CHECK(rd(&r, off, 8, &v) >= 0);
	CHECK(ap_ext_name(&r.f, AP_EXT_PMU, 0x5000) == NULL);
}

/* FEAT_PCSRv8: the debug frame (DDI 0487 H9.2: EDPCSR 0x0A0/0x0AC, EDCIDSR
 * 0x0A4, EDVIDSR 0x0A8, EDDEVID1 0xFC4), 32-bit only. */
TEST(debug_frame_v8)
{
	struct rig r;
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT_NONE, true);
	struct ap_ext_access a = { AP_EXT_DEBUG, 0x0A0, 4, false };
	ap_pcsr_retire(&r.pcsr, 0x0000000100000400ull, true);
	CHECK(ap_ext_read(&r.f, &a, &v) == AP_EXT_OK && v == 0x400);
	a.offset = 0x0AC;
	CHECK(ap_ext_read(&r.f, &a, &v) == AP_EXT_OK && v == 1);
	a.offset = 0x0A4;
	CHECK(ap_ext_read(&r.f, &a, &v) == AP_EXT_OK && v == 0xC1);
	a.offset = 0x0A8;
	CHECK(ap_ext_read(&r.f, &a, &v) == AP_EXT_OK && v == (1u << 31 | 1u << 28 | 0x42));
	a.offset = 0xFC4;
	CHECK(ap_ext_read(&r.f, &a, &v) == AP_EXT_OK && v == 2);
	a.offset = 0x0A0;
	a.size = 8;
	CHECK(ap_ext_read(&r.f, &a, &v) == AP_EXT_ERROR);
	/* The PMU frame has no PC sample registers with FEAT_PCSRv8. */
	CHECK(rd(&r, 0x200, 4, &v) == AP_EXT_RES0);
	r.pe.oslk = true;
	ap_pcsr_set_pe(&r.pcsr, &r.pe);
	a.size = 4;
	CHECK(ap_ext_read(&r.f, &a, &v) == AP_EXT_ERROR);
}

TEST_MAIN(CASE(table_h7_1_rows_1_to_8), CASE(table_h7_1_rows_9_to_11), CASE(high_half_read_does_not_sample),
          CASE(ext32_map_and_atomic64), CASE(ext64_map), CASE(error_responses), CASE(software_lock_writes),
          CASE(bad_requests), CASE(debug_frame_v8))

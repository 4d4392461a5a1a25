/* External register frames by offset and size: spec/001 Table H7-1 (every
 * row), spec/003 "Accessing PMPCSR" (PMPCSR-39, PMPCSR-40, PMPCSR-41, PMPCSR-42, PMPCSR-43,
 * PMPCSR-44, PMPCSR-45), DDI 0487 Tables I5-1
 * and I5-2, and the FEAT_PCSRv8 debug map; error responses and RES0. */
#include "armprof/error.h"
#include "armprof/extregs.h"
#include "armprof/model.h"
#include "harness.h"

#define FILL 0x5A5A5A5A5A5A5A5Aull

/* A PE seen only through its public API: the frames of ap_pe_ext_read()/
 * ap_pe_ext_write() under the configuration and PE state the test sets. */
struct rig {
	struct ap_config cfg;
	struct ap_pe_state st;
	struct ap_pe *pe;
};

static void set(struct rig *r)
{
	CHECK(ap_pe_set_state(r->pe, &r->st) == 0);
}

static void make(struct rig *r)
{
	ap_pe_destroy(r->pe);
	r->pe = NULL;
	CHECK(ap_pe_create(&r->cfg, NULL, &r->pe, NULL) == 0);
	ap_pe_state_init(&r->st);
	r->st.contextidr_el1 = 0xC1;
	r->st.contextidr_el2 = 0xC2;
	r->st.vmid = 0x42;
	/* AllowExternalPMSSAccess() for the model's Non-secure accesses. */
	CHECK(ap_pe_state_set_field(&r->st, "mdcr_el3.epmssad", 3) == 0);
	set(r);
}

/* FEAT_PCSRv8p2 (+ v8p9 and FEAT_PMUv3_SS with a PMU) on the given PMU
 * view, or FEAT_PCSRv8 (v8); 6 event counters, FEAT_PMUv3_ICNTR. */
static void rig_init(struct rig *r, enum ap_pcsr_pmu_ext ext, bool v8)
{
	ap_config_init(&r->cfg);
	r->cfg.pmu.icntr = r->cfg.pmu.pmuv3p5 = true;
	r->cfg.pcsr.pmu_ext = (uint8_t)ext;
	r->cfg.pcsr.arch_major = 9;
	r->cfg.pcsr.arch_minor = 4;
	r->cfg.pcsr.atomic64 = true;
	r->cfg.pcsr.unknown_fill = FILL;
	r->cfg.pcsr.pmpcsctl_imp = false;
	bool pmu = ext != AP_PCSR_EXT_NONE;
	r->cfg.pcsr.feat_pcsrv8p9 = pmu;
	r->cfg.snapshot.feat_pmuv3_ss = pmu;
	if (v8) {
		r->cfg.pcsr.feat_pcsrv8 = true;
		r->cfg.pcsr.feat_pcsrv8p2 = r->cfg.pcsr.feat_pcsrv8p9 = false;
		r->cfg.pcsr.arch_major = 8;
		r->cfg.pcsr.arch_minor = 1;
	}
	make(r);
}

static void done(struct rig *r)
{
	ap_pe_destroy(r->pe);
	r->pe = NULL;
}

static int rd(struct rig *r, uint32_t off, unsigned size, uint64_t *v)
{
	struct ap_ext_access a = { AP_EXT_PMU, off, size, false };
	return ap_pe_ext_read(r->pe, &a, v);
}

static int wr(struct rig *r, uint32_t off, unsigned size, uint64_t v, bool mm)
{
	struct ap_ext_access a = { AP_EXT_PMU, off, size, mm };
	return ap_pe_ext_write(r->pe, &a, v);
}

static uint64_t pmpcsr(struct rig *r)
{
	uint64_t v = 0;
	CHECK(ap_pe_pcsr_peek(r->pe, AP_PCSR_REG_PMPCSR, &v) == 0);
	return v;
}

/* Table H7-1, rows 1-8 (PCS-TH7-1-row1, PCS-TH7-1-row2, PCS-TH7-1-row3,
 * PCS-TH7-1-row4, PCS-TH7-1-row5, PCS-TH7-1-row6, PCS-TH7-1-row7, PCS-TH7-1-row8), with a
 * PMU-less frame:
 * the primary offsets and their aliases sample and read the same registers. */
TEST(table_h7_1_rows_1_to_8)
{
	struct rig r = { .pe = NULL };
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT_NONE, false);
	ap_pe_retire(r.pe, 0x0000001280004000ull, true);
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
	ap_pe_retire(r.pe, 0x0000003400005000ull, true);
	CHECK(rd(&r, 0x220, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0x5000);
	CHECK(rd(&r, 0x224, 4, &v) == AP_EXT_OK);            /* row6: PMPCSR[63:32] (alias) */
	CHECK_EQ_U64(v & 0xffffff, 0x34);
	CHECK(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x224) && strcmp(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x224),
	                                                      "PMPCSR[63:32] (alias)") == 0);
	done(&r);
}

/* Rows 9-11: IMPLEMENTATION DEFINED ranges (nothing implemented: RES0,
 * visible as such) and the CoreSight component ID registers; PCS-H7.1.2-12, PCS-H7.1.2-13. */
TEST(table_h7_1_rows_9_to_11)
{
	struct rig r = { .pe = NULL };
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
	done(&r);
}

/* PMPCSR-39: a 32-bit read of PMPCSR[63:32] never samples; only [31:0]
 * (or a 64-bit read) updates, including what [63:32] then returns. */
TEST(high_half_read_does_not_sample)
{
	struct rig r = { .pe = NULL };
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT32, false);
	ap_pe_retire(r.pe, 0x0000000500001000ull, true);
	CHECK(rd(&r, 0x204, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, FILL >> 32);              /* Cold reset UNKNOWN value */
	CHECK(rd(&r, 0x208, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, (uint32_t)FILL);
	CHECK(rd(&r, 0x200, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0x1000);
	ap_pe_retire(r.pe, 0x0000000700002000ull, true);
	CHECK(rd(&r, 0x204, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xffffff, 5);            /* still the sample of the [31:0] read */
	done(&r);
}

/* PMPCSR-6, PMPCSR-7, PMPCSR-41, PMPCSR-42, PMPCSR-44, PMPCSR-45: EXT32 offsets; 64-bit atomic
 * reads only if
 * implemented (otherwise the access gets an error response). */
TEST(ext32_map_and_atomic64)
{
	struct rig r = { .pe = NULL };
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT32, false);
	ap_pe_retire(r.pe, 0x0000000900003000ull, true);
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, (0x80000000ull | 1u << 29 | 9) << 32 | 0x3000);
	CHECK(rd(&r, 0x220, 8, &v) == AP_EXT_OK);
	/* FEAT_PCSRv8p2: no branch since the last read is not an UNKNOWN case
	 * (PCS-H7.1.3-5 needs FEAT_PCSRv8p2 absent): the same sample again. */
	CHECK_EQ_U64(v & 0xffffffff, 0x3000);
	r.cfg.pcsr.atomic64 = false;
	make(&r);
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_ERROR);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_ERROR); /* EXT32 frame: 32-bit accesses */
	CHECK(rd(&r, 0x22C, 4, &v) == AP_EXT_OK);
	CHECK(rd(&r, 0xE04, 4, &v) == AP_EXT_OK);    /* PMCR_EL0 at 0xE04 in EXT32 */
	CHECK_EQ_U64((v >> 11) & 0x1f, 6);
	CHECK(rd(&r, 0xE10, 4, &v) == AP_EXT_RES0);
	done(&r);
}

/* PMPCSR-40, PMPCSR-43, PCS-H7.1.2-9: EXT64 has PMVCIDSR at 0x208 and PMCCIDSR at
 * 0x228, PMPCSR[63:0] at 0x200 and 0x220. */
TEST(ext64_map)
{
	struct rig r = { .pe = NULL };
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT64, false);
	ap_pe_retire(r.pe, 0x0000000900003000ull, true);
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xffffffff, 0x3000);
	CHECK(rd(&r, 0x208, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0x42ull << 32 | 0xC1);
	CHECK(rd(&r, 0x228, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0xC2ull << 32 | 0xC1);
	CHECK(rd(&r, 0x22C, 4, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v, 0xC2);
	ap_pe_retire(r.pe, 0x4000, true);
	CHECK(rd(&r, 0x220, 8, &v) == AP_EXT_OK);
	CHECK_EQ_U64(v & 0xffffffff, 0x4000);
	CHECK(rd(&r, 0x20C, 8, &v) == -AP_ERR_INVALID); /* misaligned */
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x228), "PMCCIDSR") == 0);
	done(&r);
}

/* Error responses: Core powered down (PMPCSR-3: the Core power domain), OS
 * Lock and Double Lock for the PC sample and counter registers (PMPCSR-46:
 * from DDI 0487); the snapshot registers ignore the OS Lock (SS-IKGJMV) but
 * follow AllowExternalPMSSAccess(). */
TEST(error_responses)
{
	struct rig r = { .pe = NULL };
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT64, false);
	r.st.os_lock = true;
	set(&r);
	CHECK(rd(&r, 0x200, 8, &v) == AP_EXT_ERROR);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_ERROR);
	CHECK(rd(&r, 0x6F8, 8, &v) == AP_EXT_OK);  /* PMCCNTSVR_EL1 */
	CHECK(rd(&r, 0x600, 8, &v) == AP_EXT_OK);  /* PMEVCNTSVR0_EL1 */
	CHECK(rd(&r, 0xE30, 8, &v) == AP_EXT_OK);  /* PMSSCR_EL1 */
	CHECK(rd(&r, 0xFF0, 4, &v) == AP_EXT_OK);  /* management registers */
	CHECK(ap_pe_state_set_field(&r.st, "mdcr_el3.epmssad", 0) == 0);
	set(&r);
	CHECK(rd(&r, 0x6F8, 8, &v) == AP_EXT_ERROR);
	r.st.os_lock = false;
	r.st.core_powered = false;
	set(&r);
	CHECK(rd(&r, 0x200, 4, &v) == AP_EXT_ERROR);
	r.st.core_powered = true;
	r.st.os_double_lock = true;
	set(&r);
	CHECK(rd(&r, 0xE50, 8, &v) == AP_EXT_ERROR);
	done(&r);
}

/* The Software Lock: memory-mapped writes other than PMLAR are ignored while
 * locked; PMLAR with the key unlocks (DDI 0487 I5.3.41). */
TEST(software_lock_writes)
{
	struct rig r = { .pe = NULL };
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
	ap_pe_cycles(r.pe, 10);
	CHECK(rd(&r, 0x0F8, 8, &v) == AP_EXT_OK && v == (1ull << 32 | 1244));
	/* Read-only registers ignore writes. */
	ap_pe_retire(r.pe, 0x10, true);
	rd(&r, 0x200, 8, &v);
	CHECK(wr(&r, 0x200, 8, 0x99, false) == AP_EXT_OK);
	CHECK_EQ_U64(pmpcsr(&r) & 0xffffffff, 0x10);
	CHECK(wr(&r, 0x300, 4, 1, false) == AP_EXT_RES0);
	/* PMPCSCTL at 0xE50: writes take effect (FEAT_PCSRv8p9, IMP=0 here). */
	CHECK(wr(&r, 0xE50, 8, 0x10, false) == AP_EXT_OK);
	CHECK(rd(&r, 0xE50, 8, &v) == AP_EXT_OK && v == 0x10);
	done(&r);
}

/* Bad requests never crash: -AP_ERR_INVALID for sizes, alignment, range. */
TEST(bad_requests)
{
	struct rig r = { .pe = NULL };
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
	CHECK(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x5000) == NULL);
	done(&r);
}

/* FEAT_PCSRv8: the debug frame (DDI 0487 H9.2: EDPCSR 0x0A0/0x0AC, EDCIDSR
 * 0x0A4, EDVIDSR 0x0A8, EDDEVID1 0xFC4), 32-bit only. */
TEST(debug_frame_v8)
{
	struct rig r = { .pe = NULL };
	uint64_t v;
	rig_init(&r, AP_PCSR_EXT_NONE, true);
	struct ap_ext_access a = { AP_EXT_DEBUG, 0x0A0, 4, false };
	ap_pe_retire(r.pe, 0x0000000100000400ull, true);
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_OK && v == 0x400);
	a.offset = 0x0AC;
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_OK && v == 1);
	a.offset = 0x0A4;
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_OK && v == 0xC1);
	a.offset = 0x0A8;
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_OK && v == (1u << 31 | 1u << 28 | 0x42));
	a.offset = 0xFC4;
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_OK && v == 2);
	a.offset = 0x0A0;
	a.size = 8;
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_ERROR);
	/* The PMU frame has no PC sample registers with FEAT_PCSRv8. */
	CHECK(rd(&r, 0x200, 4, &v) == AP_EXT_RES0);
	r.st.os_lock = true;
	set(&r);
	a.size = 4;
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_ERROR);
	done(&r);
}

/* The debug frame's identification, power and reset registers, in every
 * PE's frame (docs/requirements-later.md LATER-DBG-1..5; Arm's external
 * register descriptions EDPIDR0-4, EDCIDR0-3, EDDEVARCH, EDDEVTYPE, EDDEVID,
 * EDDEVID1, EDPRSR, EDPRCR): what Linux's coresight-cpu-debug reads. */
TEST(debug_frame_ids_power)
{
	struct rig r = { .pe = NULL };
	uint64_t v;
	struct ap_ext_access a = { AP_EXT_DEBUG, 0, 4, false };
#define DBG(off) (a.offset = (off), ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_OK)
	/* FEAT_PCSRv8 on Armv8.1 without VHE, identified as a Cortex-A53. */
	rig_init(&r, AP_PCSR_EXT_NONE, true);
	r.cfg.pcsr.debug_pidr = 0x04002BBD03ull;
	make(&r);
	/* LATER-DBG-1: the AMBA bus's periphid (PIDR3..0) and CoreSight CID. */
	uint32_t pid = 0, cid = 0;
	for (unsigned i = 0; i < 4; i++) {
		CHECK(DBG(0xFE0 + 4 * i));
		pid |= (uint32_t)v << (8 * i);
		CHECK(DBG(0xFF0 + 4 * i));
		cid |= (uint32_t)v << (8 * i);
	}
	CHECK(pid == 0x002BBD03 && cid == 0xB105900D);
	CHECK(DBG(0xFD0) && v == 0x04);                       /* EDPIDR4: DES_2 0x4, SIZE 0 */
	CHECK(DBG(0xFBC) && v == 0x47707A15);                 /* EDDEVARCH: Arm, Armv8.0 debug with VHE, 0xA15 */
	CHECK(DBG(0xFCC) && v == 0x15);                       /* EDDEVTYPE: processor debug logic */
	CHECK(DBG(0xFC8) && (v & 0xF) == 0x3);                /* LATER-DBG-2: EDPCSR, EDCIDSR, EDVIDSR */
	CHECK(DBG(0xFC4) && v == 0x2);                        /* EDDEVID1.PCSROffset */
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_DEBUG, 0xFE8), "EDPIDR2") == 0);
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_DEBUG, 0x314), "EDPRSR") == 0);
	/* LATER-DBG-3: EDPRSR after the Cold reset: PU, SPD, SR; a read clears
	 * the sticky bits; OSLK and DLK follow the PE. */
	CHECK(DBG(0x314) && v == 0xB);
	CHECK(DBG(0x314) && v == 0x1);
	r.st.os_lock = true;
	set(&r);
	CHECK(DBG(0x314) && v == 0x21);
	r.st.os_lock = false;
	r.st.os_double_lock = true;
	set(&r);
	CHECK(DBG(0x314) && v == 0x41);
	r.st.os_double_lock = false;
	r.st.core_powered = false;
	set(&r);
	CHECK(DBG(0x314) && v == 0x2);                        /* PU 0, SPD 1; no error response */
	CHECK(DBG(0x0A0) == false);                          /* EDPCSR: the core is off, an error */
	r.st.core_powered = true;
	set(&r);
	CHECK(DBG(0x314) && v == 0x3);                        /* SPD stays until a powered read */
	CHECK(DBG(0x314) && v == 0x1);
	/* SDR: set when the PE leaves Debug state. */
	r.st.halted = true;
	set(&r);
	CHECK(DBG(0x314) && v == 0x11);
	r.st.halted = false;
	set(&r);
	CHECK(DBG(0x314) && v == 0x801);
	CHECK(DBG(0x314) && v == 0x1);
	/* LATER-DBG-4: EDPRCR holds CORENPDRQ and COREPURQ; CWRR reads 0. */
	a.offset = 0x310;
	CHECK(ap_pe_ext_write(r.pe, &a, 0xF) == AP_EXT_OK);
	CHECK(DBG(0x310) && v == 0x9);
	/* Memory-mapped with the Software Lock locked: EDPRCR writes ignored,
	 * EDPRSR read-only (the sticky bits stay). */
	a.memory_mapped = true;
	CHECK(ap_pe_ext_write(r.pe, &a, 0x0) == AP_EXT_OK);
	CHECK(DBG(0x310) && v == 0x9);
	ap_pe_reset(r.pe);                                   /* a Warm reset sets SR */
	CHECK(DBG(0x314) && v == 0x9);
	CHECK(DBG(0x314) && v == 0x9);
	a.memory_mapped = false;
	CHECK(DBG(0x314) && v == 0x9);
	CHECK(DBG(0x314) && v == 0x1);
	done(&r);
	/* The default PE (Neoverse N1: FEAT_PCSRv8p2, Armv8.2): its debug frame
	 * has the IDs and power registers but no PC sampler (EDDEVID.PCSample 0,
	 * EDPCSR RES0); EDDEVARCH says Armv8.2 debug; part 0xD0C. */
	ap_config_init(&r.cfg);
	make(&r);
	CHECK(DBG(0xFC8) && v == 0);
	CHECK(DBG(0xFBC) && v == 0x47708A15);
	pid = 0;
	for (unsigned i = 0; i < 4; i++) {
		CHECK(DBG(0xFE0 + 4 * i));
		pid |= (uint32_t)v << (8 * i);
	}
	CHECK(pid == 0x000BBD0C);
	a.offset = 0x0A0;
	CHECK(ap_pe_ext_read(r.pe, &a, &v) == AP_EXT_RES0);
#undef DBG
	done(&r);
}

/* ap_pe_ext_name(): the name of every kind of register, split into halves
 * where the frame is 32-bit, as constant strings (no per-call buffer: the
 * same pointer on every call, safe from any thread). */
TEST(register_names)
{
	struct rig r = { .pe = NULL };
	rig_init(&r, AP_PCSR_EXT32, false);
	static const struct { uint32_t off; const char *name; } ext32[] = {
		{ 0x028, "PMEVCNTR5_EL0[31:0]" }, { 0x02C, "PMEVCNTR5_EL0[63:32]" },
		{ 0x404, "PMEVTYPER1_EL0" }, { 0xFF4, "PMCIDR1" }, { 0xE28, "PMCEID2" },
		{ 0x200, "PMPCSR[31:0]" }, { 0x220, "PMPCSR[31:0] (alias)" }, { 0x22C, "PMCID2SR (alias)" },
		{ 0x608, "PMEVCNTSVR1_EL1[31:0]" }, { 0xE30, "PMSSCR_EL1[31:0]" }, { 0xFB0, "PMLAR" },
	};
	for (size_t i = 0; i < sizeof(ext32) / sizeof(ext32[0]); i++) {
		const char *n = ap_pe_ext_name(r.pe, AP_EXT_PMU, ext32[i].off);
		if (!n || strcmp(n, ext32[i].name))
			fprintf(stderr, "0x%03x: %s, expected %s\n", ext32[i].off, n ? n : "NULL", ext32[i].name);
		CHECK(n && strcmp(n, ext32[i].name) == 0);
		CHECK(n == ap_pe_ext_name(r.pe, AP_EXT_PMU, ext32[i].off));
	}
	CHECK(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x030) == NULL); /* PMEVCNTR6: N is 6 */
	rig_init(&r, AP_PCSR_EXT64, false);
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x028), "PMEVCNTR5_EL0") == 0);
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x02C), "PMEVCNTR5_EL0[63:32]") == 0);
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_PMU, 0x220), "PMPCSR (alias)") == 0);
	rig_init(&r, AP_PCSR_EXT_NONE, true);
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_DEBUG, 0xFB0), "EDLAR") == 0);
	CHECK(strcmp(ap_pe_ext_name(r.pe, AP_EXT_DEBUG, 0x0AC), "EDPCSR[63:32]") == 0);
	done(&r);
}

TEST_MAIN(CASE(table_h7_1_rows_1_to_8), CASE(table_h7_1_rows_9_to_11), CASE(high_half_read_does_not_sample),
          CASE(ext32_map_and_atomic64), CASE(ext64_map), CASE(error_responses), CASE(software_lock_writes),
          CASE(bad_requests), CASE(debug_frame_v8), CASE(debug_frame_ids_power),
          CASE(register_names))

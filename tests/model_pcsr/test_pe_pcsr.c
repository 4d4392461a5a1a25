/* PC sampling, the PMU and PMU snapshots through the PE API (ap_pe_*):
 * configuration rules reported by ap_pe_create() (PCS-H7.1.2-4,
 * PCS-H7.1.2-5), ap_pe_retire_block() equal to per-instruction
 * ap_pe_retire(), and a snapshot of the PE's counters (SS-RVPZHN-1,
 * SS-RVPZHN-3) read through the external frame. */
#include "armprof/error.h"
#include "armprof/extregs.h"
#include "armprof/model.h"
#include "harness.h"

static struct ap_pe *make(const char *const (*kv)[2], size_t n, struct ap_error_ctx *err)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	for (size_t i = 0; i < n; i++)
		if (ap_config_set(&cfg, kv[i][0], kv[i][1], err) < 0)
			return NULL;
	struct ap_pe *pe = NULL;
	if (ap_pe_create(&cfg, NULL, &pe, err) < 0)
		return NULL;
	return pe;
}

TEST(forbidden_configurations_name_the_rule)
{
	struct ap_error_ctx err = { 0 };
	static const char *const both[][2] = { { "pcsr.v8", "1" }, { "pcsr.arch_minor", "1" } };
	CHECK(make(both, 2, &err) == NULL);
	CHECK(strstr(err.message, "PCS-H7.1.2-4") != NULL);
	static const char *const late[][2] = { { "pcsr.v8", "1" }, { "pcsr.v8p2", "0" } };
	CHECK(make(late, 2, &err) == NULL);
	CHECK(strstr(err.message, "PCS-H7.1.2-5") != NULL);
	static const char *const bad_key[][2] = { { "pcsr.pmu_ext", "ext128" } };
	CHECK(make(bad_key, 1, &err) == NULL);
	CHECK(strstr(err.message, "pcsr.pmu_ext") != NULL);
}

static uint64_t mrs(struct ap_pe *pe, const char *name)
{
	uint32_t r;
	uint64_t v = 0;
	CHECK(ap_sysreg_lookup(name, &r) == 0);
	CHECK(ap_pe_peek(pe, r, &v) == 0);
	return v;
}

static void msr(struct ap_pe *pe, const char *name, uint64_t v)
{
	uint32_t r;
	CHECK(ap_sysreg_lookup(name, &r) == 0);
	CHECK(ap_pe_msr(pe, r, v) == AP_ACCESS_OK);
}

static struct ap_pe *full_pe(void)
{
	static const char *const kv[][2] = {
		{ "pcsr.pmu_ext", "ext64" }, { "pcsr.v8p9", "1" }, { "pcsr.pmpcsctl_imp", "0" },
		{ "snapshot.feat_pmuv3_ss", "1" }, { "pmu.icntr", "1" }, { "pcsr.sample_any", "1" },
	};
	struct ap_error_ctx err = { 0 };
	struct ap_pe *pe = make(kv, sizeof(kv) / sizeof(kv[0]), &err);
	CHECK(pe != NULL);
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(pe, &st);
	CHECK(ap_pe_state_set_field(&st, "mdcr_el3.pmsse", 3) == 0);
	CHECK(ap_pe_state_set_field(&st, "mdcr_el3.epmssad", 3) == 0);
	CHECK(ap_pe_state_set_field(&st, "mdcr_el2.hpmn", 6) == 0);
	CHECK(ap_pe_set_state(pe, &st) == 0);
	msr(pe, "PMEVTYPER0_EL0", 0x08);
	msr(pe, "PMCNTENSET_EL0", 1 | 1ull << 32);
	msr(pe, "PMCR_EL0", 1);
	return pe;
}

TEST(retire_block_equals_retire)
{
	struct ap_pe *a = full_pe(), *b = full_pe();
	if (!a || !b)
		return;
	for (uint64_t blk = 0; blk < 54; blk++) { /* the last block has 1 + 53 % 7 = 5 */
		uint64_t pc = 0x10000 + blk * 0x100, n = 1 + blk % 7;
		for (uint64_t i = 0; i < n; i++)
			ap_pe_retire(a, pc + 4 * i, i == 0);
		ap_pe_retire_block(b, pc, n);
	}
	CHECK_EQ_U64(mrs(a, "PMEVCNTR0_EL0"), mrs(b, "PMEVCNTR0_EL0"));
	CHECK_EQ_U64(mrs(a, "PMICNTR_EL0"), mrs(b, "PMICNTR_EL0"));
	CHECK(mrs(a, "PMICNTR_EL0") > 100);
	struct ap_ext_access acc = { AP_EXT_PMU, 0x200, 8, false };
	uint64_t va, vb;
	CHECK(ap_pe_ext_read(a, &acc, &va) == AP_EXT_OK);
	CHECK(ap_pe_ext_read(b, &acc, &vb) == AP_EXT_OK);
	CHECK_EQ_U64(va, vb);
	CHECK_EQ_U64(va & 0xffffffff, 0x10000 + 53 * 0x100 + 4 * 4); /* sample_any: last instruction */
	/* A snapshot of the PE's counters through the external frame. */
	CHECK(ap_pe_snapshot_request(a) == 1);
	uint64_t svr0, icnt;
	acc.offset = 0x600;
	CHECK(ap_pe_ext_read(a, &acc, &svr0) == AP_EXT_OK);
	acc.offset = 0x700;
	CHECK(ap_pe_ext_read(a, &acc, &icnt) == AP_EXT_OK);
	CHECK_EQ_U64(svr0, mrs(a, "PMEVCNTR0_EL0"));
	CHECK_EQ_U64(icnt, mrs(a, "PMICNTR_EL0"));
	CHECK(ap_pe_snapshot_class(a) == AP_SS_ALLOWED);
	ap_pe_destroy(a);
	ap_pe_destroy(b);
}

TEST_MAIN(CASE(forbidden_configurations_name_the_rule), CASE(retire_block_equals_retire))

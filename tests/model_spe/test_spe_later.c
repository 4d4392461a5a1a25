/* SPE after v1 in the engine (docs/requirements-later.md): the inverted
 * event filter, the EFT type filter with its AND masks, data-source
 * filtering, discard mode, previous-branch-target packets and the
 * call/return subclasses; filter.c on its own and through the public API. */
#include "harness.h"
#include "model/spe/filter.h"
#include "model/spe/later.h"
#include "spe_test_host.h"

static struct test_host host;

static struct ap_pe *make(const char *const *kv)
{
	struct ap_config c;
	ap_config_init(&c);
	for (; kv && kv[0]; kv += 2)
		if (ap_config_set(&c, kv[0], kv[1], NULL) < 0) {
			fprintf(stderr, "bad config %s=%s\n", kv[0], kv[1]);
			exit(2);
		}
	return th_create(&host, &c);
}

static const char *const v1p4[] = { "spe.version", "v1p4", "spe.fne", "1", "spe.fds", "1", "spe.eft", "1",
	                            "spe.crr", "1", "spe.pbt", "1", NULL };

static const struct ap_spe_filter_policy keep = { false, false, false };

static bool later(uint64_t fcr, uint64_t evfr, const struct ap_spe_filter_later *l, uint64_t events,
                  unsigned type)
{
	struct ap_spe_filter_regs r = { fcr, evfr, 0 };
	return ap_spe_collect_record_later(&r, &keep, l, events, 0, type);
}

/* LATER-FNE-4, LATER-FNE-5, LATER-FNE-6: PMSNEVFR_EL1 rejects a record with
 * any selected event; the two CONSTRAINED UNPREDICTABLE cases follow
 * spe.fne_zero_discards / spe.fne_overlap_discards. */
TEST(inverted_event_filter)
{
	struct ap_spe_filter_later l = { .pmsnevfr = AP_EV_L1D_REFILL | AP_EV_TLB_WALK,
	                                 .events = 1ull << 6 };
	uint64_t fne = AP_PMSFCR_FNE;
	CHECK(later(fne, 0, &l, AP_EV_RETIRED, 0));
	CHECK(!later(fne, 0, &l, AP_EV_RETIRED | AP_EV_L1D_REFILL, 0));
	CHECK(!later(fne, 0, &l, AP_EV_TLB_WALK, 0));
	CHECK(later(0, 0, &l, AP_EV_TLB_WALK, 0)); /* FnE == 0: no effect */
	/* E[6] (not taken) is filterable with FnE (DDI 0487 SPEFilterByEvents) */
	l.pmsnevfr = AP_EV_NOT_TAKEN;
	CHECK(!later(fne, 0, &l, AP_EV_NOT_TAKEN, 0));
	/* FE AND, FnE OR together */
	l.pmsnevfr = AP_EV_TLB_WALK;
	uint64_t both = AP_PMSFCR_FE | fne;
	CHECK(later(both, AP_EV_RETIRED, &l, AP_EV_RETIRED, 0));
	CHECK(!later(both, AP_EV_RETIRED, &l, AP_EV_RETIRED | AP_EV_TLB_WALK, 0));
	CHECK(!later(both, AP_EV_RETIRED, &l, AP_EV_L1D_REFILL, 0));
	/* PMSNEVFR_EL1 == 0 */
	l.pmsnevfr = 0;
	CHECK(later(fne, 0, &l, AP_EV_RETIRED, 0));
	l.fne_zero_discards = true;
	CHECK(!later(fne, 0, &l, AP_EV_RETIRED, 0));
	/* the same event in both */
	l.pmsnevfr = AP_EV_RETIRED;
	l.fne_overlap_discards = false;
	CHECK(later(both, AP_EV_RETIRED, &l, AP_EV_RETIRED, 0));
	CHECK(later(both, AP_EV_RETIRED, &l, 0, 0));
	l.fne_overlap_discards = true;
	CHECK(!later(both, AP_EV_RETIRED, &l, AP_EV_RETIRED, 0));
	/* a v1 caller (no later block) ignores FnE */
	struct ap_spe_filter_regs r = { fne, 0, 0 };
	CHECK(ap_spe_collect_record_later(&r, &keep, NULL, AP_EV_TLB_WALK, 0, 0));
}

/* LATER-EFT-2, LATER-EFT-4: the type filter of DDI 0487 SPEFilterByType:
 * OR over the selected types without a mask, equality over the masked ones. */
TEST(eft_type_filter_and_masks)
{
	struct ap_spe_filter_later l = { .eft = true };
	const uint64_t FT = AP_PMSFCR_FT, B = AP_PMSFCR_B, LD = AP_PMSFCR_LD, ST = AP_PMSFCR_ST;
	const uint64_t FP = AP_PMSFCR_FP, SIMD = AP_PMSFCR_SIMD;
	const unsigned tLD = AP_SPE_TYPE_LOAD, tST = AP_SPE_TYPE_STORE, tB = AP_SPE_TYPE_BRANCH;
	const unsigned tFP = AP_SPE_TYPE_FP, tSIMD = AP_SPE_TYPE_SIMD;
	/* OR: loads or SIMD */
	CHECK(later(FT | LD | SIMD, 0, &l, 0, tLD));
	CHECK(later(FT | LD | SIMD, 0, &l, 0, tSIMD));
	CHECK(!later(FT | LD | SIMD, 0, &l, 0, tST));
	CHECK(!later(FT | FP, 0, &l, 0, 0)); /* Other, not FP */
	CHECK(later(FT | FP, 0, &l, 0, tFP));
	/* AND: stores that are SIMD (perf: store_filter=1,simd_filter=1,
	 * store_filter_mask=1,simd_filter_mask=1) */
	uint64_t and_st_simd = FT | ST | SIMD | AP_PMSFCR_STM | AP_PMSFCR_SIMDM;
	CHECK(later(and_st_simd, 0, &l, 0, tST | tSIMD));
	CHECK(!later(and_st_simd, 0, &l, 0, tST));
	CHECK(!later(and_st_simd, 0, &l, 0, tSIMD | tLD));
	/* a mask with the type bit 0 excludes that type: everything but branches */
	uint64_t not_branch = FT | AP_PMSFCR_BM;
	CHECK(later(not_branch, 0, &l, 0, tLD));
	CHECK(later(not_branch, 0, &l, 0, 0));
	CHECK(!later(not_branch, 0, &l, 0, tB));
	/* OR part plus AND part: (loads or branches) and not FP */
	uint64_t mix = FT | LD | B | AP_PMSFCR_FPM;
	CHECK(later(mix, 0, &l, 0, tLD));
	CHECK(!later(mix, 0, &l, 0, tLD | tFP));
	CHECK(!later(mix, 0, &l, 0, tST));
	/* LATER-EFT-4: with EFT, FT with no type bit and no mask keeps all */
	struct ap_spe_filter_policy discard = { false, true, false };
	struct ap_spe_filter_regs r = { FT, 0, 0 };
	CHECK(ap_spe_collect_record_later(&r, &discard, &l, 0, 0, tST));
	l.eft = false; /* v1: the CONSTRAINED UNPREDICTABLE case of Table 4 row 2 */
	CHECK(!ap_spe_collect_record_later(&r, &discard, &l, 0, 0, tST));
}

/* LATER-FDS-4: loads with Data Source ds pass when PMSDSFR_EL1<ds<5:0>>
 * is 1; records with no Data Source and stores are not filtered. */
TEST(data_source_filter)
{
	struct ap_spe_filter_later l = { .pmsdsfr = (1ull << 0) | (1ull << 3) };
	struct ap_spe_filter_regs on = { AP_PMSFCR_FDS, 0, 0 }, off = { 0, 0, 0 };
	CHECK(ap_spe_collect_data_source(&on, &l, true, true, 0));
	CHECK(ap_spe_collect_data_source(&on, &l, true, true, 3));
	CHECK(!ap_spe_collect_data_source(&on, &l, true, true, 2));
	CHECK(ap_spe_collect_data_source(&on, &l, true, true, 64 + 3)); /* bits [5:0] */
	CHECK(!ap_spe_collect_data_source(&on, &l, true, true, 64 + 2));
	CHECK(ap_spe_collect_data_source(&on, &l, true, false, 2)); /* no Data Source */
	CHECK(ap_spe_collect_data_source(&on, &l, false, true, 2)); /* not a load */
	CHECK(ap_spe_collect_data_source(&off, &l, true, true, 2));
}

static uint64_t run_to_sample(struct ap_pe *pe, const struct ap_spe_op *op, uint64_t limit)
{
	for (uint64_t i = 1; i <= limit; i++)
		if (ap_spe_op(pe, op))
			return i;
	return 0;
}

/* LATER-FDS-4 and LATER-FNE-4 through the engine: the registers written by
 * MSR reach the filter; SAMPLE_FILTRATE counts only what passes. */
TEST(engine_filters)
{
	struct ap_pe *pe = make(v1p4);
	th_program(pe, 1 << 8, 0, 0x1000);
	/* LATER-FDS-3: firmware gives PMSDSFR_EL1 to EL1 (MDCR_EL3.EnPMS3) */
	CHECK(ap_pe_msr(pe, AP_PMSDSFR_EL1, 1ull << 5) == AP_ACCESS_TRAP_EL3);
	struct ap_pe_state st;
	ap_pe_get_state(pe, &st);
	CHECK_EQ_U64(ap_pe_state_set_field(&st, "mdcr_el3.enpms3", 1), 0);
	CHECK_EQ_U64(ap_pe_set_state(pe, &st), 0);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSDSFR_EL1, 1ull << 5), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSFCR_EL1, AP_PMSFCR_FDS), AP_ACCESS_OK);
	struct ap_spe_op ld = { .kind = AP_SPE_OP_LOAD, .pc = 0x1000, .va = 0x2000, .data_source = 5 };
	CHECK(run_to_sample(pe, &ld, 10000));
	ld.data_source = 6;
	CHECK(run_to_sample(pe, &ld, 10000));
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_feed, 2);
	CHECK_EQ_U64(c.sample_filtrate, 1);
	CHECK_EQ_U64(c.records_written, 1);
	/* inverted event filter: drop L1D refills */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSNEVFR_EL1, AP_EV_L1D_REFILL), AP_ACCESS_OK);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSFCR_EL1, AP_PMSFCR_FNE), AP_ACCESS_OK);
	ld.events = AP_EV_L1D_REFILL;
	CHECK(run_to_sample(pe, &ld, 10000));
	ld.events = AP_EV_L1D_ACCESS;
	CHECK(run_to_sample(pe, &ld, 10000));
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_filtrate, 2);
	CHECK_EQ_U64(c.records_written, 2);
	/* LATER-EFT-3: the host's FP / SIMD flags are the operation's types:
	 * keep floating-point operations only (perf float_filter=1) */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMSFCR_EL1, AP_PMSFCR_FT | AP_PMSFCR_FP), AP_ACCESS_OK);
	struct ap_spe_op fadd = { .kind = AP_SPE_OP_OTHER, .pc = 0x1100, .flags = AP_SPE_OPF_FP };
	struct ap_spe_op vadd = { .kind = AP_SPE_OP_OTHER, .pc = 0x1104, .flags = AP_SPE_OPF_SIMD_OP };
	CHECK(run_to_sample(pe, &fadd, 10000));
	CHECK(run_to_sample(pe, &vadd, 10000));
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_filtrate, 3);
	CHECK_EQ_U64(c.records_written, 3);
	ap_pe_destroy(pe);
}

/* LATER-DIS-1, LATER-DIS-2: FM = 0b10 from v1p2: nothing written, PMBPTR_EL1
 * stays, no management event, the PMU events still count; before v1p2 the
 * value is reserved and the buffer fills. */
TEST(discard_mode)
{
	struct ap_pe *pe = make(v1p4);
	th_program(pe, 1 << 8, 0, 0x1000);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBLIMITR_EL1, (TH_BASE + 0x1000) | 1 | 2u << 1), AP_ACCESS_OK);
	struct ap_spe_op op = { .kind = AP_SPE_OP_OTHER, .pc = 0x1000 };
	for (int i = 0; i < 3; i++)
		CHECK(run_to_sample(pe, &op, 10000));
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_feed, 3);
	CHECK_EQ_U64(c.sample_filtrate, 3);
	CHECK_EQ_U64(c.records_written, 0);
	CHECK_EQ_U64(c.records_discarded, 3);
	CHECK_EQ_U64(c.mgmt_events, 0);
	CHECK_EQ_U64(th_reg(pe, AP_PMBPTR_EL1), TH_BASE);
	CHECK_EQ_U64(host.writes, 0);
	CHECK_EQ_U64(host.cti2, 0);
	uint64_t v = 0;
	CHECK_EQ_U64(ap_spe_pmu_event(pe, 0x4001, &v), 0);
	CHECK_EQ_U64(v, 3); /* SAMPLE_FEED */
	/* back to fill mode: written again */
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBLIMITR_EL1, (TH_BASE + 0x1000) | 1), AP_ACCESS_OK);
	CHECK(run_to_sample(pe, &op, 10000));
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.records_written, 1);
	ap_pe_destroy(pe);

	pe = make(NULL); /* SPEv1: FM = 0b10 is reserved, the buffer fills */
	th_program(pe, 1 << 8, 0, 0x1000);
	CHECK_EQ_U64(ap_pe_msr(pe, AP_PMBLIMITR_EL1, (TH_BASE + 0x1000) | 1 | 2u << 1), AP_ACCESS_OK);
	CHECK(run_to_sample(pe, &op, 10000));
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.records_written, 1);
	ap_pe_destroy(pe);
}

static int keep_rec(void *ctx, const struct ap_record *r)
{
	*(struct ap_record *)ctx = *r;
	return 0;
}

static struct ap_record decode_first(struct ap_pe *pe, int spe_later)
{
	struct ap_record r;
	memset(&r, 0, sizeof(r));
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = keep_rec;
	dc.ctx = &r;
	dc.spe_later = (uint8_t)spe_later;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	ap_decoder_feed(&dec, host.mem, th_reg(pe, AP_PMBPTR_EL1) - TH_BASE);
	ap_decoder_finish(&dec);
	return r;
}

/* LATER-PBT-2, LATER-PBT-3, LATER-CRR-2, LATER-CRR-3: a sampled call with a
 * previous branch target; decoded with spe_later as perf 7.x does, and
 * as reserved values by a v1 decoder. */
TEST(previous_branch_target_and_call_return)
{
	struct ap_pe *pe = make(v1p4);
	th_program(pe, 1 << 8, 0, 0x1000);
	struct ap_spe_op bl = { .kind = AP_SPE_OP_BRANCH, .pc = 0x1000, .target = 0x5000,
	                        .target_el = 1, .target_ns = 1,
	                        .flags = AP_SPE_OPF_LINK | AP_SPE_OPF_PREV_TARGET,
	                        .prev_target = 0xffff800000123440ull, .prev_target_el = 1,
	                        .prev_target_ns = 1 };
	CHECK(run_to_sample(pe, &bl, 10000));
	struct ap_record r = decode_first(pe, 1);
	CHECK(r.has & AP_HAS_PREV_TARGET);
	CHECK_EQ_U64(r.prev_target, 0xffff800000123440ull);
	CHECK_EQ_U64(r.prev_target_el, 1);
	CHECK_EQ_U64(r.prev_target_ns, 1);
	CHECK_EQ_U64(r.target, 0x5000);
	CHECK_EQ_U64(r.op_class, AP_OP_CLASS_BRANCH);
	CHECK_EQ_U64((r.op_subclass & AP_OP_BR_CR_MASK) >> AP_OP_BR_CR_SHIFT, AP_OP_BR_CR_BL);
	CHECK_EQ_U64(r.n_errors_total, 0);
	/* a v1 decoder: index 0b00100 and CR are reserved values (SPE-5.3.1-15, SPE-5.3.8-12) */
	struct th_records all;
	CHECK_EQ_U64(th_decode(&host, th_reg(pe, AP_PMBPTR_EL1), &all), (uint64_t)-1); /* errors: reserved */
	CHECK_EQ_U64(all.n, 1);
	struct ap_record v1 = decode_first(pe, 0);
	CHECK(!(v1.has & AP_HAS_PREV_TARGET));
	CHECK(!(v1.has & AP_HAS_OP));
	CHECK_EQ_U64(v1.n_errors_total, 2);
	ap_pe_destroy(pe);

	/* a return; and without the features, the same ops give v1 records */
	pe = make(v1p4);
	th_program(pe, 1 << 8, 0, 0x1000);
	struct ap_spe_op ret = bl;
	ret.flags = AP_SPE_OPF_RETURN | AP_SPE_OPF_INDIRECT;
	CHECK(run_to_sample(pe, &ret, 10000));
	r = decode_first(pe, 1);
	CHECK(!(r.has & AP_HAS_PREV_TARGET));
	CHECK_EQ_U64(r.op_subclass, AP_OP_BR_INDIRECT | AP_OP_BR_CR_RET << AP_OP_BR_CR_SHIFT);
	ap_pe_destroy(pe);
	pe = make(NULL);
	th_program(pe, 1 << 8, 0, 0x1000);
	CHECK(run_to_sample(pe, &bl, 10000));
	r = decode_first(pe, 0);
	CHECK(!(r.has & AP_HAS_PREV_TARGET));
	CHECK_EQ_U64(r.op_subclass, 0);
	CHECK_EQ_U64(r.n_errors_total, 0);
	ap_pe_destroy(pe);
}

TEST_MAIN(CASE(inverted_event_filter), CASE(eft_type_filter_and_masks), CASE(data_source_filter),
          CASE(engine_filters), CASE(discard_mode), CASE(previous_branch_target_and_call_return))

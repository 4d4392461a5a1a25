/* The SPE engine through the public API (include/armprof/spe.h,
 * armprof/model.h): sampling, disabled states, the batch form, collisions,
 * PSB CSYNC draining, management events, PMBIRQ, PMU events, CTI. */
#include "harness.h"
#include "spe_test_host.h"

static struct test_host host;

static struct ap_pe *make(struct ap_config *cfg)
{
	struct ap_config c;
	if (!cfg) {
		ap_config_init(&c);
		cfg = &c;
	}
	return th_create(&host, cfg);
}

static const struct ap_spe_op nop_op = { .kind = AP_SPE_OP_OTHER, .pc = 0x400000 };

/* Members until the next selection, one ap_spe_op() at a time. */
static uint64_t run_to_sample(struct ap_pe *pe, const struct ap_spe_op *op, uint64_t limit)
{
	for (uint64_t i = 1; i <= limit; i++)
		if (ap_spe_op(pe, op))
			return i;
	return 0;
}

/* SPE-3.1.2-3, SPE-3.1.1-3, SPE-2.2.1-2, SPE-2.2.1-7, PMSICR-14, PMSICR-15, SPE-T1-row1,
 * SPE-T1-row2, SPE-T1-row3,
 * SPE-2.7-1: RND == 0 through the engine; PMSICR_EL1 reads back the lazily
 * counted value; every sample gives one record, one CTI pulse. */
TEST(interval_records_and_counts)
{
	struct ap_pe *pe = make(NULL);
	th_program(pe, 2 << 8, 0, 0x1000);
	CHECK(ap_spe_profiling_enabled(pe));
	CHECK_EQ_U64(th_reg(pe, AP_PMSICR_EL1), 0x200); /* 3.1.1 initial load */
	for (int i = 0; i < 100; i++)
		CHECK(!ap_spe_op(pe, &nop_op));
	uint64_t v = 0;
	CHECK_EQ_U64(ap_pe_mrs(pe, AP_PMSICR_EL1, &v), AP_ACCESS_OK);
	CHECK_EQ_U64(v, 0x200 - 100);
	CHECK_EQ_U64(run_to_sample(pe, &nop_op, 10000), 513 - 100);
	for (int k = 0; k < 3; k++)
		CHECK_EQ_U64(run_to_sample(pe, &nop_op, 10000), 513);
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_pop, 4 * 513);
	CHECK_EQ_U64(c.sample_feed, 4);
	CHECK_EQ_U64(c.sample_filtrate, 4);
	CHECK_EQ_U64(c.records_written, 4);
	CHECK_EQ_U64(host.cti2, 4);
	uint64_t pop = 0;
	CHECK_EQ_U64(ap_spe_pmu_event(pe, 0x4000, &pop), 0);
	CHECK_EQ_U64(pop, 4 * 513);
	CHECK(ap_spe_pmu_event(pe, 0x4004, &pop) < 0);
	struct th_records r;
	CHECK_EQ_U64(th_decode(&host, th_reg(pe, AP_PMBPTR_EL1), &r), 4);
	CHECK_EQ_U64(r.rec[0].pc, 0x400000);
	CHECK_EQ_U64(r.rec[0].el, 1);
	ap_pe_destroy(pe);
}

/* SPE-3.1.3-1, SPE-3.1.3-2, SPE-3.1.3-3, SPE-2.4-1, SPE-2.4-2, SPE-T1-row1, PMSICR-3, SPE-4.3.10-8,
 * SPE-3.1.1-1: while disabled nothing counts; re-enabling continues from
 * the kept value. */
TEST(disabled_states_freeze_the_counter)
{
	struct ap_pe *pe = make(NULL);
	th_program(pe, 1 << 8, 0, 0x1000);
	for (int i = 0; i < 50; i++)
		ap_spe_op(pe, &nop_op);
	struct ap_pe_state st;
	ap_pe_get_state(pe, &st);
	st.el = AP_EL2; /* owner is Non-secure EL1: disabled at EL2 (Table 3) */
	CHECK_EQ_U64(ap_pe_set_state(pe, &st), 0);
	CHECK(!ap_spe_profiling_enabled(pe));
	for (int i = 0; i < 1000; i++)
		CHECK(!ap_spe_op(pe, &nop_op));
	CHECK_EQ_U64(th_reg(pe, AP_PMSICR_EL1), 0x100 - 50);
	CHECK_EQ_U64(ap_spe_until_sample(pe), UINT64_MAX);
	st.el = AP_EL3;
	ap_pe_set_state(pe, &st);
	for (int i = 0; i < 10; i++)
		ap_spe_op(pe, &nop_op);
	st.el = AP_EL0;
	ap_pe_set_state(pe, &st);
	CHECK_EQ_U64(th_reg(pe, AP_PMSICR_EL1), 0x100 - 50); /* nonzero: not reloaded */
	CHECK_EQ_U64(run_to_sample(pe, &nop_op, 1000), 0x100 - 50 + 1);
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_pop, 257);
	/* Debug state (3.2.1) and AArch32 (2.1.1) disable it too. */
	st.halted = true;
	ap_pe_set_state(pe, &st);
	for (int i = 0; i < 300; i++)
		CHECK(!ap_spe_op(pe, &nop_op));
	st.halted = false;
	st.aarch32 = 1; /* EL0 using AArch32 */
	ap_pe_set_state(pe, &st);
	for (int i = 0; i < 300; i++)
		CHECK(!ap_spe_op(pe, &nop_op));
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_pop, 257);
	ap_pe_destroy(pe);
}

/* The batch form: ap_spe_until_sample() predicts the member, ap_spe_skip()
 * stops right before it, in every counter mode; the records match the
 * one-by-one run's. */
TEST(batch_form_matches_single_calls)
{
	for (int mode = 0; mode < 4; mode++) {
		struct ap_config cfg;
		ap_config_init(&cfg);
		cfg.spe.ernd = mode & 2;
		uint64_t irr = (1 << 8) | (mode & 1);
		struct ap_pe *a = make(&cfg);
		th_program(a, irr, 0, 0x4000);
		static struct test_host ha;
		struct ap_pe *b = th_create(&ha, &cfg);
		th_program(b, irr, 0, 0x4000);
		uint64_t pos_a = 0, pos_b = 0;
		for (int k = 0; k < 40; k++) {
			pos_a += run_to_sample(a, &nop_op, 100000);
			uint64_t u = ap_spe_until_sample(b);
			uint64_t s = ap_spe_skip(b, UINT64_MAX - 1);
			CHECK_EQ_U64(s, u);
			CHECK_EQ_U64(ap_spe_op(b, &nop_op), 1);
			pos_b += s + 1;
			CHECK_EQ_U64(pos_a, pos_b);
		}
		struct ap_spe_counts ca, cb;
		ap_spe_get_counts(a, &ca);
		ap_spe_get_counts(b, &cb);
		CHECK_EQ_U64(ca.sample_pop, cb.sample_pop);
		CHECK_EQ_U64(ca.records_written, 40);
		CHECK_EQ_U64(th_reg(a, AP_PMBPTR_EL1), th_reg(b, AP_PMBPTR_EL1));
		CHECK_EQ_U64(memcmp(host.mem, ha.mem, 0x4000), 0);
		/* A skip shorter than the distance passes every member. */
		uint64_t u = ap_spe_until_sample(b);
		CHECK_EQ_U64(ap_spe_skip(b, u / 2), u / 2);
		CHECK_EQ_U64(ap_spe_until_sample(b), u - u / 2);
		ap_pe_destroy(a);
		ap_pe_destroy(b);
	}
}

/* SPE-2.2.4-1, SPE-2.2.4-2, SPE-2.2.4-3, SPE-3.1.4-1, SPE-3.1.4-2, SPE-T1-row2, SPE-T1-row4,
 * SPE-4.3.4-18: a sample
 * selected while max_in_flight samples are in flight collides. */
TEST(collisions)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	cfg.spe.max_in_flight = 1;
	struct ap_pe *pe = make(&cfg);
	th_program(pe, 1 << 8, 0, 0x1000);
	struct ap_spe_op slow = nop_op;
	slow.inflight = 300; /* still in flight when the next one is selected */
	CHECK_EQ_U64(run_to_sample(pe, &slow, 1000), 257);
	CHECK_EQ_U64(run_to_sample(pe, &slow, 1000), 257);
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_feed, 1);
	CHECK_EQ_U64(c.sample_collision, 1);
	CHECK(th_reg(pe, AP_PMBSR_EL1) & (1u << 16)); /* COLL */
	CHECK(!(th_reg(pe, AP_PMBSR_EL1) & (1u << 17))); /* no management event */
	CHECK_EQ_U64(c.records_written, 0);
	/* The first completes 300 members after it was sampled. */
	for (int i = 0; i < 300 - 257; i++)
		ap_spe_op(pe, &nop_op);
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.records_written, 1);
	/* With two in flight allowed, the same pattern does not collide. */
	ap_pe_destroy(pe);
	cfg.spe.max_in_flight = 2;
	pe = make(&cfg);
	th_program(pe, 1 << 8, 0, 0x1000);
	run_to_sample(pe, &slow, 1000);
	run_to_sample(pe, &slow, 1000);
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_collision, 0);
	CHECK_EQ_U64(c.sample_feed, 2);
	ap_spe_psb_csync(pe); /* completes both */
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.records_written, 2);
	ap_pe_destroy(pe);
}

/* SPE-3.6-6, SPE-3.6-8, SPE-3.6-12, SPE-3.6.1-4: records the PE holds reach memory at PSB CSYNC. */
TEST(psb_drains_held_records)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	cfg.spe.record_hold = 3;
	struct ap_pe *pe = make(&cfg);
	th_program(pe, 1 << 8, 0, 0x1000);
	for (int k = 0; k < 3; k++)
		run_to_sample(pe, &nop_op, 1000);
	CHECK_EQ_U64(th_reg(pe, AP_PMBPTR_EL1), TH_BASE);
	run_to_sample(pe, &nop_op, 1000); /* the fourth pushes the first out */
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.records_written, 1);
	ap_spe_psb_csync(pe);
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.records_written, 4);
	struct th_records r;
	CHECK_EQ_U64(th_decode(&host, th_reg(pe, AP_PMBPTR_EL1), &r), 4);
	ap_pe_destroy(pe);
}

/* SPE-3.5-2, SPE-3.5-4, SPE-3.5-6, SPE-3.5-9, SPE-3.5-11, SPE-3.5.2-1, SPE-3.5.2-2, SPE-3.5.2-3,
 * SPE-3.5.2-4, SPE-4.3.3-11: buffer full -> S = 1,
 * PMBIRQ asserted, profiling disabled, counters and PMBPTR_EL1 frozen; a
 * direct write of S = 0 deasserts it. */
TEST(buffer_full_event_and_pmbirq)
{
	struct ap_pe *pe = make(NULL); /* MaxSize = 64 bytes */
	th_program(pe, 1 << 8, 0, 0x1000);
	uint64_t limit = TH_BASE + 0x1000;
	ap_pe_msr(pe, AP_PMBPTR_EL1, limit - 64 - 10); /* room for exactly one record */
	run_to_sample(pe, &nop_op, 1000);
	uint64_t sr = th_reg(pe, AP_PMBSR_EL1);
	CHECK(sr & (1u << 17));
	CHECK_EQ_U64(sr & 0xFFFF, 1); /* BSC buffer filled */
	CHECK_EQ_U64(host.irq, 1);
	CHECK(ap_spe_pmbirq(pe));
	CHECK(!ap_spe_profiling_enabled(pe));
	uint64_t ptr = th_reg(pe, AP_PMBPTR_EL1), icr = th_reg(pe, AP_PMSICR_EL1);
	CHECK(limit - ptr < 64);
	for (int i = 0; i < 1000; i++)
		CHECK(!ap_spe_op(pe, &nop_op));
	CHECK_EQ_U64(th_reg(pe, AP_PMBPTR_EL1), ptr);
	CHECK_EQ_U64(th_reg(pe, AP_PMSICR_EL1), icr);
	/* Software handles it: S = 0 deasserts PMBIRQ and re-enables. */
	ap_pe_msr(pe, AP_PMBPTR_EL1, TH_BASE);
	ap_pe_msr(pe, AP_PMBSR_EL1, 0);
	CHECK_EQ_U64(host.irq, 0);
	CHECK(ap_spe_profiling_enabled(pe));
	/* SPE-3.5-5: a direct write of S = 1 asserts PMBIRQ and discards held records. */
	ap_pe_msr(pe, AP_PMBSR_EL1, 1u << 17);
	CHECK_EQ_U64(host.irq, 1);
	CHECK(!ap_spe_profiling_enabled(pe));
	ap_pe_destroy(pe);
}

/* SPE-3.5-10, SPE-3.5.3-2, SPE-3.5.3-3, SPE-3.5.3-4, SPE-3.5.3-5, SPE-3.5.3-6: a fault mid-
 * stream; held records are discarded. */
TEST(fault_discards_held_records)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	cfg.spe.record_hold = 2;
	struct ap_pe *pe = make(&cfg);
	th_program(pe, 1 << 8, 0, 0x1000);
	host.fault_at = TH_BASE + 4;
	host.fault.kind = AP_MEMF_PERMISSION;
	host.fault.stage = 2;
	host.fault.level = 3;
	for (int k = 0; k < 3; k++) /* the third pushes the first to memory: faults */
		run_to_sample(pe, &nop_op, 1000);
	uint64_t sr = th_reg(pe, AP_PMBSR_EL1);
	CHECK_EQ_U64(sr >> 26 & 0x3F, 0x25); /* stage 2 Data Abort */
	CHECK_EQ_U64(sr & 0x3F, 0x0F);       /* Permission fault, level 3 */
	CHECK(sr & (1u << 19));              /* DL: the record was cut */
	CHECK_EQ_U64(th_reg(pe, AP_PMBPTR_EL1), TH_BASE + 4);
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.records_written, 0);
	CHECK_EQ_U64(c.records_discarded, 3); /* the faulting one and two held */
	CHECK_EQ_U64(c.mgmt_events, 1);
	ap_pe_destroy(pe);
}

/* SPE-2.6-1, Table 1: SAMPLE_FILTRATE counts records kept by the filters;
 * SAMPLE_FEED every sample (SPE-T1-row2, SPE-T1-row3, SPE-2.4-6). */
TEST(filtrate_counts_kept_records)
{
	struct ap_pe *pe = make(NULL);
	th_program(pe, 1 << 8, 0, 0x1000);
	ap_pe_msr(pe, AP_PMSFCR_EL1, (1u << 17) | (1u << 1)); /* FT, LD */
	struct ap_spe_op ld = { .kind = AP_SPE_OP_LOAD, .pc = 0x10, .va = 0x20 };
	run_to_sample(pe, &nop_op, 1000); /* OTHER: discarded */
	run_to_sample(pe, &ld, 1000);     /* LOAD: kept */
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_feed, 2);
	CHECK_EQ_U64(c.sample_filtrate, 1);
	CHECK_EQ_U64(c.records_written, 1);
	ap_pe_destroy(pe);
}

/* SPE-2.2.5-1, SPE-2.2.5-4, SPE-2.2.5-5, SPE-2.3.5-1, SPE-2.3.5-3: population membership and
 * capture of
 * misspeculated operations are configuration. */
TEST(population_exclusions)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	cfg.spe.exclude_misspeculated = true;
	struct ap_pe *pe = make(&cfg);
	th_program(pe, 1 << 8, 0, 0x1000);
	struct ap_spe_op mis = nop_op;
	mis.flags = AP_SPE_OPF_MISSPEC;
	for (int i = 0; i < 1000; i++)
		CHECK(!ap_spe_op(pe, &mis));
	CHECK_EQ_U64(th_reg(pe, AP_PMSICR_EL1), 0x100);
	ap_pe_destroy(pe);

	ap_config_init(&cfg); /* in the population, records not written */
	pe = make(&cfg);
	th_program(pe, 1 << 8, 0, 0x1000);
	CHECK_EQ_U64(run_to_sample(pe, &mis, 1000), 257);
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	CHECK_EQ_U64(c.sample_feed, 1);
	CHECK_EQ_U64(c.sample_filtrate, 0);
	CHECK_EQ_U64(c.records_written, 0);
	ap_pe_destroy(pe);
}

/* SPE-3.3-3, SPE-3.3-6, SPE-5.3.10-4, SPE-5.3.10-5, SPE-5.3.10-6, SPE-2.3-3, SPE-3.3-1:
 * timestamps and
 * context in the engine's records. */
TEST(timestamp_and_context)
{
	struct ap_pe *pe = make(NULL);
	struct ap_pe_state st;
	ap_pe_get_state(pe, &st);
	st.contextidr_el1 = 0x1234;
	ap_pe_set_state(pe, &st);
	/* PMSCR_EL1.TS, CX; PCT = 1 with PMSCR_EL2.PCT = 0: virtual (NS EL1 owner). */
	th_program(pe, 1 << 8, (1u << 5) | (1u << 3) | (1u << 6), 0x1000);
	host.cntpct = 1000;
	host.cntvct = 777;
	run_to_sample(pe, &nop_op, 1000);
	struct th_records r;
	CHECK_EQ_U64(th_decode(&host, th_reg(pe, AP_PMBPTR_EL1), &r), 1);
	CHECK_EQ_U64(r.rec[0].end, AP_END_TIMESTAMP);
	CHECK_EQ_U64(r.rec[0].ts, 777);
	CHECK(r.rec[0].has & AP_HAS_CTX_EL1);
	CHECK_EQ_U64(r.rec[0].ctx_el1, 0x1234);
	/* The system counter disabled: no timestamp by default (SPE-2.3-3). */
	st.timer_enabled = false;
	ap_pe_set_state(pe, &st);
	run_to_sample(pe, &nop_op, 1000);
	CHECK_EQ_U64(th_decode(&host, th_reg(pe, AP_PMBPTR_EL1), &r), 2);
	CHECK_EQ_U64(r.rec[1].end, AP_END_END);
	ap_pe_destroy(pe);
}

TEST_MAIN(CASE(interval_records_and_counts), CASE(disabled_states_freeze_the_counter),
          CASE(batch_form_matches_single_calls), CASE(collisions), CASE(psb_drains_held_records),
          CASE(buffer_full_event_and_pmbirq), CASE(fault_discards_held_records),
          CASE(filtrate_counts_kept_records), CASE(population_exclusions), CASE(timestamp_and_context))

/* The minimal PMU that PMU snapshots need (spec/000 D13.9, SS-RVLKCZ;
 * counting rules from DDI 0487 PMUEvent(), PMCR_EL0, PMCNTENSET_EL0). */
#include "armprof/error.h"
#include "model/pmu/pmu.h"
#include "harness.h"

static void make(struct ap_pmu *pmu, unsigned n, bool icntr, bool p5)
{
	struct ap_pmu_config cfg;
	ap_pmu_config_init(&cfg);
	cfg.num_counters = n;
	cfg.icntr = icntr;
	cfg.pmuv3p5 = p5;
	CHECK(ap_pmu_init(pmu, &cfg) == 0);
}

/* SS-RVLKCZ: N is IMPLEMENTATION DEFINED and read back in PMCR_EL0.N. */
TEST(pmcr_n_reports_configured_counters)
{
	struct ap_pmu pmu;
	for (unsigned n = 0; n <= 31; n += 5) {
		make(&pmu, n, true, true);
		CHECK_EQ_U64((ap_pmu_read_pmcr(&pmu) & AP_PMCR_N_MASK) >> AP_PMCR_N_SHIFT, n);
	}
	struct ap_pmu_config cfg;
	ap_pmu_config_init(&cfg);
	cfg.num_counters = 32;
	CHECK(ap_pmu_init(&pmu, &cfg) == -AP_ERR_INVALID);
}

TEST(counts_only_matching_enabled_counters)
{
	struct ap_pmu pmu;
	make(&pmu, 4, true, true);
	ap_pmu_write_evtyper(&pmu, 0, AP_PMU_EV_SAMPLE_POP);
	ap_pmu_write_evtyper(&pmu, 1, AP_PMU_EV_SAMPLE_FEED);
	ap_pmu_write_evtyper(&pmu, 2, AP_PMU_EV_SAMPLE_POP);
	ap_pmu_write_evtyper(&pmu, 3, AP_PMU_EV_PMU_SNAPSHOT);
	ap_pmu_event(&pmu, AP_PMU_EV_SAMPLE_POP, 5);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 0); /* PMCR_EL0.E == 0 */
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E);
	ap_pmu_event(&pmu, AP_PMU_EV_SAMPLE_POP, 5);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 0); /* PMCNTENSET_EL0 == 0 */
	ap_pmu_cnten_set(&pmu, 0x5);                   /* counters 0 and 2 */
	ap_pmu_event(&pmu, AP_PMU_EV_SAMPLE_POP, 5);
	ap_pmu_event(&pmu, AP_PMU_EV_SAMPLE_FEED, 7);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 5);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 1), 0);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 2), 5);
	ap_pmu_cnten_set(&pmu, 0xA);
	ap_pmu_event(&pmu, AP_PMU_EV_SAMPLE_FEED, 7);
	ap_pmu_event(&pmu, AP_PMU_EV_PMU_SNAPSHOT, 1);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 1), 7);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 3), 1);
	ap_pmu_cnten_clr(&pmu, 0x1);
	ap_pmu_event(&pmu, AP_PMU_EV_SAMPLE_POP, 1);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 5);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 2), 6);
	/* Bits of unimplemented counters cannot be set. */
	ap_pmu_cnten_set(&pmu, 0xF0);
	CHECK_EQ_U64(ap_pmu_read_cnten(&pmu) & 0xF0, 0);
}

/* FEAT_PMUv3_ICNTR: PMICNTR_EL0 counts INST_RETIRED, enabled by F0 (bit 32). */
TEST(instruction_counter)
{
	struct ap_pmu pmu;
	make(&pmu, 2, true, true);
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E);
	ap_pmu_event(&pmu, AP_PMU_EV_INST_RETIRED, 10);
	CHECK_EQ_U64(ap_pmu_read_icntr(&pmu), 0);
	ap_pmu_cnten_set(&pmu, 1ull << AP_PMU_BIT_INSTR);
	ap_pmu_event(&pmu, AP_PMU_EV_INST_RETIRED, 10);
	ap_pmu_event(&pmu, AP_PMU_EV_BR_RETIRED, 3);
	CHECK_EQ_U64(ap_pmu_read_icntr(&pmu), 10);
	make(&pmu, 2, false, true);
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E);
	ap_pmu_cnten_set(&pmu, 1ull << AP_PMU_BIT_INSTR);
	ap_pmu_event(&pmu, AP_PMU_EV_INST_RETIRED, 10);
	CHECK_EQ_U64(ap_pmu_read_icntr(&pmu), 0);
	CHECK_EQ_U64(ap_pmu_read_cnten(&pmu), 0);
}

TEST(cycle_counter_and_divider)
{
	struct ap_pmu pmu;
	make(&pmu, 1, true, true);
	ap_pmu_write_evtyper(&pmu, 0, AP_PMU_EV_CPU_CYCLES);
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E);
	ap_pmu_cnten_set(&pmu, 1ull << AP_PMU_BIT_CYCLE | 1);
	ap_pmu_cycles(&pmu, 100);
	CHECK_EQ_U64(ap_pmu_read_ccntr(&pmu), 100);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 100);
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E | AP_PMCR_D | AP_PMCR_C); /* C zeroes PMCCNTR_EL0 */
	CHECK_EQ_U64(ap_pmu_read_ccntr(&pmu), 0);
	ap_pmu_cycles(&pmu, 100); /* 1 tick, 36 carried */
	ap_pmu_cycles(&pmu, 28);  /* 64 -> 1 more tick */
	CHECK_EQ_U64(ap_pmu_read_ccntr(&pmu), 2);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 228); /* CPU_CYCLES is not divided */
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E | AP_PMCR_P);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 0);
	CHECK_EQ_U64(ap_pmu_read_ccntr(&pmu), 2); /* P does not touch the cycle counter */
}

/* Counter width: 32-bit without FEAT_PMUv3p5; overflow sets PMOVSSET_EL0. */
TEST(width_and_overflow)
{
	struct ap_pmu pmu;
	make(&pmu, 2, true, false);
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E | AP_PMCR_LP); /* LP is RES0 without p5 */
	CHECK_EQ_U64(ap_pmu_read_pmcr(&pmu) & AP_PMCR_LP, 0);
	ap_pmu_cnten_set(&pmu, 1);
	ap_pmu_write_evcntr(&pmu, 0, 0x1FFFFFFFEull);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 0xFFFFFFFEull);
	ap_pmu_event(&pmu, AP_PMU_EV_SW_INCR, 3);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 1);
	CHECK_EQ_U64(ap_pmu_read_ovs(&pmu), 1);
	ap_pmu_ovs_clr(&pmu, 1);
	CHECK_EQ_U64(ap_pmu_read_ovs(&pmu), 0);

	make(&pmu, 2, true, true);
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E);
	ap_pmu_cnten_set(&pmu, 1);
	ap_pmu_write_evcntr(&pmu, 0, 0xFFFFFFFFull);
	ap_pmu_event(&pmu, AP_PMU_EV_SW_INCR, 1);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 0x100000000ull); /* 64-bit counter */
	CHECK_EQ_U64(ap_pmu_read_ovs(&pmu), 1);                     /* LP=0: overflow at bit 31 */
	ap_pmu_ovs_clr(&pmu, 1);
	ap_pmu_write_pmcr(&pmu, AP_PMCR_E | AP_PMCR_LP);
	ap_pmu_write_evcntr(&pmu, 0, 0xFFFFFFFFull);
	ap_pmu_event(&pmu, AP_PMU_EV_SW_INCR, 1);
	CHECK_EQ_U64(ap_pmu_read_ovs(&pmu), 0);                     /* LP=1: at bit 63 */
	ap_pmu_write_evcntr(&pmu, 0, UINT64_MAX);
	ap_pmu_event(&pmu, AP_PMU_EV_SW_INCR, 1);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 0), 0);
	CHECK_EQ_U64(ap_pmu_read_ovs(&pmu), 1);
}

/* The INST_RETIRED fast path counts exactly as ap_pmu_event() does,
 * overflow flags included, for 32-bit, 64-bit and LP configurations. */
TEST(inst_retired_fast_path_matches_event)
{
	for (int variant = 0; variant < 3; variant++) {
		struct ap_pmu a, b;
		make(&a, 3, true, variant > 0);
		make(&b, 3, true, variant > 0);
		uint64_t pmcr = AP_PMCR_E | (variant == 2 ? AP_PMCR_LP : 0);
		struct ap_pmu *both[2] = { &a, &b };
		for (int k = 0; k < 2; k++) {
			ap_pmu_write_evtyper(both[k], 0, AP_PMU_EV_INST_RETIRED);
			ap_pmu_write_evtyper(both[k], 1, AP_PMU_EV_CPU_CYCLES);
			ap_pmu_write_evtyper(both[k], 2, AP_PMU_EV_INST_RETIRED);
			ap_pmu_write_pmcr(both[k], pmcr);
			ap_pmu_cnten_set(both[k], 0x5 | 1ull << AP_PMU_BIT_INSTR);
			ap_pmu_write_evcntr(both[k], 0, 0xFFFFFFF0ull);
			ap_pmu_write_evcntr(both[k], 2, 0xFFFFFFFFFFFFFFF0ull);
			ap_pmu_write_icntr(both[k], 0xFFFFFFFFFFFFFFF8ull);
		}
		for (uint64_t i = 0; i < 40; i++) {
			ap_pmu_inst_retired(&a, i % 3);
			ap_pmu_event(&b, AP_PMU_EV_INST_RETIRED, i % 3);
		}
		CHECK_EQ_U64(ap_pmu_read_evcntr(&a, 0), ap_pmu_read_evcntr(&b, 0));
		CHECK_EQ_U64(ap_pmu_read_evcntr(&a, 2), ap_pmu_read_evcntr(&b, 2));
		CHECK_EQ_U64(ap_pmu_read_icntr(&a), ap_pmu_read_icntr(&b));
		CHECK_EQ_U64(ap_pmu_read_ovs(&a), ap_pmu_read_ovs(&b));
		CHECK(ap_pmu_read_ovs(&a) != 0);
		CHECK_EQ_U64(ap_pmu_read_evcntr(&a, 1), 0);
		/* Disabling a counter or changing its event takes it off the path. */
		ap_pmu_write_evtyper(&a, 0, AP_PMU_EV_BR_RETIRED);
		ap_pmu_cnten_clr(&a, 0x4);
		uint64_t c0 = ap_pmu_read_evcntr(&a, 0), c2 = ap_pmu_read_evcntr(&a, 2);
		ap_pmu_inst_retired(&a, 5);
		CHECK_EQ_U64(ap_pmu_read_evcntr(&a, 0), c0);
		CHECK_EQ_U64(ap_pmu_read_evcntr(&a, 2), c2);
	}
}

TEST(out_of_range_counters_are_inert)
{
	struct ap_pmu pmu;
	make(&pmu, 3, true, true);
	ap_pmu_write_evcntr(&pmu, 3, 99);
	ap_pmu_write_evtyper(&pmu, 30, 8);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 3), 0);
	CHECK_EQ_U64(ap_pmu_read_evtyper(&pmu, 30), 0);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&pmu, 1000), 0);
}

TEST_MAIN(CASE(pmcr_n_reports_configured_counters), CASE(counts_only_matching_enabled_counters),
          CASE(instruction_counter), CASE(cycle_counter_and_divider), CASE(width_and_overflow),
          CASE(inst_retired_fast_path_matches_event),
          CASE(out_of_range_counters_are_inert))

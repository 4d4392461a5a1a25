/* PMU snapshots (spec/000 D13.9): RSCLCQ, RMFJWS, RYWLFL, RTSYTY, every row
 * of Table D13-10, the Capture event (RVPZHN, RDBRSV, RPLPCY, RMPZSB,
 * IWRNBL) and the snapshot registers.
 * ap_snapshot_enabled() and ap_snapshot_allowed() are the DDI 0487
 * pseudocode functions PMUCaptureEventEnabled() and PMUCaptureEventAllowed()
 * that spec/000 names without their bodies: SS-RYWLFL-5, SS-RTSYTY-9, SS-1.
 * Rows: SS-TD13-10-row1 SS-TD13-10-row2 SS-TD13-10-row3 SS-TD13-10-row4
 * SS-TD13-10-row5 SS-TD13-10-row6 SS-TD13-10-row7 SS-TD13-10-row8
 * SS-TD13-10-row9 (table_d13_10_every_row). */
#include "armprof/error.h"
#include "armprof/snapshot.h"
#include "harness.h"

struct rig {
	struct ap_pmu pmu;
	struct ap_pcsr pcsr;
	struct ap_pcsr_pe ppe;
	struct ap_snapshot ss;
	struct ap_snapshot_pe pe;
	struct ap_snapshot_targets t;
	unsigned freezes;
};

static void on_freeze(void *ctx)
{
	((struct rig *)ctx)->freezes++;
}

static void rig_init(struct rig *r, const struct ap_snapshot_config *sc)
{
	struct ap_pmu_config pc;
	struct ap_pcsr_config cc;
	ap_pmu_config_init(&pc);
	pc.num_counters = 3;
	ap_pcsr_config_init(&cc);
	cc.pmpcsctl_imp = false;
	CHECK(ap_pmu_init(&r->pmu, &pc) == 0);
	ap_pcsr_pe_init(&r->ppe);
	r->ppe.contextidr_el1 = 0xAB;
	CHECK(ap_pcsr_init(&r->pcsr, &cc, &r->ppe) == 0);
	CHECK(ap_snapshot_init(&r->ss, sc) == 0);
	ap_snapshot_pe_init(&r->pe);
	r->t.pmu = &r->pmu;
	r->t.pcsr = &r->pcsr;
	r->freezes = 0;
	ap_snapshot_set_brbe_hook(&r->ss, on_freeze, r);
	/* Counters 0..2 count INST_RETIRED, SAMPLE_POP, PMU_SNAPSHOT; all on. */
	ap_pmu_write_evtyper(&r->pmu, 0, AP_PMU_EV_INST_RETIRED);
	ap_pmu_write_evtyper(&r->pmu, 1, AP_PMU_EV_SAMPLE_POP);
	ap_pmu_write_evtyper(&r->pmu, 2, AP_PMU_EV_PMU_SNAPSHOT);
	ap_pmu_write_pmcr(&r->pmu, AP_PMCR_E);
	ap_pmu_cnten_set(&r->pmu, 0x7 | 1ull << 31 | 1ull << 32);
}

static void rig_default(struct rig *r)
{
	struct ap_snapshot_config sc;
	ap_snapshot_config_init(&sc);
	rig_init(r, &sc);
}

static void set_controls(struct rig *r, unsigned el3, unsigned el2, unsigned sse)
{
	r->pe.mdcr_el3_pmsse = (uint8_t)el3;
	r->pe.mdcr_el2_pmsse = (uint8_t)el2;
	ap_snapshot_write_pmecr(&r->ss, (uint64_t)sse << AP_PMECR_SSE_SHIFT);
}

/* Table D13-10, rows 1..9 (SS-TD13-10-row1, SS-TD13-10-row2, SS-TD13-10-row3, SS-TD13-10-row4,
 * SS-TD13-10-row5, SS-TD13-10-row6, SS-TD13-10-row7, SS-TD13-10-row8, SS-TD13-10-row9), with
 * every value of the
 * "xx" columns; SS-IMRCSY: Disabled / Prohibited / Allowed. */
TEST(table_d13_10_every_row)
{
	struct row { int el3, el2, sse; enum ap_ss_capture want; } rows[] = {
		{ 0, -1, -1, AP_SS_DISABLED },   /* row1 */
		{ 1, 0, -1, AP_SS_DISABLED },    /* row2 */
		{ 1, 1, 0, AP_SS_DISABLED },     /* row3 */
		{ 1, 1, 2, AP_SS_PROHIBITED },   /* row4 */
		{ 1, 1, 3, AP_SS_ALLOWED },      /* row5 */
		{ 1, 2, -1, AP_SS_PROHIBITED },  /* row6 */
		{ 1, 3, -1, AP_SS_ALLOWED },     /* row7 */
		{ 2, -1, -1, AP_SS_PROHIBITED }, /* row8 */
		{ 3, -1, -1, AP_SS_ALLOWED },    /* row9 */
	};
	struct rig r;
	rig_default(&r);
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (unsigned el2 = 0; el2 < 4; el2++) {
			for (unsigned sse = 0; sse < 4; sse++) {
				if ((rows[i].el2 >= 0 && (unsigned)rows[i].el2 != el2) ||
				    (rows[i].sse >= 0 && (unsigned)rows[i].sse != sse) || sse == 1)
					continue; /* 0b01 is reserved: see reserved_sse */
				set_controls(&r, (unsigned)rows[i].el3, el2, sse);
				if (ap_snapshot_class(&r.ss, &r.pe) != rows[i].want)
					fprintf(stderr, "row%u el2=%u sse=%u\n", i + 1, el2, sse);
				CHECK(ap_snapshot_class(&r.ss, &r.pe) == rows[i].want);
			}
		}
	}
}

/* SS-RYWLFL-1, SS-RYWLFL-2, SS-RYWLFL-3 and SS-RTSYTY-3, SS-RTSYTY-4, SS-RTSYTY-5 with EL3 or
 * EL2 not implemented: a
 * missing EL acts as PMSSE == 0b01 (SS-2), "even when EL2 is disabled". */
TEST(missing_els_and_aarch32)
{
	struct ap_snapshot_config sc;
	struct rig r;
	ap_snapshot_config_init(&sc);
	sc.have_el3 = false;
	rig_init(&r, &sc);
	set_controls(&r, 0, 3, 0); /* MDCR_EL3 ignored without EL3 */
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_ALLOWED);
	sc.have_el2 = false;
	rig_init(&r, &sc);
	set_controls(&r, 0, 0, 3);
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_ALLOWED);
	set_controls(&r, 0, 0, 2);
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_PROHIBITED);
	set_controls(&r, 0, 0, 0);
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_DISABLED);
	/* PMUCaptureEventEnabled(): EL1 using AArch32 has no PMECR_EL1. */
	set_controls(&r, 0, 0, 3);
	r.pe.el1_aarch32 = true;
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_DISABLED);
	/* With EL2 in AArch32 and MDCR_EL3.PMSSE deferring. */
	rig_default(&r);
	set_controls(&r, 1, 3, 3);
	r.pe.el2_aarch32 = true;
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_DISABLED);
	set_controls(&r, 3, 0, 0); /* EL3 decides first */
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_ALLOWED);
	/* Without FEAT_PMUv3_SS, never enabled. */
	sc.feat_pmuv3_ss = false;
	rig_init(&r, &sc);
	set_controls(&r, 3, 3, 3);
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_DISABLED);
}

/* SS-2: PMECR_EL1.SSE == 0b01 is reserved; CONSTRAINED UNPREDICTABLE
 * (Unpredictable_RESPMSSE): disabled, or an UNKNOWN non-reserved value. */
TEST(reserved_sse)
{
	struct ap_snapshot_config sc;
	struct rig r;
	ap_snapshot_config_init(&sc);
	static const enum ap_ss_capture want[3] = { AP_SS_DISABLED, AP_SS_PROHIBITED, AP_SS_ALLOWED };
	for (unsigned c = 0; c < 3; c++) {
		sc.reserved_sse = (enum ap_ss_reserved_sse)c;
		rig_init(&r, &sc);
		set_controls(&r, 1, 1, 1);
		CHECK(ap_snapshot_class(&r.ss, &r.pe) == want[c]);
	}
}

/* SS-RTSYTY-2, SS-RTSYTY-6, SS-RTSYTY-8: the OS Lock and Debug state prohibit. */
TEST(os_lock_and_debug_state)
{
	struct ap_snapshot_config sc;
	struct rig r;
	rig_default(&r);
	set_controls(&r, 3, 0, 0);
	r.pe.oslk = true;
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_PROHIBITED);
	r.pe.oslk = false;
	r.pe.halted = true;
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_PROHIBITED);
	ap_snapshot_config_init(&sc);
	sc.capture_in_debug = true;
	rig_init(&r, &sc);
	set_controls(&r, 3, 0, 0);
	r.pe.halted = true;
	CHECK(ap_snapshot_class(&r.ss, &r.pe) == AP_SS_ALLOWED);
}

/* SS-RVPZHN-1, SS-RVPZHN-2, SS-RVPZHN-3, SS-RDBRSV, SS-RPLPCY-1, SS-IWRNBL: an allowed Capture. */
TEST(allowed_capture)
{
	struct rig r;
	rig_default(&r);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(&r.ss), AP_PMSSCR_NC); /* reset {1,0} */
	set_controls(&r, 1, 1, 3);
	ap_pmu_event(&r.pmu, AP_PMU_EV_INST_RETIRED, 100);
	ap_pmu_event(&r.pmu, AP_PMU_EV_SAMPLE_POP, 7);
	ap_pmu_cycles(&r.pmu, 250);
	r.pe.brbe_freeze = true;
	CHECK(ap_snapshot_write_pmsscr(&r.ss, &r.pe, &r.t, AP_PMSSCR_SS) == 1);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(&r.ss), 0);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 0), 100);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 1), 7);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 2), 0);      /* PMU_SNAPSHOT after capture */
	CHECK_EQ_U64(ap_pmu_read_evcntr(&r.pmu, 2), 1);
	CHECK_EQ_U64(ap_snapshot_read_ccntsvr(&r.ss), 250);
	CHECK_EQ_U64(ap_snapshot_read_icntsvr(&r.ss), 100);
	CHECK_EQ_U64(r.freezes, 1);
	/* The counters run on; the saved values stay until the next capture. */
	ap_pmu_event(&r.pmu, AP_PMU_EV_INST_RETIRED, 5);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 0), 100);
	CHECK(ap_snapshot_request(&r.ss, &r.pe, &r.t) == 1); /* external request */
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 0), 105);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 2), 1);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&r.pmu, 2), 2);
	r.pe.brbe_freeze = false;
	ap_snapshot_write_pmsscr(&r.ss, &r.pe, &r.t, AP_PMSSCR_SS);
	CHECK_EQ_U64(r.freezes, 2);
}

/* SS-RMPZSB-1, SS-RMPZSB-2, SS-RMPZSB-3: a prohibited Capture changes nothing but {NC,SS} =
 * {1,0}. */
TEST(prohibited_capture)
{
	struct rig r;
	rig_default(&r);
	set_controls(&r, 2, 0, 0);
	ap_pmu_event(&r.pmu, AP_PMU_EV_INST_RETIRED, 9);
	ap_snapshot_write_pmsscr(&r.ss, &r.pe, &r.t, 0); /* NC is not writable */
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(&r.ss), AP_PMSSCR_NC);
	CHECK(ap_snapshot_write_pmsscr(&r.ss, &r.pe, &r.t, AP_PMSSCR_SS) == 1);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(&r.ss), AP_PMSSCR_NC);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 0), 0);
	CHECK_EQ_U64(ap_pmu_read_evcntr(&r.pmu, 2), 0); /* no PMU_SNAPSHOT */
	CHECK_EQ_U64(r.ss.captures_prohibited, 1);
}

/* SS-RMFJWS, SS-RSCLCQ-3: disabled -> SS ignores writes; powered down -> no
 * Capture event. */
TEST(disabled_and_powered_down)
{
	struct rig r;
	rig_default(&r);
	set_controls(&r, 0, 0, 0);
	CHECK(ap_snapshot_write_pmsscr(&r.ss, &r.pe, &r.t, AP_PMSSCR_SS) == 0);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(&r.ss), AP_PMSSCR_NC); /* SS stays 0 */
	CHECK(ap_snapshot_request(&r.ss, &r.pe, &r.t) == 0);
	set_controls(&r, 3, 0, 0);
	r.pe.powered = false;
	CHECK(ap_snapshot_request(&r.ss, &r.pe, &r.t) == 0);
	CHECK_EQ_U64(r.ss.requests_ignored, 3);
}

/* SS-RPLPCY-2: in Debug state, PMU_SNAPSHOT is counted only as configured. */
TEST(snapshot_event_in_debug)
{
	struct ap_snapshot_config sc;
	struct rig r;
	for (int ev = 0; ev < 2; ev++) {
		ap_snapshot_config_init(&sc);
		sc.capture_in_debug = true;
		sc.snapshot_event_in_debug = ev;
		rig_init(&r, &sc);
		set_controls(&r, 3, 0, 0);
		r.pe.halted = true;
		ap_snapshot_request(&r.ss, &r.pe, &r.t);
		CHECK_EQ_U64(ap_snapshot_read_pmsscr(&r.ss), 0);
		CHECK_EQ_U64(ap_pmu_read_evcntr(&r.pmu, 2), (uint64_t)ev);
	}
}

/* SS-4 / Example D13-8 (SS-IMXCMM-2): with a completion delay, SS reads 1
 * until the Capture completes; the counters captured are those at completion. */
TEST(capture_delay_polling)
{
	struct ap_snapshot_config sc;
	struct rig r;
	ap_snapshot_config_init(&sc);
	sc.capture_delay = 3;
	rig_init(&r, &sc);
	set_controls(&r, 3, 0, 0);
	CHECK(ap_snapshot_write_pmsscr(&r.ss, &r.pe, &r.t, AP_PMSSCR_SS) == 1);
	unsigned polls = 0;
	while ((ap_snapshot_read_pmsscr(&r.ss) & AP_PMSSCR_SS) && polls < 10) {
		/* A second request while one is in progress is ignored (SS-4). */
		CHECK(ap_snapshot_write_pmsscr(&r.ss, &r.pe, &r.t, AP_PMSSCR_SS) == 0);
		ap_pmu_event(&r.pmu, AP_PMU_EV_INST_RETIRED, 1);
		ap_snapshot_tick(&r.ss, &r.pe, &r.t, 1);
		polls++;
	}
	CHECK_EQ_U64(polls, 3);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(&r.ss, 0), 3);
}

/* SS-RVPZHN-4, SS-RVPZHN-9, PCS-H7.1.1.1-10: PMPCSCTL.SS = 1 samples the PC on an
 * allowed Capture; with SS = 0 the PC sample registers are unchanged. */
TEST(capture_samples_pc_with_pmpcsctl_ss)
{
	struct rig r;
	rig_default(&r);
	set_controls(&r, 3, 0, 0);
	ap_pcsr_retire(&r.pcsr, 0x7000, true);
	uint64_t before = ap_pcsr_pmpcsr(&r.pcsr);
	ap_snapshot_request(&r.ss, &r.pe, &r.t);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&r.pcsr), before);
	ap_pcsr_write_pmpcsctl(&r.pcsr, 0x10);
	ap_pcsr_retire(&r.pcsr, 0x7004, true);
	ap_snapshot_request(&r.ss, &r.pe, &r.t);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&r.pcsr) & 0xffffffff, 0x7004);
	CHECK_EQ_U64(r.pcsr.pmcid1sr, 0xAB);
	/* A prohibited Capture leaves the PC sample registers alone (SS-RMPZSB-2). */
	ap_pcsr_retire(&r.pcsr, 0x7008, true);
	set_controls(&r, 2, 0, 0);
	ap_snapshot_request(&r.ss, &r.pe, &r.t);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(&r.pcsr) & 0xffffffff, 0x7004);
}

TEST_MAIN(CASE(table_d13_10_every_row), CASE(missing_els_and_aarch32), CASE(reserved_sse),
          CASE(os_lock_and_debug_state), CASE(allowed_capture), CASE(prohibited_capture),
          CASE(disabled_and_powered_down), CASE(snapshot_event_in_debug), CASE(capture_delay_polling),
          CASE(capture_samples_pc_with_pmpcsctl_ss))

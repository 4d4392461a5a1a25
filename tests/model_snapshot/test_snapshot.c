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
#include "harness.h"
#include "model/pcsr/pcsr.h"
#include "model/snapshot/snapshot.h"

/* A PE with FEAT_PMUv3_SS and FEAT_PCSRv8p9, 3 event counters counting
 * INST_RETIRED, SAMPLE_POP and PMU_SNAPSHOT (all enabled, with the cycle and
 * instruction counters), PC sampling active from reset. The PE state is
 * driven through ap_pe_set_state(); the Capture-event functions
 * (lib/model/snapshot/snapshot.h) are called on the PE. */
struct rig {
	struct ap_config cfg;
	struct ap_pe_state st;
	struct ap_pe *pe;
	unsigned freezes;
};
#define PMU (&r.pe->snapshot.pmu)

static void on_freeze(void *ctx)
{
	((struct rig *)ctx)->freezes++;
}

static void cfg_default(struct rig *r)
{
	ap_config_init(&r->cfg);
	r->cfg.snapshot.feat_pmuv3_ss = true;
	r->cfg.pcsr.feat_pcsrv8p9 = true;
	r->cfg.pcsr.pmpcsctl_imp = false;
	r->cfg.pmu.num_counters = 3;
	r->cfg.pmu.icntr = true;
	r->cfg.aarch32_els = 0x7; /* EL0..EL2 can use AArch32 (missing_els_and_aarch32) */
}

static void set(struct rig *r)
{
	CHECK(ap_pe_set_state(r->pe, &r->st) == 0);
}

static void rig_init(struct rig *r)
{
	ap_pe_destroy(r->pe);
	r->pe = NULL;
	CHECK(ap_pe_create(&r->cfg, NULL, &r->pe, NULL) == 0);
	ap_pe_state_init(&r->st);
	r->st.contextidr_el1 = 0xAB;
	CHECK(ap_pe_state_set_field(&r->st, "mdcr_el3.pmsse", 1) == 0);
	CHECK(ap_pe_state_set_field(&r->st, "mdcr_el2.pmsse", 1) == 0);
	set(r);
	r->freezes = 0;
	ap_pe_set_brbe_hook(r->pe, on_freeze, r);
	/* Counters 0..2 count INST_RETIRED, SAMPLE_POP, PMU_SNAPSHOT; all on. */
	struct ap_pmu *pmu = &r->pe->snapshot.pmu;
	ap_pmu_write_evtyper(pmu, 0, AP_PMU_EV_INST_RETIRED);
	ap_pmu_write_evtyper(pmu, 1, AP_PMU_EV_SAMPLE_POP);
	ap_pmu_write_evtyper(pmu, 2, AP_PMU_EV_PMU_SNAPSHOT);
	ap_pmu_write_pmcr(pmu, AP_PMCR_E);
	ap_pmu_cnten_set(pmu, 0x7 | 1ull << 31 | 1ull << 32);
}

static void rig_default(struct rig *r)
{
	cfg_default(r);
	rig_init(r);
}

static void done(struct rig *r)
{
	ap_pe_destroy(r->pe);
	r->pe = NULL;
}

static struct ap_snapshot_stats stats(const struct rig *r)
{
	struct ap_snapshot_stats st;
	ap_pe_snapshot_stats(r->pe, &st);
	return st;
}

/* MDCR_EL3.PMSSE, MDCR_EL2.PMSSE (PE state) and PMECR_EL1.SSE. */
static void set_controls(struct rig *r, unsigned el3, unsigned el2, unsigned sse)
{
	CHECK(ap_pe_state_set_field(&r->st, "mdcr_el3.pmsse", el3) == 0);
	CHECK(ap_pe_state_set_field(&r->st, "mdcr_el2.pmsse", el2) == 0);
	set(r);
	ap_snapshot_write_pmecr(r->pe, (uint64_t)sse << AP_PMECR_SSE_SHIFT);
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
	struct rig r = { .pe = NULL };
	rig_default(&r);
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (unsigned el2 = 0; el2 < 4; el2++) {
			for (unsigned sse = 0; sse < 4; sse++) {
				if ((rows[i].el2 >= 0 && (unsigned)rows[i].el2 != el2) ||
				    (rows[i].sse >= 0 && (unsigned)rows[i].sse != sse) || sse == 1)
					continue; /* 0b01 is reserved: see reserved_sse */
				set_controls(&r, (unsigned)rows[i].el3, el2, sse);
				if (ap_snapshot_class(r.pe) != rows[i].want)
					fprintf(stderr, "row%u el2=%u sse=%u\n", i + 1, el2, sse);
				CHECK(ap_snapshot_class(r.pe) == rows[i].want);
			}
		}
	}
	done(&r);
}

/* SS-RYWLFL-1, SS-RYWLFL-2, SS-RYWLFL-3 and SS-RTSYTY-3, SS-RTSYTY-4, SS-RTSYTY-5 with EL3 or
 * EL2 not implemented: a
 * missing EL acts as PMSSE == 0b01 (SS-2), "even when EL2 is disabled". */
TEST(missing_els_and_aarch32)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.have_el3 = false;
	rig_init(&r);
	set_controls(&r, 0, 3, 0); /* MDCR_EL3 ignored without EL3 */
	CHECK(ap_snapshot_class(r.pe) == AP_SS_ALLOWED);
	r.cfg.have_el2 = r.cfg.have_vhe = false; /* FEAT_VHE needs EL2 */
	rig_init(&r);
	set_controls(&r, 0, 0, 3);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_ALLOWED);
	set_controls(&r, 0, 0, 2);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_PROHIBITED);
	set_controls(&r, 0, 0, 0);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_DISABLED);
	/* PMUCaptureEventEnabled(): EL1 using AArch32 has no PMECR_EL1. */
	r.st.aarch32 = 0x3; /* EL0 and EL1 */
	set_controls(&r, 0, 0, 3);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_DISABLED);
	/* With EL2 in AArch32 (so EL1 and EL0 too) and MDCR_EL3.PMSSE deferring. */
	rig_default(&r);
	r.st.aarch32 = 0x7;
	set_controls(&r, 1, 3, 3);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_DISABLED);
	set_controls(&r, 3, 0, 0); /* EL3 decides first */
	CHECK(ap_snapshot_class(r.pe) == AP_SS_ALLOWED);
	/* Without FEAT_PMUv3_SS, never enabled. */
	cfg_default(&r);
	r.cfg.snapshot.feat_pmuv3_ss = false;
	rig_init(&r);
	set_controls(&r, 3, 3, 3);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_DISABLED);
	done(&r);
}

/* SS-2: PMECR_EL1.SSE == 0b01 is reserved; CONSTRAINED UNPREDICTABLE
 * (Unpredictable_RESPMSSE): disabled, or an UNKNOWN non-reserved value. */
TEST(reserved_sse)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	static const enum ap_ss_capture want[3] = { AP_SS_DISABLED, AP_SS_PROHIBITED, AP_SS_ALLOWED };
	for (unsigned c = 0; c < 3; c++) {
		r.cfg.snapshot.reserved_sse = (uint8_t)c;
		rig_init(&r);
		set_controls(&r, 1, 1, 1);
		CHECK(ap_snapshot_class(r.pe) == want[c]);
	}
	done(&r);
}

/* SS-RTSYTY-2, SS-RTSYTY-6, SS-RTSYTY-8: the OS Lock and Debug state prohibit. */
TEST(os_lock_and_debug_state)
{
	struct rig r = { .pe = NULL };
	rig_default(&r);
	set_controls(&r, 3, 0, 0);
	r.st.os_lock = true;
	set(&r);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_PROHIBITED);
	r.st.os_lock = false;
	r.st.halted = true;
	set(&r);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_PROHIBITED);
	cfg_default(&r);
	r.cfg.snapshot.capture_in_debug = true;
	rig_init(&r);
	r.st.halted = true;
	set_controls(&r, 3, 0, 0);
	CHECK(ap_snapshot_class(r.pe) == AP_SS_ALLOWED);
	done(&r);
}

/* SS-RVPZHN-1, SS-RVPZHN-2, SS-RVPZHN-3, SS-RDBRSV, SS-RPLPCY-1, SS-IWRNBL: an allowed Capture. */
TEST(allowed_capture)
{
	struct rig r = { .pe = NULL };
	rig_default(&r);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(r.pe), AP_PMSSCR_NC); /* reset {1,0} */
	set_controls(&r, 1, 1, 3);
	ap_pmu_event(PMU, AP_PMU_EV_INST_RETIRED, 100);
	ap_pmu_event(PMU, AP_PMU_EV_SAMPLE_POP, 7);
	ap_pmu_cycles(PMU, 250);
	r.st.brbe_freeze = true;
	set(&r);
	CHECK(ap_snapshot_write_pmsscr(r.pe, AP_PMSSCR_SS) == 1);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(r.pe), 0);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 0), 100);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 1), 7);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 2), 0);      /* PMU_SNAPSHOT after capture */
	CHECK_EQ_U64(ap_pmu_read_evcntr(PMU, 2), 1);
	CHECK_EQ_U64(ap_snapshot_read_ccntsvr(r.pe), 250);
	CHECK_EQ_U64(ap_snapshot_read_icntsvr(r.pe), 100);
	CHECK_EQ_U64(r.freezes, 1);
	/* The counters run on; the saved values stay until the next capture. */
	ap_pmu_event(PMU, AP_PMU_EV_INST_RETIRED, 5);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 0), 100);
	CHECK(ap_snapshot_request(r.pe) == 1); /* external request */
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 0), 105);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 2), 1);
	CHECK_EQ_U64(ap_pmu_read_evcntr(PMU, 2), 2);
	r.st.brbe_freeze = false;
	set(&r);
	ap_snapshot_write_pmsscr(r.pe, AP_PMSSCR_SS);
	CHECK_EQ_U64(r.freezes, 2);
	done(&r);
}

/* SS-RMPZSB-1, SS-RMPZSB-2, SS-RMPZSB-3: a prohibited Capture changes nothing but {NC,SS} =
 * {1,0}. */
TEST(prohibited_capture)
{
	struct rig r = { .pe = NULL };
	rig_default(&r);
	set_controls(&r, 2, 0, 0);
	ap_pmu_event(PMU, AP_PMU_EV_INST_RETIRED, 9);
	ap_snapshot_write_pmsscr(r.pe, 0); /* NC is not writable */
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(r.pe), AP_PMSSCR_NC);
	CHECK(ap_snapshot_write_pmsscr(r.pe, AP_PMSSCR_SS) == 1);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(r.pe), AP_PMSSCR_NC);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 0), 0);
	CHECK_EQ_U64(ap_pmu_read_evcntr(PMU, 2), 0); /* no PMU_SNAPSHOT */
	CHECK_EQ_U64(stats(&r).captures_prohibited, 1);
	done(&r);
}

/* SS-RMFJWS, SS-RSCLCQ-3: disabled -> SS ignores writes; powered down -> no
 * Capture event. */
TEST(disabled_and_powered_down)
{
	struct rig r = { .pe = NULL };
	rig_default(&r);
	set_controls(&r, 0, 0, 0);
	CHECK(ap_snapshot_write_pmsscr(r.pe, AP_PMSSCR_SS) == 0);
	CHECK_EQ_U64(ap_snapshot_read_pmsscr(r.pe), AP_PMSSCR_NC); /* SS stays 0 */
	CHECK(ap_snapshot_request(r.pe) == 0);
	set_controls(&r, 3, 0, 0);
	r.st.core_powered = false;
	set(&r);
	CHECK(ap_snapshot_request(r.pe) == 0);
	CHECK_EQ_U64(stats(&r).requests_ignored, 3);
	done(&r);
}

/* SS-RPLPCY-2: in Debug state, PMU_SNAPSHOT is counted only as configured. */
TEST(snapshot_event_in_debug)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	for (int ev = 0; ev < 2; ev++) {
		r.cfg.snapshot.capture_in_debug = true;
		r.cfg.snapshot.snapshot_event_in_debug = ev;
		rig_init(&r);
		r.st.halted = true;
		set_controls(&r, 3, 0, 0);
		ap_snapshot_request(r.pe);
		CHECK_EQ_U64(ap_snapshot_read_pmsscr(r.pe), 0);
		CHECK_EQ_U64(ap_pmu_read_evcntr(PMU, 2), (uint64_t)ev);
	}
	done(&r);
}

/* SS-4 / Example D13-8 (SS-IMXCMM-2): with a completion delay, SS reads 1
 * until the Capture completes; the counters captured are those at completion. */
TEST(capture_delay_polling)
{
	struct rig r = { .pe = NULL };
	cfg_default(&r);
	r.cfg.snapshot.capture_delay = 3;
	rig_init(&r);
	set_controls(&r, 3, 0, 0);
	CHECK(ap_snapshot_write_pmsscr(r.pe, AP_PMSSCR_SS) == 1);
	unsigned polls = 0;
	while ((ap_snapshot_read_pmsscr(r.pe) & AP_PMSSCR_SS) && polls < 10) {
		/* A second request while one is in progress is ignored (SS-4). */
		CHECK(ap_snapshot_write_pmsscr(r.pe, AP_PMSSCR_SS) == 0);
		ap_pe_retire(r.pe, 0x1000 + polls * 4, false); /* INST_RETIRED, then the delay */
		polls++;
	}
	CHECK_EQ_U64(polls, 3);
	CHECK_EQ_U64(ap_snapshot_read_evcntsvr(r.pe, 0), 3);
	done(&r);
}

/* SS-RVPZHN-4, SS-RVPZHN-9, PCS-H7.1.1.1-10: PMPCSCTL.SS = 1 samples the PC on an
 * allowed Capture; with SS = 0 the PC sample registers are unchanged. */
TEST(capture_samples_pc_with_pmpcsctl_ss)
{
	struct rig r = { .pe = NULL };
	rig_default(&r);
	set_controls(&r, 3, 0, 0);
	ap_pcsr_retire(r.pe, 0x7000, true);
	uint64_t before = ap_pcsr_pmpcsr(r.pe);
	ap_snapshot_request(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe), before);
	ap_pcsr_write_pmpcsctl(r.pe, 0x10);
	ap_pcsr_retire(r.pe, 0x7004, true);
	ap_snapshot_request(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0xffffffff, 0x7004);
	CHECK_EQ_U64(r.pe->pcsr.pmcid1sr, 0xAB);
	/* A prohibited Capture leaves the PC sample registers alone (SS-RMPZSB-2). */
	ap_pcsr_retire(r.pe, 0x7008, true);
	set_controls(&r, 2, 0, 0);
	ap_snapshot_request(r.pe);
	CHECK_EQ_U64(ap_pcsr_pmpcsr(r.pe) & 0xffffffff, 0x7004);
	done(&r);
}

TEST_MAIN(CASE(table_d13_10_every_row), CASE(missing_els_and_aarch32), CASE(reserved_sse),
          CASE(os_lock_and_debug_state), CASE(allowed_capture), CASE(prohibited_capture),
          CASE(disabled_and_powered_down), CASE(snapshot_event_in_debug), CASE(capture_delay_polling),
          CASE(capture_samples_pc_with_pmpcsctl_ss))

/* PMU snapshot Capture events (spec/000 D13.9; DDI 0487 J1.3.1.107-109
 * PMUCaptureEvent, PMUCaptureEventAllowed, PMUCaptureEventEnabled), on the
 * PE's configuration (ap_config.snapshot, the core features) and state. */
#include <string.h>

#include "model/pcsr/pcsr.h"
#include "model/pmu/pmu_access.h"
#include "model/snapshot/snapshot.h"

void ap_snapshot_reset(struct ap_pe *pe)
{
	struct ap_snapshot *s = &pe->snapshot.ss;
	s->pmsscr = AP_PMSSCR_NC; /* DDI 0487 D24.5.23: NC resets to 1, SS to 0 */
	s->pmecr = 0;
	memset(s->evcntsvr, 0, sizeof(s->evcntsvr));
	s->ccntsvr = s->icntsvr = 0;
	s->pending = 0;
	memset(&s->stats, 0, sizeof(s->stats));
}

/* PMECR_EL1.SSE with the reserved value 0b01 resolved as configured. */
static unsigned effective_sse(const struct ap_pe *pe)
{
	unsigned sse = (unsigned)((pe->snapshot.ss.pmecr & AP_PMECR_SSE_MASK) >> AP_PMECR_SSE_SHIFT);
	if (sse != 1)
		return sse;
	switch (pe->cfg.snapshot.reserved_sse) {
	case AP_SS_RESSSE_PROHIBITED: return 2;
	case AP_SS_RESSSE_ALLOWED: return 3;
	default: return 0;
	}
}

/* The control that decides, per RYWLFL/RTSYTY: MDCR_EL3.PMSSE unless it is
 * 0b01 (or EL3 is absent), then MDCR_EL2.PMSSE unless it is 0b01 (or EL2 is
 * absent; even when EL2 is disabled in the current Security state), then
 * PMECR_EL1.SSE. Returns its 2-bit value, or -1 where an EL using AArch32
 * disables Capture events (PMUCaptureEventEnabled(), DDI 0487). */
static int deciding_control(const struct ap_pe *pe)
{
	unsigned el3 = ap_field(pe->st.mdcr_el3, AP_MDCR_PMSSE, 2);
	unsigned el2 = ap_field(pe->st.mdcr_el2, AP_MDCR_PMSSE, 2);
	if (pe->cfg.have_el3 && el3 != 1)
		return (int)el3;
	if (pe->cfg.have_el2 && ap_el_using_aarch32(pe, 2))
		return -1;
	if (pe->cfg.have_el2 && el2 != 1)
		return (int)el2;
	if (ap_el_using_aarch32(pe, 1))
		return -1;
	return (int)effective_sse(pe);
}

/* SS-RYWLFL-1..5: enabled unless the deciding control is 0b00. A deciding
 * MDCR value of 0b10 or 0b11 ("1x") enables. */
bool ap_snapshot_enabled(const struct ap_pe *pe)
{
	if (!pe->cfg.snapshot.feat_pmuv3_ss)
		return false;
	return deciding_control(pe) >= 2;
}

/* SS-RTSYTY-1..9. */
bool ap_snapshot_allowed(const struct ap_pe *pe)
{
	if (!ap_snapshot_enabled(pe))
		return false;  /* -1 */
	if (pe->st.os_lock)
		return false;  /* -2 */
	if (deciding_control(pe) != 3)
		return false;  /* -3, -4, -5 */
	if (pe->st.halted && !pe->cfg.snapshot.capture_in_debug)
		return false;  /* -6, -8 */
	return true;
}

enum ap_ss_capture ap_snapshot_class(const struct ap_pe *pe)
{
	if (!ap_snapshot_enabled(pe))
		return AP_SS_DISABLED;
	return ap_snapshot_allowed(pe) ? AP_SS_ALLOWED : AP_SS_PROHIBITED;
}

/* PMUCaptureEvent(): the Capture event itself, at completion. */
static void capture(struct ap_pe *pe)
{
	struct ap_snapshot *s = &pe->snapshot.ss;
	struct ap_pmu *pmu = &pe->snapshot.pmu;
	ap_pmu_unit_sync_spe(pe); /* SPE's SAMPLE_* events up to now reach the PMU first */
	if (!ap_snapshot_allowed(pe)) {
		/* SS-RMPZSB-1..4: nothing captured, {NC,SS} = {1,0}. */
		s->pmsscr = AP_PMSSCR_NC;
		s->stats.captures_prohibited++;
		return;
	}
	for (unsigned n = 0; n < pmu->cfg.num_counters; n++)
		s->evcntsvr[n] = ap_pmu_read_evcntr(pmu, n);  /* SS-RVPZHN-1 */
	s->ccntsvr = ap_pmu_read_ccntr(pmu);                 /* SS-RVPZHN-2 */
	if (pmu->cfg.icntr)
		s->icntsvr = ap_pmu_read_icntr(pmu);         /* SS-RVPZHN-3 */
	/* SS-RVPZHN-4..9, SS-IYSWSD: the PC sample is taken before {NC,SS}. */
	if (pe->cfg.pcsr.feat_pcsrv8p9 && !ap_pcsr_sampling_on_reads(pe))
		ap_pcsr_capture(pe);
	if (pe->st.brbe_freeze) {                                    /* SS-IWRNBL */
		s->stats.brbe_freezes++;
		if (pe->snapshot.brbe_fn)
			pe->snapshot.brbe_fn(pe->snapshot.brbe_ctx);
	}
	s->pmsscr = 0;                                               /* SS-RDBRSV */
	s->stats.captures_ok++;
	/* SS-RPLPCY-1/2: counted after the counters were captured. */
	if (!pe->st.halted || pe->cfg.snapshot.snapshot_event_in_debug)
		ap_pmu_event(pmu, AP_PMU_EV_PMU_SNAPSHOT, 1);
}

/* An (in)direct write of 1 to PMSSCR_EL1.SS. */
static int start(struct ap_pe *pe)
{
	struct ap_snapshot *s = &pe->snapshot.ss;
	/* SS-RSCLCQ-1/3: FEAT_PMUv3_SS, enabled, Core powered on. SS-RMFJWS:
	 * disabled, SS ignores the write. A request while one is in progress is
	 * ignored (D24.5.23 leaves it CONSTRAINED UNPREDICTABLE, SS-4). */
	if (!ap_snapshot_enabled(pe) || !pe->st.core_powered || s->pending) {
		s->stats.requests_ignored++;
		return 0;
	}
	s->pmsscr |= AP_PMSSCR_SS;
	if (pe->cfg.snapshot.capture_delay) {
		s->pending = pe->cfg.snapshot.capture_delay;
		return 1;
	}
	capture(pe);
	return 1;
}

int ap_snapshot_write_pmsscr(struct ap_pe *pe, uint64_t value)
{
	if (!pe->cfg.snapshot.feat_pmuv3_ss)
		return 0;
	/* NC "indicates whether the PMU counters have been captured": only a
	 * Capture event sets it (D24.5.23 states no access rule for NC; were it
	 * writable, MSR PMSSCR_EL1, #1 with Capture events disabled would fake a
	 * successful capture). A write of 0 to SS is ignored. */
	if (value & AP_PMSSCR_SS)
		return start(pe);
	return 0;
}

int ap_snapshot_request(struct ap_pe *pe)
{
	if (!pe->cfg.snapshot.feat_pmuv3_ss)
		return 0;
	return start(pe);
}

void ap_snapshot_tick(struct ap_pe *pe, uint64_t n)
{
	struct ap_snapshot *s = &pe->snapshot.ss;
	if (!s->pending)
		return;
	if (n < s->pending) {
		s->pending -= (uint32_t)n;
		return;
	}
	s->pending = 0;
	capture(pe);
}

uint64_t ap_snapshot_read_pmsscr(const struct ap_pe *pe)
{
	return pe->cfg.snapshot.feat_pmuv3_ss ? pe->snapshot.ss.pmsscr : 0;
}

uint64_t ap_snapshot_read_pmecr(const struct ap_pe *pe)
{
	return pe->snapshot.ss.pmecr;
}

void ap_snapshot_write_pmecr(struct ap_pe *pe, uint64_t value)
{
	/* Only SSE is modelled (FEAT_EBEP's KPME/PMEE read as 0). */
	pe->snapshot.ss.pmecr = pe->cfg.snapshot.feat_pmuv3_ss ? value & AP_PMECR_SSE_MASK : 0;
}

uint64_t ap_snapshot_read_evcntsvr(const struct ap_pe *pe, unsigned n)
{
	return n < AP_PMU_MAX_COUNTERS ? pe->snapshot.ss.evcntsvr[n] : 0;
}

uint64_t ap_snapshot_read_ccntsvr(const struct ap_pe *pe)
{
	return pe->snapshot.ss.ccntsvr;
}

uint64_t ap_snapshot_read_icntsvr(const struct ap_pe *pe)
{
	return pe->snapshot.ss.icntsvr;
}

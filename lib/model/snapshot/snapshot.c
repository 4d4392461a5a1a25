/* PMU snapshot Capture events (spec/000 D13.9; DDI 0487 J1.3.1.107-109
 * PMUCaptureEvent, PMUCaptureEventAllowed, PMUCaptureEventEnabled). */
#include <string.h>

#include "armprof/error.h"
#include "armprof/snapshot.h"

void ap_snapshot_config_init(struct ap_snapshot_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->feat_pmuv3_ss = true;
	cfg->feat_pcsrv8p9 = true;
	cfg->have_el2 = true;
	cfg->have_el3 = true;
}

void ap_snapshot_pe_init(struct ap_snapshot_pe *pe)
{
	memset(pe, 0, sizeof(*pe));
	pe->mdcr_el3_pmsse = 1;
	pe->mdcr_el2_pmsse = 1;
	pe->powered = true;
}

int ap_snapshot_init(struct ap_snapshot *s, const struct ap_snapshot_config *cfg)
{
	if (!s || !cfg || cfg->size < sizeof(*cfg) || cfg->reserved_sse > AP_SS_RESSSE_ALLOWED)
		return -AP_ERR_INVALID;
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	ap_snapshot_reset(s);
	return 0;
}

void ap_snapshot_reset(struct ap_snapshot *s)
{
	s->pmsscr = AP_PMSSCR_NC; /* DDI 0487 D24.5.23: NC resets to 1, SS to 0 */
	s->pmecr = 0;
	memset(s->evcntsvr, 0, sizeof(s->evcntsvr));
	s->ccntsvr = s->icntsvr = 0;
	s->pending = 0;
}

void ap_snapshot_set_brbe_hook(struct ap_snapshot *s, ap_brbe_freeze_fn fn, void *ctx)
{
	s->on_brbe_freeze = fn;
	s->brbe_ctx = ctx;
}

/* PMECR_EL1.SSE with the reserved value 0b01 resolved as configured. */
static unsigned effective_sse(const struct ap_snapshot *s)
{
	unsigned sse = (unsigned)((s->pmecr & AP_PMECR_SSE_MASK) >> AP_PMECR_SSE_SHIFT);
	if (sse != 1)
		return sse;
	switch (s->cfg.reserved_sse) {
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
static int deciding_control(const struct ap_snapshot *s, const struct ap_snapshot_pe *pe)
{
	if (s->cfg.have_el3 && pe->mdcr_el3_pmsse != 1)
		return pe->mdcr_el3_pmsse & 3;
	if (s->cfg.have_el2 && pe->el2_aarch32)
		return -1;
	if (s->cfg.have_el2 && pe->mdcr_el2_pmsse != 1)
		return pe->mdcr_el2_pmsse & 3;
	if (pe->el1_aarch32)
		return -1;
	return (int)effective_sse(s);
}

/* SS-RYWLFL-1..5: enabled unless the deciding control is 0b00. A deciding
 * MDCR value of 0b10 or 0b11 ("1x") enables. */
bool ap_snapshot_enabled(const struct ap_snapshot *s, const struct ap_snapshot_pe *pe)
{
	if (!s->cfg.feat_pmuv3_ss)
		return false;
	int c = deciding_control(s, pe);
	return c >= 2;
}

/* SS-RTSYTY-1..9. */
bool ap_snapshot_allowed(const struct ap_snapshot *s, const struct ap_snapshot_pe *pe)
{
	if (!ap_snapshot_enabled(s, pe))
		return false;  /* -1 */
	if (pe->oslk)
		return false;  /* -2 */
	if (deciding_control(s, pe) != 3)
		return false;  /* -3, -4, -5 */
	if (pe->halted && !s->cfg.capture_in_debug)
		return false;  /* -6, -8 */
	return true;
}

enum ap_ss_capture ap_snapshot_class(const struct ap_snapshot *s, const struct ap_snapshot_pe *pe)
{
	if (!ap_snapshot_enabled(s, pe))
		return AP_SS_DISABLED;
	return ap_snapshot_allowed(s, pe) ? AP_SS_ALLOWED : AP_SS_PROHIBITED;
}

/* PMUCaptureEvent(): the Capture event itself, at completion. */
static void capture(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                    const struct ap_snapshot_targets *t)
{
	if (!ap_snapshot_allowed(s, pe)) {
		/* SS-RMPZSB-1..4: nothing captured, {NC,SS} = {1,0}. */
		s->pmsscr = AP_PMSSCR_NC;
		s->captures_prohibited++;
		return;
	}
	struct ap_pmu *pmu = t->pmu;
	if (pmu) {
		for (unsigned n = 0; n < pmu->cfg.num_counters; n++)
			s->evcntsvr[n] = ap_pmu_read_evcntr(pmu, n);  /* SS-RVPZHN-1 */
		s->ccntsvr = ap_pmu_read_ccntr(pmu);                 /* SS-RVPZHN-2 */
		if (pmu->cfg.icntr)
			s->icntsvr = ap_pmu_read_icntr(pmu);         /* SS-RVPZHN-3 */
	}
	/* SS-RVPZHN-4..9, SS-IYSWSD: the PC sample is taken before {NC,SS}. */
	if (s->cfg.feat_pcsrv8p9 && t->pcsr && !ap_pcsr_sampling_on_reads(t->pcsr))
		ap_pcsr_capture(t->pcsr);
	if (pe->brbe_freeze) {                                       /* SS-IWRNBL */
		s->brbe_freezes++;
		if (s->on_brbe_freeze)
			s->on_brbe_freeze(s->brbe_ctx);
	}
	s->pmsscr = 0;                                               /* SS-RDBRSV */
	s->captures_ok++;
	/* SS-RPLPCY-1/2: counted after the counters were captured. */
	if (pmu && (!pe->halted || s->cfg.snapshot_event_in_debug))
		ap_pmu_event(pmu, AP_PMU_EV_PMU_SNAPSHOT, 1);
}

/* An (in)direct write of 1 to PMSSCR_EL1.SS. */
static int start(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                 const struct ap_snapshot_targets *t)
{
	/* SS-RSCLCQ-1/3: FEAT_PMUv3_SS, enabled, Core powered on. SS-RMFJWS:
	 * disabled, SS ignores the write. A request while one is in progress is
	 * ignored (D24.5.23 leaves it CONSTRAINED UNPREDICTABLE, SS-4). */
	if (!ap_snapshot_enabled(s, pe) || !pe->powered || s->pending) {
		s->requests_ignored++;
		return 0;
	}
	s->pmsscr |= AP_PMSSCR_SS;
	if (s->cfg.capture_delay) {
		s->pending = s->cfg.capture_delay;
		return 1;
	}
	capture(s, pe, t);
	return 1;
}

int ap_snapshot_write_pmsscr(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                             const struct ap_snapshot_targets *t, uint64_t value)
{
	if (!s->cfg.feat_pmuv3_ss)
		return 0;
	/* NC "indicates whether the PMU counters have been captured": only a
	 * Capture event sets it (D24.5.23 states no access rule for NC; were it
	 * writable, MSR PMSSCR_EL1, #1 with Capture events disabled would fake a
	 * successful capture). A write of 0 to SS is ignored. */
	if (value & AP_PMSSCR_SS)
		return start(s, pe, t);
	return 0;
}

int ap_snapshot_request(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                        const struct ap_snapshot_targets *t)
{
	if (!s->cfg.feat_pmuv3_ss)
		return 0;
	return start(s, pe, t);
}

void ap_snapshot_tick(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                      const struct ap_snapshot_targets *t, uint64_t n)
{
	if (!s->pending)
		return;
	if (n < s->pending) {
		s->pending -= (uint32_t)n;
		return;
	}
	s->pending = 0;
	capture(s, pe, t);
}

uint64_t ap_snapshot_read_pmsscr(const struct ap_snapshot *s)
{
	return s->cfg.feat_pmuv3_ss ? s->pmsscr : 0;
}

uint64_t ap_snapshot_read_pmecr(const struct ap_snapshot *s)
{
	return s->pmecr;
}

void ap_snapshot_write_pmecr(struct ap_snapshot *s, uint64_t value)
{
	/* Only SSE is modelled (FEAT_EBEP's KPME/PMEE read as 0). */
	s->pmecr = s->cfg.feat_pmuv3_ss ? value & AP_PMECR_SSE_MASK : 0;
}

uint64_t ap_snapshot_read_evcntsvr(const struct ap_snapshot *s, unsigned n)
{
	return n < AP_PMU_MAX_COUNTERS ? s->evcntsvr[n] : 0;
}

uint64_t ap_snapshot_read_ccntsvr(const struct ap_snapshot *s)
{
	return s->ccntsvr;
}

uint64_t ap_snapshot_read_icntsvr(const struct ap_snapshot *s)
{
	return s->icntsvr;
}

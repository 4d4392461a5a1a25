/* PMU snapshots (spec/000 D13.9, FEAT_PMUv3_SS).
 *
 * A Capture event starts on a write of 1 to PMSSCR_EL1.SS or on an external
 * snapshot request (SS-RSCLCQ). Whether it can start and what it does is
 * decided by PMUCaptureEventEnabled() (RYWLFL) and PMUCaptureEventAllowed()
 * (RTSYTY), summarised by Table D13-10. An allowed Capture event copies the
 * counters of the PMU to PMEVCNTSVR<n>_EL1, PMCCNTSVR_EL1, PMICNTSVR_EL1, and
 * with PMPCSCTL.SS samples the PC (include/armprof/pcsr.h); then
 * PMSSCR_EL1.{NC,SS} = {0,0} and PMU_SNAPSHOT is counted. A prohibited one
 * sets {NC,SS} = {1,0} and changes nothing else.
 *
 * Register layouts not in the spec text come from DDI 0487 (D24.5.23
 * PMSSCR_EL1: NC bit 32, SS bit 0; D24.5.9 PMECR_EL1.SSE bits [4:3];
 * MDCR_EL3.PMSSE and MDCR_EL2.PMSSE bits [31:30]; J1.3.1.107-109 the
 * PMUCaptureEvent/Enabled/Allowed pseudocode). */
#ifndef ARMPROF_SNAPSHOT_H
#define ARMPROF_SNAPSHOT_H

#include "armprof/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/pcsr.h"
#include "armprof/pmu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AP_PMSSCR_SS (1ull << 0)
#define AP_PMSSCR_NC (1ull << 32)
#define AP_PMECR_SSE_SHIFT 3
#define AP_PMECR_SSE_MASK (3ull << AP_PMECR_SSE_SHIFT)

/* PMECR_EL1.SSE == 0b01 is reserved: the CONSTRAINED UNPREDICTABLE choice
 * of PMUCaptureEventEnabled()/Allowed() (Unpredictable_RESPMSSE). */
enum ap_ss_reserved_sse {
	AP_SS_RESSSE_DISABLED = 0,   /* behaves as 0b00 */
	AP_SS_RESSSE_PROHIBITED = 1, /* an UNKNOWN non-reserved value: 0b10 */
	AP_SS_RESSSE_ALLOWED = 2,    /* an UNKNOWN non-reserved value: 0b11 */
};

/* The three outcomes of Table D13-10. */
enum ap_ss_capture {
	AP_SS_DISABLED = 0,
	AP_SS_PROHIBITED = 1,
	AP_SS_ALLOWED = 2,
};

struct ap_snapshot_config {
	size_t size;                  /* sizeof(struct ap_snapshot_config) */
	bool feat_pmuv3_ss;           /* FEAT_PMUv3_SS */
	bool feat_pcsrv8p9;           /* PMPCSCTL.SS sampling on Capture events */
	bool have_el2, have_el3;
	bool capture_in_debug;        /* SS-RTSYTY-8: IMPLEMENTATION DEFINED */
	bool snapshot_event_in_debug; /* SS-RPLPCY-2: CONSTRAINED UNPREDICTABLE */
	uint8_t reserved_sse;         /* enum ap_ss_reserved_sse */
	uint32_t capture_delay;       /* retired instructions until a Capture completes
	                                 (0: at once); SS reads 1 meanwhile (SS-4) */
};
/* Defaults: FEAT_PMUv3_SS, FEAT_PCSRv8p9, EL2, EL3, no capture in Debug
 * state, PMU_SNAPSHOT not counted in Debug state, reserved SSE disabled,
 * Capture events complete at once. */
AP_API void ap_snapshot_config_init(struct ap_snapshot_config *cfg);

/* What the Capture-event rules read of the PE. */
struct ap_snapshot_pe {
	uint8_t mdcr_el3_pmsse;       /* MDCR_EL3.PMSSE, 0..3 */
	uint8_t mdcr_el2_pmsse;       /* MDCR_EL2.PMSSE, 0..3 */
	bool el1_aarch32, el2_aarch32; /* an EL using AArch32 disables Capture events */
	bool oslk;                    /* OS Lock locked */
	bool halted;                  /* Debug state */
	bool powered;                 /* Core power domain on (SS-RSCLCQ-3) */
	bool brbe_freeze;             /* BRBE would freeze: FEAT_BRBE, BranchRecordAllowed,
	                                 BRBCR_EL1.FZPSS (and BRBCR_EL2.FZPSS) — host input */
};
AP_API void ap_snapshot_pe_init(struct ap_snapshot_pe *pe); /* all PMSSE 0b01, powered */

typedef void (*ap_brbe_freeze_fn)(void *ctx);

struct ap_snapshot {
	struct ap_snapshot_config cfg;
	uint64_t pmsscr;             /* NC, SS */
	uint64_t pmecr;              /* SSE (other fields RES0 in the model) */
	uint64_t evcntsvr[AP_PMU_MAX_COUNTERS];
	uint64_t ccntsvr, icntsvr;
	uint32_t pending;            /* > 0: a Capture event is in progress */
	uint64_t captures_ok, captures_prohibited, requests_ignored, brbe_freezes;
	ap_brbe_freeze_fn on_brbe_freeze;
	void *brbe_ctx;
};

AP_API int ap_snapshot_init(struct ap_snapshot *s, const struct ap_snapshot_config *cfg);
/* Warm reset: PMSSCR_EL1 = {NC,SS} = {1,0}; saved values and PMECR_EL1.SSE
 * are UNKNOWN (the model keeps 0). */
AP_API void ap_snapshot_reset(struct ap_snapshot *s);
/* The output hook for a BRBE freeze event on a successful Capture (SS-IWRNBL). */
AP_API void ap_snapshot_set_brbe_hook(struct ap_snapshot *s, ap_brbe_freeze_fn fn, void *ctx);

/* PMUCaptureEventEnabled(), PMUCaptureEventAllowed() and their Table
 * D13-10 class for a PE state. */
AP_API bool ap_snapshot_enabled(const struct ap_snapshot *s, const struct ap_snapshot_pe *pe);
AP_API bool ap_snapshot_allowed(const struct ap_snapshot *s, const struct ap_snapshot_pe *pe);
AP_API enum ap_ss_capture ap_snapshot_class(const struct ap_snapshot *s, const struct ap_snapshot_pe *pe);

/* The objects a Capture event reads and writes. pcsr may be NULL. */
struct ap_snapshot_targets {
	struct ap_pmu *pmu;
	struct ap_pcsr *pcsr;
};

/* A direct write of PMSSCR_EL1 (after the access check): a 1 in SS starts a
 * Capture event when enabled; when disabled SS ignores writes (SS-RMFJWS).
 * NC is read-only (set by Capture events). Returns 1 if a Capture event started. */
AP_API int ap_snapshot_write_pmsscr(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                                    const struct ap_snapshot_targets *t, uint64_t value);
/* The IMPLEMENTATION DEFINED external snapshot request: an indirect write of
 * 1 to PMSSCR_EL1.SS (SS-RSCLCQ-1/2). Returns 1 if a Capture event started. */
AP_API int ap_snapshot_request(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                               const struct ap_snapshot_targets *t);
/* n instructions retired: a Capture event in progress (capture_delay > 0)
 * completes when its delay has run out, with the state at that point. */
AP_API void ap_snapshot_tick(struct ap_snapshot *s, const struct ap_snapshot_pe *pe,
                             const struct ap_snapshot_targets *t, uint64_t n);

AP_API uint64_t ap_snapshot_read_pmsscr(const struct ap_snapshot *s);
AP_API uint64_t ap_snapshot_read_pmecr(const struct ap_snapshot *s);
AP_API void ap_snapshot_write_pmecr(struct ap_snapshot *s, uint64_t value);
/* Snapshot registers: no OS Lock check here or anywhere (SS-IKGJMV). */
AP_API uint64_t ap_snapshot_read_evcntsvr(const struct ap_snapshot *s, unsigned n);
AP_API uint64_t ap_snapshot_read_ccntsvr(const struct ap_snapshot *s);
AP_API uint64_t ap_snapshot_read_icntsvr(const struct ap_snapshot *s);

/* The IMPLEMENTATION DEFINED external snapshot request of a PE (SS-RSCLCQ-2).
 * Returns 1 if a Capture event started, 0 if it was ignored. */
struct ap_pe;
AP_API int ap_pe_snapshot_request(struct ap_pe *pe);
/* The BRBE freeze output of a PE (called on a successful Capture event when
 * the PE state's brbe_freeze input is set). */
AP_API void ap_pe_set_brbe_hook(struct ap_pe *pe, ap_brbe_freeze_fn fn, void *ctx);
AP_API const struct ap_snapshot *ap_pe_snapshot(const struct ap_pe *pe);
/* Table D13-10 class of Capture events in the PE's current state. */
AP_API enum ap_ss_capture ap_pe_snapshot_class(const struct ap_pe *pe);

#ifdef __cplusplus
}
#endif
#endif

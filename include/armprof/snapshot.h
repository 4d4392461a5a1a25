/* PMU snapshots (spec/000 D13.9, FEAT_PMUv3_SS), as part of the PE
 * (include/armprof/model.h).
 *
 * A Capture event starts on a write of 1 to PMSSCR_EL1.SS (ap_pe_msr()) or
 * on an external snapshot request (ap_pe_snapshot_request(), SS-RSCLCQ).
 * Whether it can start and what it does is decided by
 * PMUCaptureEventEnabled() (RYWLFL) and PMUCaptureEventAllowed() (RTSYTY),
 * summarised by Table D13-10, on the PE state (MDCR_EL3.PMSSE,
 * MDCR_EL2.PMSSE, the Exception levels' register widths, OS Lock, Debug
 * state, power). An allowed Capture event copies the counters of the PE's
 * PMU to PMEVCNTSVR<n>_EL1, PMCCNTSVR_EL1, PMICNTSVR_EL1, and with
 * PMPCSCTL.SS samples the PC (include/armprof/pcsr.h); then
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

/* PMU snapshots' feature and IMPLEMENTATION DEFINED choices: ap_config.snapshot
 * (snapshot.* keys). The Exception levels are the PE's (ap_config.have_*),
 * FEAT_PCSRv8p9 is ap_config.pcsr.feat_pcsrv8p9. */
struct ap_snapshot_config {
	bool feat_pmuv3_ss;           /* FEAT_PMUv3_SS */
	bool capture_in_debug;        /* SS-RTSYTY-8: IMPLEMENTATION DEFINED */
	bool snapshot_event_in_debug; /* SS-RPLPCY-2: CONSTRAINED UNPREDICTABLE */
	uint8_t reserved_sse;         /* enum ap_ss_reserved_sse */
	uint32_t capture_delay;       /* retired instructions until a Capture completes
	                                 (0: at once); SS reads 1 meanwhile (SS-4) */
};

typedef void (*ap_brbe_freeze_fn)(void *ctx);

/* The IMPLEMENTATION DEFINED external snapshot request of a PE (SS-RSCLCQ-2).
 * Returns 1 if a Capture event started, 0 if it was ignored. */
struct ap_pe;
AP_API int ap_pe_snapshot_request(struct ap_pe *pe);
/* The BRBE freeze output of a PE (called on a successful Capture event when
 * the PE state's brbe_freeze input is set). fn NULL: no output. */
AP_API void ap_pe_set_brbe_hook(struct ap_pe *pe, ap_brbe_freeze_fn fn, void *ctx);
/* Table D13-10 class of Capture events in the PE's current state. */
AP_API enum ap_ss_capture ap_pe_snapshot_class(const struct ap_pe *pe);

/* Counts of what Capture events did since the PE's last reset
 * (ap_pe_create(), ap_pe_reset()): statistics for tools. */
struct ap_snapshot_stats {
	uint64_t captures_ok;         /* allowed Capture events completed */
	uint64_t captures_prohibited; /* prohibited ones ({NC,SS} = {1,0}) */
	uint64_t requests_ignored;    /* starts ignored: disabled, powered down, one in progress */
	uint64_t brbe_freezes;        /* BRBE freeze outputs (SS-IWRNBL) */
};
AP_API void ap_pe_snapshot_stats(const struct ap_pe *pe, struct ap_snapshot_stats *out);

#ifdef __cplusplus
}
#endif
#endif

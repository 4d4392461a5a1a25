/* PMU snapshots inside a PE (private to lib/model): the Capture-event rules
 * of spec/000 D13.9 on the PE's configuration and state. The public way in
 * is the PE (include/armprof/snapshot.h); these are the pieces the PE's
 * System registers, external frame and the unit tests use. */
#ifndef ARMPROF_MODEL_SNAPSHOT_SNAPSHOT_H
#define ARMPROF_MODEL_SNAPSHOT_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/pe.h"

/* Warm reset: PMSSCR_EL1 = {NC,SS} = {1,0}; saved values and PMECR_EL1.SSE
 * are UNKNOWN (the model keeps 0). */
void ap_snapshot_reset(struct ap_pe *pe);

/* PMUCaptureEventEnabled(), PMUCaptureEventAllowed() and their Table
 * D13-10 class in the PE's current state. */
bool ap_snapshot_enabled(const struct ap_pe *pe);
bool ap_snapshot_allowed(const struct ap_pe *pe);
enum ap_ss_capture ap_snapshot_class(const struct ap_pe *pe);

/* A direct write of PMSSCR_EL1 (after the access check): a 1 in SS starts a
 * Capture event when enabled; when disabled SS ignores writes (SS-RMFJWS).
 * NC is read-only (set by Capture events). Returns 1 if a Capture event started. */
int ap_snapshot_write_pmsscr(struct ap_pe *pe, uint64_t value);
/* The IMPLEMENTATION DEFINED external snapshot request: an indirect write of
 * 1 to PMSSCR_EL1.SS (SS-RSCLCQ-1/2). Returns 1 if a Capture event started. */
int ap_snapshot_request(struct ap_pe *pe);
/* n instructions retired: a Capture event in progress (capture_delay > 0)
 * completes when its delay has run out, with the state at that point. */
void ap_snapshot_tick(struct ap_pe *pe, uint64_t n);

uint64_t ap_snapshot_read_pmsscr(const struct ap_pe *pe);
uint64_t ap_snapshot_read_pmecr(const struct ap_pe *pe);
void ap_snapshot_write_pmecr(struct ap_pe *pe, uint64_t value);
/* Snapshot registers: no OS Lock check here or anywhere (SS-IKGJMV). */
uint64_t ap_snapshot_read_evcntsvr(const struct ap_pe *pe, unsigned n);
uint64_t ap_snapshot_read_ccntsvr(const struct ap_pe *pe);
uint64_t ap_snapshot_read_icntsvr(const struct ap_pe *pe);

#endif

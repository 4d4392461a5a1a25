/* The SPE sampling engine's state and its hooks into the PE core.
 * The core (lib/model/pe.c, lib/model/spe/sysregs.c) embeds struct
 * ap_spe_engine in struct ap_pe and calls the hooks below.
 *
 * How the hot path stays a decrement and a branch: fast_left counts the
 * population members that can pass without anything happening (no counter
 * reload, no selection, no in-flight completion). Members consumed that way
 * are accounted lazily (PMSICR_EL1, SAMPLE_POP, in-flight countdowns) at the
 * next slow-path operation, state or register change, or PMSICR_EL1 read:
 * consumed = fast_start - fast_left. */
#ifndef ARMPROF_MODEL_SPE_ENGINE_H
#define ARMPROF_MODEL_SPE_ENGINE_H

#include <stdint.h>

#include "armprof/record.h"
#include "armprof/spe.h"
#include "model/spe/filter.h"
#include "model/spe/interval.h"
#include "model/spe/record_build.h"

struct ap_pe;
struct ap_pe_state;
struct ap_sysreg;

/* Limits of the fixed storage (no allocation per operation). */
#define AP_SPE_MAX_IN_FLIGHT 16 /* spe.max_in_flight above this is clamped */
#define AP_SPE_MAX_HELD 16      /* spe.record_hold above this is clamped */

/* A sampled operation that has not completed yet (2.2.1 steps 5-6). */
struct ap_spe_in_flight {
	uint64_t remaining;   /* population members until it completes, >= 1 */
	uint8_t captured;     /* its record will be checked and written (2.3.5) */
	uint8_t kept;         /* CollectRecord() said TRUE */
	uint8_t ts_kind;      /* enum ap_spe_ts_kind, for a timestamp taken at completion */
	uint8_t len;          /* encoded record bytes */
	uint8_t bytes[AP_RECORD_MAX_BYTES];
};

/* A completed record the PE holds before writing it (3.6 PSB CSYNC). */
struct ap_spe_held {
	uint8_t len;
	uint8_t bytes[AP_RECORD_MAX_BYTES];
};

struct ap_spe_engine {
	/* Hot path. */
	uint64_t fast_left;
	uint32_t excluded_flags; /* AP_SPE_OPF_* that put an operation outside the population */
	uint8_t enabled;         /* StatisticalProfilingEnabled() at the last sync */

	uint64_t fast_start;     /* fast_left right after the last accounting */
	struct ap_spe_icr icr;   /* PMSICR_EL1 minus the members not yet accounted */
	struct ap_spe_rng rng;
	struct ap_spe_counts counts;

	/* Decisions that only change with the state, the registers or the
	 * configuration, made at each sync rather than per record. */
	struct ap_spe_record_ctl ctl;       /* collection controls (3.3.1) */
	uint8_t ts_kind;                    /* enum ap_spe_ts_kind for ctl.ts */
	uint8_t in_flight_cap;              /* spe.max_in_flight, clamped */
	struct ap_spe_record_policy policy; /* record-content choices */
	struct ap_spe_filter_regs filter;   /* PMSFCR/PMSEVFR/PMSLATFR_EL1 */
	struct ap_spe_filter_policy filter_policy;
	struct ap_spe_filter_later filter_later; /* SPE after v1: PMSNEVFR/PMSDSFR_EL1, EFT */
	uint8_t discard_mode;               /* PMBLIMITR_EL1.FM == discard (LATER-DIS-1) */

	unsigned n_in_flight;
	struct ap_spe_in_flight in_flight[AP_SPE_MAX_IN_FLIGHT];
	unsigned held_first, n_held; /* ring of held records */
	struct ap_spe_held held[AP_SPE_MAX_HELD];
};

/* Warm reset (called after the registers took their reset values). */
void ap_spe_engine_reset(struct ap_pe *pe);
/* The host changed the PE state (old = the state before). */
void ap_spe_engine_state_changed(struct ap_pe *pe, const struct ap_pe_state *old);
/* A direct MSR (access OK) or a poke changed the SPE register reg. */
void ap_spe_engine_sysreg_written(struct ap_pe *pe, uint32_t reg);
/* PMSICR_EL1 as the PE holds it now (the register table's read hook):
 * the counters advance lazily, so the stored value can be behind. */
uint64_t ap_spe_engine_read_pmsicr(const struct ap_pe *pe, const struct ap_sysreg *r);

#endif

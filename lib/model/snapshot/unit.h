/* PMU and PMU-snapshot state embedded in struct ap_pe (lib/model/pe.h): the
 * PMU counters (lib/model/pmu/pmu.h) and what the Capture-event logic keeps
 * (lib/model/snapshot/snapshot.h has the functions). The configuration and
 * the PE state they read are the PE's. */
#ifndef ARMPROF_MODEL_SNAPSHOT_UNIT_H
#define ARMPROF_MODEL_SNAPSHOT_UNIT_H

#include <stdint.h>

#include "armprof/snapshot.h"
#include "model/pmu/pmu.h"

struct ap_snapshot {
	uint64_t pmsscr;             /* NC, SS */
	uint64_t pmecr;              /* SSE (other fields RES0 in the model) */
	uint64_t evcntsvr[AP_PMU_MAX_COUNTERS];
	uint64_t ccntsvr, icntsvr;
	uint32_t pending;            /* > 0: a Capture event is in progress */
	struct ap_snapshot_stats stats;
};

struct ap_snapshot_unit {
	struct ap_pmu pmu;
	struct ap_snapshot ss;
	uint64_t pmuserenr;   /* PMUSERENR_EL0: EN [0], SW [1], CR [2], ER [3] */
	uint64_t spe_seen[4]; /* SPE's SAMPLE_* counts already given to the PMU */
	ap_brbe_freeze_fn brbe_fn;
	void *brbe_ctx;
};

#endif

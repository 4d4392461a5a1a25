/* PMU and PMU-snapshot state embedded in struct ap_pe (lib/model/pe.h): the
 * PMU counters (include/armprof/pmu.h), the Capture-event logic
 * (include/armprof/snapshot.h) and the view of the PE state it reads, kept
 * up to date by lib/model/snapshot/pe_snapshot.c. */
#ifndef ARMPROF_MODEL_SNAPSHOT_UNIT_H
#define ARMPROF_MODEL_SNAPSHOT_UNIT_H

#include <stdint.h>

#include "armprof/pmu.h"
#include "armprof/snapshot.h"

struct ap_snapshot_unit {
	struct ap_pmu pmu;
	struct ap_snapshot ss;
	struct ap_snapshot_pe view;
	uint64_t pmuserenr;   /* PMUSERENR_EL0: EN [0], SW [1], CR [2], ER [3] */
	uint64_t spe_seen[4]; /* SPE's SAMPLE_* counts already given to the PMU */
	ap_brbe_freeze_fn brbe_fn;
	void *brbe_ctx;
};

#endif

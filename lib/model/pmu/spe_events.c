/* The PMU events of the Statistical Profiling Extension (spec/002 2.6 Table
 * 1: SAMPLE_POP 0x4000, SAMPLE_FEED 0x4001, SAMPLE_FILTRATE 0x4002,
 * SAMPLE_COLLISION 0x4003) counted on the PE's own PMU.
 *
 * The SPE engine keeps its counts lazily (ap_spe_get_counts()); the PMU pulls
 * the increments at each point where software or an agent can observe or
 * change the PMU: an MRS/MSR of a PMU register, an external access, a
 * Capture event. An increment is counted under the enables in force at that
 * point; since every change of an enable is such a point, no event is
 * counted by a counter that was disabled when it happened, unless both
 * happened between two observation points. A host must not also report
 * these four events itself. */
#include "armprof/spe.h"
#include "model/pe.h"
#include "model/pmu/pmu_access.h"

static const uint16_t spe_events[4] = {
	AP_PMU_EV_SAMPLE_POP, AP_PMU_EV_SAMPLE_FEED, AP_PMU_EV_SAMPLE_FILTRATE, AP_PMU_EV_SAMPLE_COLLISION,
};

static void read_counts(struct ap_pe *pe, uint64_t out[4])
{
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	out[0] = c.sample_pop;
	out[1] = c.sample_feed;
	out[2] = c.sample_filtrate;
	out[3] = c.sample_collision;
}

void ap_pmu_unit_sync_spe(struct ap_pe *pe)
{
	uint64_t now[4];
	read_counts(pe, now);
	struct ap_snapshot_unit *u = &pe->snapshot;
	for (unsigned i = 0; i < 4; i++) {
		/* A count that went down was reset with the PE: start again. */
		if (now[i] > u->spe_seen[i])
			ap_pmu_event(&u->pmu, spe_events[i], now[i] - u->spe_seen[i]);
		u->spe_seen[i] = now[i];
	}
}

void ap_pmu_unit_spe_baseline(struct ap_pe *pe)
{
	read_counts(pe, pe->snapshot.spe_seen);
}

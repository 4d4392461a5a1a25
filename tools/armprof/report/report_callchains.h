/* armprof report: the call stacks `armprof record` wrote into perf.data
 * beside the SPE data (record_stacks.h: one sample per SPE record of the
 * event "arm_spe_0/callchain/", with its call chain), found again for each
 * record by thread and timestamp and given to ap_report_add_stack. */
#ifndef ARMPROF_TOOL_REPORT_CALLCHAINS_H
#define ARMPROF_TOOL_REPORT_CALLCHAINS_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/perfdata.h"

struct report_chain {
	int32_t tid;
	uint64_t time;
	const uint64_t *chain; /* the sample's call chain, in the reader */
	uint32_t n;
};

struct report_callchains {
	struct report_chain *c;
	size_t n;
};

/* Index the samples of r with a call chain of armprof record's stack
 * event (none: an empty index). Valid while r is open. 0 or -1 (out of
 * memory). */
int report_callchains_load(struct report_callchains *cc, const struct ap_perf_reader *r);
/* The stack of thread tid's record at time ts whose PC is pc: frames[0]
 * the PC, then the return addresses outward (each call instruction + 4),
 * context markers left out; returns how many (<= cap), 0 when there is
 * none. */
size_t report_callchains_find(const struct report_callchains *cc, int32_t tid, uint64_t ts, uint64_t pc,
                              uint64_t *frames, size_t cap);
void report_callchains_free(struct report_callchains *cc);

#endif

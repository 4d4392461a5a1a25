/* PC Sample-based Profiling state embedded in struct ap_pe (lib/model/pe.h):
 * the sample logic of include/armprof/pcsr.h, set up from ap_config.pcsr and
 * fed from the PE state by lib/model/pcsr/pe_pcsr.c. */
#ifndef ARMPROF_MODEL_PCSR_UNIT_H
#define ARMPROF_MODEL_PCSR_UNIT_H

#include <stdbool.h>

#include "armprof/pcsr.h"

struct ap_pcsr_unit {
	struct ap_pcsr pcsr;
	bool initialized; /* the first reset is the Cold reset */
};

#endif

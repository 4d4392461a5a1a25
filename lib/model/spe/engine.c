/* SPE engine hooks called by the PE core (OWNED BY THE SPE ENGINE HELPER,
 * M2). This first version only tracks the enabled state the interval
 * counter needs (3.1.1, 3.1.3). */
#include "model/pe.h"

#include <string.h>

void ap_spe_engine_reset(struct ap_pe *pe)
{
	memset(&pe->spe, 0, sizeof(pe->spe));
	pe->spe.was_enabled = ap_spe_profiling_enabled(pe);
}

void ap_spe_engine_state_changed(struct ap_pe *pe, const struct ap_pe_state *old)
{
	(void)old;
	pe->spe.was_enabled = ap_spe_profiling_enabled(pe);
}

void ap_spe_engine_sysreg_written(struct ap_pe *pe, uint32_t reg)
{
	(void)reg;
	pe->spe.was_enabled = ap_spe_profiling_enabled(pe);
}

/* The SPE sampling engine's state and its hooks into the PE core.
 * OWNED BY THE SPE ENGINE HELPER (M2): add engine state to struct
 * ap_spe_engine freely; the core (lib/model/pe.c, lib/model/spe/sysregs.c)
 * embeds it in struct ap_pe and calls the hooks below. */
#ifndef ARMPROF_MODEL_SPE_ENGINE_H
#define ARMPROF_MODEL_SPE_ENGINE_H

#include <stdint.h>

struct ap_pe;
struct ap_pe_state;

struct ap_spe_engine {
	/* Whether StatisticalProfilingEnabled() held after the last state or
	 * register change: the interval counter is frozen while it is FALSE
	 * (3.1.3) and initialised on the FALSE->TRUE edge (3.1.1). */
	uint8_t was_enabled;
};

/* Warm reset (called after the registers took their reset values). */
void ap_spe_engine_reset(struct ap_pe *pe);
/* The host changed the PE state (old = the state before). */
void ap_spe_engine_state_changed(struct ap_pe *pe, const struct ap_pe_state *old);
/* A direct MSR (access OK) changed the SPE register reg (its encoding). */
void ap_spe_engine_sysreg_written(struct ap_pe *pe, uint32_t reg);

#endif

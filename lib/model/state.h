/* The PE state on its own (state.c), beneath the PE (pe.h): its fields by
 * name and whether a configuration can be in it. */
#ifndef ARMPROF_MODEL_STATE_H
#define ARMPROF_MODEL_STATE_H

#include "armprof/model.h"

/* Is st a state this configuration can be in? 0 or -AP_ERR_INVALID. */
int ap_pe_state_check(const struct ap_config *cfg, const struct ap_pe_state *st);

#endif

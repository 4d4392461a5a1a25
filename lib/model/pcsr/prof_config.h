/* The configuration of the PMU, PC sampling and PMU snapshots inside
 * struct ap_config (fields pmu, pcsr, snapshot): defaults and the checks
 * ap_config_validate() runs (lib/model/pcsr/config_keys.c). */
#ifndef ARMPROF_MODEL_PCSR_PROF_CONFIG_H
#define ARMPROF_MODEL_PCSR_PROF_CONFIG_H

#include "armprof/model.h"

/* A Neoverse-N1-like PMU and PC sampling: 6 counters, FEAT_PCSRv8p2 in a
 * FEAT_PMUv3_EXT32 frame, no FEAT_PCSRv8p9, no FEAT_PMUv3_SS. */
void ap_prof_config_defaults(struct ap_config *cfg);
/* 0, or a negative ap_error with the rule it breaks in err. */
int ap_prof_config_validate(const struct ap_config *cfg, struct ap_error_ctx *err);

#endif

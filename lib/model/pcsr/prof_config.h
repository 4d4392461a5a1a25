/* The configuration of the PMU, PC sampling and PMU snapshots inside
 * struct ap_config (fields pmu, pcsr, snapshot): defaults and the checks
 * ap_config_validate() runs (lib/model/pcsr/config_keys.c). */
#ifndef ARMPROF_MODEL_PCSR_PROF_CONFIG_H
#define ARMPROF_MODEL_PCSR_PROF_CONFIG_H

#include "armprof/model.h"

/* A Neoverse-N1-like PMU and PC sampling: 6 counters, FEAT_PCSRv8p2 in a
 * FEAT_PMUv3_EXT32 frame, no FEAT_PCSRv8p9, no FEAT_PMUv3_SS. */
void ap_prof_config_defaults(struct ap_config *cfg);
/* Checks the pcsr.* configuration with the core features against the rules
 * of H7.1.2. Returns 0 or -AP_ERR_INVALID with a static message naming the
 * rule in *why. */
int ap_pcsr_config_check(const struct ap_config *cfg, const char **why);
/* 0, or a negative ap_error with the rule it breaks in err. */
int ap_prof_config_validate(const struct ap_config *cfg, struct ap_error_ctx *err);

#endif

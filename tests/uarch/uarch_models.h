/* Timing models for the tests that run one trace through two of them and
 * compare (test_uarch_warm.c, test_uarch_repeat.c): a system of up to two
 * cores from a configuration. */
#ifndef ARMPROF_TEST_UARCH_MODELS_H
#define ARMPROF_TEST_UARCH_MODELS_H

#include "armprof/uarch.h"
#include "harness.h"

struct model {
	struct ap_uarch_system *sys;
	struct ap_uarch_core *core[2];
};

static inline void model_open_cfg(struct model *m, const struct ap_uarch_config *cfg, unsigned ncores)
{
	memset(m, 0, sizeof(*m));
	CHECK_EQ_U64(ap_uarch_system_create(&m->sys, cfg), 0);
	for (unsigned i = 0; i < ncores && i < 2; i++)
		CHECK_EQ_U64(ap_uarch_core_create(&m->core[i], m->sys, i), 0);
}

static inline void model_close(struct model *m)
{
	for (unsigned i = 0; i < 2; i++)
		ap_uarch_core_destroy(m->core[i]);
	ap_uarch_system_destroy(m->sys);
}

#endif

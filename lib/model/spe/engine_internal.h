/* Functions shared by the SPE engine's files (engine.c: state keeping and
 * the record path; ops.c: the operation API). Private to lib/model/spe. */
#ifndef ARMPROF_MODEL_SPE_ENGINE_INTERNAL_H
#define ARMPROF_MODEL_SPE_ENGINE_INTERNAL_H

#include <stdbool.h>

#include "armprof/spe.h"
#include "model/spe/engine.h"

/* Apply the members consumed on the fast path since the last call. */
void ap_spe_account(struct ap_pe *pe);
/* Recompute fast_left from the interval counter and the in-flight samples. */
void ap_spe_refresh_fast(struct ap_pe *pe);
/* ap_spe_account() and re-read registers, configuration and state. */
void ap_spe_resync(struct ap_pe *pe);
/* A member was selected: collide, or start an in-flight sample. */
void ap_spe_take_sample(struct ap_pe *pe, const struct ap_spe_op *op, bool collides);
/* The in-flight sample in slot completed: filter, hold or write. */
void ap_spe_complete(struct ap_pe *pe, unsigned slot);
/* Write held records until at most keep remain. */
void ap_spe_drain_held(struct ap_pe *pe, unsigned keep);

#endif

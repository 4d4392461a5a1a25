/* The branch entry points of the timing model (include/armprof/uarch.h):
 * the predictor (bpred.h) trained per branch, its result copied from the
 * ones made once per core (lifecycle.c), and the result of an operation
 * that is neither an access nor a branch. */
#include <string.h>

#include "armprof/codec.h"
#include "armprof/uarch.h"
#include "core.h"

/* ap_uarch_branch_train of a branch that is not only conditional (a call,
 * a return, an indirect or direct unconditional branch): out of line, so
 * that the common conditional branch saves no registers for it. */
__attribute__((noinline)) static int branch_train_other(struct ap_uarch_core *core, uint64_t pc,
                                                        uint64_t target, unsigned flags, int taken)
{
	core->stats.branches++;
	int miss = uarch_bpred_update(&core->bp, pc, target, flags, taken);
	core->stats.mispredicts += (uint64_t)miss;
	return miss;
}

int ap_uarch_branch_train(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                          int taken)
{
	if (flags != AP_UARCH_BR_COND)
		return branch_train_other(core, pc, target, flags, taken);
	/* The two counters are updated apart (the predictor's work in
	 * between): side by side, GCC merged them into one vector addition
	 * that takes more instructions than the two. */
	core->stats.branches++;
	int miss = uarch_bpred_direction(&core->bp, pc, taken);
	core->stats.mispredicts += (uint64_t)miss;
	return miss;
}

int ap_uarch_branch_repeat(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                           int taken, uint64_t count)
{
	if (!uarch_bpred_update_is_noop(&core->bp, pc, target, flags, taken))
		return 0;
	core->stats.branches += count;
	return 1;
}

void ap_uarch_branch_result(const struct ap_uarch_core *core, unsigned flags, int taken,
                            int mispredicted, struct ap_uarch_result *out)
{
	*out = core->branch_result[mispredicted != 0][(flags & AP_UARCH_BR_COND) && !taken];
}

/* ap_uarch_branch of a branch that is not only conditional (see
 * branch_train_other). */
__attribute__((noinline)) static void branch_other(struct ap_uarch_core *core, uint64_t pc,
                                                   uint64_t target, unsigned flags, int taken,
                                                   struct ap_uarch_result *out)
{
	int miss = branch_train_other(core, pc, target, flags, taken);
	ap_uarch_branch_result(core, flags, taken, miss, out);
}

void ap_uarch_branch(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                     int taken, struct ap_uarch_result *out)
{
	if (flags != AP_UARCH_BR_COND) {
		branch_other(core, pc, target, flags, taken, out);
		return;
	}
	core->stats.branches++;
	int miss = uarch_bpred_direction(&core->bp, pc, taken);
	core->stats.mispredicts += (uint64_t)miss;
	*out = core->branch_result[miss][!taken];
}

void ap_uarch_other(struct ap_uarch_core *core, struct ap_uarch_result *out)
{
	const struct ap_uarch_config *cfg = &core->sys->cfg;
	memset(out, 0, sizeof(*out));
	out->lat_issue = cfg->issue_latency;
	out->lat_total = uarch_sat16((uint32_t)cfg->issue_latency + cfg->exec_latency);
}

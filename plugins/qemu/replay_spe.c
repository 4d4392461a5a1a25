/* The replayed operations given to the SPE model (spe_sink.h): the ones
 * that cannot be selected pass in batches, without a call into the model
 * per operation, and only the selected ones are described
 * (plugin_describe_op -> spe_sink_op). */
#include <string.h>

#include "call_stack.h"
#include "plugin.h"
#include "spe_sink.h"

/* ---- the one hand-off: an executed instruction as an SPE operation ------ */

/* in is an instruction of the TB execution whose first operation is
 * number tb_base (its data access is in v->slot when the slot says so). */
static void plugin_describe_op(const struct vcpu_state *v, uint64_t tb_base, const struct insn_info *in,
                               const struct ap_uarch_result *branch, uint64_t target, int taken,
                               uint64_t prev_target, struct ap_spe_op *op)
{
	const struct ap_a64_class *c = &in->cls;
	struct ap_uarch_result other = { 0 };
	const struct ap_uarch_result *res = &other;
	memset(op, 0, sizeof(*op));
	op->pc = in->pc;
	other.lat_issue = plugin.uarch_cfg.issue_latency;
	other.lat_total = (uint16_t)(plugin.uarch_cfg.issue_latency + plugin.uarch_cfg.exec_latency);

	if (c->kind == AP_A64_LDST && !(c->flags & AP_A64_F_PREFETCH)) {
		/* Prefetches are typed Other (SPE-2.3.4-2). */
		op->kind = (c->flags & AP_A64_F_ATOMIC) ? AP_SPE_OP_ATOMIC
		           : (c->flags & AP_A64_F_LOAD) ? AP_SPE_OP_LOAD
		                                     : AP_SPE_OP_STORE;
		if (c->flags & AP_A64_F_SIMD)
			op->flags |= AP_SPE_OPF_SIMD;
		if (c->flags & AP_A64_F_EXCL)
			op->flags |= AP_SPE_OPF_EXCL;
		if (c->flags & AP_A64_F_ACQREL)
			op->flags |= AP_SPE_OPF_ACQREL;
		if ((c->flags & AP_A64_F_ATOMIC) && (c->flags & AP_A64_F_LOAD))
			op->flags |= AP_SPE_OPF_ATOMIC_LD;
		const struct mem_slot *s = &v->slot[in->index];
		if (s->seq == tb_base + 1) {
			op->va = s->vaddr;
			/* qemu-user has no physical addresses: the plugin reports
			 * a flat Non-secure map, PA == VA. */
			op->pa = s->vaddr;
			op->flags |= AP_SPE_OPF_PA_NS;
			if (plugin.opts.timing)
				res = s->res;
		}
		op->data_source = res->has_data_source ? res->data_source : 0;
	} else if (c->kind == AP_A64_BRANCH) {
		op->kind = AP_SPE_OP_BRANCH;
		op->target = target;
		op->target_ns = 1;
		if (c->flags & AP_A64_F_COND) {
			op->flags |= AP_SPE_OPF_COND;
			if (!taken)
				op->flags |= AP_SPE_OPF_FAILED;
		}
		if (c->flags & AP_A64_F_INDIRECT)
			op->flags |= AP_SPE_OPF_INDIRECT;
		/* FEAT_SPE_CRR's call/return class (LATER-CRR-2); the model
		 * uses it only when spe.crr is set. */
		if (c->flags & AP_A64_F_CALL)
			op->flags |= AP_SPE_OPF_LINK;
		if (c->flags & AP_A64_F_RETURN)
			op->flags |= AP_SPE_OPF_RETURN;
		if (plugin.opts.timing)
			res = branch;
	} else if (c->kind == AP_A64_COND_OTHER) {
		/* The plugin API cannot read the flags, so whether a CSEL/CCMP
		 * passed is unknown: recorded as passed. */
		op->kind = AP_SPE_OP_OTHER;
		op->flags |= AP_SPE_OPF_COND;
	} else {
		op->kind = AP_SPE_OP_OTHER;
	}
	if (prev_target) { /* FEAT_SPE_PBT (LATER-PBT-2): a branch of this EL0 NS program */
		op->flags |= AP_SPE_OPF_PREV_TARGET;
		op->prev_target = prev_target;
		op->prev_target_el = 0;
		op->prev_target_ns = 1;
	}
	/* FEAT_SPE_EFT's types (LATER-EFT-3); only its filters read them. */
	if (c->flags & AP_A64_F_FP)
		op->flags |= AP_SPE_OPF_FP;
	if (c->flags & AP_A64_F_SIMD_OP)
		op->flags |= AP_SPE_OPF_SIMD_OP;
	op->events = res->events;
	op->lat_issue = res->lat_issue;
	op->lat_xlat = res->lat_xlat;
	op->lat_total = res->lat_total;
}

/* ---- accounting one executed TB ------------------------------------------ */

/* Feed the n operations of an executed TB to the SPE model, describing
 * only the ones it selects. Out of line: most TBs have none. */
__attribute__((noinline)) static void feed_spe_sampled(struct vcpu_state *v, const struct tb_info *tb,
                                                       uint64_t base, uint32_t i, uint64_t target,
                                                       int taken, int mispredicted, uint64_t prev_target)
{
	uint32_t n = tb->n;
	struct ap_uarch_result br = { 0 };
	if (plugin.opts.timing && tb->ends_in_branch && mispredicted >= 0)
		ap_uarch_branch_result(v->core, tb->br_uarch, taken, mispredicted, &br);
	while (i < n) {
		struct ap_spe_op op;
		plugin_describe_op(v, base, &tb->insn[i], &br, target, taken, prev_target, &op);
		spe_sink_op(v->sink, &op, base + i);
		/* Its call stack, found again by thread and timestamp (the
		 * record's Timestamp is the operation's number, base + i). */
		if (v->cs)
			cs_note_sample(v->cs, v->tid, base + i, op.pc);
		if (++i < n)
			i += (uint32_t)spe_sink_skip(v->sink, n - i, base + i);
	}
}

/* Give the model the pending operations that passed without it, the last
 * of them just before operation number ops. None of them can be selected
 * (next_sel said so), so ap_spe_skip lets them all pass; should one be
 * selected after all, it is described as an anonymous Other operation and
 * counted in spe_batch_mismatch. */
static void spe_flush(struct vcpu_state *v, uint64_t ops, uint64_t pending)
{
	uint64_t now = ops - pending;
	while (pending) {
		uint64_t k = spe_sink_skip(v->sink, pending, now);
		pending -= k;
		now += k;
		if (pending) {
			struct ap_spe_op op;
			memset(&op, 0, sizeof(op));
			v->spe_batch_mismatch++;
			spe_sink_op(v->sink, &op, now);
			pending--;
			now++;
		}
	}
}

/* The SPE part of an executed TB that may hold the next selected operation:
 * flush the batch (pending operations before base), let the TB's
 * operations pass one selection at a time, and return how far the next
 * selection is. */
__attribute__((noinline)) uint64_t spe_account_tb(struct vcpu_state *v, const struct tb_info *tb, uint64_t base,
                                                  uint64_t pending, uint64_t target, int taken, int mispredicted,
                                                  uint64_t prev_target)
{
	uint32_t n = tb->n;
	spe_flush(v, base, pending);
	uint32_t i = (uint32_t)spe_sink_skip(v->sink, n, base);
	if (i < n)
		feed_spe_sampled(v, tb, base, i, target, taken, mispredicted, prev_target);
	return spe_sink_until_sample(v->sink);
}

/* Give the SPE model the operations that passed without it so far (none
 * of them selected, as finish_tb ensures), so that SAMPLE_POP counts them. */
void spe_catch_up(struct vcpu_state *v)
{
	if (!v->sink)
		return;
	spe_flush(v, v->rs.ops, v->rs.ops - v->rs.spe_given);
	v->rs.spe_given = v->rs.ops;
}

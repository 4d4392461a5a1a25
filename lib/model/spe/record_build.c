/* Record construction (spec/002 2.3.x and the "Included for ..." rules of
 * 5.3.1, 5.3.3-5.3.5, 5.3.7, 5.3.8, 5.3.10). */
#include "model/spe/record_build.h"

#include <string.h>

#include "model/spe/filter.h"

/* Events the model computes itself rather than taking from the host. */
#define MODEL_EVENTS (AP_EV_EXCEPTION_GEN | AP_EV_RETIRED | AP_EV_NOT_TAKEN)

static bool is_memory(const struct ap_spe_op *op)
{
	return op->kind == AP_SPE_OP_LOAD || op->kind == AP_SPE_OP_STORE || op->kind == AP_SPE_OP_ATOMIC;
}

/* SPE-2.3.1-8: a sampled operation that generates an exception is not
 * treated as a branch. */
static bool is_branch(const struct ap_spe_op *op)
{
	return op->kind == AP_SPE_OP_BRANCH && !(op->flags & AP_SPE_OPF_EXCEPTION);
}

static bool cond_failed(const struct ap_spe_op *op)
{
	/* An exception return is unconditional (SPE-2.3.1-2). */
	if (op->flags & AP_SPE_OPF_ERET)
		return false;
	return (op->flags & (AP_SPE_OPF_COND | AP_SPE_OPF_FAILED)) ==
	       (AP_SPE_OPF_COND | AP_SPE_OPF_FAILED);
}

uint64_t ap_spe_op_events(const struct ap_spe_op *op)
{
	uint64_t e = op->events & ~(MODEL_EVENTS | AP_EV_RAZ_MASK);
	if (op->flags & (AP_SPE_OPF_MISSPEC | AP_SPE_OPF_NONARCH_EXC)) {
		/* SPE-2.3.5-2: neither E[0] nor E[1] */
	} else {
		e |= AP_EV_RETIRED; /* E[1]: committed, or completed with a synchronous exception */
		if (op->flags & AP_SPE_OPF_EXCEPTION)
			e |= AP_EV_EXCEPTION_GEN; /* E[0] */
	}
	if (cond_failed(op))
		e |= AP_EV_NOT_TAKEN; /* E[6], SPE-2.3.3-2, SPE-5.3.7-15 */
	return e;
}

static unsigned kind_type_bits(const struct ap_spe_op *op)
{
	switch (op->kind) {
	case AP_SPE_OP_LOAD:
		return AP_SPE_TYPE_LOAD;
	case AP_SPE_OP_STORE:
		return AP_SPE_TYPE_STORE;
	case AP_SPE_OP_ATOMIC:
		/* SPE-3.2.2-2/3: ST takes every atomic, LD those returning a value. */
		return (op->flags & AP_SPE_OPF_ATOMIC_LD) ? AP_SPE_TYPE_LOAD | AP_SPE_TYPE_STORE
		                                          : AP_SPE_TYPE_STORE;
	case AP_SPE_OP_BRANCH:
		return is_branch(op) ? AP_SPE_TYPE_BRANCH : AP_SPE_TYPE_OTHER;
	default:
		return AP_SPE_TYPE_OTHER;
	}
}

/* FEAT_SPE_EFT's FP and SIMD flags (LATER-EFT-3): on top of the kind. */
static unsigned eft_type_bits(const struct ap_spe_op *op)
{
	return ((op->flags & AP_SPE_OPF_FP) ? AP_SPE_TYPE_FP : 0u) |
	       ((op->flags & AP_SPE_OPF_SIMD_OP) ? AP_SPE_TYPE_SIMD : 0u);
}

unsigned ap_spe_op_type_bits(const struct ap_spe_op *op)
{
	return kind_type_bits(op) | eft_type_bits(op);
}

void ap_spe_op_type(const struct ap_spe_op *op, uint8_t *cls, uint8_t *subclass)
{
	bool cond = (op->flags & AP_SPE_OPF_COND) && !(op->flags & AP_SPE_OPF_ERET);
	if (is_branch(op)) {
		*cls = AP_OP_CLASS_BRANCH;
		*subclass = (uint8_t)((cond ? AP_OP_BR_COND : 0) |
		                      ((op->flags & AP_SPE_OPF_INDIRECT) ? AP_OP_BR_INDIRECT : 0));
		return;
	}
	if (!is_memory(op)) {
		*cls = AP_OP_CLASS_OTHER;
		*subclass = cond ? AP_OP_OTHER_COND : 0;
		return;
	}
	/* Load/store payload (DDI 0487, codec.h; gap SPE-5.3.8-14). An atomic
	 * that returns a value is encoded as a load, one that does not as a
	 * store. */
	bool st = op->kind == AP_SPE_OP_STORE ||
	          (op->kind == AP_SPE_OP_ATOMIC && !(op->flags & AP_SPE_OPF_ATOMIC_LD));
	bool at = op->kind == AP_SPE_OP_ATOMIC;
	bool excl = (op->flags & AP_SPE_OPF_EXCL) != 0;
	bool ar = (op->flags & AP_SPE_OPF_ACQREL) != 0;
	*cls = AP_OP_CLASS_LDST;
	if (at || excl || ar)
		*subclass = (uint8_t)(AP_OP_LDST_EXT | (at ? AP_OP_LDST_AT : 0) | (excl ? AP_OP_LDST_EXCL : 0) |
		                      (ar ? AP_OP_LDST_AR : 0) | (st ? AP_OP_ST : 0));
	else if (op->flags & AP_SPE_OPF_SIMD)
		*subclass = (uint8_t)(AP_OP_LDST_SIMD | (st ? AP_OP_ST : 0));
	else
		*subclass = (uint8_t)(AP_OP_LDST_GP | (st ? AP_OP_ST : 0));
}

/* FEAT_SPE_CRR: the CR field of a branch (perf SPE_OP_PKT_CR_*): a branch
 * with link is a call, a procedure return a return. */
static unsigned branch_cr(const struct ap_spe_op *op)
{
	if (op->flags & AP_SPE_OPF_LINK)
		return AP_OP_BR_CR_BL;
	if (op->flags & AP_SPE_OPF_RETURN)
		return AP_OP_BR_CR_RET;
	return 0;
}

static uint16_t sat12(uint32_t v)
{
	return (uint16_t)(v > AP_COUNTER_MAX ? AP_COUNTER_MAX : v); /* SPE-5.3.4-18 */
}

static bool has_target(const struct ap_spe_op *op, const struct ap_spe_record_ctl *ctl,
                       const struct ap_spe_record_policy *pol)
{
	if (!is_branch(op)) /* SPE-2.3-6: no target for an exception */
		return false;
	if (cond_failed(op) && !pol->cond_fail_target) /* SPE-2.3.3-3 */
		return false;
	if ((op->flags & AP_SPE_OPF_ERET) && ctl->eret_to_disabled && !pol->eret_disabled_target)
		return false; /* SPE-5.3.1-7 */
	return true; /* SPE-5.3.1-6 */
}

static bool has_pa(const struct ap_spe_op *op, const struct ap_spe_record_ctl *ctl,
                   const struct ap_spe_record_policy *pol)
{
	if (!ctl->pa) /* CollectPhysicalAddress() */
		return false;
	switch (op->data_abort) {
	case AP_SPE_DABORT_NONE:
		return true; /* SPE-5.3.1-9 */
	case AP_SPE_DABORT_PERM_AF:
		return pol->pa_on_perm_af; /* SPE-5.3.1-10 */
	default:
		return false; /* SPE-5.3.1-11, SPE-2.3.5-6 */
	}
}

static bool has_data_source(const struct ap_spe_op *op, const struct ap_spe_record_ctl *ctl,
                            const struct ap_spe_record_policy *pol)
{
	if (!ctl->lds) /* SPE-5.3.5-1: only if the indicator is implemented */
		return false;
	bool returns = op->kind == AP_SPE_OP_LOAD ||
	               (op->kind == AP_SPE_OP_ATOMIC && (op->flags & AP_SPE_OPF_ATOMIC_LD));
	if (!returns && !(op->kind == AP_SPE_OP_ATOMIC && pol->ds_atomic_noreturn))
		return false; /* stores; SPE-5.3.5-3 */
	switch (op->data_abort) {
	case AP_SPE_DABORT_NONE:
		return true; /* SPE-5.3.5-4 */
	case AP_SPE_DABORT_EXTERNAL:
		return pol->ds_on_ext_abort; /* SPE-5.3.5-2 */
	default:
		return false; /* no data came back from an MMU fault (SPE-2.3.5-6) */
	}
}

void ap_spe_build_record(struct ap_record *rec, const struct ap_spe_op *op,
                         const struct ap_spe_record_ctl *ctl, const struct ap_spe_record_policy *pol)
{
	memset(rec, 0, sizeof(*rec));
	uint32_t has = AP_HAS_EVENTS; /* SPE-2.3.5-4: every record */
	rec->events = ap_spe_op_events(op);

	if (ctl->ctx1) { /* 5.3.3: for all operations if enabled */
		has |= AP_HAS_CTX_EL1;
		rec->ctx_el1 = ctl->contextidr_el1;
	}
	if (ctl->ctx2) {
		has |= AP_HAS_CTX_EL2;
		rec->ctx_el2 = ctl->contextidr_el2;
	}
	if (ctl->ts) { /* 5.3.10 */
		has |= AP_HAS_TS;
		rec->ts = ctl->ts_value;
	}

	bool minimal = (op->flags & AP_SPE_OPF_EXCEPTION) && pol->exception_minimal;
	if (!minimal) {
		has |= AP_HAS_PC | AP_HAS_OP | AP_HAS_LAT_TOTAL | AP_HAS_LAT_ISSUE; /* "for all operations" */
		rec->pc = op->pc;
		rec->el = ctl->el;
		rec->ns = ctl->ns;
		ap_spe_op_type(op, &rec->op_class, &rec->op_subclass);
		if (ctl->crr && rec->op_class == AP_OP_CLASS_BRANCH) /* LATER-CRR-2 */
			rec->op_subclass |= (uint8_t)(branch_cr(op) << AP_OP_BR_CR_SHIFT);
		if (ctl->pbt && (op->flags & AP_SPE_OPF_PREV_TARGET)) { /* LATER-PBT-2 */
			has |= AP_HAS_PREV_TARGET;
			rec->prev_target = op->prev_target;
			rec->prev_target_el = op->prev_target_el & 3u;
			rec->prev_target_ns = op->prev_target_ns & 1u;
		}
		rec->lat_total = sat12(op->lat_total);
		rec->lat_issue = sat12(op->lat_issue);
		if (has_target(op, ctl, pol)) {
			has |= AP_HAS_TARGET;
			rec->target = op->target;
			rec->target_el = op->target_el;
			rec->target_ns = op->target_ns;
		}
		if (is_memory(op)) { /* "for all load, store and atomic operations" */
			has |= AP_HAS_VADDR | AP_HAS_LAT_XLAT;
			/* SPE-2.3.2-3, SPE-5.3.1-17: TAG is the top byte only with TBI. */
			uint64_t tag = (op->flags & AP_SPE_OPF_TBI) ? op->va & ~AP_ADDR_MASK : 0;
			rec->vaddr = (op->va & AP_ADDR_MASK) | tag;
			rec->lat_xlat = sat12(op->lat_xlat);
			if (has_pa(op, ctl, pol)) {
				has |= AP_HAS_PADDR;
				rec->paddr = op->pa & AP_ADDR_MASK;
				rec->pa_ns = (op->flags & AP_SPE_OPF_PA_NS) ? 1 : 0;
			}
			if (has_data_source(op, ctl, pol)) {
				has |= AP_HAS_DATA_SOURCE;
				rec->data_source = op->data_source;
				rec->data_source_size = op->data_source > 0xFF ? 2 : 1;
			}
		}
	}
	rec->has = has;
}

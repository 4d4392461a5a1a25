/* Record construction: which packets a record holds for each operation and
 * what they carry (spec/002 2.3, 2.3.1-2.3.5, 5.3). From a struct
 * ap_spe_op and the collection decisions to a struct ap_record, which the
 * codec's ap_record_encode() turns into bytes. Pure: no PE, no I/O. */
#ifndef ARMPROF_MODEL_SPE_RECORD_BUILD_H
#define ARMPROF_MODEL_SPE_RECORD_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/record.h"
#include "armprof/spe.h"

/* What the PE state and the collection controls say for this record. */
struct ap_spe_record_ctl {
	uint8_t el, ns;          /* state the operation executed in (PC packet) */
	bool ctx1, ctx2;         /* CollectContextIDR1(), CollectContextIDR2() */
	uint32_t contextidr_el1, contextidr_el2;
	bool ts;                 /* a Timestamp packet ends the record */
	uint64_t ts_value;
	bool pa;                 /* CollectPhysicalAddress() */
	bool lds;                /* PMSIDR_EL1.LDS: Data Source packets */
	bool eret_to_disabled;   /* an exception return whose target EL and Security
	                            state have profiling disabled (SPE-5.3.1-7) */
	bool pbt;                /* FEAT_SPE_PBT: previous-branch-target packets (LATER-PBT-2) */
	bool crr;                /* FEAT_SPE_CRR: call/return subclasses (LATER-CRR-2) */
};

/* IMPLEMENTATION DEFINED / UNPREDICTABLE record-content choices
 * (struct ap_spe_config, docs/model-config.md). */
struct ap_spe_record_policy {
	bool exception_minimal;  /* SPE-2.3.5-5: exception records hold only Events
	                            (+ Context, Timestamp/End) */
	bool cond_fail_target;   /* SPE-2.3.3-3: failed conditional branch keeps its target */
	bool eret_disabled_target; /* SPE-5.3.1-7: target kept for ERET to a disabled EL */
	bool pa_on_perm_af;      /* SPE-5.3.1-10: PA kept on Permission/Access Flag faults */
	bool ds_on_ext_abort;    /* SPE-5.3.5-2: Data Source kept on an external abort */
	bool ds_atomic_noreturn; /* SPE-5.3.5-3: Data Source for atomics returning nothing */
};

/* The Events payload: host events with E[0], E[1], E[6] computed from the
 * flags and the bits that read as zero cleared (5.3.7, 2.3.5). */
uint64_t ap_spe_op_events(const struct ap_spe_op *op);
/* The operation's type for CollectRecord() (enum ap_spe_type_bits). */
unsigned ap_spe_op_type_bits(const struct ap_spe_op *op);
/* Operation Type packet CLASS and SUBCLASS (5.3.8). */
void ap_spe_op_type(const struct ap_spe_op *op, uint8_t *cls, uint8_t *subclass);

void ap_spe_build_record(struct ap_record *rec, const struct ap_spe_op *op,
                         const struct ap_spe_record_ctl *ctl, const struct ap_spe_record_policy *pol);

#endif

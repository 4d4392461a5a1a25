/* Branch predictor, private to lib/uarch: gshare direction predictor with
 * 2-bit counters, a direct-mapped BTB for indirect targets, and a return
 * address stack. */
#ifndef ARMPROF_UARCH_BPRED_H
#define ARMPROF_UARCH_BPRED_H

#include <stdint.h>

struct uarch_bpred {
	uint8_t *counters;   /* 2-bit saturating, 2^hist_bits entries */
	uint64_t *btb;       /* indirect branch target by PC hash */
	uint64_t *ras;
	uint32_t hist_bits, btb_mask, ras_size, ras_top, ras_count;
	uint64_t history;
};

int uarch_bpred_init(struct uarch_bpred *bp, uint32_t hist_bits, uint32_t btb_entries,
                     uint32_t ras_entries);
void uarch_bpred_fini(struct uarch_bpred *bp);
/* Predict, compare with the real outcome, train. Returns 1 if mispredicted. */
int uarch_bpred_update(struct uarch_bpred *bp, uint64_t pc, uint64_t target, unsigned flags,
                       int taken);

#endif

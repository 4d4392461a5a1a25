/* Branch predictor, private to lib/uarch: gshare direction predictor with
 * 2-bit counters, a direct-mapped BTB for indirect targets, and a return
 * address stack. */
#ifndef ARMPROF_UARCH_BPRED_H
#define ARMPROF_UARCH_BPRED_H

#include <stdint.h>

#include "armprof/uarch.h"

struct uarch_bpred {
	uint8_t *counters;   /* 2-bit saturating, 2^hist_bits entries */
	uint64_t *btb;       /* indirect branch target by PC hash */
	uint64_t *ras;
	uint32_t hist_bits, btb_mask, ras_size, ras_top, ras_count;
	uint64_t history;
	uint64_t hist_mask;  /* 2^hist_bits - 1 */
};

int uarch_bpred_init(struct uarch_bpred *bp, uint32_t hist_bits, uint32_t btb_entries,
                     uint32_t ras_entries);
void uarch_bpred_fini(struct uarch_bpred *bp);
/* Predict, compare with the real outcome, train. Returns 1 if mispredicted.
 * Inline: it runs once per executed branch of the program. */
static inline int uarch_bpred_direction(struct uarch_bpred *bp, uint64_t pc, int taken)
{
	uint64_t mask = bp->hist_mask, t = taken != 0;
	uint8_t *ctr = &bp->counters[((pc >> 2) ^ bp->history) & mask];
	unsigned c = *ctr;
	/* 2-bit saturating counter: up when taken (to 3), down when not (to
	 * 0). From a table rather than t ? ... : ...: the compiler made that a
	 * branch on the outcome, which the host mispredicts exactly when the
	 * modelled branch is unpredictable. */
	static const uint8_t next[8] = { 0, 1, 0, 2, 1, 3, 2, 3 }; /* [c * 2 + t] */
	*ctr = next[c * 2 + t];
	bp->history = ((bp->history << 1) | t) & mask;
	return (c >= 2) != (int)t;
}

static inline int uarch_bpred_update(struct uarch_bpred *bp, uint64_t pc, uint64_t target,
                                     unsigned flags, int taken)
{
	int miss = 0;

	if (flags & AP_UARCH_BR_COND)
		miss = uarch_bpred_direction(bp, pc, taken);
	if (flags & AP_UARCH_BR_RETURN) {
		uint64_t predicted = 0;
		if (bp->ras_count) {
			bp->ras_top = bp->ras_top ? bp->ras_top - 1 : bp->ras_size - 1;
			predicted = bp->ras[bp->ras_top];
			bp->ras_count--;
		}
		miss = predicted != target;
	} else if (flags & AP_UARCH_BR_INDIRECT) {
		uint64_t *slot = &bp->btb[((pc >> 2) ^ (pc >> 13)) & bp->btb_mask];
		miss = *slot != target;
		*slot = target;
	}
	if (flags & AP_UARCH_BR_CALL) {
		/* The return address of a call: the next instruction. */
		bp->ras[bp->ras_top] = pc + 4;
		bp->ras_top = bp->ras_top + 1 == bp->ras_size ? 0 : bp->ras_top + 1;
		if (bp->ras_count < bp->ras_size)
			bp->ras_count++;
	}
	return miss;
}

#endif

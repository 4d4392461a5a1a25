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
	/* (pc | taken) of the last direction update when it changed nothing
	 * (counter saturated that way, history all that way; A64 PCs are
	 * 4-aligned, so bit 0 is free); UARCH_BP_NO_FIXED when it changed
	 * something. The same update again, with no other direction update
	 * in between, changes nothing either and was predicted right: a
	 * loop's closing branch costs one comparison. */
	uint64_t fixed_key;
};

#define UARCH_BP_NO_FIXED UINT64_MAX /* odd and not pc | 1 for any 4-aligned pc */

int uarch_bpred_init(struct uarch_bpred *bp, uint32_t hist_bits, uint32_t btb_entries,
                     uint32_t ras_entries);
void uarch_bpred_fini(struct uarch_bpred *bp);
/* Predict, compare with the real outcome, train. Returns 1 if mispredicted.
 * Inline: it runs once per executed branch of the program. */
static inline int uarch_bpred_direction(struct uarch_bpred *bp, uint64_t pc, int taken)
{
	uint64_t mask = bp->hist_mask, t = taken != 0;
	uint64_t key = pc | t;
	if (key == bp->fixed_key)
		return 0;
	uint64_t h = bp->history;
	uint8_t *ctr = &bp->counters[((pc >> 2) ^ h) & mask];
	unsigned c = *ctr;
	/* 2-bit saturating counter: up when taken (to 3), down when not (to
	 * 0). From a table rather than t ? ... : ...: the compiler made that a
	 * branch on the outcome, which the host mispredicts exactly when the
	 * modelled branch is unpredictable. */
	static const uint8_t next[8] = { 0, 1, 0, 2, 1, 3, 2, 3 }; /* [c * 2 + t] */
	unsigned c2 = next[c * 2 + t];
	uint64_t h2 = ((h << 1) | t) & mask;
	*ctr = (uint8_t)c2;
	bp->history = h2;
	/* key when nothing changed, else UARCH_BP_NO_FIXED (all ones): without
	 * a branch, which the host would mispredict on every change. */
	bp->fixed_key = key | ((uint64_t)((c2 == c) & (h2 == h)) - 1);
	return (c >= 2) != (int)t;
}

static inline int uarch_bpred_update(struct uarch_bpred *bp, uint64_t pc, uint64_t target,
                                     unsigned flags, int taken)
{
	if (flags == AP_UARCH_BR_COND) /* the common case: no call, return or indirect target */
		return uarch_bpred_direction(bp, pc, taken);
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

/* 1 when uarch_bpred_update(bp, pc, target, flags, taken) would predict
 * right and change nothing, so that any number of them in a row may be
 * skipped: a direction update that is the fixed one, an indirect target
 * already in the BTB, a direct unconditional branch; never a call or a
 * return (they move the return stack). */
static inline int uarch_bpred_update_is_noop(const struct uarch_bpred *bp, uint64_t pc,
                                             uint64_t target, unsigned flags, int taken)
{
	if (flags & (AP_UARCH_BR_CALL | AP_UARCH_BR_RETURN))
		return 0;
	if ((flags & AP_UARCH_BR_COND) && (pc | (taken != 0)) != bp->fixed_key)
		return 0;
	if ((flags & AP_UARCH_BR_INDIRECT) && bp->btb[((pc >> 2) ^ (pc >> 13)) & bp->btb_mask] != target)
		return 0;
	return 1;
}

#endif

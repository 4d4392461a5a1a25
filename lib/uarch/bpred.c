/* Branch predictor (see bpred.h). Direct unconditional branches are never
 * mispredicted: their target is known at decode. */
#include "bpred.h"

#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "armprof/uarch.h"

int uarch_bpred_init(struct uarch_bpred *bp, uint32_t hist_bits, uint32_t btb_entries,
                     uint32_t ras_entries)
{
	memset(bp, 0, sizeof(*bp));
	if (hist_bits < 1 || hist_bits > 24 || !btb_entries || (btb_entries & (btb_entries - 1)) ||
	    !ras_entries || ras_entries > 4096)
		return -AP_ERR_INVALID;
	bp->hist_bits = hist_bits;
	bp->btb_mask = btb_entries - 1;
	bp->ras_size = ras_entries;
	bp->counters = malloc((size_t)1 << hist_bits);
	bp->btb = calloc(btb_entries, sizeof(*bp->btb));
	bp->ras = calloc(ras_entries, sizeof(*bp->ras));
	if (!bp->counters || !bp->btb || !bp->ras) {
		uarch_bpred_fini(bp);
		return -AP_ERR_NOMEM;
	}
	memset(bp->counters, 2, (size_t)1 << hist_bits); /* weakly taken */
	return 0;
}

void uarch_bpred_fini(struct uarch_bpred *bp)
{
	free(bp->counters);
	free(bp->btb);
	free(bp->ras);
	memset(bp, 0, sizeof(*bp));
}

static int predict_direction(struct uarch_bpred *bp, uint64_t pc, int taken)
{
	uint64_t mask = ((uint64_t)1 << bp->hist_bits) - 1;
	uint64_t idx = ((pc >> 2) ^ bp->history) & mask;
	uint8_t *ctr = &bp->counters[idx];
	int predicted = *ctr >= 2;
	if (taken && *ctr < 3)
		(*ctr)++;
	else if (!taken && *ctr > 0)
		(*ctr)--;
	bp->history = ((bp->history << 1) | (uint64_t)(taken != 0)) & mask;
	return predicted != (taken != 0);
}

int uarch_bpred_update(struct uarch_bpred *bp, uint64_t pc, uint64_t target, unsigned flags,
                       int taken)
{
	int miss = 0;

	if (flags & AP_UARCH_BR_COND)
		miss = predict_direction(bp, pc, taken);
	if (flags & AP_UARCH_BR_RETURN) {
		uint64_t predicted = 0;
		if (bp->ras_count) {
			bp->ras_top = (bp->ras_top + bp->ras_size - 1) % bp->ras_size;
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
		bp->ras_top = (bp->ras_top + 1) % bp->ras_size;
		if (bp->ras_count < bp->ras_size)
			bp->ras_count++;
	}
	return miss;
}

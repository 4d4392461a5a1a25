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
	bp->hist_mask = ((uint64_t)1 << hist_bits) - 1;
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
	bp->fixed_key = UARCH_BP_NO_FIXED;
	return 0;
}

void uarch_bpred_fini(struct uarch_bpred *bp)
{
	free(bp->counters);
	free(bp->btb);
	free(bp->ras);
	memset(bp, 0, sizeof(*bp));
}


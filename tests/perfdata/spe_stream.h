/* Deterministic SPE streams for the perf.data tests: realistic records
 * (tests/random_record.h) encoded with ap_record_encode, optionally with the
 * PCs taken from a list (so perf can attribute them to a binary's symbols). */
#ifndef ARMPROF_TEST_SPE_STREAM_H
#define ARMPROF_TEST_SPE_STREAM_H

#include <stdlib.h>

#include "armprof/record.h"
#include "random_record.h"

/* Encode n records into a new malloc'd buffer; *len gets its size. PCs are
 * pcs[i % n_pcs] in EL0 when n_pcs > 0, else random. Timestamps increase;
 * every 7th record ends with an End packet instead (SPE-5.3.10-6). With ctx
 * != 0, every 3rd record has a Context packet for CONTEXTIDR_EL1 and every
 * 6th one for CONTEXTIDR_EL2 too, both holding ctx (SPE-5.3.3-3, SPE-5.3.3-4): perf
 * takes a record's last Context value as its thread id. */
static inline uint8_t *spe_stream(uint64_t seed, size_t n, const uint64_t *pcs, size_t n_pcs,
                                  uint32_t ctx, size_t *len)
{
	uint8_t *buf = malloc(n * AP_RECORD_MAX_BYTES + 1);
	size_t used = 0;
	uint64_t s = seed, ts = 1000;
	if (!buf)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct ap_record r;
		rr_record(&r, &s, 1);
		if (n_pcs) {
			r.pc = pcs[i % n_pcs];
			r.el = 0;
			r.ns = 1;
			if (r.has & AP_HAS_TARGET) {
				r.target = pcs[(i + 1) % n_pcs];
				r.target_el = 0;
				r.target_ns = 1;
			}
		}
		ts += 1 + (rr_next(&s) & 0xFF);
		r.ts = ts;
		if (i % 7 == 6)
			r.has &= ~(uint32_t)AP_HAS_TS;
		if (ctx && i % 3 == 0) {
			r.has |= AP_HAS_CTX_EL1;
			r.ctx_el1 = ctx;
		}
		if (ctx && i % 6 == 0) {
			r.has |= AP_HAS_CTX_EL2;
			r.ctx_el2 = ctx;
		}
		int k = ap_record_encode(buf + used, n * AP_RECORD_MAX_BYTES + 1 - used, &r, NULL);
		if (k < 0) {
			free(buf);
			return NULL;
		}
		used += (size_t)k;
	}
	*len = used;
	return buf;
}

#endif

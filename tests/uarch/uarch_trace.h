/* A fixed pseudo-random trace through the timing model, hashed: what
 * bench/bench_record_uarch times and tests/uarch/test_uarch_fingerprint.c
 * pins. A mix of what programs do: one line every core fights over, a line
 * per core, random accesses over 4 MiB and 256 MiB, streaming; loads,
 * stores and atomics in short bursts, one conditional branch per burst,
 * the cores taking turns on one thread (so the hash does not depend on the
 * host). The hash covers every result (latencies, events, data source,
 * mispredicted) and each core's counters at the end: a change that makes
 * the model faster must leave it alone. */
#ifndef ARMPROF_TEST_UARCH_TRACE_H
#define ARMPROF_TEST_UARCH_TRACE_H

#include <stdint.h>

#include "armprof/uarch.h"

#define UARCH_TRACE_MAX_CORES 3

struct uarch_trace {
	uint64_t hash; /* FNV-1a */
	uint64_t accesses, branches;
};

static inline void uarch_trace_mix(struct uarch_trace *t, uint64_t v)
{
	t->hash = (t->hash ^ v) * 1099511628211ull;
}

static inline void uarch_trace_mix_result(struct uarch_trace *t, const struct ap_uarch_result *r)
{
	uarch_trace_mix(t, r->lat_issue);
	uarch_trace_mix(t, r->lat_xlat);
	uarch_trace_mix(t, r->lat_total);
	uarch_trace_mix(t, r->events);
	uarch_trace_mix(t, r->has_data_source);
	uarch_trace_mix(t, r->data_source);
	uarch_trace_mix(t, r->mispredicted);
}

/* steps bursts over n_cores cores (1 to UARCH_TRACE_MAX_CORES; with fewer,
 * the missing cores' turns go to the others), then the counters. */
static inline struct uarch_trace uarch_trace_run(struct ap_uarch_core **core, unsigned n_cores, long steps)
{
	struct uarch_trace t = { 1469598103934665603ull, 0, 0 };
	uint64_t x = 88172645463325252ull; /* xorshift64 */
	struct ap_uarch_result r;
	for (long i = 0; i < steps; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		unsigned c = (unsigned)((x >> 3) % UARCH_TRACE_MAX_CORES), cc = c % n_cores;
		int burst = 1 + (int)((x >> 8) & 7);
		uint64_t base;
		switch ((x >> 12) & 7) {
		case 0:
		case 1:
		case 2:
			base = 0x10000 + ((x >> 20) & 1) * 8; /* one line, every core */
			break;
		case 3:
			base = 0x20000 + c * 64; /* a line per core */
			break;
		case 4:
			base = 0x100000 + ((x >> 20) & 0xFFFF) * 64; /* 4 MiB at random */
			break;
		case 5:
			base = 0x4000000 + ((x >> 20) & 0x3FFFFF) * 64; /* 256 MiB at random */
			break;
		default:
			base = 0x800000 + (uint64_t)(i & 0xFFFFF) * 8; /* streaming */
			break;
		}
		for (int b = 0; b < burst; b++) {
			unsigned k = (unsigned)(x >> (24 + b));
			enum ap_uarch_access_kind kind = (k & 3) == 0    ? AP_UARCH_STORE
			                                 : (k & 15) == 1 ? AP_UARCH_ATOMIC
			                                                 : AP_UARCH_LOAD;
			r = *ap_uarch_access(core[cc], base + (uint64_t)(b & 1) * 8, kind);
			uarch_trace_mix_result(&t, &r);
			t.accesses++;
		}
		ap_uarch_branch(core[cc], 0x400000 + (x & 0xFFC), 0x400100, AP_UARCH_BR_COND, (int)((x >> 40) & 1),
		                &r);
		uarch_trace_mix_result(&t, &r);
		t.branches++;
	}
	for (unsigned i = 0; i < n_cores; i++) {
		const struct ap_uarch_stats *s = ap_uarch_core_stats(core[i]);
		uarch_trace_mix(&t, s->loads), uarch_trace_mix(&t, s->stores);
		uarch_trace_mix(&t, s->l1d_misses), uarch_trace_mix(&t, s->l2_misses);
		uarch_trace_mix(&t, s->llc_misses), uarch_trace_mix(&t, s->peer_hits);
		uarch_trace_mix(&t, s->tlb_l1_misses), uarch_trace_mix(&t, s->tlb_walks);
		uarch_trace_mix(&t, s->branches), uarch_trace_mix(&t, s->mispredicts);
	}
	return t;
}

#endif

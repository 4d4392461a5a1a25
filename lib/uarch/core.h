/* The timing model's state (lib/uarch: lifecycle.c makes it, access.c
 * and branch.c run it): the system shared by the cores and each core's
 * private part, with the helpers every access path ends in. Private to
 * lib/uarch. */
#ifndef ARMPROF_UARCH_CORE_H
#define ARMPROF_UARCH_CORE_H

#include <stdint.h>

#include "armprof/uarch.h"
#include "bpred.h"
#include "cache.h"

struct ap_uarch_system {
	struct ap_uarch_config cfg;
	_Atomic unsigned ncores; /* the directory is kept only with 2 or more */
	struct uarch_cache llc;
	_Atomic uint64_t *dir;
	uint64_t dir_mask;
};

#define MAX_STREAMS 16

/* Where an access's data came from, for its result (ap_uarch_core.result). */
enum uarch_level { LV_L1D, LV_L2, LV_PEER_CORE, LV_PEER_CLUSTER, LV_LLC, LV_DRAM, LV_COUNT };
/* How its address was translated. */
enum uarch_xlat { XL_L1TLB, XL_L2TLB, XL_WALK, XL_COUNT };

struct ap_uarch_core {
	struct ap_uarch_system *sys;
	unsigned id;
	uint64_t last_line;  /* line of the previous access (prefetcher filter) */
	int last_l1d_way;    /* the L1D entry holding last_line, -1 before any access */
	/* Prefetches never fill last_line's L1D set (more sets than the
	 * prefetch degree), so last_line stays the most recent of its set. */
	uint8_t same_line_exact;
	/* shortcut.h's line_change_hit is taken (0 in tests that compare). */
	uint8_t shortcuts;
	/* The prefetcher's streams (cfg.prefetch_streams), 0 when it is off
	 * (cfg.prefetch_degree 0): one field for the shortcut to read. */
	unsigned prefetch_streams;
	uint64_t shortcut_hits;
	/* The prefetcher's streams: each one's last line, side by side so
	 * that a new line is compared with four at a time (stream_of), and
	 * whether it was confirmed (a line followed its first one). */
	uint64_t stream_line[MAX_STREAMS];
	uint8_t stream_confirmed[MAX_STREAMS];
	unsigned stream_next;
	uint8_t counted;     /* included in sys->ncores */
	/* What an L1D hit on the line of the previous access returns, made
	 * once from the configuration: [0] a load or atomic, [1] a store. */
	struct ap_uarch_result same_line[2];
	/* The same by access kind (enum ap_uarch_access_kind, 1-3): one load. */
	const struct ap_uarch_result *l1_hit[4];
	/* What a branch returns, made once from the configuration:
	 * [mispredicted][a conditional branch not taken]. */
	struct ap_uarch_result branch_result[2][2];
	/* What any other access returns, made once from the configuration:
	 * [a store][enum uarch_xlat][enum uarch_level]. The latencies, events
	 * and data source follow from those three alone, so the access path
	 * only finds them and copies one of these. */
	struct ap_uarch_result result[2][XL_COUNT][LV_COUNT];
	struct uarch_cache l1d, l2, l1tlb, l2tlb;
	struct uarch_bpred bp;
	struct ap_uarch_stats stats;
	/* Accesses that met another core's write (ap_uarch_core_met_others):
	 * kept apart from stats, which ap_uarch_warm puts back. */
	uint64_t met_others;
};

/* A latency in a result's 16-bit field, saturated. */
static inline uint16_t uarch_sat16(uint32_t v)
{
	return v > 0xFFFF ? 0xFFFF : (uint16_t)v;
}

static inline void count_access(struct ap_uarch_core *core, enum ap_uarch_access_kind kind)
{
	/* The counter chosen without a branch, which the host would mispredict
	 * as often as the program mixes loads and stores (two additions of 0
	 * or 1 the compiler vectorizes into more instructions). */
	uint64_t *n = kind == AP_UARCH_STORE ? &core->stats.stores : &core->stats.loads;
	(*n)++;
}

/* An L1D hit on the line of the previous access (nothing else changes). */
static inline const struct ap_uarch_result *same_line_hit(struct ap_uarch_core *core,
                                                          enum ap_uarch_access_kind kind)
{
	count_access(core, kind);
	return core->l1_hit[kind];
}

/* The first of the prefetcher's n streams that line repeats or continues
 * (line minus the stream's last line is 0 or 1), or -1. Most new lines
 * match none: four streams at a time are ruled out by the smallest of their
 * four differences, without a branch per stream. */
static inline int stream_of(const struct ap_uarch_core *core, uint64_t line, unsigned n)
{
	unsigned i = 0;
	for (; i + 4 <= n; i += 4) {
		const uint64_t *l = &core->stream_line[i];
		uint64_t d0 = line - l[0], d1 = line - l[1], d2 = line - l[2], d3 = line - l[3];
		uint64_t m01 = d0 < d1 ? d0 : d1, m23 = d2 < d3 ? d2 : d3;
		if ((m01 < m23 ? m01 : m23) <= 1)
			return (int)i + (d0 <= 1 ? 0 : d1 <= 1 ? 1 : d2 <= 1 ? 2 : 3);
	}
	for (; i < n; i++)
		if (line - core->stream_line[i] <= 1)
			return (int)i;
	return -1;
}

#endif

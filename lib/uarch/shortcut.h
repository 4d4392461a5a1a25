/* Exact shortcuts of the timing model (lib/uarch/access.c): accesses that
 * the full model would handle without changing anything a later result
 * depends on, recognised with a few comparisons. Private to lib/uarch.
 *
 * Already in access.c: a repeat of the previous access's line (single core:
 * no check at all; several cores: the directory entry alone), and in
 * bpred.h a branch whose prediction update changes nothing.
 *
 * Here: going back to the line accessed before the previous one (the
 * source and destination of a copy, an array and a stack slot, a list
 * node around its payload). With one core the full model would look the
 * page up in the L1 DTLB, the line up in the L1D (a scan of its set),
 * train the prefetcher and note the line. The shortcut makes the same
 * changes (the TLB's and the L1D set's LRU order, the MRU index, the notes
 * of the last two lines) without the scan and the rest of the full path
 * when:
 *   - there is one core (no directory to consult),
 *   - the line is still in the L1D entry where it was (an L1D hit),
 *   - the prefetcher's first stream that the line continues or repeats
 *     repeats it (train_prefetcher returns without a change),
 *   - the page hits in the L1 DTLB (looked up last: a miss changes
 *     nothing, and the full path takes over).
 * Each is checked against the model's current state, so the shortcut is
 * taken exactly when the full path would produce the same result and
 * state (tests/uarch/test_uarch_shortcut.c compares the two, access by
 * access, on random and program-like streams). */
#ifndef ARMPROF_UARCH_SHORTCUT_H
#define ARMPROF_UARCH_SHORTCUT_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* Turns the shortcuts of this header off for core (on by default): every
 * line change then takes the full path. For the tests that compare. */
void uarch_core_disable_shortcuts(struct ap_uarch_core *core);
/* How many accesses took the shortcut (the tests check that they do). */
uint64_t uarch_core_shortcut_hits(const struct ap_uarch_core *core);

/* train_prefetcher(core, line) would change nothing (shortcut.h). */
static inline int prefetch_noop(const struct ap_uarch_core *core, uint64_t line)
{
	int i = stream_of(core, line, core->sys->cfg.prefetch_streams);
	return i >= 0 && core->stream_line[i] == line; /* else it advances, or a new one starts */
}

/* A single core's access to prev_line (shortcut.h): its result when it
 * was an L1D and L1 DTLB hit that leaves the prefetcher as it is, made here
 * with the full path's changes (the TLB's and the L1D set's LRU order, the
 * MRU index, the last-line notes); NULL, having changed nothing, when the
 * full path is needed. */
static inline const struct ap_uarch_result *prev_line_hit(struct ap_uarch_core *core, uint64_t line,
                                                          uint64_t vaddr, enum ap_uarch_access_kind kind)
{
	struct uarch_cache *l1 = &core->l1d;
	int way = core->prev_l1d_way;
	if (!core->shortcuts || way < 0 || !l1->small ||
	    atomic_load_explicit(&l1->tag[way], memory_order_relaxed) != line + 1)
		return NULL;
	if (core->sys->cfg.prefetch_degree && !prefetch_noop(core, line))
		return NULL;
	/* Last: a TLB lookup that misses changes nothing (the full path
	 * then looks again), one that hits is the full path's own. */
	if (uarch_cache_lookup(&core->l1tlb, uarch_cache_line(&core->l1tlb, vaddr)) < 0)
		return NULL;
	/* The L1D lookup's hit, knowing the way: the line to the front of its
	 * set (uarch_cache_lookup). */
	uint32_t order = (uint32_t)(line & l1->set_mask) * l1->stride, w = (uint32_t)way - order - 1;
	uint64_t o = atomic_load_explicit(&l1->tag[order], memory_order_relaxed);
	if ((o & 0xF) != w)
		atomic_store_explicit(&l1->tag[order], uarch_order_to_front(o, uarch_order_pos(o, w), w),
		                      memory_order_relaxed);
	atomic_store_explicit(&l1->mru, (uint32_t)way, memory_order_relaxed);
	core->prev_line = core->last_line;
	core->prev_l1d_way = core->last_l1d_way;
	core->last_line = line;
	core->last_l1d_way = way;
	core->shortcut_hits++;
	return same_line_hit(core, kind);
}

#endif

/* Exact shortcuts of the timing model (lib/uarch/access.c): accesses that
 * the full model would handle without changing anything a later result
 * depends on, recognised with a few comparisons. Private to lib/uarch.
 *
 * Already in access.c: a repeat of the previous access's line (single core:
 * no check at all; several cores: the directory entry alone), and in
 * bpred.h a branch whose prediction update changes nothing.
 *
 * Here: a single core's line change that hits in the L1 DTLB and the L1D,
 * the common line change of a program (gzip: about 90% of them; the others
 * miss the L1D). The full path (access_slow) would look the page up, the
 * line up, train the prefetcher and note the line, in a function that
 * saves registers for its L2, LLC, directory and fill paths. The shortcut
 * makes the same changes (the TLB's and the L1D set's LRU order, the MRU
 * entries, the last line's note, the prefetcher's new stream) inline in
 * the caller, without a call, when:
 *   - there is one core (no directory to consult),
 *   - the page hits in the L1 DTLB in its most recent entry, the first
 *     probe of its index or its set (a TLB hit made first stays the most
 *     recent entry, so the full path finds it again without a change),
 *   - the line hits in the L1D: mostly the front of its set (the source
 *     and destination of a copy, an array and a stack slot, a hash table
 *     and its input), checked before the set's scan.
 * A stream that advances goes on to prefetch (uarch_advance_stream, access.c).
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

/* The prefetcher's stream i, which line continues, advances to it and
 * prefetches ahead (access.c); returns res, the access's result. */
const struct ap_uarch_result *uarch_advance_stream(struct ap_uarch_core *core, uint64_t line, int i,
                                                   const struct ap_uarch_result *res);

/* A hit in the L1 DTLB (c) on page made as uarch_cache_lookup makes it,
 * found without a call: in the most recent entry, the first probe of a
 * private wide cache's index, or a small set's scan. 0, having changed
 * nothing, when it is not found that way (a miss, or a hit further along
 * the index's probe sequence): the full path then looks again. */
__attribute__((always_inline)) static inline int tlb_hit_inline(struct uarch_cache *c, uint64_t page)
{
	uint64_t tag = page + 1;
	uint32_t mru = atomic_load_explicit(&c->mru, memory_order_relaxed);
	if (atomic_load_explicit(&c->tag[mru], memory_order_relaxed) == tag)
		return 1;
	if (c->index) {
		const struct uarch_index_slot *i = &c->index[index_home(c, tag)];
		if (i->tag != tag)
			return 0;
		atomic_store_explicit(&c->stamp[i->entry], uarch_cache_tick(c), memory_order_relaxed);
		atomic_store_explicit(&c->mru, i->entry, memory_order_relaxed);
		return 1;
	}
	return c->small && uarch_cache_lookup_set(c, page) >= 0;
}

/* The prefetcher's stream that line repeats or continues (stream_of), with
 * the default four streams compiled as one group of four. */
static inline int stream_of_any(const struct ap_uarch_core *core, uint64_t line, unsigned n)
{
	return n == 4 ? stream_of(core, line, 4) : stream_of(core, line, n);
}

/* A single core's access to a line other than the last one (shortcut.h):
 * the full path's outcome when the page hits in the L1 DTLB and the line
 * in the L1D, made with the full path's changes (the TLB's and the L1D
 * set's LRU order and MRU entries, the last line's note, the prefetcher's
 * training); NULL when the full path is needed, with nothing changed that
 * the full path would not change the same way: a TLB or L1D hit made here
 * is the most recent entry of its set afterwards, which the full path's
 * lookup then finds without changing anything. A stream that advances
 * (and prefetches) goes to uarch_advance_stream, a tail call. */

__attribute__((always_inline)) static inline const struct ap_uarch_result *
line_change_hit(struct ap_uarch_core *core, uint64_t line, uint64_t vaddr, enum ap_uarch_access_kind kind)
{
	if (!core->shortcuts || !tlb_hit_inline(&core->l1tlb, uarch_cache_line(&core->l1tlb, vaddr)))
		return NULL;
	/* A line seen again is mostly the front of its set (checked first). */
	int way = uarch_cache_lookup_set(&core->l1d, line);
	if (way < 0)
		return NULL;
	core->last_line = line;
	core->last_l1d_way = way;
	core->shortcut_hits++;
	/* The L1D hit's result (equal to result[store][XL_L1TLB][LV_L1D]). */
	const struct ap_uarch_result *res = same_line_hit(core, kind);
	/* train_prefetcher: most new lines start a stream (no prefetch). */
	unsigned n = core->prefetch_streams;
	if (!n)
		return res;
	int i = stream_of_any(core, line, n);
	if (i < 0) {
		unsigned next = core->stream_next, after = next + 1;
		core->stream_next = after & -(unsigned)(after < n); /* round the n streams, without a branch */
		core->stream_line[next] = line;
		core->stream_confirmed[next] = 0;
		return res;
	}
	if (core->stream_line[i] == line)
		return res;
	return uarch_advance_stream(core, line, i, res);
}

#endif

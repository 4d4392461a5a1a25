/* Exact shortcuts of the timing model (lib/uarch/uarch.c): accesses that
 * the full model would handle without changing anything a later result
 * depends on, recognised with a few comparisons. Private to lib/uarch.
 *
 * Already in uarch.c: a repeat of the previous access's line (single core:
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

#include <stdint.h>

struct ap_uarch_core;

/* Turns the shortcuts of this header off for core (on by default): every
 * line change then takes the full path. For the tests that compare. */
void uarch_core_disable_shortcuts(struct ap_uarch_core *core);
/* How many accesses took the shortcut (the tests check that they do). */
uint64_t uarch_core_shortcut_hits(const struct ap_uarch_core *core);

#endif

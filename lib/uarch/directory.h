/* The coherence directory of lib/uarch (see access.c): one 64-bit entry
 * per slot, {line tag, last writer, dirty, version}, read and written with
 * relaxed atomics by every core's thread. Private to lib/uarch. */
#ifndef ARMPROF_UARCH_DIRECTORY_H
#define ARMPROF_UARCH_DIRECTORY_H

#include <stdatomic.h>
#include <stdint.h>

#define DIR_TAG_SHIFT 32
#define DIR_WRITER_SHIFT 24 /* core id + 1; 0 = never written */
#define DIR_DIRTY (1ull << 23)
#define DIR_VERSION_MASK ((1ull << 23) - 1)

struct dir_view {
	int valid;         /* the entry describes this line */
	unsigned writer;   /* core id + 1 of the last writer */
	int dirty;         /* written and not yet read by another core */
	uint32_t version;
};

/* A line's slot: its own low bits, with the higher ones folded in so that
 * regions far apart (the stack, the heap, the program) spread over the
 * table. Neighbouring lines get neighbouring slots, as they would in a
 * table indexed by address: a program's accesses, mostly near each other,
 * then touch few host cache lines and pages of this large table (a
 * multiplicative hash scattered them: a host cache and TLB miss on most
 * line changes of a multi-threaded program). */
static inline _Atomic uint64_t *dir_slot_of(_Atomic uint64_t *dir, uint64_t mask, unsigned bits,
                                           uint64_t line)
{
	return &dir[(line ^ (line >> bits) ^ (line >> 2 * bits)) & mask];
}

static inline struct dir_view dir_read(_Atomic uint64_t *slot, uint64_t line)
{
	uint64_t e = atomic_load_explicit(slot, memory_order_relaxed);
	struct dir_view v = { 0, 0, 0, 0 };
	if (e && (e >> DIR_TAG_SHIFT) == (uint32_t)line) {
		v.valid = 1;
		v.writer = (unsigned)((e >> DIR_WRITER_SHIFT) & 0xFF);
		v.dirty = (e & DIR_DIRTY) != 0;
		v.version = (uint32_t)(e & DIR_VERSION_MASK);
	}
	return v;
}

static inline void dir_write(_Atomic uint64_t *slot, uint64_t line, unsigned writer, int dirty,
                             uint32_t version)
{
	uint64_t e = ((uint64_t)(uint32_t)line << DIR_TAG_SHIFT) | ((uint64_t)writer << DIR_WRITER_SHIFT) |
	             (dirty ? DIR_DIRTY : 0) | (version & DIR_VERSION_MASK);
	atomic_store_explicit(slot, e, memory_order_relaxed);
}

#endif

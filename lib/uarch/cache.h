/* Set-associative cache (or TLB) tag store with LRU replacement, private
 * to lib/uarch. A "line" is an address shifted right by the line (or page)
 * size; the same structure serves caches and TLBs.
 *
 * Each way keeps its tag and LRU stamp side by side, so a lookup touches
 * one or two host cache lines per set. Tags and stamps are relaxed atomics
 * so that a cache shared between cores (the LLC) can be used from several
 * threads without locks: a race can only make the model pick a different
 * victim, never corrupt memory. */
#ifndef ARMPROF_UARCH_CACHE_H
#define ARMPROF_UARCH_CACHE_H

#include <stdatomic.h>
#include <stdint.h>

struct uarch_way {
	_Atomic uint64_t tag;   /* line + 1; 0 = invalid */
	_Atomic uint64_t stamp; /* LRU: larger = more recent */
};

struct uarch_cache {
	uint32_t sets, ways;
	uint32_t line_shift;  /* log2 of the line (page) size */
	uint32_t set_mask;
	uint8_t shared;       /* used by several threads at once (the LLC) */
	struct uarch_way *way;
	uint32_t *version;    /* coherence version seen (private caches) */
	/* Highly associative caches (more than 8 ways, e.g. a fully
	 * associative TLB) keep a direct-mapped hint: line hash -> entry last
	 * filled or hit there. A lookup checks the hinted entry before
	 * scanning the set; the scan stays the authority, so results do not
	 * change, only how fast a hit is found. */
	_Atomic uint32_t *hint;
	uint32_t hint_mask;
	/* A private highly associative cache (a fully associative TLB) keeps
	 * an exact index instead: an open-addressing hash table, line -> entry,
	 * holding every valid entry, so a lookup (hit or miss) is one probe
	 * sequence instead of a scan of every way. Kept in step by fill and
	 * invalidate; LRU order still comes from the stamps. */
	struct uarch_index_slot *index;
	uint32_t index_mask;
	/* Indexed caches also keep LRU order as a list per set (most recent
	 * first) instead of stamps, so the victim is found without a scan:
	 * the same choice as the oldest stamp, one thread using the cache. */
	uint32_t *lru_prev, *lru_next; /* per entry; UARCH_NONE at the ends */
	struct uarch_lru_set *lru_set;
	/* Written on every access: padded away from everything else, so
	 * that the threads using the LLC do not also invalidate its read-only
	 * fields (and whatever shares their host cache line) in each other's
	 * host caches. Padding rather than _Alignas: the structures holding
	 * caches come from calloc. */
	char pad_before_[64];
	_Atomic uint32_t mru; /* index of the last hit entry: checked first */
	_Atomic uint64_t clock;
	/* A lookup that misses also finds the entry a fill of that line would
	 * replace; the fill that follows uses it instead of scanning the set
	 * again. Any other lookup, fill or invalidation forgets it. */
	_Atomic uint64_t pending_tag; /* 0: none */
	_Atomic uint32_t pending_victim; /* checked to lie in the line's set before use */
	char pad_after_[64];
};

#define UARCH_NONE UINT32_MAX

struct uarch_lru_set {
	uint32_t head, tail; /* most and least recently used entry */
	uint32_t n_invalid;  /* invalid entries: filled first, lowest index first */
};

struct uarch_index_slot {
	uint64_t tag;   /* line + 1; 0 = empty */
	uint32_t entry;
};

/* entries == 0 makes a disabled cache that always misses. shared: used by
 * several threads at once (the LLC), which rules out the exact index.
 * Returns 0, -AP_ERR_INVALID (sizes not powers of two, ways not dividing
 * entries) or -AP_ERR_NOMEM. */
int uarch_cache_init(struct uarch_cache *c, uint32_t entries, uint32_t ways, uint32_t line_bytes,
                     int shared);
void uarch_cache_fini(struct uarch_cache *c);

/* Look line up; on a hit refresh its LRU stamp and return its entry index,
 * else return -1. */
int uarch_cache_lookup(struct uarch_cache *c, uint64_t line);
/* Insert line (which must not be present), evicting the least recently used
 * entry of its set. Returns the entry index, or -1 if the cache is disabled. */
int uarch_cache_fill(struct uarch_cache *c, uint64_t line);
/* Drop the entry at index (a coherence invalidation). */
void uarch_cache_invalidate(struct uarch_cache *c, int index);

static inline uint64_t uarch_cache_line(const struct uarch_cache *c, uint64_t addr)
{
	return addr >> c->line_shift;
}

#endif

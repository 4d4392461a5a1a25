/* Set-associative cache (or TLB) tag store with LRU replacement, private
 * to lib/uarch. A "line" is an address shifted right by the line (or page)
 * size; the same structure serves caches and TLBs.
 *
 * Replacement is exact LRU with invalid entries first (the lowest index
 * first). Two representations give that same choice:
 *   - small sets (at most UARCH_SMALL_WAYS ways: L1D, L2, L2 TLB, LLC):
 *     one 64-bit word per set lists the ways, four bits each, from most
 *     (low nibble) to least recently used, with the invalid ways last and
 *     the lowest of them least recent. A hit moves its way to the front, a
 *     fill takes the last way: no scan for a victim, and 8 bytes of LRU
 *     state per set instead of a stamp per way. The word sits just before
 *     the set's tags, in the same host cache line where the set allows;
 *   - wide sets (a fully associative TLB, or a very associative LLC):
 *     an LRU stamp per way, the victim the first with the lowest; a
 *     private cache also keeps an exact hash index (line -> entry), so a
 *     hit is one probe and one stamp, and its sets' order sorted when
 *     the fills have used it up, so a fill needs no scan (cache.c).
 * A set's tags lie side by side, apart from any other per-way state, so
 * that a hit compares tags in one or two host cache lines.
 *
 * Tags, order words and stamps are relaxed atomics so that a cache shared
 * between cores (the LLC) can be used from several threads without locks: a
 * race can only make the model pick a different victim (an order word is
 * always some permutation of the ways), never corrupt memory. */
#ifndef ARMPROF_UARCH_CACHE_H
#define ARMPROF_UARCH_CACHE_H

#include <stdatomic.h>
#include <stdint.h>

#define UARCH_SMALL_WAYS 16 /* ways a 64-bit order word can list */
#define UARCH_SCAN_WAYS 4   /* tags a small-set lookup compares at once */

struct uarch_cache {
	uint32_t sets, ways;
	uint32_t line_shift;  /* log2 of the line (page) size */
	uint32_t set_mask;
	uint8_t shared;       /* used by several threads at once (the LLC) */
	uint8_t small;        /* an order word per set (ways <= UARCH_SMALL_WAYS) */
	/* stride words per set: for small sets, the order word, the tags and
	 * invalid padding (small_stride() in cache.c); for wide sets, the
	 * tags. An entry is the index of its tag here. A tag is line + 1;
	 * 0 = invalid. */
	_Atomic uint64_t *tag;
	uint32_t stride;
	/* Private caches: per entry, the coherence version the copy holds,
	 * kept by the caller (a fill leaves it alone). */
	uint32_t *version;
	/* Wide sets: LRU stamp per entry, larger = more recent; 0 for an
	 * invalid entry. */
	_Atomic uint64_t *stamp;
	/* Wide shared sets also keep a direct-mapped hint: line hash -> entry
	 * last filled or hit there. A lookup checks the hinted entry before
	 * scanning the set; the scan stays the authority, so results do not
	 * change, only how fast a hit is found. */
	_Atomic uint32_t *hint;
	uint32_t hint_mask;
	/* A private wide cache (a fully associative TLB) keeps an exact index
	 * instead: an open-addressing hash table, line -> entry, holding every
	 * valid entry, so a lookup (hit or miss) is one probe sequence instead
	 * of a scan of every way. Kept in step by fill and invalidate. */
	struct uarch_index_slot *index;
	uint32_t index_mask;
	/* And, per set, its entries in LRU order as of the last sort, each
	 * with its stamp then, taken from lru_next on by fills (cache.c
	 * indexed_victim): most fills find their victim without a scan. */
	uint32_t *lru_entry;
	uint64_t *lru_stamp;
	uint32_t *lru_next;
	/* Written on every access: padded away from everything else, so
	 * that the threads using the LLC do not also invalidate its read-only
	 * fields (and whatever shares their host cache line) in each other's
	 * host caches. Padding rather than _Alignas: the structures holding
	 * caches come from calloc. */
	char pad_before_[64];
	/* Index of the last hit or filled entry: checked first. It is the
	 * most recent entry of its set, so a hit there changes no LRU state. */
	_Atomic uint32_t mru;
	_Atomic uint64_t clock; /* wide sets: the last stamp given */
	/* Wide shared sets: a lookup that misses also finds the entry a fill
	 * of that line would replace; the fill that follows uses it instead of
	 * scanning the set again. Any other lookup or fill forgets it. */
	_Atomic uint64_t pending_tag; /* 0: none */
	_Atomic uint32_t pending_victim; /* checked to lie in the line's set before use */
	char pad_after_[64];
};

#define UARCH_NONE UINT32_MAX

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

/* Look line up; on a hit make it the most recently used entry of its set and
 * return its entry index, else return -1. */
static inline int uarch_cache_lookup(struct uarch_cache *c, uint64_t line);
/* uarch_cache_lookup of a cache with small sets (c->small), without the
 * check of the MRU entry first: for a line that is seldom the MRU one (an
 * L1D on a line change). The same result and changes: the MRU entry is the
 * most recent of its set, so a hit there moves nothing either. */
static inline int uarch_cache_lookup_set(struct uarch_cache *c, uint64_t line);
/* Insert line (which must not be present), evicting the least recently used
 * entry of its set. Returns the entry index, or -1 if the cache is disabled. */
static inline int uarch_cache_fill(struct uarch_cache *c, uint64_t line);
/* The line a fill of line would evict, or UINT64_MAX when that entry is
 * invalid or the cache keeps no order word per set (wide sets, a disabled
 * cache). Changes nothing. */
static inline uint64_t uarch_cache_victim(const struct uarch_cache *c, uint64_t line);
/* Whether line is in the cache, without making it the most recent (small
 * sets only; 0 otherwise). */
static inline int uarch_cache_holds(const struct uarch_cache *c, uint64_t line);
/* Drop the entry at index (a coherence invalidation). */
void uarch_cache_invalidate(struct uarch_cache *c, int index);

/* The wide-set (and disabled-cache) halves of lookup and fill (cache.c);
 * the wide lookup after the MRU check. */
int uarch_cache_lookup_wide(struct uarch_cache *c, uint64_t line);
int uarch_cache_fill_wide(struct uarch_cache *c, uint64_t line);

static inline uint64_t uarch_cache_line(const struct uarch_cache *c, uint64_t addr)
{
	return addr >> c->line_shift;
}

/* The entry of way w of set (its tag's index in c->tag). */
static inline uint32_t uarch_cache_entry(const struct uarch_cache *c, uint32_t set, uint32_t w)
{
	return set * c->stride + c->small + w;
}

/* ---- small sets: the order word (inline: every access does this) ---- */

#define UARCH_NIBBLE_ONES 0x1111111111111111ull

/* Position of way w in order word o (0 = most recent). w is listed: the
 * lowest nibble equal to w is the lowest zero nibble of o ^ w..w, which
 * the borrow trick finds exactly (a borrow only disturbs higher nibbles). */
static inline unsigned uarch_order_pos(uint64_t o, unsigned w)
{
	uint64_t x = o ^ (UARCH_NIBBLE_ONES * w);
	uint64_t zero = (x - UARCH_NIBBLE_ONES) & ~x & (UARCH_NIBBLE_ONES << 3);
	return (unsigned)__builtin_ctzll(zero) >> 2;
}

/* o with way w, at position pos, moved to the front. */
static inline uint64_t uarch_order_to_front(uint64_t o, unsigned pos, unsigned w)
{
	uint64_t before = (1ull << (4 * pos)) - 1; /* positions below pos */
	uint64_t through = (before << 4) | 0xF;    /* positions up to pos */
	return (o & ~through) | ((o & before) << 4) | w;
}

/* The next LRU stamp of a cache with wide sets. A relaxed
 * read-increment-write, not a locked add: concurrent users of a shared
 * cache may reuse a stamp, which only blurs LRU order. */
__attribute__((always_inline)) static inline uint64_t uarch_cache_tick(struct uarch_cache *c)
{
	uint64_t t = atomic_load_explicit(&c->clock, memory_order_relaxed) + 1;
	atomic_store_explicit(&c->clock, t, memory_order_relaxed);
	return t;
}

/* Where tag's probe sequence starts in a private wide cache's index. */
static inline uint32_t index_home(const struct uarch_cache *c, uint64_t tag)
{
	return (uint32_t)((tag * 0x9E3779B97F4A7C15ull) >> 32) & c->index_mask;
}

/* Forced inline: left to itself GCC calls it out of line from its many
 * call sites, which measured slower. */
__attribute__((always_inline)) static inline int uarch_cache_lookup(struct uarch_cache *c,
                                                                   uint64_t line)
{
	/* The last entry hit or filled, in any representation: the most
	 * recent of its set already, so a hit there changes nothing. */
	uint64_t tag = line + 1;
	uint32_t mru = atomic_load_explicit(&c->mru, memory_order_relaxed);
	if (atomic_load_explicit(&c->tag[mru], memory_order_relaxed) == tag)
		return (int)mru;
	if (!c->small) {
		/* A private wide cache (the L1 DTLB, looked up on most page
		 * changes): a hit in the index's first probe is made here,
		 * as indexed_lookup (cache.c) makes it. */
		if (c->index) {
			const struct uarch_index_slot *i = &c->index[index_home(c, tag)];
			if (i->tag == tag) {
				atomic_store_explicit(&c->stamp[i->entry], uarch_cache_tick(c), memory_order_relaxed);
				atomic_store_explicit(&c->mru, i->entry, memory_order_relaxed);
				return (int)i->entry;
			}
		}
		return uarch_cache_lookup_wide(c, line);
	}
	return uarch_cache_lookup_set(c, line);
}

__attribute__((always_inline)) static inline int uarch_cache_lookup_set(struct uarch_cache *c, uint64_t line)
{
	uint64_t tag = line + 1;
	uint32_t order = (uint32_t)(line & c->set_mask) * c->stride;
	/* The set's most recent way first: a line seen again is mostly
	 * still the front of its set (a hit there moves nothing). */
	uint64_t o = atomic_load_explicit(&c->tag[order], memory_order_relaxed);
	uint32_t front = order + 1 + (uint32_t)(o & 0xF);
	if (atomic_load_explicit(&c->tag[front], memory_order_relaxed) == tag) {
		atomic_store_explicit(&c->mru, front, memory_order_relaxed);
		return (int)front;
	}
	const _Atomic uint64_t *t = &c->tag[order + 1], *end = t + c->ways;
	/* Four tags at a time, without a branch per tag (the padding after
	 * the last way holds invalid tags): one branch per group, so that a
	 * hit in a random way is not a mispredicted branch each time. */
	for (const _Atomic uint64_t *p = t; p < end; p += UARCH_SCAN_WAYS) {
		unsigned hit = (unsigned)(atomic_load_explicit(&p[0], memory_order_relaxed) == tag) |
		               (unsigned)(atomic_load_explicit(&p[1], memory_order_relaxed) == tag) << 1 |
		               (unsigned)(atomic_load_explicit(&p[2], memory_order_relaxed) == tag) << 2 |
		               (unsigned)(atomic_load_explicit(&p[3], memory_order_relaxed) == tag) << 3;
		if (hit) {
			uint32_t w = (uint32_t)(p - t) + (uint32_t)__builtin_ctz(hit);
			atomic_store_explicit(&c->tag[order], uarch_order_to_front(o, uarch_order_pos(o, w), w),
			                      memory_order_relaxed);
			atomic_store_explicit(&c->mru, order + 1 + w, memory_order_relaxed);
			return (int)(order + 1 + w);
		}
	}
	return -1;
}

static inline int uarch_cache_fill(struct uarch_cache *c, uint64_t line)
{
	if (!c->small)
		return uarch_cache_fill_wide(c, line);
	uint32_t order = (uint32_t)(line & c->set_mask) * c->stride;
	uint64_t o = atomic_load_explicit(&c->tag[order], memory_order_relaxed);
	uint32_t last = c->ways - 1, victim = (uint32_t)(o >> (4 * last)) & 0xF, e = order + 1 + victim;
	atomic_store_explicit(&c->tag[e], line + 1, memory_order_relaxed);
	atomic_store_explicit(&c->tag[order], uarch_order_to_front(o, last, victim), memory_order_relaxed);
	atomic_store_explicit(&c->mru, e, memory_order_relaxed);
	return (int)e;
}

static inline uint64_t uarch_cache_victim(const struct uarch_cache *c, uint64_t line)
{
	if (!c->small)
		return UINT64_MAX;
	uint32_t order = (uint32_t)(line & c->set_mask) * c->stride;
	uint64_t o = atomic_load_explicit(&c->tag[order], memory_order_relaxed);
	uint32_t victim = (uint32_t)(o >> (4 * (c->ways - 1))) & 0xF;
	uint64_t tag = atomic_load_explicit(&c->tag[order + 1 + victim], memory_order_relaxed);
	return tag ? tag - 1 : UINT64_MAX;
}

static inline int uarch_cache_holds(const struct uarch_cache *c, uint64_t line)
{
	if (!c->small)
		return 0;
	uint32_t order = (uint32_t)(line & c->set_mask) * c->stride;
	for (uint32_t w = 0; w < c->ways; w++)
		if (atomic_load_explicit(&c->tag[order + 1 + w], memory_order_relaxed) == line + 1)
			return 1;
	return 0;
}

#endif

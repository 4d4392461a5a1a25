/* Set-associative LRU tag store (see cache.h). */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static uint32_t log2u(uint64_t v)
{
	uint32_t s = 0;
	while ((1ull << s) < v)
		s++;
	return s;
}

/* Zeroed memory aligned to the host's cache line, so that a small set of
 * up to 7 ways (8 words with its order word) lies in one host line. */
static void *zalloc_aligned(size_t n, size_t size)
{
	size_t bytes = (n * size + 63) / 64 * 64;
	void *p = aligned_alloc(64, bytes);
	if (p)
		memset(p, 0, bytes);
	return p;
}

/* Words per small set: the order word and the tags, the tags padded with
 * invalid ones to a multiple of UARCH_SCAN_WAYS (lookups compare that many
 * at a time), and the whole padded to fill a host cache line when it fits
 * in one (no set then spans two). */
static uint32_t small_stride(uint32_t ways)
{
	uint32_t words = 1 + (ways + UARCH_SCAN_WAYS - 1) / UARCH_SCAN_WAYS * UARCH_SCAN_WAYS;
	return words <= 8 ? 8 : words;
}

/* The order word of a set with no valid entry: way 0 least recent, so
 * that fills take the ways in index order. */
static uint64_t initial_order(uint32_t ways)
{
	uint64_t o = 0;
	for (uint32_t pos = 0; pos < ways; pos++)
		o |= (uint64_t)(ways - 1 - pos) << (4 * pos);
	return o;
}

static int init_index(struct uarch_cache *c, uint32_t entries)
{
	/* At most a quarter full: short probe sequences. */
	uint32_t slots = 4;
	while (slots < 4 * (uint64_t)entries && slots < (1u << 30))
		slots *= 2;
	c->index_mask = slots - 1;
	c->index = calloc(slots, sizeof(*c->index));
	c->stamp = zalloc_aligned(entries, sizeof(*c->stamp));
	c->lru_entry = calloc(entries, sizeof(*c->lru_entry));
	c->lru_stamp = calloc(entries, sizeof(*c->lru_stamp));
	c->lru_next = calloc(c->sets, sizeof(*c->lru_next));
	if (!c->index || !c->stamp || !c->lru_entry || !c->lru_stamp || !c->lru_next)
		return -AP_ERR_NOMEM;
	for (uint32_t set = 0; set < c->sets; set++)
		c->lru_next[set] = c->ways; /* none sorted yet */
	return 0;
}

/* The tag store of a disabled cache: one invalid tag, never written. */
static _Atomic uint64_t no_tags;

int uarch_cache_init(struct uarch_cache *c, uint32_t entries, uint32_t ways, uint32_t line_bytes,
                     int shared)
{
	memset(c, 0, sizeof(*c));
	if (entries == 0) {
		c->tag = &no_tags; /* the MRU check reads tag[0] */
		return 0;
	}
	if (!ways || entries % ways || !is_pow2(entries / ways) || !is_pow2(line_bytes))
		return -AP_ERR_INVALID;
	c->sets = entries / ways;
	c->ways = ways;
	c->set_mask = c->sets - 1;
	c->shared = shared != 0;
	c->small = ways <= UARCH_SMALL_WAYS;
	c->line_shift = log2u(line_bytes);
	c->stride = c->small ? small_stride(ways) : ways;
	uint64_t words = (uint64_t)c->sets * c->stride;
	if (words > UINT32_MAX) /* entries are 32-bit */
		return -AP_ERR_NOMEM;
	c->tag = zalloc_aligned(words, sizeof(*c->tag));
	c->version = shared ? NULL : calloc(words, sizeof(*c->version));
	int err = c->tag && (shared || c->version) ? 0 : -AP_ERR_NOMEM;
	if (!err && c->small) {
		for (uint32_t set = 0; set < c->sets; set++)
			atomic_init(&c->tag[set * c->stride], initial_order(ways));
		atomic_init(&c->mru, 1); /* a tag, not an order word */
	} else if (!err && !shared) {
		err = init_index(c, entries);
	} else if (!err) {
		c->stamp = zalloc_aligned(entries, sizeof(*c->stamp));
		c->hint_mask = 255;
		c->hint = calloc(c->hint_mask + 1, sizeof(*c->hint));
		if (!c->stamp || !c->hint)
			err = -AP_ERR_NOMEM;
	}
	if (err)
		uarch_cache_fini(c);
	return err;
}

void uarch_cache_fini(struct uarch_cache *c)
{
	if (c->tag != &no_tags)
		free((void *)c->tag);
	free(c->version);
	free((void *)c->stamp);
	free((void *)c->hint);
	free(c->index);
	free(c->lru_entry);
	free(c->lru_stamp);
	free(c->lru_next);
	memset(c, 0, sizeof(*c));
}

/* ---- the exact index (private caches with wide sets) ---- */

/* The entry holding tag, or -1. */
static inline int index_find(const struct uarch_cache *c, uint64_t tag)
{
	for (uint32_t i = index_home(c, tag);; i = (i + 1) & c->index_mask) {
		if (c->index[i].tag == tag)
			return (int)c->index[i].entry;
		if (!c->index[i].tag)
			return -1;
	}
}

static void index_insert(struct uarch_cache *c, uint64_t tag, uint32_t entry)
{
	uint32_t i = index_home(c, tag);
	while (c->index[i].tag)
		i = (i + 1) & c->index_mask;
	c->index[i].tag = tag;
	c->index[i].entry = entry;
}

/* Linear-probing deletion by backward shift: later members of the probe
 * run move up so that every lookup still finds them. */
static void index_remove(struct uarch_cache *c, uint64_t tag)
{
	uint32_t m = c->index_mask, i = index_home(c, tag);
	while (c->index[i].tag != tag) {
		if (!c->index[i].tag)
			return;
		i = (i + 1) & m;
	}
	for (uint32_t j = (i + 1) & m; c->index[j].tag; j = (j + 1) & m) {
		uint32_t home = index_home(c, c->index[j].tag);
		/* j's member may fill the hole at i unless its home lies
		 * cyclically in (i, j]. */
		if (((j - home) & m) >= ((j - i) & m)) {
			c->index[i] = c->index[j];
			i = j;
		}
	}
	c->index[i].tag = 0;
}

/* ---- invalidation ---- */

/* After an invalidation of way w in a set: the valid ways in their order,
 * then the invalid ones, the lowest index last (the next victim). The word
 * is always that way already (the valid ways first, then the invalid ones
 * from the highest index down: a hit or a fill only moves a valid way to
 * the front), so w leaves its place and goes in among the invalid ways
 * where its index puts it, found from the end. The shared LLC, the only
 * cache whose word a race could disorder, is never invalidated.
 * tests/uarch/test_uarch_cache.c checks the word against a plain rebuild. */
static void order_put_invalid_last(struct uarch_cache *c, uint32_t order, uint32_t w)
{
	const _Atomic uint64_t *t = &c->tag[order + 1];
	uint64_t o = atomic_load_explicit(&c->tag[order], memory_order_relaxed);
	unsigned p = c->ways - 1, pos = uarch_order_pos(o, w);
	uint64_t below = (1ull << (4 * pos)) - 1;
	o = (o & below) | ((o >> 4) & ~below); /* w out: the later ways move up */
	while (p > 0) {
		uint32_t v = (uint32_t)(o >> (4 * (p - 1))) & 0xF;
		if (v > w || atomic_load_explicit(&t[v], memory_order_relaxed))
			break;
		p--;
	}
	below = (1ull << (4 * p)) - 1;
	o = (o & below) | ((uint64_t)w << (4 * p)) | ((o & ~below) << 4);
	atomic_store_explicit(&c->tag[order], o, memory_order_relaxed);
}

void uarch_cache_invalidate(struct uarch_cache *c, int index)
{
	uint32_t set = (uint32_t)index / c->stride;
	uint64_t tag = atomic_load_explicit(&c->tag[index], memory_order_relaxed);
	atomic_store_explicit(&c->tag[index], 0, memory_order_relaxed);
	if (c->small) {
		order_put_invalid_last(c, set * c->stride, (uint32_t)index - set * c->stride - 1);
	} else if (c->index) {
		if (tag)
			index_remove(c, tag);
		atomic_store_explicit(&c->stamp[index], 0, memory_order_relaxed); /* see choose_victim */
		c->lru_next[(uint32_t)index / c->ways] = c->ways; /* the order sorted is stale */
	} else {
		atomic_store_explicit(&c->pending_tag, 0, memory_order_relaxed);
		atomic_store_explicit(&c->stamp[index], 0, memory_order_relaxed); /* see choose_victim */
	}
}

/* ---- wide shared sets: LRU stamps ---- */

static inline uint32_t hint_slot(const struct uarch_cache *c, uint64_t line)
{
	return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 40) & c->hint_mask;
}

/* The victim a fill of this set would choose: an invalid entry first (the
 * lowest), else the oldest stamp (the first of equals). Invalid entries
 * have stamp 0 and valid ones a stamp of 1 or more (uarch_cache_tick() starts at 1,
 * invalidation clears the stamp), so the first smallest stamp is that
 * entry: one comparison per way. */
static inline uint32_t choose_victim(const _Atomic uint64_t *stamp, uint32_t ways)
{
	uint32_t victim = 0;
	uint64_t oldest = UINT64_MAX;
	for (uint32_t w = 0; w < ways; w++) {
		uint64_t s = atomic_load_explicit(&stamp[w], memory_order_relaxed);
		if (s < oldest) {
			oldest = s;
			victim = w;
		}
	}
	return victim;
}

/* Entry e was hit: most recent now. */
static inline int stamped_hit(struct uarch_cache *c, uint64_t line, uint32_t e)
{
	atomic_store_explicit(&c->stamp[e], uarch_cache_tick(c), memory_order_relaxed);
	atomic_store_explicit(&c->mru, e, memory_order_relaxed);
	atomic_store_explicit(&c->hint[hint_slot(c, line)], e, memory_order_relaxed);
	return (int)e;
}

static int stamped_lookup(struct uarch_cache *c, uint64_t line)
{
	uint64_t tag = line + 1;
	atomic_store_explicit(&c->pending_tag, 0, memory_order_relaxed);
	uint32_t ways = c->ways, base = (uint32_t)(line & c->set_mask) * ways;
	uint32_t h = atomic_load_explicit(&c->hint[hint_slot(c, line)], memory_order_relaxed);
	if (h - base < ways && atomic_load_explicit(&c->tag[h], memory_order_relaxed) == tag)
		return stamped_hit(c, line, h);
	for (uint32_t w = 0; w < ways; w++)
		if (atomic_load_explicit(&c->tag[base + w], memory_order_relaxed) == tag)
			return stamped_hit(c, line, base + w);
	/* The miss remembers the fill's victim. Another thread may change the
	 * set before the fill: the victim is then not the least recent entry,
	 * which only blurs LRU (the shared cache is approximate under
	 * concurrency anyway). */
	atomic_store_explicit(&c->pending_victim, base + choose_victim(&c->stamp[base], ways),
	                      memory_order_relaxed);
	atomic_store_explicit(&c->pending_tag, tag, memory_order_relaxed);
	return -1;
}

static int stamped_fill(struct uarch_cache *c, uint64_t line)
{
	uint32_t ways = c->ways, base = (uint32_t)(line & c->set_mask) * ways;
	/* With several threads, tag and victim may come from different
	 * lookups: use the victim only if it lies in this set. */
	uint32_t victim = atomic_load_explicit(&c->pending_victim, memory_order_relaxed) - base;
	if (atomic_load_explicit(&c->pending_tag, memory_order_relaxed) != line + 1 || victim >= ways)
		victim = choose_victim(&c->stamp[base], ways);
	atomic_store_explicit(&c->pending_tag, 0, memory_order_relaxed);
	atomic_store_explicit(&c->tag[base + victim], line + 1, memory_order_relaxed);
	return stamped_hit(c, line, base + victim);
}

/* ---- wide private sets: the exact index and LRU stamps ---- */

/* A hit is one probe of the index and one stamp; a fill (rare: a TLB's
 * pages change slowly) finds its victim by the stamps, as the shared sets
 * do. The clock is the cache's own (one thread), so stamps never tie: the
 * order is exact LRU with invalid entries first, the lowest first. */
static int indexed_lookup(struct uarch_cache *c, uint64_t line)
{
	int e = index_find(c, line + 1);
	if (e >= 0) {
		atomic_store_explicit(&c->stamp[e], uarch_cache_tick(c), memory_order_relaxed);
		atomic_store_explicit(&c->mru, (uint32_t)e, memory_order_relaxed);
	}
	return e;
}

/* The set's entries sorted by (stamp, entry): least recent first, the
 * invalid ones (stamp 0) before them, the lowest first, as choose_victim
 * orders them. Insertion sort: a set of a few dozen ways. */
static void lru_sort(struct uarch_cache *c, uint32_t set)
{
	uint32_t ways = c->ways, base = set * ways;
	uint32_t *q = &c->lru_entry[base];
	uint64_t *qs = &c->lru_stamp[base];
	for (uint32_t i = 0; i < ways; i++) {
		uint64_t st = atomic_load_explicit(&c->stamp[base + i], memory_order_relaxed);
		uint32_t j = i;
		for (; j > 0 && qs[j - 1] > st; j--) {
			q[j] = q[j - 1];
			qs[j] = qs[j - 1];
		}
		q[j] = base + i;
		qs[j] = st;
	}
	c->lru_next[set] = 0;
}

/* The entry choose_victim would pick, without a scan per fill: the set's
 * order as sorted last, taken from the front. An entry whose stamp is
 * still the one it was sorted with is the least recent of the set: every
 * entry hit or filled since has a newer stamp than any sorted (the
 * cache's clock only grows), and the ones sorted before it were taken or
 * have been hit. When none is left, the set is sorted again (an
 * invalidation also asks for that). */
static uint32_t indexed_victim(struct uarch_cache *c, uint32_t set)
{
	uint32_t ways = c->ways, base = set * ways;
	for (;;) {
		while (c->lru_next[set] < ways) {
			uint32_t k = base + c->lru_next[set]++;
			uint32_t e = c->lru_entry[k];
			if (atomic_load_explicit(&c->stamp[e], memory_order_relaxed) == c->lru_stamp[k])
				return e;
		}
		lru_sort(c, set);
	}
}

static int indexed_fill(struct uarch_cache *c, uint64_t line)
{
	uint32_t e = indexed_victim(c, (uint32_t)(line & c->set_mask));
	uint64_t old = atomic_load_explicit(&c->tag[e], memory_order_relaxed);
	if (old)
		index_remove(c, old);
	index_insert(c, line + 1, e);
	atomic_store_explicit(&c->tag[e], line + 1, memory_order_relaxed);
	atomic_store_explicit(&c->stamp[e], uarch_cache_tick(c), memory_order_relaxed);
	atomic_store_explicit(&c->mru, e, memory_order_relaxed);
	return (int)e;
}

int uarch_cache_lookup_wide(struct uarch_cache *c, uint64_t line)
{
	/* The private L1 DTLB first: it is looked up on most line changes.
	 * (An index implies sets.) */
	if (c->index)
		return indexed_lookup(c, line);
	if (!c->sets)
		return -1;
	return stamped_lookup(c, line);
}

int uarch_cache_fill_wide(struct uarch_cache *c, uint64_t line)
{
	if (!c->sets)
		return -1;
	return c->index ? indexed_fill(c, line) : stamped_fill(c, line);
}

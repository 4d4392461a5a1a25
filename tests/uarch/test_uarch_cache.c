/* The timing model's tag store (lib/uarch/cache.h) against a plain
 * reference: every way holds a tag and an LRU stamp; a fill replaces the
 * lowest-indexed invalid way, else the way with the oldest stamp. The cache
 * keeps that order in other forms (an order word per small set, an index
 * and lists or stamps for wide sets); on random lookups, fills and
 * invalidations it must return exactly the reference's entries, so that the
 * timing results built on it (SPE-5.3.4-4 total latency, SPE-5.3.5-1 data
 * source, SPE-5.3.7-18 L1D refill) do not depend on the representation. */
#include <stdlib.h>

#include "cache.h"
#include "harness.h"

#define MAX_ENTRIES 256

struct reference {
	uint32_t sets, ways;
	uint64_t tag[MAX_ENTRIES]; /* line + 1; 0 = invalid */
	uint64_t stamp[MAX_ENTRIES];
	uint64_t clock;
};

static int ref_lookup(struct reference *r, uint64_t line)
{
	uint32_t base = (uint32_t)(line % r->sets) * r->ways;
	for (uint32_t w = 0; w < r->ways; w++)
		if (r->tag[base + w] == line + 1) {
			r->stamp[base + w] = ++r->clock;
			return (int)(base + w);
		}
	return -1;
}

static int ref_fill(struct reference *r, uint64_t line)
{
	uint32_t base = (uint32_t)(line % r->sets) * r->ways, victim = base;
	for (uint32_t w = 0; w < r->ways; w++) {
		uint32_t e = base + w;
		if (!r->tag[e]) {
			victim = e;
			break;
		}
		if (r->stamp[e] < r->stamp[victim])
			victim = e;
	}
	r->tag[victim] = line + 1;
	r->stamp[victim] = ++r->clock;
	return (int)victim;
}

/* A small set's order word after an invalidation, rebuilt plainly (the
 * rebuild lib/uarch made before it moved the one way instead): the valid
 * ways in their order, then the invalid ones from the highest index down. */
static uint64_t rebuilt_order(const struct uarch_cache *c, uint32_t order)
{
	uint32_t n = 0;
	uint64_t o = atomic_load(&c->tag[order]), sorted = 0;
	for (uint32_t pos = 0; pos < c->ways; pos++) {
		uint32_t w = (uint32_t)(o >> (4 * pos)) & 0xF;
		if (atomic_load(&c->tag[order + 1 + w]))
			sorted |= (uint64_t)w << (4 * n++);
	}
	for (uint32_t w = c->ways; w-- > 0;)
		if (!atomic_load(&c->tag[order + 1 + w]))
			sorted |= (uint64_t)w << (4 * n++);
	return sorted;
}

/* The cache's entry for the reference's entry (set * ways + way), -1 for -1. */
static int entry_of(const struct uarch_cache *c, int ref)
{
	return ref < 0 ? -1 : (int)uarch_cache_entry(c, (uint32_t)ref / c->ways, (uint32_t)ref % c->ways);
}

/* Random accesses (lookup, fill on a miss) to lines of a pool about twice
 * the cache, with an invalidation of a hit entry now and then; with hot,
 * three in four go to six lines of one set (a program's few pages at a
 * time: hits near the front of a wide set's LRU list, and invalidations
 * there). */
static void compare_with(uint32_t sets, uint32_t ways, int shared, int invalidate_one_in, int hot)
{
	struct uarch_cache c;
	struct reference r = { .sets = sets, .ways = ways };
	CHECK(sets * ways <= MAX_ENTRIES);
	CHECK_EQ_U64(uarch_cache_init(&c, sets * ways, ways, 64, shared), 0);
	uint64_t x = 0x9E3779B97F4A7C15ull ^ (sets * 131 + ways * 7 + (uint64_t)shared);
	uint64_t pool = 2 * (uint64_t)sets * ways + 1;
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t line = (x >> 8) % pool + (x & 1 ? 0x123456789ull : 0); /* and high tags */
		if (hot && (x >> 50) % 4 != 0)
			line = (x >> 20) % 6 * sets; /* six lines of set 0 */
		/* Small sets: half the lookups by the set's scan alone (the L1D's
		 * on a line change), which checks the set's front way first. */
		int by_set = c.small && (x >> 33) & 1;
		int got = by_set ? uarch_cache_lookup_set(&c, line) : uarch_cache_lookup(&c, line);
		int want = ref_lookup(&r, line);
		CHECK_EQ_U64((uint64_t)got, (uint64_t)entry_of(&c, want));
		if (got < 0) {
			int filled = uarch_cache_fill(&c, line);
			CHECK_EQ_U64((uint64_t)filled, (uint64_t)entry_of(&c, ref_fill(&r, line)));
			CHECK_EQ_U64(atomic_load(&c.tag[filled]), line + 1);
		} else if (invalidate_one_in && (x >> 40) % (uint64_t)invalidate_one_in == 0) {
			uint32_t order = (uint32_t)got / c.stride * c.stride;
			uarch_cache_invalidate(&c, got);
			r.tag[want] = 0;
			if (c.small)
				CHECK_EQ_U64(atomic_load(&c.tag[order]), rebuilt_order(&c, order));
		}
	}
	uarch_cache_fini(&c);
}

static void compare(uint32_t sets, uint32_t ways, int shared, int invalidate_one_in)
{
	compare_with(sets, ways, shared, invalidate_one_in, 0);
}

TEST(small_sets_match_reference_lru)
{
	static const uint32_t ways[] = { 1, 2, 3, 4, 5, 8, 12, 16 };
	for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++)
		for (int shared = 0; shared <= 1; shared++) {
			compare(1, ways[i], shared, 0);
			compare(8, ways[i], shared, 0);
			compare(4, ways[i], shared, 7);
			compare(2, ways[i], shared, 2); /* several invalid ways at once */
		}
}

TEST(wide_sets_match_reference_lru)
{
	static const uint32_t ways[] = { 17, 48, 64 };
	for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
		compare(1, ways[i], 0, 0);
		compare(1, ways[i], 0, 5);
		compare(2, ways[i], 1, 0);
		compare(2, ways[i], 1, 5);
		for (int inv = 0; inv <= 3; inv += 3) {
			compare_with(1, ways[i], 0, inv, 1);
			compare_with(2, ways[i], 0, inv, 1);
			compare_with(2, ways[i], 1, inv, 1);
		}
	}
}

TEST(disabled_cache_always_misses)
{
	struct uarch_cache c;
	CHECK_EQ_U64(uarch_cache_init(&c, 0, 4, 64, 0), 0);
	CHECK_EQ_U64((uint64_t)uarch_cache_lookup(&c, 5), (uint64_t)-1);
	CHECK_EQ_U64((uint64_t)uarch_cache_fill(&c, 5), (uint64_t)-1);
	CHECK_EQ_U64((uint64_t)uarch_cache_lookup(&c, 5), (uint64_t)-1);
	uarch_cache_fini(&c);
}

TEST_MAIN(CASE(small_sets_match_reference_lru), CASE(wide_sets_match_reference_lru),
          CASE(disabled_cache_always_misses))

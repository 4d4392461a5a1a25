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

int uarch_cache_init(struct uarch_cache *c, uint32_t entries, uint32_t ways, uint32_t line_bytes)
{
	memset(c, 0, sizeof(*c));
	if (entries == 0)
		return 0;
	if (!ways || entries % ways || !is_pow2(entries / ways) || !is_pow2(line_bytes))
		return -AP_ERR_INVALID;
	c->sets = entries / ways;
	c->ways = ways;
	c->set_mask = c->sets - 1;
	c->line_shift = log2u(line_bytes);
	c->way = calloc(entries, sizeof(*c->way));
	c->version = calloc(entries, sizeof(*c->version));
	if (ways > 8) {
		c->hint_mask = 255;
		c->hint = calloc(c->hint_mask + 1, sizeof(*c->hint));
	}
	if (!c->way || !c->version || (ways > 8 && !c->hint)) {
		uarch_cache_fini(c);
		return -AP_ERR_NOMEM;
	}
	return 0;
}

void uarch_cache_fini(struct uarch_cache *c)
{
	free(c->way);
	free(c->version);
	free((void *)c->hint);
	memset(c, 0, sizeof(*c));
}

static inline uint32_t hint_slot(const struct uarch_cache *c, uint64_t line)
{
	return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 40) & c->hint_mask;
}

static inline uint64_t tick(struct uarch_cache *c)
{
	/* A relaxed read-increment-write, not a locked add: concurrent users of
	 * a shared cache may reuse a stamp, which only blurs LRU order. */
	uint64_t t = atomic_load_explicit(&c->clock, memory_order_relaxed) + 1;
	atomic_store_explicit(&c->clock, t, memory_order_relaxed);
	return t;
}

int uarch_cache_lookup(struct uarch_cache *c, uint64_t line)
{
	if (!c->sets)
		return -1;
	uint64_t tag = line + 1;
	uint32_t mru = atomic_load_explicit(&c->mru, memory_order_relaxed);
	if (atomic_load_explicit(&c->way[mru].tag, memory_order_relaxed) == tag) {
		atomic_store_explicit(&c->way[mru].stamp, tick(c), memory_order_relaxed);
		return (int)mru;
	}
	uint32_t base = (uint32_t)(line & c->set_mask) * c->ways;
	struct uarch_way *w = &c->way[base];
	if (c->hint) {
		uint32_t h = atomic_load_explicit(&c->hint[hint_slot(c, line)], memory_order_relaxed);
		if (h - base < c->ways && atomic_load_explicit(&c->way[h].tag, memory_order_relaxed) == tag) {
			atomic_store_explicit(&c->way[h].stamp, tick(c), memory_order_relaxed);
			atomic_store_explicit(&c->mru, h, memory_order_relaxed);
			return (int)h;
		}
	}
	for (uint32_t i = 0; i < c->ways; i++) {
		if (atomic_load_explicit(&w[i].tag, memory_order_relaxed) == tag) {
			atomic_store_explicit(&w[i].stamp, tick(c), memory_order_relaxed);
			atomic_store_explicit(&c->mru, base + i, memory_order_relaxed);
			if (c->hint)
				atomic_store_explicit(&c->hint[hint_slot(c, line)], base + i, memory_order_relaxed);
			return (int)(base + i);
		}
	}
	return -1;
}

int uarch_cache_fill(struct uarch_cache *c, uint64_t line)
{
	if (!c->sets)
		return -1;
	uint32_t base = (uint32_t)(line & c->set_mask) * c->ways;
	struct uarch_way *w = &c->way[base];
	uint32_t victim = 0;
	uint64_t oldest = UINT64_MAX;
	for (uint32_t i = 0; i < c->ways; i++) {
		if (!atomic_load_explicit(&w[i].tag, memory_order_relaxed)) {
			victim = i; /* an invalid entry first */
			break;
		}
		uint64_t s = atomic_load_explicit(&w[i].stamp, memory_order_relaxed);
		if (s < oldest) {
			oldest = s;
			victim = i;
		}
	}
	atomic_store_explicit(&w[victim].tag, line + 1, memory_order_relaxed);
	atomic_store_explicit(&w[victim].stamp, tick(c), memory_order_relaxed);
	c->version[base + victim] = 0;
	atomic_store_explicit(&c->mru, base + victim, memory_order_relaxed);
	if (c->hint)
		atomic_store_explicit(&c->hint[hint_slot(c, line)], base + victim, memory_order_relaxed);
	return (int)(base + victim);
}

/* The timing model's shortcuts (lib/uarch/shortcut.h) are exact: one
 * stream of accesses and branches through two identical single-core
 * models, one with the shortcuts and one without, gives the same result
 * for every access (latencies, events, Data Source: spec/002 5.3.4,
 * 5.3.7, 5.3.5; SPE-5.3.4-4, SPE-5.3.7-18, SPE-5.3.5-1), the same
 * counters, and the same state afterwards (every line of the stream asked
 * again in the same order answers the same). Streams: random ones, and
 * ones shaped like programs (a copy, a loop over an array with a stack
 * slot, a hash table fed from an input buffer, a list walk), under the
 * default configuration and under small caches (evictions between two
 * visits) with and without the prefetcher. Each run checks that the
 * shortcut was taken often, so that a change that disables it fails. */
#include <stdlib.h>

#include "armprof/uarch.h"
#include "harness.h"
#include "random_record.h"
#include "shortcut.h"
#include "uarch_models.h"

static uint64_t rng;

enum stream { RANDOM, COPY, ARRAY_AND_STACK, HASH_TABLE, LIST_WALK, N_STREAMS };

struct gen {
	enum stream kind;
	uint64_t i, a, b, c;
};

/* The next access of stream g; *kind its kind. */
static uint64_t next_access(struct gen *g, enum ap_uarch_access_kind *kind)
{
	uint64_t r = rr_next(&rng), i = g->i++;
	*kind = AP_UARCH_LOAD;
	switch (g->kind) {
	case RANDOM: {
		/* Back to one of the last lines, a random line near or far, a
		 * page's neighbour; any kind. */
		unsigned k = (unsigned)(r >> 61);
		*kind = (r & 3) == 0 ? AP_UARCH_STORE : (r & 31) == 1 ? AP_UARCH_ATOMIC : AP_UARCH_LOAD;
		uint64_t prev = g->a;
		g->a = g->b;
		switch (k) {
		case 0:
		case 1:
		case 2:
			g->b = prev + ((r >> 8) & 63); /* the line before the last */
			break;
		case 3:
			g->b = 0x10000000 + ((r >> 20) % (256u << 10));
			break;
		case 4:
			g->b = 0x40000000 + ((r >> 20) % (64u << 20));
			break;
		case 5:
			g->b = g->b + 64; /* streaming */
			break;
		default:
			g->b = (g->b & ~4095ull) + 4096 + ((r >> 20) & 4095);
		}
		return g->b;
	}
	case COPY: /* load src[i], store dst[i]: two lines in turn */
		*kind = i & 1 ? AP_UARCH_STORE : AP_UARCH_LOAD;
		return (i & 1 ? 0x20000000 : 0x30000000) + (i / 2) * 8;
	case ARRAY_AND_STACK: /* a[i], a spilled counter, a[i] again */
		*kind = i % 3 == 1 ? AP_UARCH_STORE : AP_UARCH_LOAD;
		return i % 3 == 1 ? 0x7ff0000 + 8 * (r & 1) : 0x20000000 + (i / 3) * 4;
	case HASH_TABLE: /* input byte, table slot (64 KiB), table slot store */
		if (i % 3 == 0)
			return 0x50000000 + i / 3;
		if (i % 3 == 1)
			g->c = 0x60000000 + (((r >> 16) % 8192) * 8);
		*kind = i % 3 == 2 ? AP_UARCH_STORE : AP_UARCH_LOAD;
		return g->c;
	default: /* list walk: a node, its payload two lines on, its next pointer */
		if (i % 3 == 0)
			g->c = 0x70000000 + ((r >> 24) % 4096) * 256;
		return g->c + (i % 3 == 1) * 128;
	}
}

static int same(const struct ap_uarch_result *a, const struct ap_uarch_result *b)
{
	return a->lat_issue == b->lat_issue && a->lat_total == b->lat_total && a->lat_xlat == b->lat_xlat &&
	       a->events == b->events && a->has_data_source == b->has_data_source &&
	       a->data_source == b->data_source && a->mispredicted == b->mispredicted;
}

/* One stream through both models: returns how often the shortcut was taken. */
static uint64_t compare(const struct ap_uarch_config *cfg, enum stream kind, unsigned n)
{
	struct model fast, full;
	model_open_cfg(&fast, cfg, 1);
	model_open_cfg(&full, cfg, 1);
	uarch_core_disable_shortcuts(full.core[0]);
	uint64_t *seen = malloc(n * sizeof(*seen)), differ = 0;
	struct gen g = { kind, 0, 0x10000000, 0x10000040, 0 };
	for (unsigned i = 0; i < n; i++) {
		enum ap_uarch_access_kind k;
		uint64_t va = next_access(&g, &k);
		seen[i] = va;
		struct ap_uarch_result a, b;
		a = *ap_uarch_access(fast.core[0], va, k);
		b = *ap_uarch_access(full.core[0], va, k);
		differ += !same(&a, &b);
		if ((i & 7) == 7) { /* a loop's closing branch now and then */
			uint64_t pc = 0x400000 + (i & 0x3f0);
			int taken = (rr_next(&rng) & 7) != 0;
			ap_uarch_branch(fast.core[0], pc, pc - 64, AP_UARCH_BR_COND, taken, &a);
			ap_uarch_branch(full.core[0], pc, pc - 64, AP_UARCH_BR_COND, taken, &b);
			differ += !same(&a, &b);
		}
	}
	CHECK_EQ_U64(differ, 0);
	const struct ap_uarch_stats *sa = ap_uarch_core_stats(fast.core[0]),
	                            *sb = ap_uarch_core_stats(full.core[0]);
	CHECK(memcmp(sa, sb, sizeof(*sa)) == 0);
	CHECK_EQ_U64(uarch_core_shortcut_hits(full.core[0]), 0);
	/* The same state: every address again, in order, answers the same. */
	for (unsigned i = 0; i < n; i++) {
		struct ap_uarch_result a, b;
		a = *ap_uarch_access(fast.core[0], seen[i], AP_UARCH_LOAD);
		b = *ap_uarch_access(full.core[0], seen[i], AP_UARCH_LOAD);
		differ += !same(&a, &b);
	}
	CHECK_EQ_U64(differ, 0);
	uint64_t hits = uarch_core_shortcut_hits(fast.core[0]);
	free(seen);
	model_close(&fast);
	model_close(&full);
	return hits;
}

static void all_streams(const struct ap_uarch_config *cfg, unsigned min_percent)
{
	const unsigned n = 200000;
	for (int s = 0; s < N_STREAMS; s++) {
		rng = 0x243F6A8885A308D3ull + (uint64_t)s;
		uint64_t hits = compare(cfg, (enum stream)s, n);
		/* Taken for a share of the accesses of every stream (twice n:
		 * the stream and the state check). */
		if (hits * 100 < (uint64_t)min_percent * n)
			printf("stream %d: shortcut taken %llu times of %u\n", s, (unsigned long long)hits, 2 * n);
		CHECK(hits * 100 >= (uint64_t)min_percent * n);
	}
}

TEST(shortcut_exact_default_config)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	all_streams(&cfg, 5);
}

/* A 4 KiB 2-way L1D and a 4-entry L1 DTLB: lines and pages leave between
 * two visits, and neighbours in a set reorder each other. */
TEST(shortcut_exact_small_caches)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "l1d.size", "4K"), 0);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "l1d.ways", "2"), 0);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "l1tlb.entries", "4"), 0);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "l1tlb.ways", "4"), 0);
	all_streams(&cfg, 1);
}

TEST(shortcut_exact_without_prefetcher)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "prefetch.degree", "0"), 0);
	all_streams(&cfg, 5);
}

TEST_MAIN(CASE(shortcut_exact_default_config), CASE(shortcut_exact_small_caches),
          CASE(shortcut_exact_without_prefetcher))

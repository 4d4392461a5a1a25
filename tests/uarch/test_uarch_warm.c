/* ap_uarch_warm (lib/uarch): an access whose result is not wanted changes
 * the caches, TLBs, prefetcher and coherence directory exactly as
 * ap_uarch_access would, and is not counted in the statistics. Checked by
 * running one trace through two identical models, one with every access
 * through ap_uarch_access, the other with most of them warmed: every
 * result the second one is asked for equals the first one's. This is what
 * lets `armprof record --timing-window` keep the caches exact outside its
 * windows (docs/record-and-report.md). Latencies, events and Data Source
 * are those of spec/002 5.3.4, 5.3.7, 5.3.5 (SPE-5.3.4-4, SPE-5.3.7-18,
 * SPE-5.3.5-1). */
#include "armprof/uarch.h"
#include "harness.h"
#include "random_record.h"
#include "uarch_models.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next_random(void)
{
	return rr_next(&rng);
}

static void model_open(struct model *m, unsigned ncores)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg); /* prefetcher on: it must follow warmed accesses too */
	model_open_cfg(m, &cfg, ncores);
}

/* The next access of a trace mixing what the examples do: runs through an
 * array, repeats of the last line, random lines over 4 MiB and 64 MiB
 * (beyond the LLC), a line two cores share; loads, stores, atomics. */
static uint64_t next_access(uint64_t prev, enum ap_uarch_access_kind *kind)
{
	uint64_t r = next_random();
	unsigned k = (unsigned)(r >> 60) % 3;
	*kind = k == 0 ? AP_UARCH_LOAD : k == 1 ? AP_UARCH_STORE : AP_UARCH_ATOMIC;
	if ((r & 15) < 3)
		*kind = AP_UARCH_LOAD;
	switch ((r >> 8) % 6) {
	case 0:
	case 1:
		return prev + 8; /* streaming */
	case 2:
		return prev; /* same line */
	case 3:
		return 0x10000000 + ((r >> 20) % (4u << 20));
	case 4:
		return 0x40000000 + ((r >> 20) % (64u << 20));
	default:
		return 0x80000000 + ((r >> 20) & 63); /* shared */
	}
}

static void compare(unsigned ncores, unsigned warm_per_16)
{
	struct model full, warmed;
	model_open(&full, ncores);
	model_open(&warmed, ncores);
	uint64_t va[2] = { 0x20000000, 0x30000000 }, asked = 0, differ = 0;
	for (unsigned i = 0; i < 400000; i++) {
		unsigned c = ncores > 1 ? (i / 7) % ncores : 0; /* cores take turns in short runs */
		enum ap_uarch_access_kind kind;
		va[c] = next_access(va[c], &kind);
		struct ap_uarch_result a, b;
		a = *ap_uarch_access(full.core[c], va[c], kind);
		if ((next_random() & 15) < warm_per_16) {
			ap_uarch_warm(warmed.core[c], va[c], kind);
			continue;
		}
		b = *ap_uarch_access(warmed.core[c], va[c], kind);
		asked++;
		differ += a.lat_total != b.lat_total || a.lat_xlat != b.lat_xlat || a.events != b.events ||
		          a.has_data_source != b.has_data_source || a.data_source != b.data_source;
	}
	CHECK(asked > 10000);
	CHECK_EQ_U64(differ, 0);
	/* Statistics count the accesses asked for, not the warmed ones. */
	uint64_t counted = 0;
	for (unsigned c = 0; c < ncores; c++) {
		const struct ap_uarch_stats *s = ap_uarch_core_stats(warmed.core[c]);
		counted += s->loads + s->stores;
	}
	CHECK_EQ_U64(counted, asked);
	model_close(&full);
	model_close(&warmed);
}

TEST(warm_changes_the_model_as_access_does_one_core) { compare(1, 12); }

TEST(warm_changes_the_model_as_access_does_two_cores) { compare(2, 12); }

/* Only warming, then one question: the answer is the fully modelled one. */
TEST(warm_only_then_ask) { compare(1, 15); }

TEST_MAIN(CASE(warm_changes_the_model_as_access_does_one_core),
          CASE(warm_changes_the_model_as_access_does_two_cores), CASE(warm_only_then_ask))

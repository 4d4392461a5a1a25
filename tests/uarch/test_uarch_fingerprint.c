/* The timing model's results pinned: a fixed trace (uarch_trace.h, the one
 * bench/bench_record_uarch times) through several configurations, each
 * hashed over every result and counter. The hashes are those of the model
 * before the per-event cost work of issue 30 (main at 37e4558): a faster
 * model must give the same latencies, events, data sources and counts, and
 * this fails if it does not. The configurations reach every path: one core
 * (no directory, the shortcuts) and three (the directory, peers,
 * invalidations); the prefetcher off, with 3, 4 (the default), 7 and 16
 * streams; the L1 DTLB fully associative (48 and 32 ways) and as two wide
 * sets; no L2 and no LLC. */
#include "harness.h"
#include "uarch/uarch_trace.h"

static uint64_t trace_hash(unsigned n_cores, const char *const *settings)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	for (; settings && settings[0]; settings += 2)
		CHECK_EQ_U64(ap_uarch_config_set(&cfg, settings[0], settings[1]), 0);
	struct ap_uarch_system *sys = NULL;
	struct ap_uarch_core *core[UARCH_TRACE_MAX_CORES] = { 0 };
	CHECK_EQ_U64(ap_uarch_system_create(&sys, &cfg), 0);
	for (unsigned i = 0; i < n_cores; i++) /* cores 0 and 3 share a cluster, as in the bench */
		CHECK_EQ_U64(ap_uarch_core_create(&core[i], sys, i * 3), 0);
	struct uarch_trace t = uarch_trace_run(core, n_cores, 200000);
	for (unsigned i = 0; i < n_cores; i++)
		ap_uarch_core_destroy(core[i]);
	ap_uarch_system_destroy(sys);
	return t.hash;
}

#define SETTINGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

TEST(one_core_matches_reference)
{
	CHECK_EQ_U64(trace_hash(1, NULL), 0xc7bdbe3e24687dfdull);
	CHECK_EQ_U64(trace_hash(1, SETTINGS("prefetch.streams", "7")), 0xc22c52e250a2f1c1ull);
	CHECK_EQ_U64(trace_hash(1, SETTINGS("prefetch.streams", "16")), 0xb99f80795570e170ull);
	CHECK_EQ_U64(trace_hash(1, SETTINGS("prefetch.degree", "0")), 0xc44da8860fe339afull);
	CHECK_EQ_U64(trace_hash(1, SETTINGS("l1tlb.entries", "64", "l1tlb.ways", "32")), 0x1119f97ec059f775ull);
	CHECK_EQ_U64(trace_hash(1, SETTINGS("l2.size", "0", "llc.size", "0")), 0xe5c684f439760a69ull);
}

TEST(three_cores_match_reference)
{
	CHECK_EQ_U64(trace_hash(3, NULL), 0x26e6e1b686af503bull);
	CHECK_EQ_U64(trace_hash(3, SETTINGS("prefetch.streams", "16", "l1tlb.entries", "32", "l1tlb.ways", "32")), 0xe5d8b2e0b8cb45a6ull);
	CHECK_EQ_U64(trace_hash(3, SETTINGS("l1tlb.entries", "64", "l1tlb.ways", "32", "prefetch.streams", "3")), 0x0a5cecf78cfe6b43ull);
}

TEST_MAIN(CASE(one_core_matches_reference), CASE(three_cores_match_reference))

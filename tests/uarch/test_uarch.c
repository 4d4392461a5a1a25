/* The timing model (lib/uarch): caches, TLBs, predictor, latencies, events
 * and Data Source values the QEMU plugin gives the SPE model.
 *
 * Events bits are those of spec/002 5.3.7 (SPE-5.3.7-12 LLC access,
 * SPE-5.3.7-11 LLC miss, SPE-5.3.7-14 mispredicted, SPE-5.3.7-15 not taken,
 * SPE-5.3.7-16 TLB walk, SPE-5.3.7-17 TLB access, SPE-5.3.7-18 L1D refill,
 * SPE-5.3.7-19 L1D access); latencies are the Counter packets of 5.3.4
 * (SPE-5.3.4-4 total, SPE-5.3.4-5 issue, SPE-5.3.4-6 translation); Data
 * Source values (SPE-5.3.5-1, SPE-5.3.5-6: IMPLEMENTATION DEFINED meaning)
 * use the Neoverse encoding Linux perf decodes. */
#include "armprof/codec.h"
#include "armprof/error.h"
#include "armprof/uarch.h"
#include "harness.h"

struct rig {
	struct ap_uarch_config cfg;
	struct ap_uarch_system *sys;
	struct ap_uarch_core *core[4];
};

static void rig_open(struct rig *r, const struct ap_uarch_config *cfg, unsigned ncores)
{
	memset(r, 0, sizeof(*r));
	if (cfg) {
		r->cfg = *cfg;
	} else {
		ap_uarch_config_init(&r->cfg);
		r->cfg.prefetch_degree = 0; /* cache tests see demand accesses only */
	}
	CHECK_EQ_U64(ap_uarch_system_create(&r->sys, &r->cfg), 0);
	for (unsigned i = 0; i < ncores; i++)
		CHECK_EQ_U64(ap_uarch_core_create(&r->core[i], r->sys, i), 0);
}

static void rig_close(struct rig *r)
{
	for (unsigned i = 0; i < 4; i++)
		ap_uarch_core_destroy(r->core[i]);
	ap_uarch_system_destroy(r->sys);
}

static struct ap_uarch_result load(struct ap_uarch_core *c, uint64_t va)
{
	struct ap_uarch_result res;
	res = *ap_uarch_access(c, va, AP_UARCH_LOAD);
	return res;
}

TEST(first_touch_goes_to_dram_then_hits_l1)
{
	struct rig r;
	rig_open(&r, NULL, 1);
	struct ap_uarch_result a = load(r.core[0], 0x400000);
	CHECK_EQ_U64(a.data_source, AP_DS_DRAM);
	CHECK(a.has_data_source);
	uint64_t want = AP_EV_L1D_ACCESS | AP_EV_L1D_REFILL | AP_EV_TLB_ACCESS | AP_EV_TLB_WALK |
	                AP_EV_LLC_ACCESS | AP_EV_LLC_MISS;
	CHECK_EQ_U64(a.events, want);
	CHECK_EQ_U64(a.lat_xlat, r.cfg.walk_latency);
	CHECK_EQ_U64(a.lat_issue, r.cfg.issue_latency);
	CHECK_EQ_U64(a.lat_total, r.cfg.issue_latency + r.cfg.walk_latency + r.cfg.dram_latency);

	struct ap_uarch_result b = load(r.core[0], 0x400008); /* same line */
	CHECK_EQ_U64(b.data_source, AP_DS_L1D);
	CHECK_EQ_U64(b.events, AP_EV_L1D_ACCESS | AP_EV_TLB_ACCESS);
	CHECK_EQ_U64(b.lat_total, r.cfg.issue_latency + r.cfg.l1tlb_latency + r.cfg.l1d.latency);
	rig_close(&r);
}

/* A working set between L1D and L2 size is served by L2 on the second pass;
 * one between L2 and LLC size by the system cache; beyond the LLC by DRAM. */
static unsigned second_pass_source_count(uint32_t bytes, uint16_t source)
{
	struct rig r;
	rig_open(&r, NULL, 1);
	for (uint64_t a = 0; a < bytes; a += 64)
		load(r.core[0], 0x10000000 + a);
	unsigned n = 0;
	for (uint64_t a = 0; a < bytes; a += 64)
		n += load(r.core[0], 0x10000000 + a).data_source == source;
	rig_close(&r);
	return n;
}

TEST(working_set_sizes_pick_the_level)
{
	CHECK_EQ_U64(second_pass_source_count(32 * 1024, AP_DS_L1D), 32 * 1024 / 64);
	CHECK_EQ_U64(second_pass_source_count(512 * 1024, AP_DS_L2), 512 * 1024 / 64);
	CHECK_EQ_U64(second_pass_source_count(4 * 1024 * 1024, AP_DS_SYS_CACHE), 4 * 1024 * 1024 / 64);
	CHECK_EQ_U64(second_pass_source_count(16 * 1024 * 1024, AP_DS_DRAM), 16 * 1024 * 1024 / 64);
}

/* LRU within one set: 4 ways of L1D; touching A again before E evicts B. */
TEST(l1d_lru_replacement)
{
	struct rig r;
	rig_open(&r, NULL, 1);
	uint64_t set_stride = 64 * 1024 / 4; /* same set every 16 KiB */
	uint64_t A = 0x800000;
	for (int i = 0; i < 4; i++)
		load(r.core[0], A + (uint64_t)i * set_stride);
	load(r.core[0], A);                 /* A most recent: B is now LRU */
	load(r.core[0], A + 4 * set_stride); /* E evicts B */
	CHECK_EQ_U64(load(r.core[0], A).data_source, AP_DS_L1D);
	CHECK_EQ_U64(load(r.core[0], A + set_stride).data_source, AP_DS_L2);
	rig_close(&r);
}

TEST(tlb_levels)
{
	struct rig r;
	rig_open(&r, NULL, 1);
	struct ap_uarch_result res;
	/* 100 pages: more than the 48-entry L1 DTLB, fewer than the L2 TLB. */
	for (int pass = 0; pass < 2; pass++) {
		unsigned walks = 0, l2hits = 0;
		for (uint64_t p = 0; p < 100; p++) {
			res = load(r.core[0], 0x20000000 + p * 4096);
			walks += (res.events & AP_EV_TLB_WALK) != 0;
			l2hits += res.lat_xlat == r.cfg.l2tlb_latency;
		}
		CHECK_EQ_U64(walks, pass == 0 ? 100 : 0);
		CHECK_EQ_U64(l2hits, pass == 0 ? 0 : 100);
	}
	rig_close(&r);
}

TEST(stores_have_no_data_source_and_short_latency)
{
	struct rig r;
	rig_open(&r, NULL, 1);
	struct ap_uarch_result s;
	s = *ap_uarch_access(r.core[0], 0x1000, AP_UARCH_STORE);
	CHECK(!s.has_data_source);
	CHECK(s.events & AP_EV_L1D_REFILL);
	CHECK_EQ_U64(s.lat_total, r.cfg.issue_latency + r.cfg.walk_latency + r.cfg.store_latency);
	rig_close(&r);
}

/* A line written by core 0 and read by core 1 comes from the peer core;
 * from a core in another cluster it comes from the peer cluster; a write
 * by the reader invalidates the writer's copy (false sharing ping-pong). */
TEST(coherence_peer_core_and_cluster)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	cfg.cores_per_cluster = 2;
	cfg.prefetch_degree = 0;
	struct rig r;
	rig_open(&r, &cfg, 3);
	struct ap_uarch_result a;
	load(r.core[1], 0x5000);
	ap_uarch_access(r.core[0], 0x5000, AP_UARCH_STORE);
	a = load(r.core[1], 0x5008);
	CHECK_EQ_U64(a.data_source, AP_DS_PEER_CORE);
	CHECK(a.events & AP_EV_LLC_ACCESS);
	CHECK(!(a.events & AP_EV_LLC_MISS));
	CHECK_EQ_U64(a.lat_total, r.cfg.issue_latency + r.cfg.l1tlb_latency + r.cfg.peer_core_latency);
	CHECK_EQ_U64(load(r.core[1], 0x5000).data_source, AP_DS_L1D);

	ap_uarch_access(r.core[1], 0x5010, AP_UARCH_STORE);
	CHECK_EQ_U64(load(r.core[0], 0x5000).data_source, AP_DS_PEER_CORE);
	ap_uarch_access(r.core[0], 0x5000, AP_UARCH_STORE);
	CHECK_EQ_U64(load(r.core[2], 0x5000).data_source, AP_DS_PEER_CLUSTER);
	/* Once read, the line is clean: a third reader finds it in the LLC. */
	CHECK_EQ_U64(load(r.core[1], 0x5000).data_source, AP_DS_SYS_CACHE);
	CHECK(ap_uarch_core_stats(r.core[0])->peer_hits == 1);
	rig_close(&r);
}

/* A dirty line that leaves the writer's L1D and L2 is written back: another
 * core then finds it in the LLC, not in the writer (SPE-5.3.5-1 Data
 * Source, SPE-5.3.7-12 LLC access). A line evicted from L2 but still in L1D
 * stays the writer's. */
TEST(coherence_write_back_on_eviction)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	cfg.prefetch_degree = 0;
	struct rig r;
	rig_open(&r, &cfg, 2);
	const uint64_t l2_set_span = (uint64_t)cfg.l2.size_bytes / cfg.l2.ways; /* same L2 and L1D set */
	/* Line A: written by core 0, then pushed out of its L1D and L2 by as
	 * many lines of its sets as they have ways. */
	ap_uarch_access(r.core[0], 0x100000, AP_UARCH_STORE);
	for (uint64_t k = 1; k <= cfg.l2.ways; k++)
		load(r.core[0], 0x100000 + k * l2_set_span);
	struct ap_uarch_result a = load(r.core[1], 0x100000);
	CHECK_EQ_U64(a.data_source, AP_DS_SYS_CACHE);
	CHECK(!(a.events & AP_EV_LLC_MISS));
	/* Line B: written, then kept hot in core 0's L1D (its hits do not
	 * touch L2) while the same fills evict it from L2. */
	const uint64_t b = 0x300000;
	ap_uarch_access(r.core[0], b, AP_UARCH_STORE);
	for (uint64_t k = 1; k <= cfg.l2.ways; k++) {
		load(r.core[0], b + k * l2_set_span);
		CHECK_EQ_U64(load(r.core[0], b).data_source, AP_DS_L1D);
	}
	CHECK_EQ_U64(load(r.core[1], b).data_source, AP_DS_PEER_CORE);
	rig_close(&r);
}

/* The directory has one slot per line of a span of memory as large as it
 * (2^directory_bits lines): the lines of such a span never lose each
 * other's entries, and neither do lines a span apart (the stack and the
 * heap at the same offset): every line core 0 wrote is then seen by core 1
 * as the peer's. (A multiplicative hash of the line lost 5 of these 64
 * lines; the line's low bits alone, the line a span apart: access.c dir_slot.) */
TEST(coherence_directory_keeps_a_span_of_lines)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	cfg.prefetch_degree = 0;
	cfg.directory_bits = 6;
	struct rig r;
	rig_open(&r, &cfg, 2);
	uint64_t line = cfg.l1d.line_bytes, span = line << cfg.directory_bits;
	for (uint64_t i = 0; i < 64; i++)
		ap_uarch_access(r.core[0], 0x100000 + i * line, AP_UARCH_STORE);
	unsigned peer = 0;
	for (uint64_t i = 0; i < 64; i++)
		peer += load(r.core[1], 0x100000 + i * line).data_source == AP_DS_PEER_CORE;
	CHECK_EQ_U64(peer, 64);
	/* Two lines a span apart, both written: both found. */
	ap_uarch_access(r.core[0], 0x300000, AP_UARCH_STORE);
	ap_uarch_access(r.core[0], 0x300000 + span, AP_UARCH_STORE);
	CHECK_EQ_U64(load(r.core[1], 0x300000).data_source, AP_DS_PEER_CORE);
	CHECK_EQ_U64(load(r.core[1], 0x300000 + span).data_source, AP_DS_PEER_CORE);
	rig_close(&r);
}

/* ap_uarch_core_met_others counts the accesses of a core that met another
 * core's write (a stale copy, or a line from the peer's cache), warming
 * ones included, and nothing else: the QEMU plugin's interleaved replay
 * keeps the threads' order fine only while it grows. */
TEST(met_others_counts_meetings_only)
{
	struct rig r;
	rig_open(&r, NULL, 2);
	const uint64_t *met0 = ap_uarch_core_met_others(r.core[0]), *met1 = ap_uarch_core_met_others(r.core[1]);
	load(r.core[0], 0x9000);
	load(r.core[1], 0xA000);
	ap_uarch_access(r.core[0], 0x9000, AP_UARCH_STORE); /* its own line */
	CHECK_EQ_U64(*met0, 0);
	CHECK_EQ_U64(*met1, 0);
	load(r.core[1], 0x9008); /* core 0's dirty line: from the peer */
	CHECK_EQ_U64(*met1, 1);
	load(r.core[1], 0x9000); /* now its own copy */
	ap_uarch_access(r.core[1], 0x9000, AP_UARCH_STORE);
	CHECK_EQ_U64(*met1, 1);
	CHECK_EQ_U64(*met0, 0);
	ap_uarch_warm(r.core[0], 0x9000, AP_UARCH_LOAD); /* stale copy, found while warming */
	CHECK_EQ_U64(*met0, 1);
	CHECK_EQ_U64(ap_uarch_core_stats(r.core[0])->loads, 1); /* warming counts no access */
	load(r.core[0], 0x9000);
	load(r.core[1], 0xA000); /* private lines meet nobody */
	CHECK_EQ_U64(*met0, 1);
	CHECK_EQ_U64(*met1, 1);
	rig_close(&r);
}

/* Stores by the core that owns a line dirty make no new version (access.c
 * same_line_shared); every other core's copy must still be found stale,
 * before and after a reader in between. */
TEST(owner_stores_keep_other_copies_stale)
{
	struct rig r;
	rig_open(&r, NULL, 2);
	for (int round = 0; round < 3; round++) {
		ap_uarch_access(r.core[0], 0xB000, AP_UARCH_STORE);
		ap_uarch_access(r.core[0], 0xB008, AP_UARCH_STORE); /* owner, dirty: no new version */
		ap_uarch_access(r.core[0], 0xB010, AP_UARCH_STORE);
		CHECK_EQ_U64(load(r.core[1], 0xB000).data_source, AP_DS_PEER_CORE);
		CHECK_EQ_U64(load(r.core[1], 0xB008).data_source, AP_DS_L1D); /* its copy is current */
		CHECK_EQ_U64(load(r.core[0], 0xB000).data_source, AP_DS_L1D); /* a reader leaves the owner's copy */
	}
	CHECK_EQ_U64(ap_uarch_core_stats(r.core[1])->peer_hits, 3);
	rig_close(&r);
}

static unsigned mispredicts(struct ap_uarch_core *c, uint64_t pc, const int *pattern, int n, int reps)
{
	unsigned miss = 0;
	struct ap_uarch_result res;
	for (int k = 0; k < reps; k++)
		for (int i = 0; i < n; i++) {
			ap_uarch_branch(c, pc, pc - 64, AP_UARCH_BR_COND, pattern[i], &res);
			miss += res.mispredicted;
			CHECK_EQ_U64((res.events & AP_EV_MISPREDICTED) != 0, res.mispredicted);
			CHECK_EQ_U64((res.events & AP_EV_NOT_TAKEN) != 0, !pattern[i]);
		}
	return miss;
}

TEST(branch_predictor_learns_patterns)
{
	struct rig r;
	rig_open(&r, NULL, 1);
	int loop[8] = { 1, 1, 1, 1, 1, 1, 1, 0 };
	mispredicts(r.core[0], 0x4000, loop, 8, 50); /* warm up */
	CHECK_EQ_U64(mispredicts(r.core[0], 0x4000, loop, 8, 100), 0);

	/* A pseudo-random pattern: near half mispredicted. */
	int rnd[4096];
	uint32_t x = 12345;
	for (int i = 0; i < 4096; i++) {
		x = x * 1103515245u + 12345u;
		rnd[i] = (x >> 16) & 1;
	}
	unsigned m = mispredicts(r.core[0], 0x8000, rnd, 4096, 1);
	CHECK(m > 4096 * 35 / 100 && m < 4096 * 65 / 100);

	struct ap_uarch_result res;
	ap_uarch_branch(r.core[0], 0x9000, 0xA000, AP_UARCH_BR_CALL, 1, &res);
	CHECK(!res.mispredicted); /* direct call: target known at decode */
	CHECK_EQ_U64(res.lat_total, r.cfg.issue_latency + r.cfg.exec_latency);
	ap_uarch_branch(r.core[0], 0xA010, 0x9004, AP_UARCH_BR_INDIRECT | AP_UARCH_BR_RETURN, 1, &res);
	CHECK(!res.mispredicted); /* the return stack knows */
	ap_uarch_branch(r.core[0], 0xA020, 0x9999, AP_UARCH_BR_INDIRECT | AP_UARCH_BR_RETURN, 1, &res);
	CHECK(res.mispredicted); /* empty stack */
	CHECK_EQ_U64(res.lat_total, r.cfg.issue_latency + r.cfg.exec_latency + r.cfg.mispredict_penalty);
	ap_uarch_branch(r.core[0], 0xB000, 0xC000, AP_UARCH_BR_INDIRECT, 1, &res);
	CHECK(res.mispredicted); /* cold BTB */
	ap_uarch_branch(r.core[0], 0xB000, 0xC000, AP_UARCH_BR_INDIRECT, 1, &res);
	CHECK(!res.mispredicted);
	rig_close(&r);
}

/* The stream prefetcher: a sequential walk over 4 MiB (beyond L2) misses
 * L1D only while the stream is being detected; a random walk gets no help. */
TEST(stream_prefetcher)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	CHECK_EQ_U64(cfg.prefetch_degree, 4);
	struct rig r;
	rig_open(&r, &cfg, 1);
	unsigned misses = 0, n = 0;
	for (uint64_t a = 0; a < (4u << 20); a += 8, n++)
		misses += (load(r.core[0], 0x40000000 + a).events & AP_EV_L1D_REFILL) != 0;
	CHECK(misses <= 2);
	uint64_t x = 7;
	misses = 0;
	for (int i = 0; i < 10000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		misses += (load(r.core[0], 0x80000000 + ((x >> 20) & ((64u << 20) - 1))).events & AP_EV_L1D_REFILL) != 0;
	}
	CHECK(misses > 9000);
	rig_close(&r);
	cfg.prefetch_streams = 0;
	struct ap_uarch_system *sys;
	CHECK_EQ_U64(ap_uarch_system_create(&sys, &cfg), (uint64_t)-AP_ERR_INVALID);
}

TEST(invalid_configurations)
{
	struct ap_uarch_config cfg;
	struct ap_uarch_system *sys;
	ap_uarch_config_init(&cfg);
	cfg.l1d.ways = 3; /* 1024 lines / 3 ways */
	CHECK_EQ_U64(ap_uarch_system_create(&sys, &cfg), 0); /* L1D is per core */
	struct ap_uarch_core *core;
	CHECK_EQ_U64(ap_uarch_core_create(&core, sys, 0), (uint64_t)-AP_ERR_INVALID);
	CHECK(core == NULL);
	ap_uarch_system_destroy(sys);
	ap_uarch_config_init(&cfg);
	cfg.llc.line_bytes = 128;
	CHECK_EQ_U64(ap_uarch_system_create(&sys, &cfg), (uint64_t)-AP_ERR_INVALID);
	ap_uarch_config_init(&cfg);
	cfg.page_bytes = 5000;
	CHECK_EQ_U64(ap_uarch_system_create(&sys, &cfg), (uint64_t)-AP_ERR_INVALID);
	ap_uarch_config_init(&cfg);
	cfg.size = 8;
	CHECK_EQ_U64(ap_uarch_system_create(&sys, &cfg), (uint64_t)-AP_ERR_INVALID);
}

/* ap_uarch_access_pa: the caches by physical line, the TLBs by virtual
 * page (the full-system QEMU's feed). SPE-5.3.7-18/19 L1D refill/access,
 * SPE-5.3.7-16/17 TLB walk/access, SPE-5.3.5-1 Data Source. */
static struct ap_uarch_result load_pa(struct ap_uarch_core *c, uint64_t va, uint64_t pa)
{
	struct ap_uarch_result res;
	ap_uarch_access_pa(c, va, pa, AP_UARCH_LOAD, &res);
	return res;
}

TEST(physical_lines_virtual_pages)
{
	struct rig r;
	rig_open(&r, NULL, 1);
	struct ap_uarch_result a = load_pa(r.core[0], 0x400000, 0x80000000);
	CHECK_EQ_U64(a.data_source, AP_DS_DRAM);
	CHECK(a.events & AP_EV_TLB_WALK);
	/* The same virtual address, another physical line (another process):
	 * a TLB hit and a miss to DRAM, where ap_uarch_access would see the
	 * first line again. */
	a = load_pa(r.core[0], 0x400000, 0x90000000);
	CHECK_EQ_U64(a.data_source, AP_DS_DRAM);
	CHECK(!(a.events & AP_EV_TLB_WALK));
	CHECK_EQ_U64(a.lat_xlat, r.cfg.l1tlb_latency);
	/* Another process's virtual page mapped to the first physical line:
	 * an L1D hit, through a table walk. */
	a = load_pa(r.core[0], 0x7f0000001000, 0x80000000);
	CHECK_EQ_U64(a.data_source, AP_DS_L1D);
	CHECK(!(a.events & AP_EV_L1D_REFILL));
	CHECK(a.events & AP_EV_TLB_WALK);
	CHECK_EQ_U64(a.lat_xlat, r.cfg.walk_latency);
	CHECK_EQ_U64(a.lat_total, r.cfg.issue_latency + r.cfg.walk_latency + r.cfg.l1d.latency);
	CHECK_EQ_U64(ap_uarch_core_stats(r.core[0])->l1d_misses, 2);
	rig_close(&r);
}

TEST(config_keys_by_name)
{
	struct ap_uarch_config cfg;
	uint64_t v;
	ap_uarch_config_init(&cfg);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "l1d.size", "32K"), 0);
	CHECK_EQ_U64(cfg.l1d.size_bytes, 32 * 1024);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "dram.latency", "0x100"), 0);
	CHECK_EQ_U64(cfg.dram_latency, 256);
	CHECK_EQ_U64(ap_uarch_config_get(&cfg, "dram.latency", &v), 0);
	CHECK_EQ_U64(v, 256);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "dram.latency", "70000"), (uint64_t)-AP_ERR_INVALID);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "l1d.size", "12Q"), (uint64_t)-AP_ERR_INVALID);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "l1d.size", "-1"), (uint64_t)-AP_ERR_INVALID);
	CHECK_EQ_U64(ap_uarch_config_set(&cfg, "no.such.key", "1"), (uint64_t)-AP_ERR_INVALID);
	size_t n = 0;
	const char *doc;
	while (ap_uarch_config_key(n, &doc)) {
		CHECK(doc && *doc);
		n++;
	}
	CHECK(n >= 30);
}

TEST_MAIN(CASE(config_keys_by_name), CASE(physical_lines_virtual_pages), CASE(first_touch_goes_to_dram_then_hits_l1), CASE(working_set_sizes_pick_the_level),
          CASE(l1d_lru_replacement), CASE(tlb_levels), CASE(stores_have_no_data_source_and_short_latency),
          CASE(coherence_peer_core_and_cluster), CASE(coherence_write_back_on_eviction), CASE(coherence_directory_keeps_a_span_of_lines), CASE(met_others_counts_meetings_only), CASE(owner_stores_keep_other_copies_stale),
          CASE(branch_predictor_learns_patterns),
          CASE(stream_prefetcher), CASE(invalid_configurations))

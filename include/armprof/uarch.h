/* A micro-architectural timing model for hosts that feed real execution into
 * the SPE model (e.g. the QEMU plugin): set-associative L1D, L2 and last-level
 * caches with LRU replacement, a two-level data TLB with table walks, a branch
 * predictor (gshare direction, BTB for indirect targets, return stack), and
 * the latencies and events an SPE record carries (spec/002 5.3.4 Counter
 * packets: total, issue and translation latency; 5.3.7 Events packet;
 * 5.3.5 Data Source packet).
 *
 * Shape: one ap_uarch_system (shared last-level cache and a coherence
 * directory) and one ap_uarch_core per PE (private L1D, L2, TLBs and
 * predictor). A core is used by one thread at a time; the system's shared
 * state is accessed with relaxed atomics, so cores may run on different
 * threads without locks (the model is then approximate, never undefined).
 *
 * Defaults are Neoverse-N1-like (see ap_uarch_config_init). Nothing here
 * allocates or locks per access. */
#ifndef ARMPROF_UARCH_H
#define ARMPROF_UARCH_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Data Source payload values for loads, as Linux perf decodes them for
 * Neoverse cores (tools/perf/util/arm-spe-decoder: ARM_SPE_NV_*). */
enum ap_data_source {
	AP_DS_L1D = 0x0,
	AP_DS_L2 = 0x8,
	AP_DS_PEER_CORE = 0x9,
	AP_DS_LOCAL_CLUSTER = 0xa,
	AP_DS_SYS_CACHE = 0xb,
	AP_DS_PEER_CLUSTER = 0xc,
	AP_DS_REMOTE = 0xd,
	AP_DS_DRAM = 0xe,
};

struct ap_cache_config {
	uint32_t size_bytes; /* total capacity; 0 disables the level */
	uint32_t ways;
	uint32_t line_bytes; /* power of two */
	uint16_t latency;    /* load-to-use cycles when the data is found here */
};

struct ap_uarch_config {
	size_t size; /* sizeof(struct ap_uarch_config) */

	struct ap_cache_config l1d, l2, llc;

	/* Data TLBs: a small L1 DTLB backed by a larger L2 TLB, then a walk. */
	uint32_t page_bytes;     /* translation granule, power of two */
	uint32_t l1tlb_entries, l1tlb_ways;
	uint32_t l2tlb_entries, l2tlb_ways;
	uint16_t l1tlb_latency;  /* translation latency on an L1 DTLB hit */
	uint16_t l2tlb_latency;  /* ... on an L2 TLB hit */
	uint16_t walk_latency;   /* ... when a table walk is needed */

	/* Where a line comes from when the private caches miss. */
	uint16_t peer_core_latency;    /* dirty in another core of the cluster */
	uint16_t peer_cluster_latency; /* dirty in a core of another cluster */
	uint16_t dram_latency;
	uint32_t cores_per_cluster;    /* cores 0..n-1 form cluster 0, ... */

	/* Core pipeline. */
	uint16_t issue_latency;      /* dispatch to issue, every operation */
	uint16_t exec_latency;       /* execution of a non-memory operation */
	uint16_t store_latency;      /* store complete once in the store buffer */
	uint16_t mispredict_penalty; /* added to a mispredicted branch */

	/* Branch predictor. */
	uint32_t bp_history_bits;    /* gshare: global history length and index bits */
	uint32_t btb_entries;        /* indirect target buffer, power of two */
	uint32_t ras_entries;        /* return address stack depth */

	uint32_t directory_bits;     /* log2 entries of the coherence directory */

	/* L1D stream prefetcher: after two accesses to consecutive lines, keep
	 * the next prefetch_degree lines in L1D/L2 ahead of the stream (filled
	 * at once: prefetch timeliness is not modelled). 0 disables it. */
	uint16_t prefetch_degree;
	uint16_t prefetch_streams; /* streams tracked at once, 1..16 */
};
AP_API void ap_uarch_config_init(struct ap_uarch_config *cfg);
/* Set one field by key ("l1d.size", "dram.latency", ...; see
 * ap_uarch_config_key) from decimal or 0x text, with an optional K/M/G
 * suffix for sizes. Returns 0, or -AP_ERR_INVALID for an unknown key or a
 * value that does not parse or fit (the whole config is checked later by
 * ap_uarch_system_create / ap_uarch_core_create). */
AP_API int ap_uarch_config_set(struct ap_uarch_config *cfg, const char *key, const char *value);
/* The index-th key and a one-line description, or NULL past the end. */
AP_API const char *ap_uarch_config_key(size_t index, const char **doc);
/* Read a field back as a number: 0, or -AP_ERR_INVALID for an unknown key. */
AP_API int ap_uarch_config_get(const struct ap_uarch_config *cfg, const char *key, uint64_t *value);

/* Outcome of one operation. */
struct ap_uarch_result {
	uint16_t lat_issue, lat_xlat, lat_total;
	uint64_t events;      /* AP_EV_* bits of codec.h */
	uint8_t has_data_source;
	uint16_t data_source; /* enum ap_data_source, loads only */
	uint8_t mispredicted; /* branches */
};

struct ap_uarch_system;
struct ap_uarch_core;

/* Create the shared part. Returns 0 or a negative enum ap_error
 * (-AP_ERR_INVALID for an inconsistent configuration, -AP_ERR_NOMEM). */
AP_API int ap_uarch_system_create(struct ap_uarch_system **out, const struct ap_uarch_config *cfg);
AP_API void ap_uarch_system_destroy(struct ap_uarch_system *sys);
/* Core id: 0..255, used by the coherence directory and cluster grouping. */
AP_API int ap_uarch_core_create(struct ap_uarch_core **out, struct ap_uarch_system *sys, unsigned core_id);
AP_API void ap_uarch_core_destroy(struct ap_uarch_core *core);

/* Access kinds for ap_uarch_access. */
enum ap_uarch_access_kind {
	AP_UARCH_LOAD = 1,
	AP_UARCH_STORE = 2,
	AP_UARCH_ATOMIC = 3, /* read-modify-write: load latency, store ownership */
};
/* One data access at vaddr (one that spans two lines counts as an access
 * of the first). Returns its result: a pointer to one of the core's own
 * results (there are few: an access's latencies, events and data source
 * follow from its kind, how it was translated and where its data came
 * from), valid until the core is destroyed, read only, so that a host
 * that keeps every access's result but reads few (a sampling profiler
 * reads one in thousands) keeps a pointer instead of a copy. */
AP_API const struct ap_uarch_result *ap_uarch_access(struct ap_uarch_core *core, uint64_t vaddr,
                                                     enum ap_uarch_access_kind kind);
/* ap_uarch_access of a host that knows the physical address too (the
 * full-system QEMU): the TLBs are looked up by vaddr's page, the caches,
 * the prefetcher and the coherence directory by paddr's line, as in a core
 * whose data caches are physically indexed and tagged (Neoverse cores):
 * equal virtual addresses of two processes are different lines, and a
 * page mapped at two virtual addresses is one. Approximation kept from the
 * fast path: an access to the previous access's physical line is an L1
 * DTLB hit even if it came through another virtual page (an alias). */
AP_API void ap_uarch_access_pa(struct ap_uarch_core *core, uint64_t vaddr, uint64_t paddr,
                               enum ap_uarch_access_kind kind, struct ap_uarch_result *out);
/* An access whose result is not wanted: the caches, TLBs, prefetcher and
 * directory change exactly as ap_uarch_access would change them, but the
 * core's statistics do not count it. An access to the line of the
 * previous one changes nothing and returns at once, so warming the model
 * with a program's accesses costs only their line changes. */
AP_API void ap_uarch_warm(struct ap_uarch_core *core, uint64_t vaddr, enum ap_uarch_access_kind kind);
/* count accesses of kind in a row to the line of the previous access,
 * each the same as the previous access to that line: when each is certain
 * to be an L1D and L1 DTLB hit that changes nothing but the statistics
 * (vaddr's line is the previous access's, and no other core shares the
 * model), counts them as ap_uarch_access would one by one, sets *out to
 * the result each would get and returns 1. Otherwise returns 0 and changes
 * nothing: make the accesses with ap_uarch_access. With count 0 it only
 * says whether it could (and sets *out). For a host replaying a loop that
 * walks a line: one call for a run instead of one per access. */
AP_API int ap_uarch_access_repeat(struct ap_uarch_core *core, uint64_t vaddr, enum ap_uarch_access_kind kind,
                                  uint64_t count, struct ap_uarch_result *out);

/* Branch kinds for ap_uarch_branch. */
enum ap_uarch_branch_flags {
	AP_UARCH_BR_COND = 1u << 0,
	AP_UARCH_BR_INDIRECT = 1u << 1,
	AP_UARCH_BR_CALL = 1u << 2,
	AP_UARCH_BR_RETURN = 1u << 3,
};
/* One executed branch with its real outcome: trains the predictor and says
 * whether it was mispredicted (AP_EV_MISPREDICTED, AP_EV_NOT_TAKEN). */
AP_API void ap_uarch_branch(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                            int taken, struct ap_uarch_result *out);
/* ap_uarch_branch in two steps, for a host that needs the result of few
 * branches (e.g. only the sampled ones): _train() predicts, trains and
 * counts, returning 1 if mispredicted; _result() gives what
 * ap_uarch_branch would have given for that outcome. */
AP_API int ap_uarch_branch_train(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                                 int taken);
AP_API void ap_uarch_branch_result(const struct ap_uarch_core *core, unsigned flags, int taken,
                                   int mispredicted, struct ap_uarch_result *out);
/* count executions in a row of one branch with one outcome (a loop's
 * closing branch): when each is certain to be predicted right and to change
 * nothing in the predictor (the direction counter and history are
 * saturated that way, the target is known or already in the BTB; never
 * for calls and returns, which move the return stack), counts them as
 * ap_uarch_branch_train would one by one and returns 1. Otherwise returns
 * 0 and changes nothing: train them one by one. With count 0 it only says
 * whether it could. */
AP_API int ap_uarch_branch_repeat(struct ap_uarch_core *core, uint64_t pc, uint64_t target, unsigned flags,
                                  int taken, uint64_t count);

/* Latencies of an operation that is neither a memory access nor a branch. */
AP_API void ap_uarch_other(struct ap_uarch_core *core, struct ap_uarch_result *out);

/* Counters over the whole run, per core. */
struct ap_uarch_stats {
	uint64_t loads, stores, l1d_misses, l2_misses, llc_misses, peer_hits;
	uint64_t tlb_l1_misses, tlb_walks;
	uint64_t branches, mispredicts;
};
AP_API const struct ap_uarch_stats *ap_uarch_core_stats(const struct ap_uarch_core *core);
/* How many of the core's accesses met another core's write, warming ones
 * included: a private copy found stale (the other core wrote the line
 * since it was filled), or a line served from the other core's cache. It
 * changes only during this core's accesses, so a host that replays cores
 * in turn can tell, from one turn to the next, whether the order of their
 * accesses mattered just then. */
AP_API const uint64_t *ap_uarch_core_met_others(const struct ap_uarch_core *core);

#ifdef __cplusplus
}
#endif
#endif

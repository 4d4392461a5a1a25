/* Named fields of struct ap_uarch_config, so that hosts and the CLI can set
 * them from text (armprof record --uarch KEY=VALUE). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/number.h"
#include "armprof/error.h"
#include "armprof/uarch.h"

struct key {
	const char *name;
	size_t offset;
	uint8_t width; /* 2 or 4 bytes */
	const char *doc;
};

#define K16(n, f, d) { n, offsetof(struct ap_uarch_config, f), 2, d }
#define K32(n, f, d) { n, offsetof(struct ap_uarch_config, f), 4, d }

static const struct key keys[] = {
	K32("l1d.size", l1d.size_bytes, "L1 data cache capacity in bytes (64K)"),
	K32("l1d.ways", l1d.ways, "L1 data cache associativity (4)"),
	K32("l1d.line", l1d.line_bytes, "cache line size in bytes, all levels (64)"),
	K16("l1d.latency", l1d.latency, "load-to-use cycles on an L1D hit (4)"),
	K32("l2.size", l2.size_bytes, "private L2 capacity in bytes, 0 = none (1M)"),
	K32("l2.ways", l2.ways, "L2 associativity (8)"),
	K32("l2.line", l2.line_bytes, "L2 line size (64, must equal l1d.line)"),
	K16("l2.latency", l2.latency, "cycles when the data comes from L2 (11)"),
	K32("llc.size", llc.size_bytes, "shared last-level (system) cache in bytes, 0 = none (8M)"),
	K32("llc.ways", llc.ways, "LLC associativity (16)"),
	K32("llc.line", llc.line_bytes, "LLC line size (64, must equal l1d.line)"),
	K16("llc.latency", llc.latency, "cycles when the data comes from the LLC (35)"),
	K32("page", page_bytes, "translation granule in bytes (4096)"),
	K32("l1tlb.entries", l1tlb_entries, "L1 data TLB entries (48)"),
	K32("l1tlb.ways", l1tlb_ways, "L1 data TLB associativity (48: fully associative)"),
	K32("l2tlb.entries", l2tlb_entries, "L2 TLB entries (1280)"),
	K32("l2tlb.ways", l2tlb_ways, "L2 TLB associativity (5)"),
	K16("l1tlb.latency", l1tlb_latency, "translation cycles on an L1 DTLB hit (1)"),
	K16("l2tlb.latency", l2tlb_latency, "translation cycles on an L2 TLB hit (5)"),
	K16("walk.latency", walk_latency, "translation cycles with a table walk (30)"),
	K16("peer_core.latency", peer_core_latency, "cycles for a line dirty in a core of the same cluster (50)"),
	K16("peer_cluster.latency", peer_cluster_latency, "cycles for a line dirty in another cluster (90)"),
	K16("dram.latency", dram_latency, "cycles for a line from DRAM (180)"),
	K32("cores_per_cluster", cores_per_cluster, "cores (vCPUs) per cluster (4)"),
	K16("issue.latency", issue_latency, "dispatch-to-issue cycles of every operation (2)"),
	K16("exec.latency", exec_latency, "execution cycles of a non-memory operation (1)"),
	K16("store.latency", store_latency, "cycles for a store to reach the store buffer (1)"),
	K16("mispredict.penalty", mispredict_penalty, "cycles added to a mispredicted branch (11)"),
	K32("bp.history_bits", bp_history_bits, "gshare history bits / log2 table size (14)"),
	K32("btb.entries", btb_entries, "indirect branch target buffer entries (4096)"),
	K32("ras.entries", ras_entries, "return address stack depth (16)"),
	K16("prefetch.degree", prefetch_degree, "lines the L1D stream prefetcher keeps ahead, 0 = off (4)"),
	K16("prefetch.streams", prefetch_streams, "streams the prefetcher tracks, 1..16 (4)"),
	K32("directory_bits", directory_bits, "log2 entries of the coherence directory (20)"),
};

static const struct key *find(const char *name)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

int ap_uarch_config_set(struct ap_uarch_config *cfg, const char *key, const char *value)
{
	const struct key *k = key ? find(key) : NULL;
	if (!k || !value || !*value)
		return -AP_ERR_INVALID;
	uint64_t v;
	if (ap_parse_u64_scaled(value, &v) < 0)
		return -AP_ERR_INVALID;
	uint8_t *field = (uint8_t *)cfg + k->offset;
	if (k->width == 2) {
		if (v > UINT16_MAX)
			return -AP_ERR_INVALID;
		uint16_t x = (uint16_t)v;
		memcpy(field, &x, 2);
	} else {
		if (v > UINT32_MAX)
			return -AP_ERR_INVALID;
		uint32_t x = (uint32_t)v;
		memcpy(field, &x, 4);
	}
	return 0;
}

int ap_uarch_config_get(const struct ap_uarch_config *cfg, const char *key, uint64_t *value)
{
	const struct key *k = key ? find(key) : NULL;
	if (!k)
		return -AP_ERR_INVALID;
	const uint8_t *field = (const uint8_t *)cfg + k->offset;
	if (k->width == 2) {
		uint16_t x;
		memcpy(&x, field, 2);
		*value = x;
	} else {
		uint32_t x;
		memcpy(&x, field, 4);
		*value = x;
	}
	return 0;
}

const char *ap_uarch_config_key(size_t index, const char **doc)
{
	if (index >= sizeof(keys) / sizeof(keys[0]))
		return NULL;
	if (doc)
		*doc = keys[index].doc;
	return keys[index].name;
}

/* The topology header features of a perf.data (perf's util/header.c
 * write_cpu_topology, write_numa_topology, write_mem_topology). perf c2c
 * report needs them: it maps each sample's CPU to its NUMA node ("Failed
 * setup nodes" without NUMA_TOPOLOGY) and each physical data address to
 * its memory node ("No memory nodes" without MEM_TOPOLOGY). The writer's
 * CPUs (nr_cpus) are described as one socket and die of single-thread
 * cores, in one node holding all memory: the tools need the features,
 * not a particular machine. */
#include <stdio.h>

#include "perfdata/perf_internal.h"

/* Bytes into buf up to cap; len counts them all (the size to allocate). */
struct topo_out {
	uint8_t *buf;
	size_t cap, len;
};

static void put(struct topo_out *o, const void *p, size_t n)
{
	if (o->buf && o->len + n <= o->cap)
		memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static void put_u32(struct topo_out *o, uint32_t v) { put(o, &v, 4); }
static void put_u64(struct topo_out *o, uint64_t v) { put(o, &v, 8); }

/* perf_header_string: u32 length (with the NUL, padded to 64), the
 * string, zeros. */
static void put_string(struct topo_out *o, const char *s)
{
	static const uint8_t zero[PD_NAME_ALIGN];
	size_t len = strlen(s);
	size_t olen = (len + 1 + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1);
	put_u32(o, (uint32_t)olen);
	put(o, s, len);
	put(o, zero, olen - len);
}

/* "0-N" for CPUs 0..n-1, as perf writes a CPU list. */
static void cpu_list(char *buf, size_t cap, uint32_t n)
{
	if (n <= 1)
		snprintf(buf, cap, "0");
	else
		snprintf(buf, cap, "0-%u", n - 1);
}

/* HEADER_CPU_TOPOLOGY: the cores of each socket, the threads of each
 * core, per CPU its core and socket id, then the dies and each CPU's die
 * id. */
static void cpu_topology(struct topo_out *o, uint32_t n)
{
	char list[32];
	cpu_list(list, sizeof(list), n);
	put_u32(o, 1); /* sibling cores: one socket */
	put_string(o, list);
	put_u32(o, n); /* sibling threads: one per core */
	for (uint32_t i = 0; i < n; i++) {
		char one[16];
		snprintf(one, sizeof(one), "%u", i);
		put_string(o, one);
	}
	for (uint32_t i = 0; i < n; i++) {
		put_u32(o, i); /* core_id */
		put_u32(o, 0); /* socket_id */
	}
	put_u32(o, 1); /* sibling dies */
	put_string(o, list);
	for (uint32_t i = 0; i < n; i++)
		put_u32(o, 0); /* die_id */
}

/* HEADER_NUMA_TOPOLOGY: per node its number, memory total and free (kB;
 * unknown here: 0) and its CPUs. */
static void numa_topology(struct topo_out *o, uint32_t n)
{
	char list[32];
	cpu_list(list, sizeof(list), n);
	put_u32(o, 1);
	put_u32(o, 0);
	put_u64(o, 0);
	put_u64(o, 0);
	put_string(o, list);
}

/* HEADER_MEM_TOPOLOGY: version 1, the memory block size, then per node
 * its number and a bitmap of its blocks (u64 bit count, u64 words). One
 * block of 2^48 bytes, node 0's: every physical address a sample can
 * carry (56 bits of Address packet, but no machine has more) is node 0's. */
#define TOPO_MEM_BLOCK (1ull << 48)
static void mem_topology(struct topo_out *o)
{
	put_u64(o, 1);              /* version */
	put_u64(o, TOPO_MEM_BLOCK); /* block size */
	put_u64(o, 1);              /* nodes */
	put_u64(o, 0);              /* node */
	put_u64(o, 1);              /* blocks (bits) */
	put_u64(o, 1);              /* the bitmap: its bit count ... */
	put_u64(o, 1);              /* ... and its word: block 0 */
}

size_t pd_topology_feature(unsigned feat, uint32_t nr_cpus, uint8_t *buf, size_t cap)
{
	struct topo_out o = { buf, cap, 0 };
	uint32_t n = nr_cpus ? nr_cpus : 1;
	if (feat == AP_PERF_FEAT_CPU_TOPOLOGY)
		cpu_topology(&o, n);
	else if (feat == AP_PERF_FEAT_NUMA_TOPOLOGY)
		numa_topology(&o, n);
	else if (feat == AP_PERF_FEAT_MEM_TOPOLOGY)
		mem_topology(&o);
	return o.len;
}

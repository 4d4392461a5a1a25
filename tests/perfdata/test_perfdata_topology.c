/* The topology header features the writer adds for perf c2c (CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, MEM_TOPOLOGY), read back field by field as perf 6.1's
 * util/header.c process_cpu_topology, process_numa_topology and
 * process_mem_topology read them: without them `perf c2c report` stops
 * with "Failed setup nodes" (tests/record/record_perf_mem.sh runs perf
 * itself when it is installed). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "harness.h"

static uint64_t u64_at(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t u32_at(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* A perf_header_string at *p: its text; *p moves past it. */
static const char *string_at(const uint8_t **p)
{
	uint32_t len = u32_at(*p);
	const char *s = (const char *)*p + 4;
	CHECK(len % 64 == 0 && len > strlen(s));
	*p += 4 + len;
	return s;
}

/* The section of feature feat in the file: the feature table follows the
 * data section, one {offset, size} per set bit, in bit order. */
static const uint8_t *section(const uint8_t *f, size_t len, unsigned feat, uint64_t *size)
{
	uint64_t table = u64_at(f + 40) + u64_at(f + 48); /* data offset + size */
	const uint8_t *bits = f + 72;
	size_t k = 0;
	for (unsigned b = 0; b < feat; b++)
		k += bits[b / 8] >> (b % 8) & 1;
	if (!(bits[feat / 8] >> (feat % 8) & 1))
		return NULL;
	const uint8_t *e = f + table + 16 * k;
	CHECK(table + 16 * k + 16 <= len);
	*size = u64_at(e + 8);
	CHECK(u64_at(e) + *size <= len);
	return f + u64_at(e);
}

TEST(topology_features_as_perf_reads_them)
{
	char path[64];
	snprintf(path, sizeof(path), "perfdata_topology_%d.data", (int)getpid());
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.nr_cpus = 3;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK_EQ_U64(ap_perf_writer_create(&w, path, &cfg, &err), 0);
	CHECK_EQ_U64(ap_perf_writer_finish(w, &err), 0);
	FILE *fp = fopen(path, "rb");
	CHECK(fp != NULL);
	static uint8_t f[1 << 16];
	size_t len = fp ? fread(f, 1, sizeof(f), fp) : 0;
	if (fp)
		fclose(fp);
	unlink(path);
	CHECK(len > 104 && !memcmp(f, "PERFILE2", 8));

	uint64_t size = 0;
	const uint8_t *p = section(f, len, AP_PERF_FEAT_CPU_TOPOLOGY, &size), *start = p;
	CHECK(p != NULL);
	if (p) {
		CHECK_EQ_U64(u32_at(p), 1); /* one socket ... */
		p += 4;
		CHECK_EQ_STR(string_at(&p), "0-2"); /* ... of CPUs 0-2 */
		CHECK_EQ_U64(u32_at(p), 3); /* a thread per core */
		p += 4;
		CHECK_EQ_STR(string_at(&p), "0");
		CHECK_EQ_STR(string_at(&p), "1");
		CHECK_EQ_STR(string_at(&p), "2");
		for (uint32_t i = 0; i < 3; i++, p += 8) {
			CHECK_EQ_U64(u32_at(p), i);     /* core_id */
			CHECK_EQ_U64(u32_at(p + 4), 0); /* socket_id */
		}
		CHECK_EQ_U64(u32_at(p), 1); /* one die */
		p += 4;
		CHECK_EQ_STR(string_at(&p), "0-2");
		p += 3 * 4; /* die ids */
		CHECK_EQ_U64((uint64_t)(p - start), size);
	}
	p = start = section(f, len, AP_PERF_FEAT_NUMA_TOPOLOGY, &size);
	CHECK(p != NULL);
	if (p) {
		CHECK_EQ_U64(u32_at(p), 1);     /* nodes */
		CHECK_EQ_U64(u32_at(p + 4), 0); /* node 0 */
		p += 8 + 16;                    /* mem_total, mem_free */
		CHECK_EQ_STR(string_at(&p), "0-2");
		CHECK_EQ_U64((uint64_t)(p - start), size);
	}
	p = section(f, len, AP_PERF_FEAT_MEM_TOPOLOGY, &size);
	CHECK(p != NULL);
	if (p) {
		CHECK_EQ_U64(size, 7 * 8);
		CHECK_EQ_U64(u64_at(p), 1);        /* version */
		CHECK_EQ_U64(u64_at(p + 16), 1);   /* nodes */
		CHECK_EQ_U64(u64_at(p + 24), 0);   /* node 0 */
		CHECK_EQ_U64(u64_at(p + 40), 1);   /* a bitmap of 1 bit */
		CHECK_EQ_U64(u64_at(p + 48), 1);   /* block 0 */
	}
	/* The reader sees them among the features. */
	struct ap_perf_reader *r;
	CHECK_EQ_U64(ap_perf_reader_create_mem(&r, f, len, NULL, &err), 0);
	if (r) {
		const struct ap_perf_info *in = ap_perf_info(r);
		CHECK(in->features[0] >> AP_PERF_FEAT_CPU_TOPOLOGY & 1);
		CHECK(in->features[0] >> AP_PERF_FEAT_NUMA_TOPOLOGY & 1);
		CHECK(in->features[0] >> AP_PERF_FEAT_MEM_TOPOLOGY & 1);
		ap_perf_reader_destroy(r);
	}
}

TEST_MAIN(CASE(topology_features_as_perf_reads_them))

/* Benchmark of the SPE sampling engine (docs/PERFORMANCE.md, "SPE engine"):
 *
 *   single   ap_spe_op() per operation, sampling enabled, the interval at
 *            PMSIDR_EL1's recommended minimum (PMSIDR_EL1.Interval), every
 *            sampled operation written to the buffer
 *   batch    ap_spe_until_sample() + ap_spe_skip() + one ap_spe_op() for the
 *            sampled operation, same interval
 *   chunks   ap_spe_skip() in chunks of 64 operations (a basic block at a
 *            time), describing only the sampled ones
 *   record   ns per record written: every iteration skips to the next
 *            sample and describes it (interval 257, each call writes one)
 *   floor    an empty out-of-line call per operation: the call overhead a
 *            host pays anyway, for comparison with `single`
 *
 * Each figure is given for wall-clock time and for the process's CPU time:
 * on a shared machine the CPU time is the engine's cost, the wall time
 * also holds the time other processes had the core.
 *
 * usage: bench_model [MILLION_OPS]   (default 400) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/spe.h"

static uint8_t ring[1 << 16];
static uint64_t bytes_written;

/* The buffer is a large virtual range; the bytes land in a small ring so the
 * run never fills it (no management events in the measured path). */
static int ring_write(void *ctx, uint64_t va, const uint8_t *b, size_t len, struct ap_mem_fault *f)
{
	(void)ctx;
	(void)f;
	size_t at = (size_t)(va & (sizeof(ring) - 1));
	if (at + len > sizeof(ring))
		at = 0;
	memcpy(ring + at, b, len);
	bytes_written += len;
	return 0;
}
static uint64_t fake_time(void *ctx)
{
	static uint64_t t;
	(void)ctx;
	return t += 7;
}

struct stamp {
	double wall, cpu;
};
static struct stamp now(void)
{
	struct timespec w, c;
	clock_gettime(CLOCK_MONOTONIC, &w);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
	struct stamp s = { (double)w.tv_sec + (double)w.tv_nsec * 1e-9,
	                   (double)c.tv_sec + (double)c.tv_nsec * 1e-9 };
	return s;
}
static struct stamp since(struct stamp t0)
{
	struct stamp t = now();
	t.wall -= t0.wall;
	t.cpu -= t0.cpu;
	return t;
}

static struct ap_pe *make_pe(uint64_t interval_field)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	cfg.spe.max_size = 7;
	struct ap_host host = { .buffer_write = ring_write, .cntpct = fake_time, .cntvct = fake_time };
	struct ap_pe *pe = NULL;
	struct ap_error_ctx err;
	if (ap_pe_create(&cfg, &host, &pe, &err) < 0) {
		fprintf(stderr, "bench_model: %s\n", err.message);
		exit(2);
	}
	ap_pe_msr(pe, AP_PMSIRR_EL1, interval_field << 8);
	ap_pe_msr(pe, AP_PMSICR_EL1, 0);
	ap_pe_msr(pe, AP_PMBPTR_EL1, 0x10000000);
	ap_pe_msr(pe, AP_PMSCR_EL1, 0x3 | (1u << 5) | (1u << 3) | (1u << 4)); /* E1SPE E0SPE TS CX PA */
	ap_pe_msr(pe, AP_PMSCR_EL2, (1u << 4) | (1u << 6));
	ap_pe_msr(pe, AP_PMBLIMITR_EL1, (1ull << 48) | 1);
	if (!ap_spe_profiling_enabled(pe)) {
		fprintf(stderr, "bench_model: profiling did not become enabled\n");
		exit(2);
	}
	return pe;
}

/* 64 different operation descriptions, used round robin. */
static struct ap_spe_op ops[64];
static void make_ops(void)
{
	for (unsigned i = 0; i < 64; i++) {
		struct ap_spe_op *o = &ops[i];
		memset(o, 0, sizeof(*o));
		o->pc = 0x400000 + 4 * i;
		o->kind = (uint8_t)(i % 4 == 0 ? AP_SPE_OP_LOAD : i % 4 == 1 ? AP_SPE_OP_STORE
		                                : i % 4 == 2 ? AP_SPE_OP_BRANCH : AP_SPE_OP_OTHER);
		o->va = 0x7fff0000 + 64 * i;
		o->pa = 0x80000000 + 64 * i;
		o->target = 0x400100;
		o->target_el = 1;
		o->target_ns = 1;
		o->lat_total = 10 + i;
		o->lat_issue = 2;
		o->lat_xlat = 3;
		o->events = (i & 1) ? 0x14 : 0x1c;
	}
}

__attribute__((noinline)) static int empty_call(struct ap_pe *pe, const struct ap_spe_op *op)
{
	__asm__ volatile("" : : "r"(pe), "r"(op) : "memory");
	return 0;
}

static uint64_t interval_min_field(struct ap_pe *pe)
{
	/* PMSIDR_EL1.Interval (4.3.11): 0,2..8 = 256,512,768,1024,1536,2048,3072,4096 */
	static const unsigned n[9] = { 256, 0, 512, 768, 1024, 1536, 2048, 3072, 4096 };
	uint64_t idr = 0;
	ap_pe_mrs(pe, AP_PMSIDR_EL1, &idr);
	unsigned enc = (unsigned)(idr >> 8) & 0xF;
	return (enc < 9 && n[enc] ? n[enc] : 1024) / 256;
}

int main(int argc, char **argv)
{
	uint64_t n = (argc > 1 ? strtoull(argv[1], NULL, 0) : 400) * 1000000ull;
	make_ops();
	struct ap_pe *probe = make_pe(1);
	uint64_t field = interval_min_field(probe);
	ap_pe_destroy(probe);
	printf("interval: PMSIRR_EL1.INTERVAL = %llu (%llu operations per sample)\n",
	       (unsigned long long)field, (unsigned long long)(field * 256 + 1));

	/* floor */
	struct ap_pe *pe = make_pe(field);
	struct stamp t0 = now();
	int sink = 0;
	for (uint64_t i = 0; i < n; i++)
		sink += empty_call(pe, &ops[i & 63]);
	struct stamp floor_s = since(t0);
	ap_pe_destroy(pe);

	/* single */
	pe = make_pe(field);
	t0 = now();
	uint64_t sampled = 0;
	for (uint64_t i = 0; i < n; i++)
		sampled += (uint64_t)ap_spe_op(pe, &ops[i & 63]);
	struct stamp single_s = since(t0);
	struct ap_spe_counts c;
	ap_spe_get_counts(pe, &c);
	ap_pe_destroy(pe);
	printf("single:  %8.1f M ops/s wall, %8.1f M ops/s cpu (%.2f ns/op cpu; %llu sampled, %llu records;"
	       " floor %.2f ns/op cpu)\n",
	       n / single_s.wall / 1e6, n / single_s.cpu / 1e6, single_s.cpu * 1e9 / n,
	       (unsigned long long)sampled, (unsigned long long)c.records_written, floor_s.cpu * 1e9 / n);

	/* batch: skip to the sample, describe it */
	pe = make_pe(field);
	uint64_t done = 0, k = 0;
	t0 = now();
	while (done < n) {
		done += ap_spe_skip(pe, n - done);
		if (done < n) {
			ap_spe_op(pe, &ops[k++ & 63]);
			done++;
		}
	}
	struct stamp batch_s = since(t0);
	ap_spe_get_counts(pe, &c);
	ap_pe_destroy(pe);
	printf("batch:   %8.1f M ops/s wall, %8.1f M ops/s cpu (%llu records)\n", n / batch_s.wall / 1e6,
	       n / batch_s.cpu / 1e6, (unsigned long long)c.records_written);

	/* chunks of 64 */
	pe = make_pe(field);
	done = 0;
	t0 = now();
	while (done < n) {
		uint64_t chunk = n - done < 64 ? n - done : 64;
		uint64_t got = ap_spe_skip(pe, chunk);
		done += got;
		if (got < chunk) { /* the next one is sampled: describe it */
			ap_spe_op(pe, &ops[done & 63]);
			done++;
		}
	}
	struct stamp chunk_s = since(t0);
	ap_spe_get_counts(pe, &c);
	ap_pe_destroy(pe);
	printf("chunks:  %8.1f M ops/s wall, %8.1f M ops/s cpu (skip(64) per call, %llu records)\n",
	       n / chunk_s.wall / 1e6, n / chunk_s.cpu / 1e6, (unsigned long long)c.records_written);

	/* record: one record per iteration */
	pe = make_pe(1);
	uint64_t recs = n / 200;
	t0 = now();
	for (uint64_t i = 0; i < recs; i++) {
		ap_spe_skip(pe, UINT64_MAX);
		ap_spe_op(pe, &ops[i & 63]);
	}
	struct stamp rec_s = since(t0);
	ap_spe_get_counts(pe, &c);
	ap_pe_destroy(pe);
	double nrec = (double)c.records_written;
	printf("record:  %8.1f ns/record wall, %8.1f ns/record cpu (%llu records, %.1f bytes/record)\n",
	       rec_s.wall * 1e9 / nrec, rec_s.cpu * 1e9 / nrec, (unsigned long long)c.records_written,
	       (double)c.bytes_written / nrec);
	return sink;
}

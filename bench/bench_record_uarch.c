/* Benchmark and fingerprint of the timing model (lib/uarch) on a fixed
 * trace, for the `armprof record` speed work (docs/PERFORMANCE.md, "Recording
 * under QEMU"):
 *
 *   - CPU ns per access and per branch, on a pseudo-random mix of what the
 *     examples do: one line two cores fight over, lines of their own,
 *     random accesses over 4 MiB and 256 MiB, and streaming; loads, stores
 *     and atomics in short bursts, three cores taking turns;
 *   - a hash of every result (latencies, events, data source) and of each
 *     core's counters. A speed-up of the model must leave the hash alone:
 *     run this before and after, with the same arguments.
 *
 * The trace is generated from a fixed seed and the cores run on one thread,
 * so the hash does not depend on the host (unlike a multi-threaded record).
 *
 * usage: bench_record_uarch [MILLION_STEPS] [KEY VALUE]...   (default 3)
 * KEY VALUE: ap_uarch_config_set() settings, e.g. l1d.size 4K; or
 * "cores N" (1..3, default 3): the same trace on N cores. With one core the
 * model keeps no directory and takes its single-core paths, as when
 * recording a single-threaded program. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/number.h"
#include "armprof/uarch.h"

#include "uarch/uarch_trace.h"

#define MAX_CORES UARCH_TRACE_MAX_CORES

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long steps = (argc > 1 ? atol(argv[1]) : 3) * 1000000L;
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	unsigned n_cores = MAX_CORES;
	for (int a = 2; a + 1 < argc; a += 2) {
		if (!strcmp(argv[a], "cores")) {
			uint64_t n = 0;
			if (ap_parse_u64(argv[a + 1], &n) < 0 || n < 1 || n > MAX_CORES) {
				fprintf(stderr, "bench_record_uarch: cores must be 1 to %d\n", MAX_CORES);
				return 2;
			}
			n_cores = (unsigned)n;
		} else if (ap_uarch_config_set(&cfg, argv[a], argv[a + 1]) < 0) {
			fprintf(stderr, "bench_record_uarch: bad setting %s %s\n", argv[a], argv[a + 1]);
			return 2;
		}
	}
	if (steps <= 0 || (argc > 2 && argc % 2)) {
		fprintf(stderr, "usage: bench_record_uarch [MILLION_STEPS] [KEY VALUE]...\n");
		return 2;
	}
	struct ap_uarch_system *sys;
	struct ap_uarch_core *core[MAX_CORES] = { 0 };
	if (ap_uarch_system_create(&sys, &cfg) < 0) {
		fprintf(stderr, "bench_record_uarch: inconsistent configuration\n");
		return 2;
	}
	for (unsigned i = 0; i < n_cores; i++)
		if (ap_uarch_core_create(&core[i], sys, i * 3) < 0) /* cores 0 and 3 share a cluster */
			return 2;

	double t0 = cpu_seconds();
	struct uarch_trace tr = uarch_trace_run(core, n_cores, steps);
	double t = cpu_seconds() - t0;
	for (unsigned i = 0; i < n_cores; i++) {
		const struct ap_uarch_stats *s = ap_uarch_core_stats(core[i]);
		printf("core %u: %llu loads, %llu stores, %llu L1D misses, %llu LLC misses, %llu peer hits, "
		       "%llu TLB walks\n",
		       i, (unsigned long long)s->loads, (unsigned long long)s->stores,
		       (unsigned long long)s->l1d_misses, (unsigned long long)s->llc_misses,
		       (unsigned long long)s->peer_hits, (unsigned long long)s->tlb_walks);
	}
	printf("%llu accesses and %llu branches in %.3f s CPU: %.1f ns per access+branch mix\n",
	       (unsigned long long)tr.accesses, (unsigned long long)tr.branches, t,
	       t * 1e9 / (double)(tr.accesses + tr.branches));
	printf("result hash %016llx\n", (unsigned long long)tr.hash);
	for (unsigned i = 0; i < n_cores; i++)
		ap_uarch_core_destroy(core[i]);
	ap_uarch_system_destroy(sys);
	return 0;
}

/* bench_gen_perfdata OUT MIB [CPUS]: a perf.data holding MIB MiB (with a K,
 * M or G suffix: that many KiB, MiB or GiB) of realistic
 * SPE data (tests/random_record.h records: loads/stores with VA, PA, data
 * source, branches with targets, events, latencies, timestamps), in 4 MiB AUX
 * buffers spread over CPUS CPUs (default 4), with COMM and MMAP2 for a
 * process. The input of bench/bench_perfdata.sh.
 * bench_gen_perfdata --read FILE: time the library alone on FILE (open, parse,
 * decode every AUX buffer into a counting sink), best of 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/decode.h"
#include "armprof/number.h"
#include "armprof/perfdata.h"
#include "random_record.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int count_record(void *ctx, const struct ap_record *r)
{
	*(uint64_t *)ctx += 1 + (r->pc & 0);
	return 0;
}

static int read_bench(const char *path)
{
	double best = 1e9;
	uint64_t records = 0, bytes = 0;
	for (int run = 0; run < 3; run++) {
		double t0 = now();
		struct ap_perf_reader *r;
		struct ap_error_ctx err;
		if (ap_perf_reader_create_file(&r, path, NULL, &err) != 0) {
			fprintf(stderr, "bench_gen_perfdata: %s:0x%llx: %s: %s\n", path,
			        (unsigned long long)err.offset, err.where, err.message);
			return 2;
		}
		records = bytes = 0;
		struct ap_decoder_config cfg;
		ap_decoder_config_init(&cfg);
		cfg.on_record = count_record;
		cfg.ctx = &records;
		struct ap_decoder dec;
		ap_decoder_init(&dec, &cfg);
		struct ap_perf_aux_iter it;
		ap_perf_aux_iter_init(&it);
		const struct ap_perf_aux_buffer *b;
		while (ap_perf_next_aux_buffer(r, &it, &b)) {
			ap_decoder_feed(&dec, b->data, (size_t)b->unpadded_size);
			ap_decoder_finish(&dec);
			bytes += b->unpadded_size;
		}
		ap_perf_reader_destroy(r);
		double t = now() - t0;
		if (t < best)
			best = t;
	}
	printf("library read+decode: %llu bytes, %llu records, %.3f s, %.0f MB/s\n",
	       (unsigned long long)bytes, (unsigned long long)records, best, (double)bytes / best / 1e6);
	return 0;
}

#define BUF_BYTES (4u << 20)

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--read"))
		return read_bench(argv[2]);
	if (argc < 3) {
		fprintf(stderr, "usage: bench_gen_perfdata OUT MIB[K|M|G] [CPUS] | --read FILE\n");
		return 2;
	}
	/* MiB, or bytes with a K, M or G suffix (ap_parse_u64_scaled). */
	uint64_t total;
	size_t arg_len = strlen(argv[2]);
	int scaled = arg_len && strchr("KkMmGg", argv[2][arg_len - 1]);
	if (ap_parse_u64_scaled(argv[2], &total) != 0 || (!scaled && total > (UINT64_MAX >> 20))) {
		fprintf(stderr, "bench_gen_perfdata: %s: not a size\n", argv[2]);
		return 2;
	}
	if (!scaled)
		total <<= 20;
	int cpus = argc > 3 ? atoi(argv[3]) : 4;
	if (cpus < 1)
		cpus = 1;
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.nr_cpus = (uint32_t)cpus;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	if (ap_perf_writer_create(&w, argv[1], &cfg, &err) != 0) {
		fprintf(stderr, "bench_gen_perfdata: %s: %s\n", argv[1], err.message);
		return 2;
	}
	ap_perf_write_comm(w, 1000, 1000, "bench", 0);
	ap_perf_write_mmap2(w, 1000, 1000, 0x400000, 0x100000, 0, 5, "/bench", 0);
	uint8_t *buf = malloc(BUF_BYTES);
	uint64_t seed = 1, ts = 1, written = 0, records = 0;
	int cpu = 0;
	while (buf && written < total) {
		size_t used = 0;
		while (used + AP_RECORD_MAX_BYTES <= BUF_BYTES && written + used < total) {
			struct ap_record r;
			rr_record(&r, &seed, 1);
			r.pc = 0x400000 + (r.pc & 0xFFFFC); /* user code in the mapped range */
			r.el = 0;
			r.ns = 1;
			r.ts = ts += 10;
			int k = ap_record_encode(buf + used, BUF_BYTES - used, &r, NULL);
			if (k < 0)
				break;
			used += (size_t)k;
			records++;
		}
		if (ap_perf_write_aux(w, cpu, 1000, 1000, buf, used, 0, 0) != 0) {
			fprintf(stderr, "bench_gen_perfdata: write failed\n");
			ap_perf_writer_destroy(w);
			free(buf);
			return 2;
		}
		written += used;
		cpu = (cpu + 1) % cpus;
	}
	free(buf);
	if (ap_perf_writer_finish(w, &err) != 0) {
		fprintf(stderr, "bench_gen_perfdata: %s\n", err.message);
		return 2;
	}
	printf("%s: %llu bytes of SPE data, %llu records\n", argv[1], (unsigned long long)written,
	       (unsigned long long)records);
	return 0;
}

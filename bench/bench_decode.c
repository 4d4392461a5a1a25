/* Decoder benchmark: a 256 MiB stream of realistic records (PC, op type, VA,
 * PA, events, three counters, timestamp), decoded into a counting sink.
 * Prints MB/s and records/s, best of 5, and the ratio to memcpy of the same
 * buffer (the machine's ceiling for touching every byte once).
 *   bench_decode [MiB]            run the benchmark
 *   bench_decode --write FILE [MiB]  write the stream to FILE instead */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/decode.h"
#include "random_record.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint8_t *make_stream(size_t want, size_t *len, size_t *records)
{
	uint8_t *buf = malloc(want + AP_RECORD_MAX_BYTES);
	uint64_t seed = 42;
	size_t n = 0, r = 0;
	if (!buf)
		return NULL;
	while (n < want) {
		struct ap_record rec;
		rr_record(&rec, &seed, 1);
		int k = ap_record_encode(buf + n, AP_RECORD_MAX_BYTES, &rec, NULL);
		if (k <= 0)
			break;
		n += (size_t)k;
		r++;
	}
	*len = n;
	*records = r;
	return buf;
}

struct sink {
	uint64_t records, checksum;
};

static int count_record(void *ctx, const struct ap_record *rec)
{
	struct sink *s = ctx;
	s->records++;
	s->checksum += rec->pc ^ rec->lat_total;
	return 0;
}

int main(int argc, char **argv)
{
	size_t mib = 256;
	const char *write_path = NULL;
	if (argc > 2 && !strcmp(argv[1], "--write")) {
		write_path = argv[2];
		if (argc > 3)
			mib = (size_t)atol(argv[3]);
	} else if (argc > 1) {
		mib = (size_t)atol(argv[1]);
	}
	size_t len, nrec;
	uint8_t *buf = make_stream(mib << 20, &len, &nrec);
	if (!buf) {
		fprintf(stderr, "bench_decode: out of memory\n");
		return 2;
	}
	if (write_path) {
		FILE *f = fopen(write_path, "wb");
		if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
			perror(write_path);
			return 2;
		}
		printf("wrote %zu bytes, %zu records to %s\n", len, nrec, write_path);
		free(buf);
		return 0;
	}
	uint8_t *copy = malloc(len);
	double best_dec = 1e9, best_cpy = 1e9;
	struct sink s = { 0, 0 };
	for (int run = 0; run < 5; run++) {
		struct ap_decoder_config cfg;
		ap_decoder_config_init(&cfg);
		cfg.on_record = count_record;
		cfg.ctx = &s;
		struct ap_decoder dec;
		ap_decoder_init(&dec, &cfg);
		s.records = 0;
		double t0 = now();
		for (size_t off = 0; off < len; off += 1u << 20)
			ap_decoder_feed(&dec, buf + off, len - off < (1u << 20) ? len - off : 1u << 20);
		ap_decoder_finish(&dec);
		double t1 = now();
		if (copy)
			memcpy(copy, buf, len);
		double t2 = now();
		if (t1 - t0 < best_dec)
			best_dec = t1 - t0;
		if (t2 - t1 < best_cpy)
			best_cpy = t2 - t1;
	}
	if (s.records != nrec) {
		fprintf(stderr, "bench_decode: decoded %llu records, encoded %zu\n",
		        (unsigned long long)s.records, nrec);
		return 1;
	}
	printf("stream: %.1f MiB, %zu records (%.1f bytes/record)\n", (double)len / (1 << 20), nrec,
	       (double)len / (double)nrec);
	printf("decode: %.0f MB/s, %.1f M records/s (best of 5, %.3f s)\n", (double)len / best_dec / 1e6,
	       (double)nrec / best_dec / 1e6, best_dec);
	printf("memcpy: %.0f MB/s; decode/memcpy time ratio %.1f\n", (double)len / best_cpy / 1e6,
	       best_dec / best_cpy);
	printf("checksum %llx\n", (unsigned long long)s.checksum);
	free(copy);
	free(buf);
	return 0;
}

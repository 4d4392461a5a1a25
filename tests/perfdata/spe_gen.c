/* perfdata_spe_gen: stream and file maker for the perf.data CLI tests.
 *   perfdata_spe_gen OUT N SEED [PC...]   N realistic SPE records (spe_stream.h)
 *                                         as raw bytes; with PCs, used in turn;
 *                                         Context packets hold $SPE_GEN_CTX if set
 *   perfdata_spe_gen --perf OUT           a perf.data with three AUX buffers
 *                                         (cpu 0, 1, 0; flags none, truncated,
 *                                         collision|partial) and the raw stream
 *                                         of each as OUT.bufN.spe
 *   perfdata_spe_gen --perf-many OUT B N  a perf.data with B AUX buffers of N
 *                                         records each (cpu i % 4, tid 501 + i % 3;
 *                                         different records in each): the
 *                                         parallel decode's tests and benchmarks
 *   perfdata_spe_gen --aux OUT FLAGS RAW  a perf.data of one AUX buffer (cpu 0)
 *                                         holding the bytes of file RAW, its
 *                                         PERF_RECORD_AUX flags FLAGS
 *   perfdata_spe_gen --malformed DIR      the malformed files of perf_bytes.h
 *                                         as DIR/NAME.data, and DIR/expect.txt:
 *                                         "NAME OFFSET_HEX WHERE|MESSAGE" lines,
 *                                         and good.data re-wrapped as pipe mode
 *                                         (good-pipe.data) and with zstd
 *                                         COMPRESSED side-band (good-zstd.data):
 *                                         the seed corpus of fuzz_perfdata */
#include <stdio.h>
#include <stdlib.h>

#include "perf_bytes.h"
#include "spe_stream.h"

static int fail(const char *what)
{
	fprintf(stderr, "perfdata_spe_gen: %s\n", what);
	return 2;
}

static int write_perf(const char *out, int n_buf, int with_side_band, size_t records)
{
	static const int32_t cpu[3] = { 0, 1, 0 };
	static const uint64_t flags[3] = { 0, AP_PERF_AUX_FLAG_TRUNCATED,
		                               AP_PERF_AUX_FLAG_COLLISION | AP_PERF_AUX_FLAG_PARTIAL };
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.nr_cpus = 2;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	if (ap_perf_writer_create(&w, out, &cfg, &err) != 0)
		return fail(err.message);
	if (with_side_band) {
		ap_perf_write_comm(w, 500, 501, "prog", 0);
		ap_perf_write_mmap2(w, 500, 501, 0x400000, 0x1000, 0, 5, "/prog", 0);
	}
	for (int i = 0; i < n_buf; i++) {
		size_t len = 0;
		uint8_t *spe = spe_stream(100 + (uint64_t)i, records + 13 * (size_t)i, NULL, 0, 501, &len);
		char name[4096];
		snprintf(name, sizeof(name), "%s.buf%d.spe", out, i);
		if (!spe || pb_spit(name, spe, len) != 0 ||
		    ap_perf_write_aux(w, cpu[i], 500, 501, spe, len, flags[i], 0) != 0)
			return fail("cannot write a buffer");
		free(spe);
	}
	if (ap_perf_writer_finish(w, &err) != 0)
		return fail(err.message);
	return 0;
}

static int write_perf_many(const char *out, size_t n_buf, size_t records)
{
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.nr_cpus = 4;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	if (ap_perf_writer_create(&w, out, &cfg, &err) != 0)
		return fail(err.message);
	ap_perf_write_comm(w, 500, 501, "prog", 0);
	for (size_t i = 0; i < n_buf; i++) {
		size_t len = 0;
		uint8_t *spe = spe_stream(1000 + (uint64_t)i, records, NULL, 0, 501 + (uint32_t)(i % 3), &len);
		if (!spe || ap_perf_write_aux(w, (int32_t)(i % 4), 500, 501 + (int32_t)(i % 3), spe, len, 0, 0) != 0)
			return fail("cannot write a buffer");
		free(spe);
	}
	if (ap_perf_writer_finish(w, &err) != 0)
		return fail(err.message);
	return 0;
}

static int write_aux(const char *out, uint64_t flags, const char *raw)
{
	size_t len;
	uint8_t *spe = pb_slurp(raw, &len);
	if (!spe)
		return fail("cannot read the raw stream");
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	int rc = 0;
	if (ap_perf_writer_create(&w, out, &cfg, &err) != 0)
		rc = fail(err.message);
	else if (ap_perf_write_comm(w, 500, 500, "prog", 0) != 0 || ap_perf_write_aux(w, 0, 500, 500, spe, len, flags, 0) != 0)
		rc = fail("cannot write the buffer"), ap_perf_writer_destroy(w);
	else if (ap_perf_writer_finish(w, &err) != 0)
		rc = fail(err.message);
	free(spe);
	return rc;
}

static int write_malformed(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/good.data", dir);
	int rc = write_perf(path, 1, 1, 30);
	if (rc)
		return rc;
	size_t len;
	uint8_t *good = pb_slurp(path, &len);
	if (!good)
		return fail("cannot read back good.data");
	struct pb_malformed m[PB_N_MALFORMED];
	int n = pb_make_malformed(good, len, m);
	snprintf(path, sizeof(path), "%s/expect.txt", dir);
	FILE *ex = fopen(path, "w");
	if (!ex)
		return fail("cannot write expect.txt");
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s.data", dir, m[i].name);
		if (pb_spit(path, m[i].bytes, m[i].len) != 0)
			return fail("cannot write a malformed file");
		fprintf(ex, "%s 0x%llx %s|%s\n", m[i].name, (unsigned long long)m[i].offset, m[i].where, m[i].msg);
		free(m[i].bytes);
	}
	for (int z = 0; z < 2; z++) {
		size_t plen;
		uint8_t *pipe = pb_rewrap_pipe(good, z, &plen);
		snprintf(path, sizeof(path), "%s/%s", dir, z ? "good-zstd.data" : "good-pipe.data");
		if (pb_spit(path, pipe, plen) != 0)
			return fail("cannot write a pipe-mode file");
		free(pipe);
	}
	free(good);
	return fclose(ex) == 0 ? 0 : fail("cannot write expect.txt");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--perf"))
		return write_perf(argv[2], 3, 1, 40);
	if (argc == 5 && !strcmp(argv[1], "--perf-many"))
		return write_perf_many(argv[2], strtoull(argv[3], NULL, 0), strtoull(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "--aux"))
		return write_aux(argv[2], strtoull(argv[3], NULL, 0), argv[4]);
	if (argc == 3 && !strcmp(argv[1], "--malformed"))
		return write_malformed(argv[2]);
	if (argc < 4) {
		fprintf(stderr, "usage: perfdata_spe_gen OUT N SEED [PC...] | --perf OUT | --aux OUT FLAGS RAW | --malformed DIR\n");
		return 2;
	}
	size_t n = strtoull(argv[2], NULL, 0);
	uint64_t seed = strtoull(argv[3], NULL, 0);
	size_t n_pcs = (size_t)(argc - 4);
	uint32_t ctx = getenv("SPE_GEN_CTX") ? (uint32_t)strtoul(getenv("SPE_GEN_CTX"), NULL, 0) : 0;
	uint64_t *pcs = calloc(n_pcs + 1, sizeof(*pcs));
	for (size_t i = 0; i < n_pcs; i++)
		pcs[i] = strtoull(argv[4 + i], NULL, 0);
	size_t len = 0;
	uint8_t *buf = spe_stream(seed, n, pcs, n_pcs, ctx, &len);
	if (!buf || pb_spit(argv[1], buf, len) != 0)
		return fail("cannot write the stream");
	free(buf);
	free(pcs);
	return 0;
}

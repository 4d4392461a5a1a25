/* perf.data round trip: what ap_perf_writer writes, ap_perf_reader reads back
 * with the same metadata, the same AUX bytes and flags, and the SPE decoder
 * finds the same records in it (spec/002 5.1.2 record framing: the padding
 * the writer appends is framing between records, SPE-5.1.4-1). The same
 * events re-wrapped as a pipe-mode file, and with side-band inside
 * PERF_RECORD_COMPRESSED (zstd, frames split across records as perf does),
 * read back the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"
#include "harness.h"
#include "perf_bytes.h"
#include "spe_stream.h"

#define N_BUF 3
static const int32_t buf_cpu[N_BUF] = { 0, 1, 0 };
static const uint64_t buf_flags[N_BUF] = { 0, AP_PERF_AUX_FLAG_TRUNCATED,
	                                       AP_PERF_AUX_FLAG_COLLISION | AP_PERF_AUX_FLAG_PARTIAL };
static const size_t buf_records[N_BUF] = { 40, 7, 100 };

static uint8_t *streams[N_BUF];
static size_t stream_len[N_BUF];
static char path[256];

struct rec_list {
	struct ap_record r[128];
	size_t n;
};
static int collect(void *ctx, const struct ap_record *rec)
{
	struct rec_list *l = ctx;
	if (l->n < 128)
		l->r[l->n] = *rec;
	l->n++;
	return 0;
}
static void decode(const uint8_t *p, size_t len, struct rec_list *out)
{
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = collect;
	cfg.ctx = out;
	struct ap_decoder dec;
	out->n = 0;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, p, len);
	ap_decoder_finish(&dec);
}
static void check_same_records(const struct rec_list *a, const struct rec_list *b)
{
	CHECK_EQ_U64(a->n, b->n);
	for (size_t i = 0; i < a->n && i < b->n && i < 128; i++) {
		CHECK_EQ_U64(a->r[i].offset, b->r[i].offset);
		CHECK_EQ_U64(a->r[i].has, b->r[i].has);
		CHECK_EQ_U64(a->r[i].pc, b->r[i].pc);
		CHECK_EQ_U64(a->r[i].vaddr, b->r[i].vaddr);
		CHECK_EQ_U64(a->r[i].paddr, b->r[i].paddr);
		CHECK_EQ_U64(a->r[i].target, b->r[i].target);
		CHECK_EQ_U64(a->r[i].events, b->r[i].events);
		CHECK_EQ_U64(a->r[i].ts, b->r[i].ts);
		CHECK_EQ_U64(a->r[i].lat_total, b->r[i].lat_total);
		CHECK_EQ_U64(a->r[i].op_subclass, b->r[i].op_subclass);
		CHECK_EQ_U64(a->r[i].end, b->r[i].end);
	}
}

static void write_file(void)
{
	snprintf(path, sizeof(path), "perfdata_roundtrip_%d.data", (int)getpid());
	for (int i = 0; i < N_BUF; i++) {
		streams[i] = spe_stream(42 + (uint64_t)i, buf_records[i], NULL, 0, (uint32_t)(i * 1000), &stream_len[i]);
		CHECK(streams[i] != NULL);
	}
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.pmu_type = 12;
	cfg.nr_cpus = 2;
	cfg.midr = 0x00000000410fd0c0ull;
	/* armprof record's metadata inside the file: a device or FIFO it was
	 * written to has no place beside it for a FILE.meta (docs/outputs.md). */
	cfg.armprof_meta = "binary=/bin/workload\nstopped_by_signal=2\n";
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create(&w, path, &cfg, &err) == 0);
	CHECK(access(path, F_OK) != 0); /* nothing at PATH before finish */
	CHECK(ap_perf_write_comm(w, 77, 78, "workload", 0) == 0);
	CHECK(ap_perf_write_mmap2(w, 77, 78, 0x400000, 0x2000, 0, 5, "/bin/workload", 0) == 0);
	for (int i = 0; i < N_BUF; i++)
		CHECK(ap_perf_write_aux(w, buf_cpu[i], 77, 78, streams[i], stream_len[i], buf_flags[i], 0) == 0);
	CHECK(ap_perf_writer_finish(w, &err) == 0);
}

static void check_reader(const struct ap_perf_reader *r, int pipe)
{
	const struct ap_perf_info *in = ap_perf_info(r);
	CHECK_EQ_U64(in->pipe_mode, pipe);
	CHECK_EQ_U64(in->n_attrs, 1);
	if (in->n_attrs) {
		CHECK_EQ_U64(in->attrs[0].type, 12);
		CHECK(in->attrs[0].flags & AP_PERF_ATTR_SAMPLE_ID_ALL);
		CHECK_EQ_U64(in->attrs[0].n_ids, 1);
		CHECK(in->attrs[0].name && !strcmp(in->attrs[0].name, "arm_spe_0//"));
	}
	CHECK(in->has_midr);
	CHECK_EQ_U64(in->midr, 0x410fd0c0);
	CHECK(in->arch && !strcmp(in->arch, "aarch64"));
	if (!pipe) { /* pb_rewrap_pipe carries four features over */
		CHECK(in->armprof_meta && !strcmp(in->armprof_meta, "binary=/bin/workload\nstopped_by_signal=2\n"));
		CHECK(in->features[AP_PERF_FEAT_ARMPROF_META / 64] >> (AP_PERF_FEAT_ARMPROF_META % 64) & 1);
	}
	CHECK(in->has_nrcpus);
	CHECK_EQ_U64(in->nr_cpus_online, 2);
	CHECK(in->has_auxtrace_info);
	CHECK_EQ_U64(in->auxtrace_type, AP_PERF_AUXTRACE_ARM_SPE);
	CHECK_EQ_U64(in->n_auxtrace_priv, 2);
	if (in->n_auxtrace_priv >= 1)
		CHECK_EQ_U64(in->auxtrace_priv[AP_PERF_SPE_PRIV_PMU_TYPE], 12);
	CHECK(in->has_time_conv);
	CHECK_EQ_U64(in->time_conv.time_mult, 1);
	CHECK_EQ_U64(in->n_comms, 1);
	if (in->n_comms) {
		CHECK_EQ_STR(in->comms[0].comm, "workload");
		CHECK_EQ_U64(in->comms[0].tid, 78);
	}
	CHECK_EQ_U64(in->n_mmaps, 1);
	if (in->n_mmaps) {
		CHECK_EQ_STR(in->mmaps[0].filename, "/bin/workload");
		CHECK_EQ_U64(in->mmaps[0].addr, 0x400000);
		CHECK_EQ_U64(in->mmaps[0].prot, 5);
	}
	CHECK_EQ_U64(in->n_aux_records, N_BUF);
	CHECK_EQ_U64(in->n_aux_buffers, N_BUF);
	CHECK_EQ_U64(in->n_queues, 2);
	for (size_t i = 0; i < in->n_aux_buffers && i < N_BUF; i++) {
		const struct ap_perf_aux_buffer *b = &in->aux_buffers[i];
		CHECK_EQ_U64(b->cpu, buf_cpu[i]);
		CHECK_EQ_U64(b->idx, buf_cpu[i]);
		CHECK_EQ_U64(b->tid, 78);
		CHECK_EQ_U64(b->size, (stream_len[i] + 7) & ~(size_t)7);
		CHECK_EQ_U64(b->unpadded_size, stream_len[i]);
		CHECK(b->size >= stream_len[i] && !memcmp(b->data, streams[i], stream_len[i]));
		for (size_t k = stream_len[i]; k < b->size; k++)
			CHECK(b->data[k] == 0);
		CHECK_EQ_U64(b->aux_flags, buf_flags[i]);
		CHECK_EQ_U64(b->n_aux_records, 1);
		struct rec_list want, got;
		decode(streams[i], stream_len[i], &want);
		decode(b->data, (size_t)b->size, &got);
		CHECK_EQ_U64(want.n, buf_records[i]);
		check_same_records(&want, &got);
	}
	if (in->n_aux_buffers == N_BUF) {
		CHECK_EQ_U64(in->aux_buffers[2].seq_in_queue, 1);
		CHECK_EQ_U64(in->aux_buffers[2].aux_offset, in->aux_buffers[0].size);
	}
	/* --cpu selection and queue order */
	struct ap_perf_aux_iter it;
	const struct ap_perf_aux_buffer *b;
	ap_perf_aux_iter_init(&it);
	it.cpu = 0;
	size_t n = 0;
	while (ap_perf_next_aux_buffer(r, &it, &b)) {
		CHECK(b->cpu == 0);
		n++;
	}
	CHECK_EQ_U64(n, 2);
	ap_perf_aux_iter_init(&it);
	it.order = AP_PERF_ORDER_QUEUE;
	uint32_t seqs[4] = { 0 };
	n = 0;
	while (ap_perf_next_aux_buffer(r, &it, &b) && n < 4)
		seqs[n++] = b->seq;
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_U64(seqs[0], 0);
	CHECK_EQ_U64(seqs[1], 2);
	CHECK_EQ_U64(seqs[2], 1);
	ap_perf_aux_iter_init(&it);
	it.tid = 5;
	CHECK(ap_perf_next_aux_buffer(r, &it, &b) == 0);
}

TEST(file_mode_round_trip)
{
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	int rc = ap_perf_reader_create_file(&r, path, NULL, &err);
	CHECK(rc == 0);
	if (rc) {
		fprintf(stderr, "open: %s: %s\n", err.where, err.message);
		return;
	}
	check_reader(r, 0);
	CHECK_EQ_U64(ap_perf_info(r)->n_auxtrace_index, N_BUF);
	CHECK_EQ_U64(ap_perf_info(r)->n_compressed, 0);
	CHECK_EQ_U64(ap_perf_info(r)->n_unknown_records, 0);
	ap_perf_reader_destroy(r);
}

static void check_rewrapped(int compress)
{
	size_t flen, plen;
	uint8_t *f = pb_slurp(path, &flen);
	CHECK(f != NULL);
	if (!f)
		return;
	uint8_t *p = pb_rewrap_pipe(f, compress, &plen);
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	int rc = ap_perf_reader_create_mem(&r, p, plen, NULL, &err);
	CHECK(rc == 0);
	if (rc == 0) {
		check_reader(r, 1);
		if (compress) {
			CHECK(ap_perf_info(r)->n_compressed > 2); /* the frame was split */
			CHECK(ap_perf_info(r)->decompressed_bytes > 0);
		}
		ap_perf_reader_destroy(r);
	} else {
		fprintf(stderr, "open: %s @%llu: %s\n", err.where, (unsigned long long)err.offset, err.message);
	}
	free(p);
	free(f);
}

TEST(pipe_mode_round_trip) { check_rewrapped(0); }
TEST(compressed_pipe_round_trip) { check_rewrapped(1); }

TEST(stdin_like_fd)
{
	/* a FIFO-like descriptor is read to its end */
	int fds[2];
	size_t flen;
	uint8_t *f = pb_slurp(path, &flen);
	CHECK(f && pipe(fds) == 0);
	if (!f)
		return;
	if (fork() == 0) {
		close(fds[0]);
		size_t off = 0;
		while (off < flen) {
			ssize_t k = write(fds[1], f + off, flen - off);
			if (k <= 0)
				_exit(1);
			off += (size_t)k;
		}
		_exit(0);
	}
	close(fds[1]);
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK(ap_perf_reader_create_fd(&r, fds[0], NULL, &err) == 0);
	close(fds[0]);
	wait(NULL);
	check_reader(r, 0);
	ap_perf_reader_destroy(r);
	free(f);
}

TEST(many_buffers_get_their_own_aux_flags)
{
	/* 3000 buffers on 4 CPUs: each gets exactly its AUX record's flags
	 * (matched by cpu and AUX-area range through the sorted index) */
	char p2[300];
	snprintf(p2, sizeof(p2), "%s.many", path);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create(&w, p2, NULL, &err) == 0);
	const size_t n = 3000;
	for (size_t i = 0; i < n; i++) {
		uint64_t fl = (i % 5 == 0 ? AP_PERF_AUX_FLAG_TRUNCATED : 0) | (i % 7 == 0 ? AP_PERF_AUX_FLAG_COLLISION : 0);
		ap_perf_write_aux(w, (int32_t)(i % 4), 1, 1, streams[0], 1 + i % 13, fl, 0);
	}
	CHECK(ap_perf_writer_finish(w, &err) == 0);
	struct ap_perf_reader *r;
	CHECK(ap_perf_reader_create_file(&r, p2, NULL, &err) == 0);
	const struct ap_perf_info *in = ap_perf_info(r);
	CHECK_EQ_U64(in->n_aux_buffers, n);
	size_t bad = 0;
	for (size_t i = 0; i < in->n_aux_buffers; i++) {
		const struct ap_perf_aux_buffer *b = &in->aux_buffers[i];
		uint64_t fl = (i % 5 == 0 ? AP_PERF_AUX_FLAG_TRUNCATED : 0) | (i % 7 == 0 ? AP_PERF_AUX_FLAG_COLLISION : 0);
		bad += b->aux_flags != fl || b->n_aux_records != 1 || b->unpadded_size != 1 + i % 13 ||
		       b->cpu != (int32_t)(i % 4);
	}
	CHECK_EQ_U64(bad, 0);
	ap_perf_reader_destroy(r);
	CHECK(unlink(p2) == 0);
}

/* The BUILD_ID feature (perf's HEADER_BUILD_ID): the writer lists each
 * file of an executable mapping that has a GNU build ID, once, and the
 * reader gives back its name and ID; a file without an ID (or not an ELF
 * file) is left out, and so is a mapping without PROT_EXEC. */
TEST(build_ids_round_trip)
{
	char self[4096], p2[300];
	ssize_t self_len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(self_len > 0);
	self[self_len > 0 ? self_len : 0] = 0;
	uint8_t want[20];
	int want_len = ap_perf_elf_build_id(self, want, sizeof(want));
	CHECK(want_len > 0); /* Debian's gcc links with --build-id */
	CHECK_EQ_U64(ap_perf_elf_build_id(AP_SOURCE_DIR "/tests/perfdata/data/tiny-aarch64.elf", want, 20), 0);
	CHECK_EQ_U64(ap_perf_elf_build_id("/nonexistent/file", want, 20), (uint64_t)-AP_ERR_IO);
	/* A device is not read at all (a FIFO would block: issue 32); a
	 * regular file that is no ELF file is a format error. */
	CHECK_EQ_U64(ap_perf_elf_build_id("/dev/null", want, 20), (uint64_t)-AP_ERR_IO);
	CHECK_EQ_U64(ap_perf_elf_build_id(AP_SOURCE_DIR "/tests/perfdata/data/tiny.c", want, 20),
	             (uint64_t)-AP_ERR_FORMAT);
	CHECK_EQ_U64(ap_perf_elf_build_id(self, want, 4), (uint64_t)-AP_ERR_FORMAT); /* does not fit */
	want_len = ap_perf_elf_build_id(self, want, sizeof(want));

	snprintf(p2, sizeof(p2), "%s.ids", path);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create(&w, p2, NULL, &err) == 0);
	CHECK(ap_perf_write_mmap2(w, 7, 7, 0x400000, 0x1000, 0, 5, self, 0) == 0);
	CHECK(ap_perf_write_mmap2(w, 7, 7, 0x500000, 0x1000, 0x1000, 5, self, 0) == 0); /* once */
	CHECK(ap_perf_write_mmap2(w, 7, 7, 0x600000, 0x1000, 0, 5,
	                          AP_SOURCE_DIR "/tests/perfdata/data/tiny-aarch64.elf", 0) == 0);
	CHECK(ap_perf_write_mmap2(w, 7, 7, 0x700000, 0x1000, 0, 3, "/etc/hostname", 0) == 0);
	CHECK(ap_perf_writer_finish(w, &err) == 0);

	struct ap_perf_reader *r;
	CHECK(ap_perf_reader_create_file(&r, p2, NULL, &err) == 0);
	const struct ap_perf_info *in = ap_perf_info(r);
	CHECK((in->features[0] >> AP_PERF_FEAT_BUILD_ID) & 1);
	CHECK_EQ_U64(in->n_build_ids, 1);
	if (in->n_build_ids == 1) {
		CHECK(strcmp(in->build_ids[0].filename, self) == 0);
		CHECK_EQ_U64(in->build_ids[0].size, (uint64_t)want_len);
		CHECK_EQ_U64(in->build_ids[0].pid, (uint64_t)(int64_t)-1);
		CHECK(memcmp(in->build_ids[0].id, want, (size_t)want_len) == 0);
	}
	CHECK_EQ_U64(in->n_mmaps, 4);
	ap_perf_reader_destroy(r);
	unlink(p2);
}

TEST(cleanup)
{
	CHECK(unlink(path) == 0);
	for (int i = 0; i < N_BUF; i++)
		free(streams[i]);
}

static void setup(void) { write_file(); }
TEST(setup_writes) { setup(); }

/* ap_perf_elf_is_aarch64: the check armprof record makes of the files
 * a program loads (its interpreter, its libraries) before it names them. */
TEST(elf_is_aarch64)
{
	CHECK_EQ_U64(ap_perf_elf_is_aarch64(AP_SOURCE_DIR "/tests/perfdata/data/tiny-aarch64.elf"), 1);
	CHECK_EQ_U64(ap_perf_elf_is_aarch64("/proc/self/exe"), 0); /* the host's */
	CHECK_EQ_U64(ap_perf_elf_is_aarch64(AP_SOURCE_DIR "/tests/perfdata/data/tiny.c"), 0);
	CHECK_EQ_U64(ap_perf_elf_is_aarch64("/nonexistent/file"), 0);
	CHECK_EQ_U64(ap_perf_elf_is_aarch64("/dev/null"), 0); /* shorter than a header */
	CHECK_EQ_U64(ap_perf_elf_is_aarch64(AP_SOURCE_DIR "/tests/perfdata/data/tiny-dynamic-aarch64.elf"), 1);
}

/* ap_perf_elf_interp: the dynamic loader a program asks for (armprof record
 * finds it an aarch64 root), none for a static program, and an error for
 * what is not such a program. */
TEST(elf_interp)
{
	char interp[64];
	CHECK_EQ_U64(ap_perf_elf_interp(AP_SOURCE_DIR "/tests/perfdata/data/tiny-dynamic-aarch64.elf", interp,
	                                sizeof(interp)),
	             1);
	CHECK(!strcmp(interp, "/lib/ld-linux-aarch64.so.1"));
	CHECK_EQ_U64(ap_perf_elf_interp(AP_SOURCE_DIR "/tests/perfdata/data/tiny-aarch64.elf", interp, sizeof(interp)),
	             0);
	CHECK(!interp[0]);
	/* Too long for the room given: an error, and no partial string. */
	CHECK_EQ_U64(ap_perf_elf_interp(AP_SOURCE_DIR "/tests/perfdata/data/tiny-dynamic-aarch64.elf", interp, 8),
	             (uint64_t)-AP_ERR_FORMAT);
	CHECK(!interp[0]);
	CHECK_EQ_U64(ap_perf_elf_interp("/nonexistent/file", interp, sizeof(interp)), (uint64_t)-AP_ERR_IO);
	CHECK_EQ_U64(ap_perf_elf_interp("/dev/null", interp, sizeof(interp)), (uint64_t)-AP_ERR_IO); /* a device */
	CHECK_EQ_U64(ap_perf_elf_interp(AP_SOURCE_DIR "/tests/perfdata/data/tiny.c", interp, sizeof(interp)),
	             (uint64_t)-AP_ERR_FORMAT);
}

TEST_MAIN(CASE(setup_writes), CASE(file_mode_round_trip), CASE(pipe_mode_round_trip),
          CASE(compressed_pipe_round_trip), CASE(stdin_like_fd),
          CASE(many_buffers_get_their_own_aux_flags), CASE(elf_is_aarch64), CASE(elf_interp),
          CASE(build_ids_round_trip), CASE(cleanup))

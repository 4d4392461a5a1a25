/* Malformed perf.data files (issue 5): truncated header, bad magic, attr size
 * mismatch, a record whose size runs past the end, an AUXTRACE payload cut
 * short (file and pipe mode), a COMPRESSED record that is not zstd, a zstd
 * frame cut short, a feature section past the end. The reader must refuse
 * each with -AP_ERR_FORMAT, the file offset and record type concerned, and a
 * message that says what is wrong; never crash (ASan build). Also: a record
 * type this reader does not know is skipped by its size, not an error; and
 * every prefix of a good file is refused or read without crashing. */
#include <unistd.h>

#include "armprof/perfdata.h"
#include "harness.h"
#include "perf_bytes.h"
#include "spe_stream.h"

static uint8_t *good;
static size_t good_len;

static void make_good(void)
{
	char path[64];
	snprintf(path, sizeof(path), "perfdata_malformed_%d.data", (int)getpid());
	size_t n = 0;
	uint8_t *spe = spe_stream(5, 30, NULL, 0, 10, &n);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create(&w, path, NULL, &err) == 0);
	ap_perf_write_comm(w, 10, 10, "prog", 0);
	ap_perf_write_mmap2(w, 10, 10, 0x400000, 0x1000, 0, 5, "/prog", 0);
	ap_perf_write_aux(w, 0, 10, 10, spe, n, 0, 0);
	CHECK(ap_perf_writer_finish(w, &err) == 0);
	good = pb_slurp(path, &good_len);
	CHECK(good != NULL);
	unlink(path);
	free(spe);
}

TEST(good_file_reads)
{
	make_good();
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK(ap_perf_reader_create_mem(&r, good, good_len, NULL, &err) == 0);
	CHECK_EQ_U64(ap_perf_info(r)->n_aux_buffers, 1);
	ap_perf_reader_destroy(r);
}

TEST(each_malformed_file_is_refused_with_offset_and_record_type)
{
	struct pb_malformed m[PB_N_MALFORMED];
	int n = pb_make_malformed(good, good_len, m);
	CHECK_EQ_U64(n, PB_N_MALFORMED);
	for (int i = 0; i < n; i++) {
		struct ap_perf_reader *r = NULL;
		struct ap_error_ctx err;
		int rc = ap_perf_reader_create_mem(&r, m[i].bytes, m[i].len, NULL, &err);
		printf("  %s: %s @0x%llx: %s\n", m[i].name, err.where, (unsigned long long)err.offset, err.message);
		CHECK_EQ_U64(-rc, m[i].code);
		CHECK(r == NULL);
		CHECK_EQ_U64(err.offset, m[i].offset);
		CHECK_EQ_U64(err.record_type, m[i].record_type);
		CHECK(strstr(err.where, m[i].where) != NULL);
		CHECK(strstr(err.message, m[i].msg) != NULL);
		free(m[i].bytes);
	}
}

TEST(byte_swapped_file_is_unsupported)
{
	uint8_t b[104] = "2ELIFREP";
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK_EQ_U64(-ap_perf_reader_create_mem(&r, b, sizeof(b), NULL, &err), AP_ERR_UNSUPPORTED);
	CHECK(strstr(err.message, "byte-swapped") != NULL);
}

TEST(unknown_record_type_is_skipped_by_size)
{
	size_t plen;
	uint8_t *pipe = pb_rewrap_pipe(good, 0, &plen);
	struct pb_buf o = { 0 };
	pb_put(&o, pipe, 16);
	pb_put_hdr(&o, 200, 24); /* not a perf record type: 16 payload bytes */
	pb_put(&o, "0123456789abcdef", 16);
	pb_put(&o, pipe + 16, plen - 16);
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK(ap_perf_reader_create_mem(&r, o.p, o.n, NULL, &err) == 0);
	CHECK_EQ_U64(ap_perf_info(r)->n_unknown_records, 1);
	CHECK_EQ_U64(ap_perf_info(r)->n_aux_buffers, 1);
	ap_perf_reader_destroy(r);
	free(o.p);
	free(pipe);
}

TEST(every_prefix_is_refused_or_read)
{
	/* file mode: any cut loses the feature table or the data section */
	size_t refused = 0;
	for (size_t len = 0; len < good_len; len++) {
		uint8_t *copy = malloc(len + 1); /* exact size: ASan sees overreads */
		memcpy(copy, good, len);
		struct ap_perf_reader *r;
		struct ap_error_ctx err;
		int rc = ap_perf_reader_create_mem(&r, copy, len, NULL, &err);
		refused += rc == -AP_ERR_FORMAT;
		if (!rc)
			ap_perf_reader_destroy(r);
		free(copy);
	}
	CHECK_EQ_U64(refused, good_len);
}

TEST(cleanup) { free(good); }

TEST_MAIN(CASE(good_file_reads), CASE(each_malformed_file_is_refused_with_offset_and_record_type),
          CASE(byte_swapped_file_is_unsupported), CASE(unknown_record_type_is_skipped_by_size),
          CASE(every_prefix_is_refused_or_read), CASE(cleanup))

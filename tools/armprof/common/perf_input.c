/* perf.data input for the subcommands: see perf_input.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/number.h"
#include "cli_inputs.h"
#include "cli_stream.h"
#include "commands.h"
#include "perf_input.h"

int perf_input_sniff(const char *cmd, const char *path)
{
	if (cli_stream_is_stream(path))
		return cli_stream_is_perf(cmd, path);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	uint8_t magic[8];
	size_t n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	return ap_perf_is_perfdata(magic, n);
}

int perf_input_report(const char *cmd, const char *path, int rc, const struct ap_error_ctx *err)
{
	if (err->in_compressed)
		fprintf(stderr, "armprof %s: %s:0x%" PRIx64 ": %s (PERF_RECORD_COMPRESSED, decompressed offset 0x%" PRIx64 "): %s\n",
		        cmd, path, err->offset, err->where, err->inner_offset, err->message);
	else if (err->where[0])
		fprintf(stderr, "armprof %s: %s:0x%" PRIx64 ": %s: %s\n", cmd, path, err->offset,
		        err->where, err->message);
	else
		fprintf(stderr, "armprof %s: %s: %s\n", cmd, path, err->message);
	return (rc == -AP_ERR_FORMAT || rc == -AP_ERR_UNSUPPORTED) ? EXIT_DATA_ERROR : EXIT_USAGE;
}

int perf_input_parse_id(const char *s, int32_t *out)
{
	uint64_t v;
	if (!strcmp(s, "-1")) { /* perf's "any" */
		*out = -1;
		return 0;
	}
	if (ap_parse_u64(s, &v) < 0 || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

int perf_input_open(struct perf_input *in, const char *cmd, const char *path, int32_t cpu,
                    int32_t tid)
{
	memset(in, 0, sizeof(*in));
	in->cmd = cmd;
	in->path = path;
	struct ap_error_ctx err;
	cli_input_note(path); /* no output may be it */
	/* A perf.data read from a pipe was copied to a file (cli_stream.h):
	 * mapped from there like any file. */
	const char *copy = cli_stream_perf_path(path);
	int rc = copy                  ? ap_perf_reader_create_file(&in->reader, copy, NULL, &err)
	         : !strcmp(path, "-") ? ap_perf_reader_create_fd(&in->reader, STDIN_FILENO, NULL, &err)
	                              : ap_perf_reader_create_file(&in->reader, path, NULL, &err);
	if (rc)
		return perf_input_report(cmd, path, rc, &err);
	const struct ap_perf_info *info = ap_perf_info(in->reader);
	if (info->has_auxtrace_info && info->auxtrace_type != AP_PERF_AUXTRACE_ARM_SPE)
		fprintf(stderr, "armprof %s: %s: warning: AUXTRACE_INFO type %u is not Arm SPE (4); decoding the AUX data as SPE anyway\n",
		        cmd, path, info->auxtrace_type);
	ap_perf_aux_iter_init(&in->it);
	in->it.cpu = cpu;
	in->it.tid = tid;
	return 0;
}

int perf_input_next(struct perf_input *in, const struct ap_decoder *dec, const uint8_t **data,
                    size_t *len)
{
	if (!ap_perf_next_aux_buffer(in->reader, &in->it, &in->cur))
		return 0;
	if (dec)
		in->before = *ap_decoder_stats(dec);
	in->n_selected++;
	in->n_truncated += (in->cur->aux_flags & AP_PERF_AUX_FLAG_TRUNCATED) != 0;
	in->n_collision += (in->cur->aux_flags & AP_PERF_AUX_FLAG_COLLISION) != 0;
	*data = in->cur->data;
	*len = (size_t)in->cur->unpadded_size;
	return 1;
}

int perf_input_feed_buffer(struct perf_input *in, struct ap_decoder *dec, const uint8_t *data, size_t len)
{
	/* In pieces, each given back once fed (the decoder keeps a split
	 * packet's bytes itself): a buffer of any size adds at most a piece to
	 * the resident size. */
	const size_t piece = 4u << 20;
	for (size_t off = 0; off < len; off += piece) {
		size_t n = len - off < piece ? len - off : piece;
		int rc = ap_decoder_feed(dec, data + off, n);
		perf_input_release(in, data + off, n);
		if (rc)
			return rc;
	}
	return 0;
}

void perf_input_release(const struct perf_input *in, const uint8_t *data, size_t len)
{
	ap_perf_reader_release(in->reader, data, len);
}

void perf_input_buffer_done(struct perf_input *in, const struct ap_decoder *dec, FILE *out)
{
	const struct ap_perf_aux_buffer *b = in->cur;
	if (!b)
		return;
	const struct ap_decoder_stats *st = ap_decoder_stats(dec);
	int trunc = (b->aux_flags & AP_PERF_AUX_FLAG_TRUNCATED) != 0;
	int coll = (b->aux_flags & AP_PERF_AUX_FLAG_COLLISION) != 0;
	fprintf(out,
	        "%s: aux buffer %" PRIu32 ": cpu %" PRId32 " tid %" PRId32 " idx %" PRIu32
	        " at file offset 0x%" PRIx64 ": %" PRIu64 " bytes, %" PRIu64 " records (%" PRIu64
	        " truncated)%s%s%s\n",
	        in->path, b->seq, b->cpu, b->tid, b->idx, b->data_offset, b->unpadded_size,
	        st->records - in->before.records, st->truncated_records - in->before.truncated_records,
	        trunc ? ", AUX truncated (buffer full)" : "", coll ? ", AUX collision (records lost)" : "",
	        (b->aux_flags & AP_PERF_AUX_FLAG_PARTIAL) ? ", AUX partial" : "");
}

/* "0, 1, 2" (at most 8, then "..."): the distinct cpu or tid values of the
 * file's AUX buffers. */
static void list_ids(const struct ap_perf_info *info, int tids, char *buf, size_t cap)
{
	size_t len = 0, shown = 0;
	buf[0] = 0;
	for (size_t i = 0; i < info->n_aux_buffers && len < cap; i++) {
		int32_t v = tids ? info->aux_buffers[i].tid : info->aux_buffers[i].cpu;
		size_t k = 0;
		while (k < i && (tids ? info->aux_buffers[k].tid : info->aux_buffers[k].cpu) != v)
			k++;
		if (k < i)
			continue; /* seen */
		if (shown++ == 8) {
			snprintf(buf + len, cap - len, ", ...");
			return;
		}
		int n = snprintf(buf + len, cap - len, "%s%" PRId32, len ? ", " : "", v);
		if (n < 0)
			return;
		len += (size_t)n;
	}
}

int perf_input_check_read(const struct perf_input *in)
{
	struct ap_error_ctx err = { 0 };
	int rc = ap_perf_reader_check(in->reader, &err);
	return rc ? perf_input_report(in->cmd, in->path, rc, &err) : 0;
}

int perf_input_check_selection(const struct perf_input *in)
{
	const struct ap_perf_info *info = ap_perf_info(in->reader);
	if (in->n_selected)
		return 0;
	if (!info->n_aux_buffers) {
		fprintf(stderr, "armprof %s: %s: warning: the perf.data holds no AUX buffer (no SPE data)\n", in->cmd,
		        in->path);
		return 0;
	}
	char cpus[128], tids[128];
	list_ids(info, 0, cpus, sizeof(cpus));
	list_ids(info, 1, tids, sizeof(tids));
	fprintf(stderr, "armprof %s: %s: the selection (", in->cmd, in->path);
	if (in->it.cpu != AP_PERF_ANY)
		fprintf(stderr, "--cpu %" PRId32 "%s", in->it.cpu, in->it.tid != AP_PERF_ANY ? " " : "");
	if (in->it.tid != AP_PERF_ANY)
		fprintf(stderr, "--tid %" PRId32, in->it.tid);
	fprintf(stderr, ") matches none of its %zu AUX buffers (their CPUs: %s; threads: %s)\n", info->n_aux_buffers,
	        cpus, tids);
	return EXIT_DATA_ERROR;
}

void perf_input_note_cuts(const struct perf_input *in, FILE *out)
{
	if (in->n_cut_excused)
		fprintf(out,
		        "%s: note: %" PRIu64 " last record%s of AUX buffers perf marked truncated (the buffer filled) "
		        "or overwritten (snapshot mode) cut short: not counted as errors\n",
		        in->path, in->n_cut_excused, in->n_cut_excused == 1 ? "" : "s");
}

void perf_input_close(struct perf_input *in, FILE *out)
{
	if (out && in->reader) {
		const struct ap_perf_info *info = ap_perf_info(in->reader);
		fprintf(out,
		        "%s: perf.data: %zu of %zu AUX buffers selected, %" PRIu64 " truncated, %" PRIu64
		        " with collisions\n",
		        in->path, in->n_selected, info->n_aux_buffers, in->n_truncated, in->n_collision);
	}
	if (out)
		perf_input_note_cuts(in, out);
	ap_perf_reader_destroy(in->reader);
	in->reader = NULL;
}

int perf_input_finish_aux(const struct ap_perf_aux_buffer *b, struct ap_decoder *dec)
{
	const struct ap_decoder_stats *st = ap_decoder_stats(dec);
	uint64_t cut = st->truncated_records, bad = st->records_with_errors;
	ap_decoder_finish(dec);
	/* The record the finish cut is the decoder's last one: the tool reads
	 * its error count from the decoder it owns. */
	int explained = b && (b->aux_flags & (AP_PERF_AUX_FLAG_TRUNCATED | AP_PERF_AUX_FLAG_OVERWRITE));
	return explained && st->truncated_records == cut + 1 && st->records_with_errors == bad + 1 &&
	       dec->rec.n_errors_total == 1;
}

int perf_input_finish_buffer(struct perf_input *in, struct ap_decoder *dec)
{
	int excused = perf_input_finish_aux(in->cur, dec);
	in->n_cut_excused += (uint64_t)excused;
	return excused;
}

int perf_input_feed(const char *cmd, const char *path, int32_t cpu, int32_t tid,
                    struct ap_decoder *dec, int verbose,
                    void (*on_open)(void *ctx, const struct ap_perf_info *info), void *ctx,
                    uint64_t *cut_excused)
{
	struct perf_input in;
	int rc = perf_input_open(&in, cmd, path, cpu, tid);
	if (rc)
		return rc;
	if (on_open)
		on_open(ctx, ap_perf_info(in.reader));
	const uint8_t *p;
	size_t n;
	while (perf_input_next(&in, dec, &p, &n)) {
		perf_input_feed_buffer(&in, dec, p, n);
		perf_input_finish_buffer(&in, dec);
		if (verbose || (in.cur->aux_flags & (AP_PERF_AUX_FLAG_TRUNCATED | AP_PERF_AUX_FLAG_COLLISION)))
			perf_input_buffer_done(&in, dec, stderr);
	}
	*cut_excused = in.n_cut_excused;
	rc = perf_input_check_read(&in);
	if (!rc)
		rc = perf_input_check_selection(&in);
	perf_input_close(&in, stderr);
	return rc;
}

/* perf.data as an input of the armprof subcommands: detection by magic,
 * error messages with file offset and record type, and iteration over the
 * AUX buffers a command selected (--cpu/--tid) with a per-buffer summary. */
#ifndef ARMPROF_TOOL_PERF_INPUT_H
#define ARMPROF_TOOL_PERF_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"

/* 1 if path is a perf.data file, 0 if not or unreadable (the caller's own
 * open reports). "-" and pipes by their magic too (cli_stream.h: a
 * perf.data there is copied to a temporary file first); -1 when it could
 * not be read or copied (the reason printed). */
int perf_input_sniff(const char *cmd, const char *path);

/* "armprof CMD: PATH:0x1c0: PERF_RECORD_AUXTRACE: message" on stderr; returns
 * the exit code for it (1 malformed/unsupported data, 2 I/O or memory). */
int perf_input_report(const char *cmd, const char *path, int rc, const struct ap_error_ctx *err);

/* Parse "--cpu N" / "--tid N" style values: an int >= -1. */
int perf_input_parse_id(const char *s, int32_t *out);

struct perf_input {
	const char *cmd, *path;
	struct ap_perf_reader *reader;
	struct ap_perf_aux_iter it;
	const struct ap_perf_aux_buffer *cur;
	struct ap_decoder_stats before; /* decoder totals when cur began */
	size_t n_selected;
	uint64_t n_truncated, n_collision;
	uint64_t n_cut_excused; /* perf_input_finish_buffer */
};

/* Open path ("-": stdin) and select buffers by cpu/tid (AP_PERF_ANY for
 * all). Returns 0, or prints the error and returns the exit code. */
int perf_input_open(struct perf_input *in, const char *cmd, const char *path, int32_t cpu,
                    int32_t tid);
/* Next selected buffer's bytes (without perf record's 8-byte padding); 0 at
 * the end. dec, if not NULL, is the decoder the caller feeds: its totals are
 * remembered for perf_input_buffer_done. */
int perf_input_next(struct perf_input *in, const struct ap_decoder *dec, const uint8_t **data,
                    size_t *len);
/* Feed a buffer's bytes (perf_input_next's) to dec, giving back the file's
 * pages as they are fed (perf_input_release): ap_decoder_feed's result. */
int perf_input_feed_buffer(struct perf_input *in, struct ap_decoder *dec, const uint8_t *data, size_t len);
/* Done with these bytes of a buffer: the mapped file's pages leave memory
 * (ap_perf_reader_release), so that the resident size stays flat whatever
 * the size of the perf.data. */
void perf_input_release(const struct perf_input *in, const uint8_t *data, size_t len);
/* End the buffer just fed (ap_decoder_finish). A last record cut short
 * is an error of the stream, unless the capture says why it was cut: perf
 * marked the AUX data truncated (the profiling buffer filled, and the
 * driver stopped it mid-record) or overwritten (snapshot mode, -S: the
 * ring wrapped). Returns 1 when the record finish cut had no other error
 * and the buffer's AUX flags say so: the caller does not count it as an
 * error (in->n_cut_excused counts them; perf_input_close says so). */
int perf_input_finish_buffer(struct perf_input *in, struct ap_decoder *dec);
/* The same for buffer b alone, without counting (a decode thread's; the
 * caller adds the 1s to in->n_cut_excused in buffer order). */
int perf_input_finish_aux(const struct ap_perf_aux_buffer *b, struct ap_decoder *dec);
/* One line on out for the buffer just fed: where it came from, bytes,
 * records (from dec's totals) and its AUX flags (truncated: the profiling
 * buffer filled; collision: PMBSR_EL1.COLL, records lost). */
void perf_input_buffer_done(struct perf_input *in, const struct ap_decoder *dec, FILE *out);
/* After the last perf_input_next (and before any output is kept): the
 * file shrank while it was read (ap_perf_reader_check)? Prints
 * "armprof CMD: PATH: the file shrank while being read (offset N)" and
 * returns EXIT_USAGE (an I/O error); else 0. */
int perf_input_check_read(const struct perf_input *in);
/* After the last perf_input_next: a --cpu/--tid selection that selected
 * no AUX buffer of a file that has some is an error (printed, with the
 * CPUs and threads the file has): EXIT_DATA_ERROR; a file without AUX
 * buffers gets a warning; else 0. */
int perf_input_check_selection(const struct perf_input *in);
/* The note on out of perf_input_finish_buffer's excused records, if any. */
void perf_input_note_cuts(const struct perf_input *in, FILE *out);
/* Summary line on out (buffers selected, flags seen) and the note above;
 * closes the reader. */
void perf_input_close(struct perf_input *in, FILE *out);

/* All of the above for `armprof decode`/`report`: feed each selected AUX
 * buffer of the perf.data at path to dec as its own stream (finished after
 * each buffer: the SPE driver never splits a record across buffers), print a
 * line per buffer on stderr when verbose or when the buffer was truncated or
 * had a collision, then the summary. Returns 0 or the exit code (after
 * printing the error; perf_input_check_selection's included). */
int perf_input_feed(const char *cmd, const char *path, int32_t cpu, int32_t tid,
                    struct ap_decoder *dec, int verbose,
                    void (*on_open)(void *ctx, const struct ap_perf_info *info), void *ctx,
                    uint64_t *cut_excused);

#endif

/* `armprof decode` of a perf.data: every selected AUX buffer decoded as its
 * own stream, at the offset it has in the serial decode (the sum of the
 * buffers before it), its records put to the sink in buffer order. With
 * jobs > 1 and at least 2 MiB of AUX data selected the buffers are decoded
 * (and formatted) on that many threads (decode_parallel.h), the results put
 * to the sink in the same order: the output is the serial one, byte for
 * byte. --stats says which path was taken. */
#ifndef ARMPROF_TOOL_DECODE_PERF_H
#define ARMPROF_TOOL_DECODE_PERF_H

#include <stdint.h>

#include "armprof/decode.h"
#include "decode_sink.h"
#include "perf_input.h"

struct decode_perf_opts {
	const char *path;
	int32_t cpu, tid;   /* --cpu/--tid selection (AP_PERF_ANY: all) */
	int verbose;        /* a line per buffer (else only flagged buffers) */
	int packets;        /* the --packets listing instead of records */
	enum record_format fmt; /* the text format, for parallel formatting */
	unsigned jobs;      /* -j: threads; 1 decodes in this thread, 0 the default (decode_threads) */
	int have_encoding;  /* --cpu-model given: else the perf.data's CPUID names
	                       the Data Source values (decode_sink_set_encoding) */
	int spe_later;      /* --spe-later: ap_decoder_config.spe_later */
};

/* Decode in (perf_input_open'ed before the sink was opened: a perf.data
 * whose header is bad leaves no output, not even a CSV header on standard
 * output) into sink, and close in; *totals gets the
 * decoder totals over all buffers, *cut_excused the records cut where the
 * capture says why (perf_input_finish_buffer). Returns 0, or the exit code
 * after printing the error. */
int decode_perf(struct perf_input *in, const struct decode_perf_opts *o, struct decode_sink *sink,
                struct ap_decoder_stats *totals, uint64_t *cut_excused);

/* The threads decode_perf decodes in's selection on for -j jobs: 1 when
 * jobs is 1 or the selected AUX data is under 2 MiB; else jobs, or for 0
 * (no -j) the CPUs this process may run on that other threads leave idle
 * now (at least 1). */
unsigned decode_threads(const struct perf_input *in, unsigned jobs);

#endif

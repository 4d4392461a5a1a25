/* `armprof decode -j N` of a perf.data (decode_perf.h): the AUX buffers cut
 * into segments at record ends, each segment decoded (and formatted, or
 * made Parquet row groups) by one of N threads (the calling one and N - 1
 * more), the results put to the sink in input order by whichever thread
 * finds the oldest done: the bytes of -j 1. The segments in flight (queued, being decoded, or decoded and
 * waiting for the ones before them) are at most DECODE_WINDOW_PER_JOB * N
 * + 1 (N + 1 for Parquet, whose segments are whole row groups): the
 * reorder window that bounds the memory. */
#ifndef ARMPROF_TOOL_DECODE_PARALLEL_H
#define ARMPROF_TOOL_DECODE_PARALLEL_H

#include "decode_perf.h"

#define DECODE_WINDOW_PER_JOB 2

/* Decode in's selected buffers on jobs (>= 2) threads into sink; *totals
 * the decoder totals. 0, or the exit code after printing why. */
int decode_parallel(struct perf_input *in, const struct decode_perf_opts *o, struct decode_sink *sink,
                    struct ap_decoder_stats *totals, unsigned jobs);

/* The decoder totals: into += s. */
void decode_add_stats(struct ap_decoder_stats *into, const struct ap_decoder_stats *s);

/* A buffer perf marked truncated or with a collision (its line is printed
 * even without --stats). */
int decode_buffer_flagged(const struct ap_perf_aux_buffer *b);

#endif

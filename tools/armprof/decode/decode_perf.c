/* Serial and parallel decode of a perf.data's AUX buffers: see decode_perf.h. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "decode_perf.h"
#include "decode_parallel.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "perf_input.h"

/* Below this much selected AUX data, -j N decodes on this thread as -j 1
 * does: threads do not pay for themselves there. What -j adds is fixed: two
 * threads, the ring's memory first touched (about 450 page faults more at
 * 1 MiB, `perf stat`), and 10% more instructions (the cutting walk,
 * callgrind: 52.8 M against 47.9 M at 1 MiB); against it, the work split
 * in two, about 3 ms a MiB of JSONL at -j 1. Break-even on two idle CPUs
 * is thus near 1 MiB (docs/PERFORMANCE.md "decode -j"): twice that keeps
 * -j 2 from ever being the slower. */
#define PARALLEL_MIN_BYTES (2u << 20)

unsigned decode_default_jobs(void)
{
	/* The CPUs this process may run on, less those the last minute's load
	 * average keeps busy: a thread beyond the idle CPUs only waits for one,
	 * and -j's cutting and copying then make it slower than -j 1 (measured
	 * at a load of 5 on 2 CPUs, docs/PERFORMANCE.md). */
	cpu_set_t set;
	int cpus = sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
	double load[1];
	int idle = getloadavg(load, 1) == 1 && load[0] >= 0 && load[0] < cpus ? cpus - (int)load[0] : 1;
	return (unsigned)(idle < 1 ? 1 : idle);
}

/* ---- serial ---------------------------------------------------------- */

struct serial_ctx {
	struct decode_sink *sink;
	struct record_origin origin;
};

static int serial_record(void *ctx, const struct ap_record *rec)
{
	struct serial_ctx *c = ctx;
	decode_sink_put(c->sink, rec, &c->origin);
	return 0;
}

static int serial_packet(void *ctx, uint64_t offset, const uint8_t *bytes,
                         const struct ap_packet *pkt, int in_record)
{
	struct serial_ctx *c = ctx;
	packet_format_write(decode_sink_stream(c->sink), offset, bytes, pkt, in_record);
	return 0;
}

static void decode_serial(struct perf_input *in, const struct decode_perf_opts *o,
                          struct decode_sink *sink, struct ap_decoder_stats *totals)
{
	struct serial_ctx c = { .sink = sink, .origin = { .has = 1 } };
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = serial_record;
	cfg.on_packet = o->packets ? serial_packet : NULL;
	cfg.ctx = &c;
	cfg.spe_later = (uint8_t)o->spe_later;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	const uint8_t *p;
	size_t n;
	while (perf_input_next(in, &dec, &p, &n)) {
		c.origin.cpu = in->cur->cpu;
		c.origin.tid = in->cur->tid;
		perf_input_feed_buffer(in, &dec, p, n);
		perf_input_finish_buffer(in, &dec);
		decode_sink_end_buffer(sink);
		if (o->verbose || decode_buffer_flagged(in->cur))
			perf_input_buffer_done(in, &dec, stderr);
	}
	*totals = *ap_decoder_stats(&dec);
}

/* The AUX data the selection takes (the buffers' headers only: nothing is
 * read of the data). */
static uint64_t selected_bytes(const struct perf_input *in)
{
	struct ap_perf_aux_iter it = in->it;
	const struct ap_perf_aux_buffer *b;
	uint64_t n = 0;
	while (ap_perf_next_aux_buffer(in->reader, &it, &b))
		n += b->unpadded_size;
	return n;
}

unsigned decode_threads(const struct perf_input *in, unsigned jobs)
{
	return jobs > 1 && selected_bytes(in) >= PARALLEL_MIN_BYTES ? jobs : 1;
}

int decode_perf(struct perf_input *in, const struct decode_perf_opts *o, struct decode_sink *sink,
                struct ap_decoder_stats *totals, uint64_t *cut_excused)
{
	int rc = 0;
	const struct ap_perf_info *info = ap_perf_info(in->reader);
	if (!o->have_encoding && info->has_midr) /* its Data Source values, by its CPUID */
		decode_sink_set_encoding(sink, ap_ds_encoding_of_midr(info->midr));
	unsigned threads = decode_threads(in, o->jobs);
	if (o->verbose)
		fprintf(stderr, "armprof decode: -j %u: %s\n", o->jobs,
		        threads > 1 ? "decoding on that many threads"
		        : o->jobs > 1 ? "decoding on this thread (under 2 MiB of AUX data: threads would not pay)"
		                      : "decoding on this thread");
	if (threads > 1)
		rc = decode_parallel(in, o, sink, totals);
	else
		decode_serial(in, o, sink, totals);
	*cut_excused = in->n_cut_excused;
	int shrank = perf_input_check_read(in);
	if (shrank)
		rc = shrank;
	if (!rc)
		rc = perf_input_check_selection(in);
	perf_input_close(in, stderr);
	return rc;
}

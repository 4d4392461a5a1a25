/* Serial and parallel decode of a perf.data's AUX buffers: see decode_perf.h. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "decode_perf.h"
#include "decode_parallel.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/number.h"
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

/* Threads runnable now in the whole system, this one included, the least
 * of three looks 0.5 ms apart (a pipeline's other commands are runnable
 * for a moment as they start): /proc/loadavg's fourth field,
 * "RUNNABLE/TOTAL". 0 when it cannot be read. */
static unsigned runnable_now(void)
{
	unsigned least = 0;
	for (int look = 0; look < 3; look++) {
		if (look)
			nanosleep(&(struct timespec){ .tv_nsec = 500000 }, NULL);
		char buf[160];
		FILE *f = fopen("/proc/loadavg", "r");
		if (!f)
			return 0;
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = 0;
		char *field = buf;
		for (int i = 0; i < 3 && field; i++)
			if ((field = strchr(field, ' ')))
				field++;
		char *slash = field ? strchr(field, '/') : NULL;
		uint64_t r;
		if (!slash)
			return 0;
		*slash = 0;
		if (ap_parse_u64(field, &r) != 0 || r == 0 || r >= 1u << 20)
			return 0;
		if (!least || r < least)
			least = (unsigned)r;
	}
	return least;
}

/* -j's default: the CPUs this process may run on, less those other threads
 * keep busy now: a thread beyond the idle CPUs only waits for one, and
 * -j's cutting and copying then make it slower than -j 1 (at a load of 5
 * on 2 CPUs, docs/PERFORMANCE.md). Now, not the load average: a minute's
 * average still counts a command that just ended (a decode right after
 * another one took -j 1 on an idle machine, 1.7x slower). */
static unsigned default_jobs(void)
{
	cpu_set_t set;
	int cpus = sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
	unsigned others = runnable_now();
	others = others ? others - 1 : 0; /* this thread is one of them */
	return others < (unsigned)cpus ? (unsigned)cpus - others : 1;
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
	if (jobs == 1 || selected_bytes(in) < PARALLEL_MIN_BYTES)
		return 1;
	return jobs ? jobs : default_jobs();
}

int decode_perf(struct perf_input *in, const struct decode_perf_opts *o, struct decode_sink *sink,
                struct ap_decoder_stats *totals, uint64_t *cut_excused)
{
	int rc = 0;
	const struct ap_perf_info *info = ap_perf_info(in->reader);
	if (!o->have_encoding && info->has_midr) /* its Data Source values, by its CPUID */
		decode_sink_set_encoding(sink, ap_ds_encoding_of_midr(info->midr));
	unsigned threads = decode_threads(in, o->jobs);
	unsigned jobs = o->jobs ? o->jobs : threads; /* the default as taken, 1 under 2 MiB */
	if (o->verbose)
		fprintf(stderr, "armprof decode: -j %u: %s\n", jobs,
		        threads > 1 ? "decoding on that many threads"
		        : jobs > 1 ? "decoding on this thread (under 2 MiB of AUX data: threads would not pay)"
		                   : "decoding on this thread");
	if (threads > 1)
		rc = decode_parallel(in, o, sink, totals, threads);
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

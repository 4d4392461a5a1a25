/* Serial and parallel decode of a perf.data's AUX buffers: see decode_perf.h. */
#define _GNU_SOURCE /* sched_getaffinity, open_memstream */
#include "decode_perf.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "perf_input.h"

/* A batch holds jobs until this much input per thread (at least one job
 * per thread): with SEGMENT_BYTES, what bounds the memory of the decoded,
 * not yet written, results (two batches are in flight), whatever the size
 * of the input and of its AUX buffers. */
#define BATCH_INPUT_BYTES_PER_JOB (256u << 10)
#define BATCH_MAX_BUFFERS 256
/* A job decodes a segment of a buffer, cut after a record's End or
 * Timestamp packet (found by a decode on this thread without output: a
 * tenth of the time formatting takes), so that a large AUX buffer's output
 * is never held whole: text formats, about this many bytes; Parquet,
 * DECODE_GROUP_RECORDS records, where -j 1's row groups end too. */
#define SEGMENT_BYTES (256u << 10)

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

static void add_stats(struct ap_decoder_stats *into, const struct ap_decoder_stats *s)
{
	into->bytes += s->bytes;
	into->packets += s->packets;
	into->records += s->records;
	into->pad_bytes += s->pad_bytes;
	into->align_bytes += s->align_bytes;
	into->unknown_packets += s->unknown_packets;
	into->reserved_packets += s->reserved_packets;
	into->truncated_records += s->truncated_records;
	into->forced_records += s->forced_records;
	into->records_with_errors += s->records_with_errors;
}

static int flagged(const struct ap_perf_aux_buffer *b)
{
	return (b->aux_flags & (AP_PERF_AUX_FLAG_TRUNCATED | AP_PERF_AUX_FLAG_COLLISION)) != 0;
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
		if (o->verbose || flagged(in->cur))
			perf_input_buffer_done(in, &dec, stderr);
	}
	*totals = *ap_decoder_stats(&dec);
}

/* ---- parallel -------------------------------------------------------- */

/* One buffer's decode: in, the buffer and its offset in the serial stream;
 * out, its text (text formats, --packets) or its Parquet row groups (in
 * memory tables), and the decoder (its totals are this buffer's). */
/* Text in memory: a job's output, kept (emptied) from batch to batch. */
struct text {
	char *p;
	size_t len, cap;
};

static int text_append(void *ctx, const void *buf, size_t len)
{
	struct text *t = ctx;
	if (t->cap - t->len < len) {
		size_t cap = t->cap ? t->cap : (1u << 20);
		while (cap - t->len < len)
			cap *= 2;
		char *p = realloc(t->p, cap);
		if (!p) {
			errno = ENOMEM;
			return -1;
		}
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->len, buf, len);
	t->len += len;
	return 0;
}

struct job {
	const struct ap_perf_aux_buffer *b;
	const uint8_t *data;  /* the buffer's bytes, or a segment of them */
	size_t len;
	int first, last;      /* the buffer's first and last segment */
	uint64_t base;
	const struct decode_perf_opts *o;
	int text;
	struct record_writer *writer; /* text formats: into out */
	struct text *out;
	FILE *mem;                    /* --packets: the listing */
	char *text_buf;
	size_t text_len;
	struct record_parquet **tables; /* Parquet: the slot's, [0] or one per class */
	int split;
	struct record_origin origin;
	int oom;
	int excused; /* perf_input_finish_aux */
	enum ap_ds_encoding enc;
	struct ap_decoder dec;
};

static int job_record(void *ctx, const struct ap_record *rec)
{
	struct job *j = ctx;
	if (j->text) {
		if (!j->o->packets)
			record_writer_put(j->writer, rec);
		return 0;
	}
	struct record_parquet *t = j->tables[j->split ? (int)record_class_of(rec) : 0];
	if (record_parquet_put(t, rec, &j->origin) != 0) {
		j->oom = 1;
		return 1; /* stop this buffer's decode */
	}
	return 0;
}

static int job_packet(void *ctx, uint64_t offset, const uint8_t *bytes, const struct ap_packet *pkt,
                      int in_record)
{
	struct job *j = ctx;
	packet_format_write(j->mem, offset, bytes, pkt, in_record);
	return 0;
}

static void run_job(struct job *j)
{
	if (j->oom)
		return;
	if (j->text && j->o->packets) {
		j->mem = open_memstream(&j->text_buf, &j->text_len);
		if (!j->mem) {
			j->oom = 1;
			return;
		}
	} else if (j->text) {
		j->out->len = 0;
	}
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = job_record;
	cfg.on_packet = j->o->packets ? job_packet : NULL;
	cfg.ctx = j;
	cfg.base_offset = j->base;
	cfg.spe_later = (uint8_t)j->o->spe_later;
	ap_decoder_init(&j->dec, &cfg);
	if (j->writer)
		record_writer_set_encoding(j->writer, j->enc);
	ap_decoder_feed(&j->dec, j->data, j->len);
	if (j->last) {
		j->excused = perf_input_finish_aux(j->b, &j->dec);
	} else {
		ap_decoder_finish(&j->dec); /* cut at a record's end: nothing left */
		j->excused = 0;
	}
	for (int c = 0; !j->text && c < (j->split ? CLASS_COUNT : 1); c++)
		if (record_parquet_end_group(j->tables[c]) != 0)
			j->oom = 1;
	if (j->mem) {
		if (fclose(j->mem) != 0)
			j->oom = 1;
		j->mem = NULL;
	} else if (j->text) {
		record_writer_flush(j->writer);
		j->oom |= record_writer_failed(j->writer) != 0;
		j->text_buf = j->out->p;
		j->text_len = j->out->len;
	}
}

/* A batch of buffers: decoded by the threads while the previous batch's
 * results are put to the sink by this one, which then helps with what is
 * left. A slot's writer, text and record array are kept from batch to
 * batch. */
struct batch {
	struct job jobs[BATCH_MAX_BUFFERS];
	struct record_writer *writers[BATCH_MAX_BUFFERS];
	struct text texts[BATCH_MAX_BUFFERS];
	struct record_parquet *tables[BATCH_MAX_BUFFERS][CLASS_COUNT];
	size_t n;
	size_t next; /* the next job to take (atomic) */
	pthread_t tids[64];
	unsigned started;
};

static void *worker(void *arg)
{
	struct batch *b = arg;
	for (;;) {
		size_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
		if (i >= b->n)
			return NULL;
		run_job(&b->jobs[i]);
	}
}

static void batch_start(struct batch *b, unsigned threads)
{
	b->next = 0;
	b->started = 0;
	for (unsigned t = 0; t < threads && t < 64 && t < b->n; t++)
		if (pthread_create(&b->tids[b->started], NULL, worker, b) == 0)
			b->started++;
}

/* This thread takes the jobs left (all of them if no thread started),
 * then waits for the others. */
static void batch_finish(struct batch *b)
{
	worker(b);
	for (unsigned t = 0; t < b->started; t++)
		pthread_join(b->tids[t], NULL);
	b->started = 0;
}

/* Where batch_fill is in the AUX buffers: the one being cut into
 * segments, and what of it is left. */
struct cursor {
	const struct ap_perf_aux_buffer *b;
	const uint8_t *data;
	size_t len, pos;
	uint64_t base; /* stream offset of data[0] */
};

struct scan {
	uint64_t start, cut;
	int text;
	uint32_t records;
};

static int scan_record(void *ctx, const struct ap_record *rec)
{
	struct scan *s = ctx;
	uint64_t end = rec->offset + rec->size;
	if (s->text ? end - s->start < SEGMENT_BYTES : ++s->records < DECODE_GROUP_RECORDS)
		return 0;
	s->cut = end;
	return 1; /* stop: the segment ends here */
}

/* The bytes of the next segment of c's buffer: all that is left, or up to
 * the end of the first record that ends SEGMENT_BYTES or more after the
 * start (text), of the DECODE_GROUP_RECORDS-th record (Parquet). A decoder started there from scratch (at its stream offset) is
 * in the state the serial one is: between records, nothing carried. */
static size_t segment_len(const struct cursor *c, int text)
{
	size_t left = c->len - c->pos;
	if (text && left <= SEGMENT_BYTES + SEGMENT_BYTES / 2)
		return left;
	struct scan s = { c->base + c->pos, 0, text, 0 };
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = scan_record;
	cfg.ctx = &s;
	cfg.base_offset = s.start;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, c->data + c->pos, left);
	return s.cut ? (size_t)(s.cut - s.start) : left;
}

/* The next jobs, until the input budget (at least one per thread). */
static void batch_fill(struct batch *b, struct perf_input *in, const struct decode_perf_opts *o,
                       struct decode_sink *sink, enum ap_ds_encoding enc, struct cursor *c)
{
	size_t bytes = 0;
	int text = decode_sink_is_text(sink);
	b->n = 0;
	while (b->n < BATCH_MAX_BUFFERS && (bytes < BATCH_INPUT_BYTES_PER_JOB * o->jobs || b->n < o->jobs)) {
		if (!c->b) {
			const uint8_t *p;
			size_t len;
			if (!perf_input_next(in, NULL, &p, &len))
				break;
			c->b = in->cur;
			c->data = p;
			c->len = len;
			c->pos = 0;
		}
		size_t i = b->n++;
		struct job *j = &b->jobs[i];
		memset(j, 0, sizeof(*j));
		if (text && !o->packets && !b->writers[i] &&
		    !(b->writers[i] = record_writer_new_fn(text_append, &b->texts[i], o->fmt)))
			j->oom = 1;
		if (!text && !b->tables[i][0] && decode_sink_new_tables(sink, b->tables[i]) != 0)
			j->oom = 1;
		j->tables = b->tables[i];
		j->split = decode_sink_is_split(sink);
		j->out = &b->texts[i];
		j->writer = b->writers[i];
		j->b = c->b;
		j->origin = (struct record_origin){ 1, c->b->cpu, c->b->tid };
		size_t len = segment_len(c, text);
		j->data = c->data + c->pos;
		j->len = len;
		j->first = c->pos == 0;
		j->base = c->base + c->pos;
		c->pos += len;
		j->last = c->pos == c->len;
		j->o = o;
		j->text = text;
		j->enc = enc;
		bytes += len;
		if (j->last) {
			c->base += c->len;
			c->b = NULL;
		}
	}
}

/* The batch's results to the sink, in buffer order; buf_stats sums the
 * segments of the buffer under way. 0 or the exit code. */
static int batch_emit(struct batch *b, struct perf_input *in, const struct decode_perf_opts *o,
                      struct decode_sink *sink, struct ap_decoder_stats *totals,
                      struct ap_decoder_stats *buf_stats)
{
	int rc = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct job *j = &b->jobs[i];
		if (j->oom && !rc) {
			fprintf(stderr, "armprof decode: out of memory decoding the AUX buffer at file offset 0x%llx\n",
			        (unsigned long long)j->b->data_offset);
			rc = EXIT_USAGE;
		}
		if (!rc && j->text) {
			decode_sink_put_bytes(sink, j->text_buf, j->text_len);
		} else if (!rc) {
			decode_sink_put_tables(sink, j->tables);
		}
		perf_input_release(in, j->data, j->len);
		if (j->first)
			memset(buf_stats, 0, sizeof(*buf_stats));
		add_stats(totals, ap_decoder_stats(&j->dec));
		add_stats(buf_stats, ap_decoder_stats(&j->dec));
		in->n_cut_excused += (uint64_t)j->excused;
		if (j->last && (o->verbose || flagged(j->b))) {
			struct ap_decoder whole; /* the buffer's totals, for its line */
			whole.stats = *buf_stats;
			in->cur = j->b;
			memset(&in->before, 0, sizeof(in->before));
			perf_input_buffer_done(in, &whole, stderr);
		}
		if (o->packets)
			free(j->text_buf);
		j->text_buf = NULL;
	}
	return rc;
}

/* The formatters' lazily built tables are filled here, before any thread
 * formats (record_format.c: the quoted event names). */
static void prewarm_formatters(enum record_format fmt, enum ap_ds_encoding enc)
{
	struct ap_record r;
	memset(&r, 0, sizeof(r));
	r.has = AP_HAS_EVENTS;
	r.events = (1ull << AP_EV_NAMED_COUNT) - 1;
	r.end = AP_END_END;
	FILE *f = fopen("/dev/null", "w");
	if (f) {
		record_format_write(f, fmt, &r, enc);
		fclose(f);
	}
}

static int decode_parallel(struct perf_input *in, const struct decode_perf_opts *o,
                           struct decode_sink *sink, struct ap_decoder_stats *totals)
{
	struct batch *batches = calloc(2, sizeof(*batches));
	if (!batches) {
		fprintf(stderr, "armprof decode: out of memory\n");
		return EXIT_USAGE;
	}
	int text = decode_sink_is_text(sink);
	enum ap_ds_encoding enc = decode_sink_encoding(sink);
	if (text)
		prewarm_formatters(o->fmt, enc);
	memset(totals, 0, sizeof(*totals));
	struct cursor c = { 0 };
	struct ap_decoder_stats buf_stats = { 0 };
	int rc = 0;
	struct batch *cur = &batches[0], *next = &batches[1];
	batch_fill(cur, in, o, sink, enc, &c);
	batch_start(cur, o->jobs - 1);
	batch_finish(cur);
	while (cur->n) {
		batch_fill(next, in, o, sink, enc, &c);
		batch_start(next, o->jobs - 1); /* decoding while this thread writes */
		if (!rc)
			rc = batch_emit(cur, in, o, sink, totals, &buf_stats);
		batch_finish(next);
		struct batch *t = cur;
		cur = next;
		next = t;
	}
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < BATCH_MAX_BUFFERS; i++) {
			record_writer_free(batches[k].writers[i]);
			free(batches[k].texts[i].p);
			for (int k2 = 0; k2 < CLASS_COUNT; k2++)
				record_parquet_free(batches[k].tables[i][k2]);
		}
	free(batches);
	return rc;
}

int decode_perf(struct perf_input *in, const struct decode_perf_opts *o, struct decode_sink *sink,
                struct ap_decoder_stats *totals, uint64_t *cut_excused)
{
	int rc = 0;
	const struct ap_perf_info *info = ap_perf_info(in->reader);
	if (!o->have_encoding && info->has_midr) /* its Data Source values, by its CPUID */
		decode_sink_set_encoding(sink, ap_ds_encoding_of_midr(info->midr));
	if (o->jobs > 1)
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

/* Parallel decode of a perf.data's AUX buffers: see decode_parallel.h.
 *
 * Why it is built so (measured, docs/PERFORMANCE.md "decode -j"): the
 * batches of the version before (threads made and joined for every 512 KiB
 * of input, this thread writing one batch while the threads decoded the
 * next, each job's text formatted into a 64 KiB block and copied into a
 * growing one) left a core idle at each batch's end and copied the whole
 * output once more (17% of the instructions, callgrind), so that -j 2 was
 * slower than -j 1 on an 80 MiB file. Now the threads live for the whole
 * decode, each cutting, decoding and writing segments in turn (struct
 * pool); a segment's text is formatted straight into the memory it is
 * written from; the cuts come from a walk over packet headers. */
#define _GNU_SOURCE /* open_memstream */
#include "decode_parallel.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

/* A text segment ends at the first record ending this many bytes or more
 * after its start (about ten times that in JSONL, 650 KB: a job's text
 * stays in the core's 1 MiB L2 until written); Parquet's end after DECODE_GROUP_RECORDS
 * records, where -j 1's row groups end too. */
#define SEGMENT_BYTES (64u << 10)
#define MAX_THREADS 64

void decode_add_stats(struct ap_decoder_stats *into, const struct ap_decoder_stats *s)
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

int decode_buffer_flagged(const struct ap_perf_aux_buffer *b)
{
	return (b->aux_flags & (AP_PERF_AUX_FLAG_TRUNCATED | AP_PERF_AUX_FLAG_COLLISION)) != 0;
}

/* ---- a job: one segment's decode --------------------------------------- */

struct job {
	const struct ap_perf_aux_buffer *b;
	const uint8_t *data; /* the segment's bytes */
	size_t len;
	int first, last;     /* the buffer's first and last segment */
	uint64_t base;       /* stream offset of data[0] */
	const struct decode_perf_opts *o;
	int text;
	struct record_writer *writer;   /* text formats: the slot's, into memory */
	FILE *mem;                      /* --packets: the listing */
	char *packets_buf;
	const char *text_buf;           /* the result (text, --packets) */
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
		return 1; /* stop this segment's decode */
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
		j->mem = open_memstream(&j->packets_buf, &j->text_len);
		if (!j->mem) {
			j->oom = 1;
			return;
		}
	} else if (j->text) {
		record_writer_clear(j->writer);
		record_writer_set_encoding(j->writer, j->enc);
	}
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = job_record;
	cfg.on_packet = j->o->packets ? job_packet : NULL;
	cfg.ctx = j;
	cfg.base_offset = j->base;
	cfg.spe_later = (uint8_t)j->o->spe_later;
	ap_decoder_init(&j->dec, &cfg);
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
		j->text_buf = j->packets_buf;
	} else if (j->text) {
		j->text_buf = record_writer_text(j->writer, &j->text_len);
		j->oom |= record_writer_failed(j->writer) != 0;
	}
}

/* ---- cutting the input into segments ----------------------------------- */

/* Where the cutting is in the AUX buffers: the one being cut, what of it is
 * left. */
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
 * start (text), of the DECODE_GROUP_RECORDS-th record (Parquet). A decoder
 * started there from scratch (at its stream offset) is in the state the
 * serial one is: between records, nothing carried. Found by walking the
 * packets' headers (ap_decoder_next_cut: the decode this took before was a
 * sixth of -j 1's instructions, on this thread); past an Alignment command,
 * by a decode without output. */
static size_t segment_len(const struct cursor *c, int text)
{
	size_t left = c->len - c->pos;
	if (text && left <= SEGMENT_BYTES + SEGMENT_BYTES / 2)
		return left;
	size_t cut = ap_decoder_next_cut(c->data + c->pos, left, text ? SEGMENT_BYTES : SIZE_MAX,
	                                 text ? 0 : DECODE_GROUP_RECORDS, 0);
	if (cut != SIZE_MAX)
		return cut ? cut : left;
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

/* ---- the ring of slots and the threads --------------------------------- */

struct slot {
	struct job job;
	struct record_writer *writer;               /* kept from job to job */
	struct record_parquet *tables[CLASS_COUNT]; /* the same */
	int done;                                   /* decoded; under pool.mu */
};

/* Every thread, this one too, does what is next: puts the oldest
 * decoded segments to the sink (one thread at a time, in order), or cuts
 * the next segment and decodes it, or waits. No thread waits for another
 * to hand it work: on a busy machine a thread that is not running holds
 * nothing up but its own segment (a coordinating thread that cut and
 * wrote for the others made -j 2 1.7x slower than -j 1 at a load of 9 on
 * 2 CPUs: docs/PERFORMANCE.md). */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t changed; /* a segment decoded or put, or the input ended */
	struct slot *slots;
	size_t n_slots;
	/* segments by number (slot: number % n_slots): head the oldest not
	 * yet put to the sink, tail the next to cut */
	uint64_t head, tail;
	int more;     /* input left to cut */
	int emitting; /* a thread is putting segments to the sink */
	struct cursor c;
	/* the decode's, under mu (the sink and these, by the emitting thread) */
	struct perf_input *in;
	const struct decode_perf_opts *o;
	struct decode_sink *sink;
	enum ap_ds_encoding enc;
	struct ap_decoder_stats totals, buf_stats;
	uint64_t excused;
	int rc;
	pthread_t tids[MAX_THREADS];
	unsigned started;
};

static int cut_next(struct pool *p);
static int put_job(struct pool *p, struct job *j);

static void *worker(void *arg)
{
	struct pool *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (!p->emitting && p->head < p->tail && p->slots[p->head % p->n_slots].done) {
			p->emitting = 1;
			while (p->head < p->tail && p->slots[p->head % p->n_slots].done) {
				struct slot *s = &p->slots[p->head % p->n_slots];
				pthread_mutex_unlock(&p->mu);
				p->rc = put_job(p, &s->job);
				pthread_mutex_lock(&p->mu);
				p->head++;
			}
			p->emitting = 0;
			pthread_cond_broadcast(&p->changed); /* slots free */
			continue;
		}
		if (p->more && p->tail - p->head < p->n_slots) {
			struct slot *s = &p->slots[p->tail % p->n_slots];
			p->more = cut_next(p);
			if (!p->more) {
				pthread_cond_broadcast(&p->changed);
				continue;
			}
			p->tail++;
			pthread_mutex_unlock(&p->mu);
			run_job(&s->job);
			pthread_mutex_lock(&p->mu);
			s->done = 1;
			continue; /* this thread puts it if it is the oldest */
		}
		if (!p->more && p->head == p->tail && !p->emitting)
			break;
		pthread_cond_wait(&p->changed, &p->mu);
	}
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Cut the next segment of p's input into the free slot at p->tail (under
 * p->mu); 0 at the input's end. */
static int cut_next(struct pool *p)
{
	struct cursor *c = &p->c;
	struct perf_input *in = p->in;
	const struct decode_perf_opts *o = p->o;
	struct decode_sink *sink = p->sink;
	if (!c->b) {
		const uint8_t *data;
		size_t len;
		if (!perf_input_next(in, NULL, &data, &len))
			return 0;
		c->b = in->cur;
		c->data = data;
		c->len = len;
		c->pos = 0;
	}
	int text = decode_sink_is_text(sink);
	struct slot *s = &p->slots[p->tail % p->n_slots];
	struct job *j = &s->job;
	memset(j, 0, sizeof(*j));
	if (text && !o->packets && !s->writer && !(s->writer = record_writer_new_mem(o->fmt)))
		j->oom = 1;
	if (!text && !s->tables[0] && decode_sink_new_tables(sink, s->tables) != 0)
		j->oom = 1;
	j->tables = s->tables;
	j->split = decode_sink_is_split(sink);
	j->writer = s->writer;
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
	j->enc = p->enc;
	if (j->last) {
		c->base += c->len;
		c->b = NULL;
	}
	s->done = 0;
	return 1;
}

/* A segment's result to the sink, in input order, by the one emitting
 * thread; p->buf_stats sums the segments of the buffer under way. Returns
 * p->rc, or the exit code of this segment's failure. */
static int put_job(struct pool *p, struct job *j)
{
	int rc = p->rc;
	if (j->oom && !rc) {
		fprintf(stderr, "armprof decode: out of memory decoding the AUX buffer at file offset 0x%llx\n",
		        (unsigned long long)j->b->data_offset);
		rc = EXIT_USAGE;
	}
	if (!rc && j->text)
		decode_sink_put_bytes(p->sink, j->text_buf, j->text_len);
	else if (!rc)
		decode_sink_put_tables(p->sink, j->tables);
	perf_input_release(p->in, j->data, j->len); /* its reader: never changed */
	if (j->first)
		memset(&p->buf_stats, 0, sizeof(p->buf_stats));
	decode_add_stats(&p->totals, ap_decoder_stats(&j->dec));
	decode_add_stats(&p->buf_stats, ap_decoder_stats(&j->dec));
	p->excused += (uint64_t)j->excused;
	if (j->last && (p->o->verbose || decode_buffer_flagged(j->b))) {
		/* the buffer's line, from its totals: its own view of the input,
		 * whose cursor the cutting thread moves meanwhile */
		struct ap_decoder whole;
		whole.stats = p->buf_stats;
		struct perf_input view;
		memset(&view, 0, sizeof(view));
		view.cmd = p->in->cmd;
		view.path = p->in->path;
		view.cur = j->b;
		perf_input_buffer_done(&view, &whole, stderr);
	}
	if (p->o->packets)
		free(j->packets_buf);
	j->packets_buf = NULL;
	j->text_buf = NULL;
	return rc;
}

int decode_parallel(struct perf_input *in, const struct decode_perf_opts *o, struct decode_sink *sink,
                    struct ap_decoder_stats *totals, unsigned jobs)
{
	struct pool p;
	memset(&p, 0, sizeof(p));
	unsigned threads = jobs < MAX_THREADS ? jobs : MAX_THREADS;
	/* Parquet's segments are whole row groups (65536 rows, 10-15 MB of
	 * columns each): one a thread, and one more to cut while they run */
	p.n_slots = (size_t)(decode_sink_is_text(sink) ? DECODE_WINDOW_PER_JOB : 1) * threads + 1;
	p.slots = calloc(p.n_slots, sizeof(*p.slots));
	if (!p.slots) {
		fprintf(stderr, "armprof decode: out of memory\n");
		return EXIT_USAGE;
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.changed, NULL);
	p.more = 1;
	p.in = in;
	p.o = o;
	p.sink = sink;
	p.enc = decode_sink_encoding(sink);
	for (unsigned t = 1; t < threads; t++) /* and this one */
		if (pthread_create(&p.tids[p.started], NULL, worker, &p) == 0)
			p.started++;
	worker(&p);
	for (unsigned t = 0; t < p.started; t++)
		pthread_join(p.tids[t], NULL);
	*totals = p.totals;
	in->n_cut_excused += p.excused;
	for (size_t i = 0; i < p.n_slots; i++) {
		record_writer_free(p.slots[i].writer);
		for (int k = 0; k < CLASS_COUNT; k++)
			record_parquet_free(p.slots[i].tables[k]);
	}
	free(p.slots);
	pthread_cond_destroy(&p.changed);
	pthread_mutex_destroy(&p.mu);
	return p.rc;
}

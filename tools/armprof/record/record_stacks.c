/* armprof record's call stacks (record_stacks.h): the plugin's stacks
 * file, and one PERF_RECORD_SAMPLE per SPE record with its call chain. */
#include "record_stacks.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/codec.h"
#include "armprof/decode.h"

#define CHAIN_MAX 1100 /* the plugin keeps at most 1024 frames, + PC and marker */

const struct ap_perf_write_event record_stack_event = {
	.type = 4, /* PERF_TYPE_RAW: a name of its own in perf report */
	.config = 0,
	.sample_period = 1,
	.sample_type = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME | AP_PERF_SAMPLE_ADDR |
	               AP_PERF_SAMPLE_CPU | AP_PERF_SAMPLE_CALLCHAIN | AP_PERF_SAMPLE_WEIGHT |
	               AP_PERF_SAMPLE_DATA_SRC | AP_PERF_SAMPLE_PHYS_ADDR,
	.name = "arm_spe_0/callchain/",
};

/* The words of the stack at word w of the file's words (after the magic):
 * tid, time, n, then n frames. Returns the next stack's word, or 0 with
 * err set when this one is cut short or of no or too many frames. */
static size_t stack_end(const uint64_t *words, size_t n_words, size_t w, const char *path, char *err,
                        size_t errlen)
{
	uint64_t at = 8 + 8 * (uint64_t)w; /* the stack's file offset */
	if (n_words - w < 3) {
		snprintf(err, errlen, "%s:%" PRIu64 ": a stack cut short or of 0 frames", path, at);
		return 0;
	}
	uint64_t n = words[w + 2];
	if (n == 0 || n > CHAIN_MAX - 1) {
		snprintf(err, errlen, "%s:%" PRIu64 ": a stack cut short or of %" PRIu64 " frames", path, at, n);
		return 0;
	}
	if (n > n_words - w - 3) {
		snprintf(err, errlen, "%s:%" PRIu64 ": a stack cut short", path, at);
		return 0;
	}
	return w + 3 + (size_t)n;
}

/* The whole of fd, read (a file that cannot be mapped): a buffer of
 * whole words, zero-padded, and its length in bytes; NULL with errno on
 * failure. */
static uint64_t *read_all(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	for (;;) {
		if (!buf)
			return NULL;
		if (n == cap) {
			uint8_t *more = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
			if (!more) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = more;
			cap *= 2;
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	/* Room for the last word's padding. */
	if (cap - n < 8) {
		uint8_t *more = realloc(buf, n + 8);
		if (!more) {
			free(buf);
			errno = ENOMEM;
			return NULL;
		}
		buf = more;
	}
	memset(buf + n, 0, 8 - n % 8);
	*len = n;
	return (uint64_t *)(void *)buf;
}

int record_stacks_load(struct record_stacks *st, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	st->map.guard_ = -1;
	st->path = strdup(path);
	if (!st->path) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		return -1;
	}
	struct ap_error_ctx e;
	int rc = ap_mapped_file_open(&st->map, fd, &e);
	size_t len = st->map.len;
	const uint8_t *bytes = st->map.data;
	if (rc == 1) { /* not mappable: read */
		st->copy = read_all(fd, &len);
		bytes = (const uint8_t *)st->copy;
		if (!st->copy)
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	} else if (rc < 0) {
		snprintf(err, errlen, "%s: %s", path, e.message);
	}
	close(fd);
	if (!bytes)
		return -1;
	if (len < 8 || memcmp(bytes, RECORD_STACKS_MAGIC, 8) != 0) {
		snprintf(err, errlen, "%s: not the plugin's stacks file", path);
		return -1;
	}
	st->frames = (const uint64_t *)(const void *)bytes + 1;
	st->n_frames = (len - 8) / 8;
	/* Count the stacks (each checked), then note each. */
	size_t count = 0;
	for (size_t w = 0; w < st->n_frames; count++)
		if ((w = stack_end(st->frames, st->n_frames, w, path, err, errlen)) == 0)
			return -1;
	if (len % 8) { /* whole stacks, then part of a word */
		snprintf(err, errlen, "%s:%zu: a stack cut short", path, len / 8 * 8);
		return -1;
	}
	st->s = count ? malloc(count * sizeof(*st->s)) : NULL;
	if (count && !st->s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t w = 0; w < st->n_frames;) {
		struct record_stack *r = &st->s[st->n++];
		*r = (struct record_stack){ .tid = (int64_t)st->frames[w], .time = st->frames[w + 1], .frames = w + 3,
			                    .n = (uint32_t)st->frames[w + 2] };
		w += 3 + r->n;
	}
	return 0;
}

int record_stacks_check(const struct record_stacks *st, char *err, size_t errlen)
{
	struct ap_error_ctx e;
	if (!st->map.data || ap_mapped_file_check(&st->map, &e) == 0)
		return 0;
	snprintf(err, errlen, "%s: %s", st->path, e.message);
	return -1;
}

static int by_tid_time(const void *a, const void *b)
{
	const struct record_stack *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

void record_stacks_sort(struct record_stacks *st)
{
	/* A single thread's stacks come in time order already. */
	size_t i = 1;
	while (i < st->n && by_tid_time(&st->s[i - 1], &st->s[i]) <= 0)
		i++;
	if (i < st->n)
		qsort(st->s, st->n, sizeof(*st->s), by_tid_time);
}

const struct record_stack *record_stacks_find(const struct record_stacks *st, int64_t tid, uint64_t time,
                                              size_t *next)
{
	/* A thread's records come in time order, as its stacks do: mostly
	 * the one after the last found. */
	if (*next < st->n && st->s[*next].tid == tid && st->s[*next].time == time)
		return &st->s[(*next)++];
	size_t lo = 0, hi = st->n;
	const struct record_stack key = { .tid = tid, .time = time };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = by_tid_time(&st->s[mid], &key);
		if (!c) {
			*next = mid + 1;
			return &st->s[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void record_stacks_free(struct record_stacks *st)
{
	free(st->s);
	free(st->copy);
	free(st->path);
	if (st->map.data)
		ap_mapped_file_close(&st->map);
	memset(st, 0, sizeof(*st));
	st->map.guard_ = -1;
}

/* perf_event.h union perf_mem_data_src fields and values. */
#define MEM_OP(v) ((uint64_t)(v) << 0)
#define MEM_LVL(v) ((uint64_t)(v) << 5)
#define MEM_SNOOP(v) ((uint64_t)(v) << 19)
#define MEM_DTLB(v) ((uint64_t)(v) << 26)
#define MEM_LVLNUM(v) ((uint64_t)(v) << 33)
#define MEM_REMOTE(v) ((uint64_t)(v) << 37)
#define MEM_SNOOPX(v) ((uint64_t)(v) << 38)
#define OP_LOAD 0x2
#define OP_STORE 0x4
#define LVL_NA 0x1
#define LVL_HIT 0x2
#define LVL_L1 0x8
#define LVL_L2 0x20
#define LVL_L3 0x40
#define LVL_LOC_RAM 0x80
#define LVL_REM_CCE1 0x400
#define SNOOP_NA 0x1
#define SNOOP_NONE 0x2
#define SNOOP_HIT 0x4
#define SNOOPX_PEER 0x2
#define TLB_HIT 0x2
#define TLB_MISS 0x4
#define TLB_WK 0x20
#define LVLNUM_L1 0x1
#define LVLNUM_L2 0x2
#define LVLNUM_L3 0x3
#define LVLNUM_ANY_CACHE 0xb
#define LVLNUM_RAM 0xd
#define LVLNUM_NA 0xf

/* The "common" (Neoverse) encoding's mapping, as Debian's perf 6.1 has it
 * (arm_spe__synth_data_source_common; checked against perf's own memory
 * samples of the same records by tests/record/record_call_graph.sh). */
uint64_t record_perf_data_src(const struct ap_record *rec)
{
	if (!(rec->has & AP_HAS_OP) || rec->op_class != AP_OP_CLASS_LDST)
		return 0;
	int store = rec->op_subclass & 1; /* LDST subclass bit 0: store */
	uint64_t d = MEM_OP(store ? OP_STORE : OP_LOAD);
	if (store) { /* no level or source for stores */
		d |= MEM_LVL(LVL_NA) | MEM_LVLNUM(LVLNUM_NA) | MEM_SNOOP(SNOOP_NA);
	} else if (rec->has & AP_HAS_DATA_SOURCE) {
		switch (rec->data_source) { /* Neoverse values (armprof/data_source.h) */
		case 0x0: d |= MEM_LVL(LVL_L1 | LVL_HIT) | MEM_LVLNUM(LVLNUM_L1) | MEM_SNOOP(SNOOP_NONE); break;
		case 0x8: d |= MEM_LVL(LVL_L2 | LVL_HIT) | MEM_LVLNUM(LVLNUM_L2) | MEM_SNOOP(SNOOP_NONE); break;
		case 0x9: d |= MEM_LVL(LVL_L2 | LVL_HIT) | MEM_LVLNUM(LVLNUM_L2) | MEM_SNOOPX(SNOOPX_PEER); break;
		case 0xa: /* local cluster */
		case 0xc: /* peer cluster */
			d |= MEM_LVL(LVL_L3 | LVL_HIT) | MEM_LVLNUM(LVLNUM_L3) | MEM_SNOOPX(SNOOPX_PEER);
			break;
		case 0xb: d |= MEM_LVL(LVL_L3 | LVL_HIT) | MEM_LVLNUM(LVLNUM_L3) | MEM_SNOOP(SNOOP_HIT); break;
		case 0xd:
			d |= MEM_LVL(LVL_REM_CCE1) | MEM_LVLNUM(LVLNUM_ANY_CACHE) | MEM_REMOTE(1) |
			     MEM_SNOOPX(SNOOPX_PEER);
			break;
		case 0xe: d |= MEM_LVL(LVL_LOC_RAM | LVL_HIT) | MEM_LVLNUM(LVLNUM_RAM) | MEM_SNOOP(SNOOP_NONE); break;
		default: break;
		}
	}
	if (rec->events & (AP_EV_TLB_ACCESS | AP_EV_TLB_WALK))
		d |= MEM_DTLB(TLB_WK | ((rec->events & AP_EV_TLB_WALK) ? TLB_MISS : TLB_HIT));
	return d;
}

struct sample_ctx {
	struct ap_perf_writer *w;
	const struct record_stacks *st;
	size_t next; /* record_stacks_find's cursor */
	int32_t pid, tid, cpu;
	uint64_t n, with_stack;
	int rc;
	uint64_t chain[CHAIN_MAX];
};

static int on_record(void *ctx, const struct ap_record *rec)
{
	struct sample_ctx *c = ctx;
	if (c->rc || !(rec->has & AP_HAS_PC))
		return 0;
	int32_t tid = (rec->has & AP_HAS_CTX_EL1) ? (int32_t)rec->ctx_el1 : c->tid;
	const struct record_stack *s =
		(rec->has & AP_HAS_TS) ? record_stacks_find(c->st, tid, rec->ts, &c->next) : NULL;
	/* perf's order: the context marker, the sampled PC, then outward the
	 * calls: each frame's call instruction (its return address - 4), which
	 * perf looks up as it is, so that a call ending its function (to a
	 * function that does not return) names the caller. */
	uint32_t n = 0;
	c->chain[n++] = AP_PERF_CONTEXT_USER;
	if (s && c->st->frames[s->frames] == rec->pc) {
		c->chain[n++] = rec->pc;
		for (uint32_t i = 1; i < s->n && n < CHAIN_MAX; i++)
			c->chain[n++] = c->st->frames[s->frames + i] - 4;
		c->with_stack++;
	} else {
		c->chain[n++] = rec->pc;
	}
	struct ap_perf_sample smp = {
		.event = 0,
		.misc = AP_PERF_MISC_USER,
		.ip = rec->pc,
		.pid = c->pid,
		.tid = tid,
		.time = rec->ts,
		.addr = (rec->has & AP_HAS_VADDR) ? ap_record_vaddr(rec) : 0,
		.cpu = c->cpu,
		.weight = (rec->has & AP_HAS_LAT_TOTAL) ? rec->lat_total : 0,
		.data_src = record_perf_data_src(rec),
		.phys_addr = (rec->has & AP_HAS_PADDR) ? rec->paddr : 0,
		.n_callchain = n,
		.callchain = c->chain,
	};
	c->rc = ap_perf_write_sample(c->w, &smp);
	c->n++;
	return 0;
}

int record_write_stack_samples(struct ap_perf_writer *w, const uint8_t *spe, size_t len, int32_t pid,
                               int32_t tid, int32_t cpu, const struct record_stacks *st,
                               uint64_t *n_samples, uint64_t *n_with_stack)
{
	struct sample_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -AP_ERR_NOMEM;
	*c = (struct sample_ctx){ .w = w, .st = st, .pid = pid, .tid = tid, .cpu = cpu };
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = on_record;
	dc.ctx = c;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	ap_decoder_feed(&dec, spe, len);
	ap_decoder_finish(&dec);
	*n_samples += c->n;
	*n_with_stack += c->with_stack;
	int rc = c->rc;
	free(c);
	return rc;
}

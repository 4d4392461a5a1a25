/* armprof record's call stacks (record_stacks.h): the plugin's stacks
 * file, and one PERF_RECORD_SAMPLE per SPE record with its call chain. */
#include "record_stacks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 1024;
	while (c < need)
		c *= 2;
	void *n = realloc(*p, c * elem);
	if (!n)
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

int record_stacks_load(struct record_stacks *st, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char magic[8];
	int rc = 0;
	if (fread(magic, 1, 8, f) != 8 || memcmp(magic, RECORD_STACKS_MAGIC, 8) != 0) {
		snprintf(err, errlen, "%s: not the plugin's stacks file", path);
		fclose(f);
		return -1;
	}
	uint64_t head[3];
	for (uint64_t at = 8; !rc; at += 8 * (3 + head[2])) {
		size_t got = fread(head, 8, 3, f);
		if (got == 0 && feof(f))
			break;
		if (got != 3 || head[2] == 0 || head[2] > CHAIN_MAX - 1) {
			snprintf(err, errlen, "%s:%" PRIu64 ": a stack cut short or of %" PRIu64 " frames", path, at,
			         got == 3 ? head[2] : 0);
			rc = -1;
			break;
		}
		if (grow((void **)&st->s, &st->cap, st->n + 1, sizeof(*st->s)) != 0 ||
		    grow((void **)&st->frames, &st->cap_frames, st->n_frames + head[2], sizeof(uint64_t)) != 0) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
			break;
		}
		if (fread(st->frames + st->n_frames, 8, head[2], f) != head[2]) {
			snprintf(err, errlen, "%s:%" PRIu64 ": a stack cut short", path, at);
			rc = -1;
			break;
		}
		st->s[st->n++] = (struct record_stack){ .tid = (int64_t)head[0], .time = head[1],
			                                .frames = st->n_frames, .n = (uint32_t)head[2] };
		st->n_frames += head[2];
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s: cannot read", path);
		rc = -1;
	}
	fclose(f);
	return rc;
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
	if (st->n)
		qsort(st->s, st->n, sizeof(*st->s), by_tid_time);
}

const struct record_stack *record_stacks_find(const struct record_stacks *st, int64_t tid, uint64_t time)
{
	size_t lo = 0, hi = st->n;
	const struct record_stack key = { .tid = tid, .time = time };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = by_tid_time(&st->s[mid], &key);
		if (!c)
			return &st->s[mid];
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
	free(st->frames);
	memset(st, 0, sizeof(*st));
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
		(rec->has & AP_HAS_TS) ? record_stacks_find(c->st, tid, rec->ts) : NULL;
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

/* The shadow call stack (call_stack.h): the ring of frames, the rare
 * control transfers, the sampled operations' stacks and the exact counts
 * per path. Runs on the replay side of a vCPU only (one thread at a time). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_stack.h"

struct cs_path {
	uint64_t key, pc, count; /* key 0: empty slot */
	size_t frames;           /* offset of its return addresses in the pool */
	uint32_t n_frames;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

int cs_init(struct call_stack *cs, uint32_t depth)
{
	memset(cs, 0, sizeof(*cs));
	if (depth == 0 || depth > CS_MAX_DEPTH)
		depth = CS_DEFAULT_DEPTH;
	uint32_t cap = 1;
	while (cap < depth)
		cap <<= 1;
	cs->f = calloc(cap, sizeof(*cs->f));
	cs->cap_samples_words = 1u << 16;
	cs->samples = malloc(cs->cap_samples_words * sizeof(uint64_t));
	if (!cs->f || !cs->samples) {
		cs_free(cs);
		return -1;
	}
	cs->cap = cap;
	cs->depth = depth;
	return 0;
}

void cs_free(struct call_stack *cs)
{
	free(cs->f);
	free(cs->samples);
	free(cs->paths);
	free(cs->path_frames);
	memset(cs, 0, sizeof(*cs));
}

void cs_reset(struct call_stack *cs)
{
	cs->n = 0;
	cs->top = 0;
	cs->returned0 = 0;
}

void cs_copy_frames(struct call_stack *dst, const struct call_stack *src)
{
	cs_reset(dst);
	uint32_t n = src->n < dst->depth ? src->n : dst->depth;
	for (uint32_t i = n; i > 0; i--) { /* oldest kept first */
		const struct cs_frame *fr = &src->f[(src->top - i) & (src->cap - 1)];
		dst->f[dst->top] = *fr;
		dst->top = (dst->top + 1) & (dst->cap - 1);
	}
	dst->n = n;
	dst->returned0 = src->returned0;
}

static uint64_t top_hash(const struct call_stack *cs)
{
	return cs->n ? cs->f[(cs->top - 1) & (cs->cap - 1)].hash : 0;
}

void cs_push(struct call_stack *cs, uint64_t ret, uint64_t alt)
{
	uint64_t h = mix(top_hash(cs), ret);
	struct cs_frame *fr = &cs->f[cs->top];
	fr->ret = ret;
	fr->alt = alt;
	fr->hash = h;
	fr->returned = 0;
	cs->top = (cs->top + 1) & (cs->cap - 1);
	if (cs->n < cs->depth)
		cs->n++;
	else
		cs->dropped++; /* the oldest is gone: the stack keeps the newest depth frames */
}

static void pop(struct call_stack *cs, uint32_t k)
{
	cs->top = (cs->top - k) & (cs->cap - 1);
	cs->n -= k;
}

/* Pop to the newest frame that resumes at pc (it goes too: control is back
 * in its code), noting pc as where its caller's call returned. Else, to
 * the newest frame whose code a call returned to at pc before (longjmp
 * back to setjmp's return: the frames above go). Returns 1, or 0 (neither:
 * nothing changes). */
int cs_pop_to(struct call_stack *cs, uint64_t pc)
{
	for (uint32_t i = 0; i < cs->n; i++) {
		const struct cs_frame *fr = &cs->f[(cs->top - 1 - i) & (cs->cap - 1)];
		if (fr->ret == pc || fr->alt == pc) {
			pop(cs, i + 1);
			if (cs->n)
				cs->f[(cs->top - 1) & (cs->cap - 1)].returned = pc;
			else
				cs->returned0 = pc;
			return 1;
		}
	}
	for (uint32_t i = 0; i < cs->n; i++)
		if (cs->f[(cs->top - 1 - i) & (cs->cap - 1)].returned == pc) {
			pop(cs, i);
			return 1;
		}
	if (cs->n && cs->returned0 == pc) {
		pop(cs, cs->n);
		return 1;
	}
	return 0;
}

int cs_resumes_at(const struct call_stack *cs, uint64_t pc)
{
	for (uint32_t i = 0; i < cs->n; i++) {
		const struct cs_frame *fr = &cs->f[(cs->top - 1 - i) & (cs->cap - 1)];
		/* the top frame's own code (i = 0) returning there changes nothing */
		if (fr->ret == pc || fr->alt == pc || (i && fr->returned == pc))
			return 1;
	}
	return cs->n && cs->returned0 == pc;
}

void cs_unexpected(struct call_stack *cs, const struct tb_info *tb, uint64_t next_pc)
{
	/* Back where an interrupted block resumes (a signal handler's
	 * sigreturn), or a return we missed: pop to that frame. */
	if (cs_pop_to(cs, next_pc))
		return;
	/* A signal delivered after tb: the handler runs as if called from
	 * the interrupted code, which resumes at tb's next PC (a block that
	 * ends in a conditional branch: either way) or, for a system call
	 * restarted after the handler, at the call itself. */
	uint64_t ret = tb->ends_in_branch ? tb->br_pc + 4 : tb->fallthrough;
	uint64_t alt = tb->ends_in_branch ? tb->br_target : tb->fallthrough - 4;
	cs->signals++;
	cs_push(cs, ret, alt ? alt : ret);
}

/* Room for k more words of samples (doubling). */
static int sample_room(struct call_stack *cs, size_t k)
{
	if (cs->n_samples_words + k <= cs->cap_samples_words)
		return 0;
	size_t cap = cs->cap_samples_words * 2;
	while (cap < cs->n_samples_words + k)
		cap *= 2;
	uint64_t *w = realloc(cs->samples, cap * sizeof(*w));
	if (!w)
		return -1;
	cs->samples = w;
	cs->cap_samples_words = cap;
	return 0;
}

void cs_note_sample(struct call_stack *cs, int64_t tid, uint64_t time, uint64_t pc)
{
	if (sample_room(cs, 4 + cs->n) != 0)
		return; /* out of memory: this sample goes without a stack */
	uint64_t *w = cs->samples + cs->n_samples_words;
	w[0] = (uint64_t)tid;
	w[1] = time;
	w[2] = cs->n + 1;
	w[3] = pc;
	for (uint32_t i = 0; i < cs->n; i++)
		w[4 + i] = cs->f[(cs->top - 1 - i) & (cs->cap - 1)].ret;
	cs->n_samples_words += 4 + cs->n;
	cs->n_samples++;
}

/* The table of paths: open addressing, grown at half full. */
static int paths_grow(struct call_stack *cs)
{
	size_t cap = cs->cap_paths ? cs->cap_paths * 2 : 4096;
	struct cs_path *t = calloc(cap, sizeof(*t));
	if (!t)
		return -1;
	if (cs->paths) {
		for (size_t i = 0; i < cs->cap_paths; i++) {
			const struct cs_path *p = &cs->paths[i];
			if (!p->key)
				continue;
			size_t j = p->key & (cap - 1);
			while (t[j].key)
				j = (j + 1) & (cap - 1);
			t[j] = *p;
		}
		free(cs->paths);
	}
	cs->paths = t;
	cs->cap_paths = cap;
	return 0;
}

void cs_count_block(struct call_stack *cs, uint64_t pc, uint32_t n)
{
	if (cs->n_paths * 2 >= cs->cap_paths && paths_grow(cs) != 0)
		return;
	uint64_t key = mix(top_hash(cs), pc) | 1; /* never 0: that marks a free slot */
	size_t j = key & (cs->cap_paths - 1);
	for (;;) {
		struct cs_path *p = &cs->paths[j];
		if (p->key == key && p->pc == pc) {
			p->count += n;
			return;
		}
		if (!p->key)
			break;
		j = (j + 1) & (cs->cap_paths - 1);
	}
	/* A path first seen: keep its return addresses. */
	if (cs->n_path_frames + cs->n > cs->cap_path_frames) {
		size_t cap = cs->cap_path_frames ? cs->cap_path_frames * 2 : 1u << 16;
		while (cap < cs->n_path_frames + cs->n)
			cap *= 2;
		uint64_t *w = realloc(cs->path_frames, cap * sizeof(*w));
		if (!w)
			return;
		cs->path_frames = w;
		cs->cap_path_frames = cap;
	}
	struct cs_path *p = &cs->paths[j];
	p->key = key;
	p->pc = pc;
	p->count = n;
	p->frames = cs->n_path_frames;
	p->n_frames = cs->n;
	for (uint32_t i = 0; i < cs->n; i++)
		cs->path_frames[cs->n_path_frames++] = cs->f[(cs->top - 1 - i) & (cs->cap - 1)].ret;
	cs->n_paths++;
}

int cs_write_samples(const struct call_stack *cs, FILE *f)
{
	/* the words as they are: tid, time, n, pc, return addresses */
	size_t n = cs->n_samples_words;
	return n && fwrite(cs->samples, sizeof(uint64_t), n, f) != n ? -1 : 0;
}

int cs_write_paths(const struct call_stack *cs, FILE *f)
{
	for (size_t i = 0; i < cs->cap_paths; i++) {
		const struct cs_path *p = &cs->paths[i];
		if (!p->key)
			continue;
		fprintf(f, "%" PRIu64 " %" PRIx64, p->count, p->pc);
		for (uint32_t k = 0; k < p->n_frames; k++)
			fprintf(f, " %" PRIx64, cs->path_frames[p->frames + k]);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

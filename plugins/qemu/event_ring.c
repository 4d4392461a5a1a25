/* The per-vCPU ring of event batches (event_ring.h). */
#include "event_ring.h"

#include <signal.h>
#include <stdlib.h>

#include "replay_hub.h"
#include "thread_cpu.h"

/* Replay one batch, adding its CPU time to the ring's (two clock reads per
 * batch of thousands of events). */
static void replay_timed(struct event_ring *r, const struct event_batch *b, uint32_t n)
{
	uint64_t t0 = thread_cpu_ns();
	r->replay(r->ctx, b->ev, n, UINT64_MAX, 0);
	r->replay_cpu_ns += thread_cpu_ns() - t0;
}

static void *model_thread(void *arg)
{
	struct event_ring *r = arg;
	pthread_mutex_lock(&r->lock);
	for (;;) {
		if (r->replayed == r->published && !r->stop) {
			uint64_t since = ring_wait_now();
			while (r->replayed == r->published && !r->stop)
				pthread_cond_wait(&r->filled, &r->lock);
			ring_wait_add(&r->empty, since);
		}
		if (r->replayed == r->published)
			break; /* stopped and drained */
		struct event_batch *b = &r->batch[r->replayed % EVENT_RING_BATCHES];
		/* The guest thread does not touch a published batch until it
		 * is counted as replayed, so it is read without the lock. */
		pthread_mutex_unlock(&r->lock);
		replay_timed(r, b, b->n);
		pthread_mutex_lock(&r->lock);
		r->replayed++;
		/* Room enough to resume logging, or drained (a broadcast
		 * without waiters costs no system call). */
		if (r->published - r->replayed <= EVENT_RING_RESUME)
			pthread_cond_broadcast(&r->emptied);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int event_ring_init(struct event_ring *r, event_replay_fn replay, void *ctx, int threaded)
{
	r->batch = calloc(EVENT_RING_BATCHES, sizeof(*r->batch));
	if (!r->batch)
		return -1;
	r->replay = replay;
	r->ctx = ctx;
	r->published = r->replayed = 0;
	r->replay_cpu_ns = 0;
	r->full = r->drain = r->empty = (struct ring_wait){ 0, 0 };
	r->stop = 0;
	r->threaded = 0;
	r->hub = NULL;
	r->draining = 0;
	r->pos = 0;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->filled, NULL);
	pthread_cond_init(&r->emptied, NULL);
	if (threaded) {
		/* The model thread blocks every signal: signals for the
		 * program (SIGCHLD, a timer's SIGALRM, ...) must reach its own
		 * threads, whose QEMU signal handling knows the vCPU; the
		 * kernel gives a process-directed signal to any thread that
		 * does not block it. The new thread inherits this mask. */
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&r->thread, NULL, model_thread, r) == 0)
			r->threaded = 1;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	return 0;
}

int event_ring_join_hub(struct event_ring *r, struct replay_hub *hub, unsigned slot, const _Atomic int *idle,
                        const uint64_t *met_others, int64_t tid)
{
	if (r->threaded || replay_hub_attach(hub, slot, r, r->ctx, idle, met_others, tid) < 0)
		return -1;
	r->hub = hub;
	return 0;
}

struct event_batch *event_ring_publish(struct event_ring *r)
{
	struct event_batch *b = event_ring_current(r);
	if (r->hub) {
		replay_hub_publish(r->hub, r);
		b = event_ring_current(r);
		b->n = 0;
		return b;
	}
	if (!r->threaded) {
		/* No model thread: replay now, and refill the same batch. */
		uint32_t n = b->n;
		b->n = 0;
		replay_timed(r, b, n);
		return b;
	}
	pthread_mutex_lock(&r->lock);
	r->published++;
	pthread_cond_signal(&r->filled);
	if (r->published - r->replayed >= EVENT_RING_BATCHES) {
		uint64_t since = ring_wait_now();
		while (r->published - r->replayed > EVENT_RING_RESUME)
			pthread_cond_wait(&r->emptied, &r->lock);
		ring_wait_add(&r->full, since);
	}
	pthread_mutex_unlock(&r->lock);
	b = event_ring_current(r);
	b->n = 0;
	return b;
}

void event_ring_drain(struct event_ring *r)
{
	if (r->hub) {
		replay_hub_drain(r->hub, r);
		return;
	}
	if (event_ring_current(r)->n)
		event_ring_publish(r);
	if (!r->threaded)
		return;
	pthread_mutex_lock(&r->lock);
	if (r->replayed != r->published) {
		uint64_t since = ring_wait_now();
		while (r->replayed != r->published)
			pthread_cond_wait(&r->emptied, &r->lock);
		ring_wait_add(&r->drain, since);
	}
	pthread_mutex_unlock(&r->lock);
}

void event_ring_after_fork(struct event_ring *r)
{
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->filled, NULL);
	pthread_cond_init(&r->emptied, NULL);
	r->threaded = 0;
	r->hub = NULL;
	r->pos = 0;
	r->replayed = r->published;
	r->draining = 0;
	event_ring_current(r)->n = 0;
	/* The child's waits are its own (armprof record sums the processes'). */
	r->full = r->drain = r->empty = (struct ring_wait){ 0, 0 };
}

void event_ring_fini(struct event_ring *r)
{
	event_ring_drain(r);
	if (r->threaded) {
		pthread_mutex_lock(&r->lock);
		r->stop = 1;
		pthread_cond_signal(&r->filled);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->thread, NULL);
		r->threaded = 0;
	}
	free(r->batch);
	r->batch = NULL;
}

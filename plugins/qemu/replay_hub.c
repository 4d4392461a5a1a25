/* Interleaved replay of every vCPU's event log on one model thread
 * (replay_hub.h). */
#include "replay_hub.h"
#include "thread_cpu.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

static int has_events(const struct event_ring *r)
{
	return r->replayed != r->published;
}

static uint64_t clock_of(const struct replay_hub *h, const struct hub_member *m)
{
	return h->clock(m->ctx) + m->offset;
}

/* A drain or a checkpoint's hold is under way: nobody's log should hold
 * it up, so every member with nothing logged is parked. */
static int flushing(const struct replay_hub *h)
{
	return h->flushing || (h->flush_flag && atomic_load_explicit(h->flush_flag, memory_order_relaxed));
}

/* A parked member rejoins the order at the replay's clock (it was in a
 * system call, or late, while the others went on): never behind it. */
static void unpark(struct replay_hub *h, struct hub_member *m)
{
	uint64_t c = clock_of(h, m);
	if (c < h->now)
		m->offset += h->now - c;
	m->parked = HUB_IN_ORDER;
}

/* A member that woke others and has replayed up to that point, while they
 * have not all returned from their waits (replay_hub_woke). A drain waits
 * for nobody, holds included. */
static int held(const struct replay_hub *h, const struct hub_member *m)
{
	return m->hold_until > atomic_load_explicit(&h->resumed, memory_order_relaxed) &&
	       m->ring->replayed >= m->hold_batch && !flushing(h);
}

/* What the hub may do next, found under its lock: the members with events
 * to replay (ready) and the one furthest behind among those running with
 * nothing logged yet or held at a wake-up (await). Between two looks under the lock the hub
 * hands over among the ready ones alone: their events stay theirs (only
 * the hub counts them replayed), and a member that logs meanwhile is seen
 * at the next look, which comes before the replay passes its clock. */
struct hub_plan {
	struct hub_member *ready[HUB_MAX_MEMBERS];
	unsigned n_ready;
	struct hub_member *await;
	uint64_t await_clock; /* UINT64_MAX without one */
};

static void plan(struct replay_hub *h, struct hub_plan *p)
{
	p->n_ready = 0;
	p->await = NULL;
	p->await_clock = UINT64_MAX;
	for (unsigned i = 0; i < h->n_slots; i++) {
		struct hub_member *m = &h->member[i];
		if (!m->ring)
			continue;
		int hold = held(h, m);
		if (has_events(m->ring) && !hold) {
			if (m->parked)
				unpark(h, m);
			p->ready[p->n_ready++] = m;
			continue;
		}
		int idle = atomic_load_explicit(m->idle, memory_order_relaxed);
		if (!idle)
			m->seen_runnable = 0;
		if (!hold && (flushing(h) || (idle && m->parked == HUB_PARKED_IDLE))) {
			m->parked = HUB_PARKED_IDLE;
			continue;
		}
		if (!hold && !idle && m->parked == HUB_PARKED_LATE)
			continue;
		/* Running, returned from its system call, in one it may soon
		 * return from (wait_for_work asks the host), or held: the
		 * replay does not pass it until it logs or its wake-up is done. */
		if (m->parked)
			unpark(h, m);
		uint64_t clk = clock_of(h, m);
		if (clk < p->await_clock) {
			p->await_clock = clk;
			p->await = m;
		}
	}
}

/* This hand-over's quantum: from about half to one and a half times
 * h->quantum, drawn anew each time. A fixed one locks onto the period of
 * threads running the same loop in step: each hand-over then falls on the
 * same instruction, and only that one ever meets the other thread's
 * writes (the store, say, and never the load). Real cores drift. */
static uint64_t draw_quantum(struct replay_hub *h)
{
	uint64_t x = h->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	h->rng = x;
	uint64_t lo = (h->cur + 1) / 2, span = h->cur + h->cur / 2 - lo + 1;
	return lo + x % span;
}

/* The ready member furthest behind, if it is not behind the awaited one,
 * and the clock at which it hands over: a quantum past the next one. */
static struct hub_member *next_to_run(struct replay_hub *h, const struct hub_plan *p, uint64_t *limit)
{
	struct hub_member *first_m = NULL;
	uint64_t first = UINT64_MAX, second = p->await_clock;
	for (unsigned i = 0; i < p->n_ready; i++) {
		uint64_t clk = clock_of(h, p->ready[i]);
		if (clk < first) {
			if (first < second)
				second = first;
			first = clk;
			first_m = p->ready[i];
		} else if (clk < second) {
			second = clk;
		}
	}
	if (!first_m || first > p->await_clock)
		return NULL;
	*limit = second == UINT64_MAX ? UINT64_MAX : second + draw_quantum(h);
	return first_m;
}

/* Replay member m's current batch from its position until its clock
 * reaches limit or the batch ends. Called without the lock: the batch is
 * the hub's until it is counted replayed, and only this thread changes
 * the member's replay state. Returns 1 when the batch is done. */
static int replay_some(struct replay_hub *h, struct hub_member *m, uint64_t limit)
{
	struct event_ring *r = m->ring;
	struct event_batch *b = &r->batch[r->replayed % EVENT_RING_BATCHES];
	uint64_t stop = limit == UINT64_MAX ? UINT64_MAX : limit - m->offset;
	uint64_t met = m->met_others ? *m->met_others : 0;
	/* With a coarse quantum the turn ends at the first meeting, where
	 * the quantum goes back to its base. */
	r->pos += r->replay(m->ctx, b->ev + r->pos, b->n - r->pos, stop, h->cur > h->quantum);
	uint64_t clk = clock_of(h, m);
	if (clk > h->now)
		h->now = clk;
	/* The quantum: fine while the threads meet, coarser while they
	 * keep apart (replay_hub.h). */
	if (m->met_others && *m->met_others != met) {
		h->cur = h->quantum;
		h->calm_since = h->now;
	} else if (h->now - h->calm_since >= HUB_CALM_CYCLES && h->cur < HUB_CALM_QUANTUM) {
		h->cur = h->cur * 2 < HUB_CALM_QUANTUM ? h->cur * 2 : HUB_CALM_QUANTUM;
		h->calm_since = h->now;
	}
	return r->pos >= b->n;
}

/* Whether any of threads tid[0 .. n) is runnable on the host. Called and
 * returns with the lock held, but reads without it: a member's thread may
 * be waiting for this very lock (a poke as it enters a system call), and
 * asleep on it would look asleep in its call. */
static int any_runnable(struct replay_hub *h, const int64_t *tid, unsigned n)
{
	pthread_mutex_unlock(&h->lock);
	int yes = 0;
	for (unsigned i = 0; i < n && !yes; i++)
		yes = thread_runnable(tid[i]);
	pthread_mutex_lock(&h->lock);
	return yes;
}

/* Whether what the awaited member waits for is runnable on the host: its
 * own thread, or for a wake-up, a thread still in its system call (the
 * woken one, on its way back). */
static int on_its_way(struct replay_hub *h, const struct hub_member *await)
{
	static int64_t tid[HUB_MAX_MEMBERS]; /* one hub per process */
	unsigned n = 0;
	if (!held(h, await)) {
		tid[n++] = await->tid;
	} else {
		for (unsigned i = 0; i < h->n_slots; i++) {
			const struct hub_member *m = &h->member[i];
			if (m->ring && m != await && atomic_load_explicit(m->idle, memory_order_relaxed))
				tid[n++] = m->tid;
		}
	}
	return any_runnable(h, tid, n);
}

/* Wait for the awaited member's log, or the end of its wake-up (or any
 * change); QEMU may be holding that thread inside itself for another one's
 * sake, and a woken thread may not be a member, so after wait_ms
 * without a word the replay goes on without it. */
static void wait_for_work(struct replay_hub *h, struct hub_member *await)
{
	int guess = await && held(h, await) && await->hold_guess;
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_nsec += (!await ? 1000 : guess ? HUB_GUESS_MS : h->wait_ms) * 1000000L;
	deadline.tv_sec += deadline.tv_nsec / 1000000000L;
	deadline.tv_nsec %= 1000000000L;
	/* In a system call: if the host has it asleep (a futex wait, a read
	 * that blocks) it may not return for long, and the others go on
	 * without it; if it is runnable it is on its way back. */
	int idle = await && atomic_load_explicit(await->idle, memory_order_relaxed);
	if (idle && !held(h, await) && !await->seen_runnable) {
		if (!any_runnable(h, &await->tid, 1)) {
			if (atomic_load_explicit(await->idle, memory_order_relaxed) && !has_events(await->ring))
				await->parked = HUB_PARKED_IDLE;
			return; /* things may have changed meanwhile: plan again */
		}
		await->seen_runnable = 1;
	}
	uint64_t published = await ? await->ring->published : 0;
	uint64_t returned = atomic_load_explicit(&h->resumed, memory_order_relaxed);
	int rc = pthread_cond_timedwait(&h->work, &h->lock, &deadline);
	if (rc != ETIMEDOUT || !await || !await->ring) {
		h->late_waits = 0;
		return;
	}
	/* A busy host has not run the thread yet: not QEMU holding it. */
	if (!guess && ++h->late_waits < HUB_RUNNABLE_WAITS && on_its_way(h, await))
		return;
	h->late_waits = 0;
	if (held(h, await)) {
		if (atomic_load_explicit(&h->resumed, memory_order_relaxed) == returned) {
			await->hold_until = 0;
			h->timeouts++;
			h->guesses_missed += await->hold_guess;
		}
	} else if (await->ring->published == published && !has_events(await->ring)) {
		await->parked = atomic_load_explicit(await->idle, memory_order_relaxed) ? HUB_PARKED_IDLE
		                                                                          : HUB_PARKED_LATE;
		h->timeouts++;
	}
}

/* With the lock held: r's oldest batch is replayed. Its producer, if it
 * waits for room, and its drains are woken once no more than
 * EVENT_RING_RESUME batches are in flight (event_ring.h), not after every
 * batch. */
static void batch_replayed(struct replay_hub *h, struct event_ring *r)
{
	r->pos = 0;
	r->replayed++;
	if (r->draining && !has_events(r)) {
		r->draining = 0;
		h->flushing--;
	}
	if (r->published - r->replayed <= EVENT_RING_RESUME)
		pthread_cond_broadcast(&h->done);
}

/* A calm window (hub_team.h): every ready member behind its end replays
 * up to it, side by side with the others. */
struct window_item {
	struct replay_hub *h;
	struct hub_member *m;
	uint64_t stop;     /* in the member's own clock */
	uint64_t met;      /* its meeting count before */
};

static struct window_item window[HUB_MAX_MEMBERS]; /* one hub per process */
static unsigned window_owner[HUB_MAX_MEMBERS];      /* the member's slot: the same thread each time */

/* Replay one member to the window's end, through as many of its published
 * batches as that takes (each counted replayed under the hub's lock as it
 * ends, so that its producer may go on). */
static void replay_window_item(void *ctx, unsigned i)
{
	struct window_item *it = &((struct window_item *)ctx)[i];
	struct event_ring *r = it->m->ring;
	for (;;) {
		struct event_batch *b = &r->batch[r->replayed % EVENT_RING_BATCHES];
		r->pos += r->replay(it->m->ctx, b->ev + r->pos, b->n - r->pos, it->stop, 0);
		if (r->pos < b->n)
			return; /* at the window's end */
		pthread_mutex_lock(&it->h->lock);
		batch_replayed(it->h, r);
		int more = has_events(r);
		pthread_mutex_unlock(&it->h->lock);
		if (!more)
			return;
	}
}

/* With the lock held: replay a calm window side by side, if two or more
 * ready members lie behind its end. Returns 0 (nothing done) otherwise. */
static int replay_window(struct replay_hub *h, const struct hub_plan *p)
{
	uint64_t base = p->await_clock;
	for (unsigned i = 0; i < p->n_ready; i++) {
		uint64_t c = clock_of(h, p->ready[i]);
		if (c < base)
			base = c;
	}
	uint64_t end = base + h->parallel_window;
	unsigned n = 0;
	for (unsigned i = 0; i < p->n_ready; i++) {
		struct hub_member *m = p->ready[i];
		if (clock_of(h, m) >= end)
			continue;
		window_owner[n] = (unsigned)(m - h->member);
		window[n++] = (struct window_item){ h, m, end - m->offset, m->met_others ? *m->met_others : 0 };
	}
	if (n < 2)
		return 0;
	pthread_mutex_unlock(&h->lock);
	hub_team_run(&h->team, n, replay_window_item, window, window_owner);
	pthread_mutex_lock(&h->lock);
	h->cpu_ns += atomic_exchange_explicit(&h->team.helper_cpu_ns, 0, memory_order_relaxed);
	int met = 0;
	for (unsigned i = 0; i < n; i++) {
		struct hub_member *m = window[i].m;
		uint64_t c = clock_of(h, m);
		if (c > h->now)
			h->now = c;
		met |= m->met_others && *m->met_others != window[i].met;
	}
	if (met) { /* they meet again: one at a time, finely */
		h->cur = h->quantum;
		h->calm_since = h->now;
	}
	h->switches += n;
	h->windows++;
	return 1;
}

static void *hub_thread(void *arg)
{
	struct replay_hub *h = arg;
	static struct hub_plan p; /* one hub per process */
	uint64_t busy_since = thread_cpu_ns();
	struct hub_member *last = NULL;
	pthread_mutex_lock(&h->lock);
	for (;;) {
		plan(h, &p);
		if (h->team.helpers && h->cur >= HUB_CALM_QUANTUM && p.n_ready >= 2 && replay_window(h, &p))
			continue;
		uint64_t limit;
		struct hub_member *run = next_to_run(h, &p, &limit);
		if (!run) {
			h->cpu_ns += thread_cpu_ns() - busy_since;
			if (h->stop)
				break;
			uint64_t since = ring_wait_now();
			wait_for_work(h, p.await);
			ring_wait_add(&h->idle, since);
			busy_since = thread_cpu_ns();
			continue;
		}
		pthread_mutex_unlock(&h->lock);
		int batch_done;
		do {
			if (run != last)
				h->switches++;
			last = run;
			batch_done = replay_some(h, run, limit);
			/* Calm now: back to the lock, for windows side by side. */
			if (h->team.helpers && h->cur >= HUB_CALM_QUANTUM)
				break;
		} while (!batch_done && (run = next_to_run(h, &p, &limit)) != NULL);
		pthread_mutex_lock(&h->lock);
		if (batch_done)
			batch_replayed(h, last->ring);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

void replay_hub_init(struct replay_hub *h, hub_clock_fn clock, uint64_t quantum, uint64_t seed,
                     const _Atomic int *flush_flag, unsigned helpers)
{
	memset(h, 0, sizeof(*h));
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->work, NULL);
	pthread_cond_init(&h->done, NULL);
	h->clock = clock;
	h->quantum = h->cur = quantum ? quantum : 1;
	h->seed = seed;
	h->rng = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull; /* never 0 */
	if (!h->rng)
		h->rng = 1;
	h->flush_flag = flush_flag;
	h->helpers = helpers;
	h->parallel_window = HUB_PARALLEL_WINDOW;
	h->wait_ms = HUB_WAIT_MS;
}

static int start_locked(struct replay_hub *h)
{
	if (h->started)
		return 0;
	/* Blocks every signal, as a ring's model thread does (event_ring.c):
	 * the program's signals must reach its own threads. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&h->thread, NULL, hub_thread, h);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
		return -1;
	h->started = 1;
	if (h->helpers)
		hub_team_start(&h->team, h->helpers);
	return 0;
}

int replay_hub_attach(struct replay_hub *h, unsigned slot, struct event_ring *r, void *ctx,
                      const _Atomic int *idle, const uint64_t *met_others, int64_t tid)
{
	if (slot >= HUB_MAX_MEMBERS)
		return -1;
	pthread_mutex_lock(&h->lock);
	int rc = start_locked(h);
	if (!rc) {
		struct hub_member *m = &h->member[slot];
		*m = (struct hub_member){ .ring = r, .ctx = ctx, .idle = idle, .tid = tid,
			                  .met_others = met_others, .parked = HUB_PARKED_IDLE };
		if (slot >= h->n_slots)
			h->n_slots = slot + 1;
		/* A new thread: the one that started it may be held for it. */
		atomic_fetch_add_explicit(&h->resumed, 1, memory_order_relaxed);
		pthread_cond_signal(&h->work);
	}
	pthread_mutex_unlock(&h->lock);
	return rc;
}

void replay_hub_publish(struct replay_hub *h, struct event_ring *r)
{
	pthread_mutex_lock(&h->lock);
	r->published++;
	pthread_cond_signal(&h->work);
	if (r->published - r->replayed >= EVENT_RING_BATCHES) {
		uint64_t since = ring_wait_now();
		while (r->published - r->replayed > EVENT_RING_RESUME)
			pthread_cond_wait(&h->done, &h->lock);
		ring_wait_add(&r->full, since);
	}
	pthread_mutex_unlock(&h->lock);
}

void replay_hub_drain(struct replay_hub *h, struct event_ring *r)
{
	pthread_mutex_lock(&h->lock);
	if (event_ring_current(r)->n) {
		/* Room is there after any publish returned; the wait covers a
		 * drain from another thread (the exit) while the owner's own
		 * publish still waits for it. The flush lasts through the wait
		 * (the ring may empty before this thread is back), then the
		 * ring's own (below) takes over under the same lock. */
		h->flushing++;
		while (r->published - r->replayed >= EVENT_RING_BATCHES)
			pthread_cond_wait(&h->done, &h->lock);
		r->published++;
		h->flushing--;
	}
	if (has_events(r) && !r->draining) {
		r->draining = 1; /* batch_replayed ends it */
		h->flushing++;
	}
	pthread_cond_signal(&h->work);
	if (r->replayed != r->published) {
		uint64_t since = ring_wait_now();
		while (r->replayed != r->published)
			pthread_cond_wait(&h->done, &h->lock);
		ring_wait_add(&r->drain, since);
	}
	pthread_mutex_unlock(&h->lock);
	event_ring_current(r)->n = 0;
}

void replay_hub_poke(struct replay_hub *h)
{
	pthread_mutex_lock(&h->lock);
	pthread_cond_signal(&h->work);
	pthread_mutex_unlock(&h->lock);
}

void replay_hub_resumed(struct replay_hub *h)
{
	pthread_mutex_lock(&h->lock);
	atomic_fetch_add_explicit(&h->resumed, 1, memory_order_relaxed);
	pthread_cond_signal(&h->work);
	pthread_mutex_unlock(&h->lock);
}

uint64_t replay_hub_resumed_count(const struct replay_hub *h)
{
	return atomic_load_explicit(&h->resumed, memory_order_relaxed);
}

void replay_hub_woke(struct replay_hub *h, unsigned slot, uint64_t before, uint64_t n, int guess)
{
	if (slot >= HUB_MAX_MEMBERS)
		return;
	pthread_mutex_lock(&h->lock);
	struct hub_member *m = &h->member[slot];
	if (m->ring && n && !(guess && h->guesses_missed >= HUB_GUESSES_MAX) &&
	    before + n > atomic_load_explicit(&h->resumed, memory_order_relaxed)) {
		m->hold_guess = guess;
		m->hold_batch = m->ring->published;
		m->hold_until = before + n;
		h->wake_holds++;
	}
	pthread_cond_signal(&h->work); /* the thread is back from its call, held or not */
	pthread_mutex_unlock(&h->lock);
}

void replay_hub_fini(struct replay_hub *h)
{
	pthread_mutex_lock(&h->lock);
	h->stop = 1;
	pthread_cond_signal(&h->work);
	int started = h->started;
	pthread_mutex_unlock(&h->lock);
	if (started)
		pthread_join(h->thread, NULL);
	h->started = 0;
	hub_team_stop(&h->team);
}

void replay_hub_after_fork(struct replay_hub *h)
{
	replay_hub_init(h, h->clock, h->quantum, h->seed, h->flush_flag, h->helpers);
}

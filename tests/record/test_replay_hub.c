/* Interleaved replay (plugins/qemu/replay_hub.c), without QEMU, so that it
 * also runs under ASan and UBSan. Each member is a fake vCPU whose events
 * carry their cost in cycles; its clock is the sum of the costs replayed.
 * What the hub promises:
 *   - every event of every member is replayed once, in the order logged;
 *   - an event is replayed only while no other member that still has
 *     events is 1.5 quanta or more behind (model-clock order; each
 *     hand-over's quantum is drawn from half to 1.5 times the quantum);
 *   - a thread in a system call (idle) holds nobody up, and rejoins at the
 *     replay's clock, not behind it;
 *   - a thread that logs nothing and is not idle is waited for at most
 *     HUB_WAIT_MS, then left behind;
 *   - a drain returns with others running and nothing logged by them,
 *     and passes them only until its own events are replayed;
 *   - a thread that woke (or started) others is held where it woke them
 *     until they are back, and they rejoin at its clock; a wake-up nobody
 *     comes back from is given up after HUB_WAIT_MS, and guessed ones
 *     are no longer made after HUB_GUESSES_MAX of those;
 *   - a thread in a system call that the host has runnable is waited for
 *     (it is on its way back), not passed;
 *   - the quantum grows while no member meets another's writes, and is
 *     back to its base at the next meeting. */
#define _GNU_SOURCE 1 /* syscall(SYS_gettid) */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "event_ring.h"
#include "harness.h"
#include "replay_hub.h"

#define MEMBERS 3
#define QUANTUM 6
#define QUANTUM_MAX 9 /* a hand-over's quantum is 3 to 9 (replay_hub.c draw_quantum) */

struct member {
	struct event_ring ring;
	unsigned id;
	uint64_t clock;    /* cycles of the events replayed */
	uint64_t next_seq; /* the sequence number expected next */
	uint64_t replayed;
	uint64_t logged;   /* events the test logged (its total when done) */
	int out_of_order;
	_Atomic int idle;
	uint64_t met_others; /* events that met another member's writes (flagged by the test) */
	pthread_t thread[4]; /* threads that replayed its events (the first 4) */
	unsigned n_threads;
	int busy;            /* spin a little on each event: work worth sharing out */
};

static struct replay_hub hub;
static struct member member[MEMBERS];
/* Written by the hub thread only, read after a drain or wait. */
static uint64_t order_violations, switches_seen;
static unsigned last_id = MEMBERS;

static uint64_t hub_clock(const struct member *m)
{
	return m->clock + hub.member[m->id].offset;
}

static uint32_t replay(void *ctx, const struct plugin_event *ev, uint32_t n, uint64_t stop, int until_meeting)
{
	struct member *m = ctx;
	uint32_t i = 0;
	for (; i < n; i++) {
		if (m->clock >= stop)
			break;
		if (ev[i].what != m->next_seq)
			m->out_of_order = 1;
		/* Model-clock order, while the members meet (the quantum is at
		 * its base): nobody with events still to replay is 1.5 quanta
		 * or more behind this event. */
		for (unsigned k = 0; k < MEMBERS && (ev[i].vaddr >> 32); k++) {
			const struct member *o = &member[k];
			if (o != m && o->replayed < o->logged && hub_clock(m) >= hub_clock(o) + QUANTUM_MAX)
				order_violations++;
		}
		/* Hand-overs, counted where the hub replays one member at a
		 * time (no calm windows side by side) */
		if (!hub.helpers) {
			if (m->id != last_id)
				switches_seen++;
			last_id = m->id;
		}
		unsigned t = 0;
		while (t < m->n_threads && !pthread_equal(m->thread[t], pthread_self()))
			t++;
		if (t == m->n_threads && t < 4)
			m->thread[m->n_threads++] = pthread_self();
		for (volatile int spin = 0; spin < m->busy; spin++)
			;
		m->next_seq++;
		m->replayed++;
		m->clock += ev[i].vaddr & 0xFFFFFFFFu;
		m->met_others += ev[i].vaddr >> 32;
		if (until_meeting && (ev[i].vaddr >> 32)) {
			i++;
			break;
		}
	}
	return i;
}

static uint64_t clock_of(void *ctx)
{
	return ((const struct member *)ctx)->clock;
}

static void setup_with(unsigned helpers)
{
	memset(member, 0, sizeof(member));
	order_violations = switches_seen = 0;
	last_id = MEMBERS;
	replay_hub_init(&hub, clock_of, QUANTUM, 1, NULL, helpers);
	/* A member is waited for 10 s, not HUB_WAIT_MS: on a busy host this
	 * thread, which plays the members, may not run for 20 ms, and the hub
	 * would pass a member the test means it to wait for. The test of the
	 * wait itself sets it back. */
	hub.wait_ms = 10000;
	for (unsigned i = 0; i < MEMBERS; i++) {
		struct member *m = &member[i];
		m->id = i;
		CHECK(event_ring_init(&m->ring, replay, m, 0) == 0);
		/* In a system call until a test says otherwise: a member with
		 * nothing logged that is not is a running thread, waited for. */
		atomic_store(&m->idle, 1);
		CHECK(event_ring_join_hub(&m->ring, &hub, i, &m->idle, &m->met_others, 0) == 0);
	}
}

static void setup(void)
{
	setup_with(0);
}

static void teardown(void)
{
	for (unsigned i = 0; i < MEMBERS; i++)
		event_ring_fini(&member[i].ring); /* drains through the hub, then frees */
	replay_hub_fini(&hub);
}

/* The cost of event seq of member id: 1 to 4 cycles, varied. */
static uint64_t cost(unsigned id, uint64_t seq)
{
	return 1 + ((seq * 2654435761u + id * 40503u) >> 7) % 4;
}

/* Log n events the way plugin.c's log_event does. */
static void produce(struct member *m, uint64_t n)
{
	struct event_batch *b = event_ring_current(&m->ring);
	for (uint64_t k = 0; k < n; k++) {
		struct plugin_event *e = &b->ev[b->n++];
		e->what = (uintptr_t)m->logged;
		e->vaddr = cost(m->id, m->logged);
		m->logged++;
		if (b->n == EVENT_RING_BATCH)
			b = event_ring_publish(&m->ring);
	}
}

static void check_all_replayed(void)
{
	for (unsigned i = 0; i < MEMBERS; i++) {
		CHECK_EQ_U64(member[i].replayed, member[i].logged);
		CHECK(!member[i].out_of_order);
	}
}

/* Fill every batch of the first n members' rings (a partial last one),
 * each event meeting another member's writes or not, and publish them all
 * at once: every log is there when the hub first looks. Returns when the
 * hub has replayed them. */
static void log_all_at_once(unsigned n, int meeting)
{
	pthread_mutex_lock(&hub.lock);
	uint64_t target = member[0].ring.published + EVENT_RING_BATCHES;
	for (unsigned i = 0; i < n; i++) {
		struct member *m = &member[i];
		atomic_store(&m->idle, 1); /* nothing more will come: no waiting at the end */
		for (unsigned k = 0; k < EVENT_RING_BATCHES; k++) {
			struct event_batch *b = &m->ring.batch[k];
			b->n = k + 1 < EVENT_RING_BATCHES ? EVENT_RING_BATCH : 1000 * i + 7;
			for (uint32_t j = 0; j < b->n; j++) {
				b->ev[j].what = (uintptr_t)m->logged;
				b->ev[j].vaddr = cost(i, m->logged) | (uint64_t)(meeting != 0) << 32;
				m->logged++;
			}
		}
		m->ring.published = target;
	}
	pthread_cond_signal(&hub.work);
	for (unsigned i = 0; i < n; i++)
		while (member[i].ring.replayed != target)
			pthread_cond_wait(&hub.done, &hub.lock);
	pthread_mutex_unlock(&hub.lock);
}

/* Three threads' logs, all there at once, every event meeting the others
 * (so the quantum stays at its base): the hub replays them in model-clock
 * order, handing over every few events. */
TEST(members_interleave_in_clock_order)
{
	setup();
	log_all_at_once(MEMBERS, 1);
	check_all_replayed();
	CHECK_EQ_U64(order_violations, 0);
	/* Three clocks within a quantum of 3-9 cycles and events of 1-4
	 * cycles: a hand-over every few events. */
	uint64_t events = member[0].logged + member[1].logged + member[2].logged;
	CHECK(switches_seen * 8 > events);
	CHECK_EQ_U64(hub.switches, switches_seen);
	CHECK_EQ_U64(hub.timeouts, 0);
	teardown();
}

/* Threads that keep apart are handed over rarely; once they meet, often. */
TEST(quantum_grows_while_members_keep_apart)
{
	setup();
	log_all_at_once(2, 0);
	uint64_t calm = hub.switches, events = member[0].logged + member[1].logged;
	CHECK_EQ_U64(hub.cur, HUB_CALM_QUANTUM);
	/* Base quantum 6: about 2 * 160k cycles / 6 = 53k hand-overs; growing
	 * from the first 10k cycles on, a few thousand. */
	CHECK(calm * 10 < events);
	CHECK(calm > 0);
	log_all_at_once(2, 1);
	uint64_t meeting = hub.switches - calm;
	CHECK(meeting * 8 > events);
	CHECK_EQ_U64(hub.cur, QUANTUM);
	CHECK_EQ_U64(order_violations, 0); /* checked at 1.5 base quanta: only while meeting */
	check_all_replayed();
	teardown();
}

/* Members that keep apart are replayed side by side by the hub and its
 * helper, a window at a time, each in its own order; when they meet, one
 * at a time again. */
TEST(calm_members_replay_side_by_side)
{
	setup_with(1);
	CHECK_EQ_U64(hub.helpers, 1);
	/* Longer than a calm turn (1.5 * HUB_CALM_QUANTUM), as HUB_PARALLEL_WINDOW is. */
	hub.parallel_window = 8192;
	member[0].busy = member[1].busy = 200; /* each window: some 3000 events of real work */
	log_all_at_once(2, 0); /* the quantum grows to calm over the first 100k cycles */
	log_all_at_once(2, 0); /* then 125k cycles calm from the start */
	check_all_replayed();
	CHECK(hub.windows >= 8);
	CHECK_EQ_U64(hub.cur, HUB_CALM_QUANTUM);
	pthread_t seen[8];
	unsigned n_seen = 0;
	for (unsigned i = 0; i < 2; i++)
		for (unsigned t = 0; t < member[i].n_threads; t++) {
			unsigned k = 0;
			while (k < n_seen && !pthread_equal(seen[k], member[i].thread[t]))
				k++;
			if (k == n_seen)
				seen[n_seen++] = member[i].thread[t];
		}
	CHECK(n_seen >= 2); /* the hub's thread and the helper both replayed */
	uint64_t windows = hub.windows;
	member[0].busy = member[1].busy = 0;
	log_all_at_once(2, 1);
	check_all_replayed();
	/* The first window meets, the rest are fine-grained. (+ 2: the
	 * calm phase's last window may be counted after its events.) */
	CHECK(hub.windows <= windows + 2);
	CHECK_EQ_U64(hub.cur, QUANTUM);
	teardown();
}

/* The fork-join team under the calm windows (hub_team.c): in many runs
 * back to back, each item runs exactly once per run, with that run's
 * context, and the run returns only when all have: a helper woken late
 * must not run an item with the run before's function and context. */
struct team_count {
	_Atomic unsigned ran[4];
};

static void count_item(void *ctx, unsigned i)
{
	atomic_fetch_add(&((struct team_count *)ctx)->ran[i], 1);
}

TEST(team_runs_every_item_once)
{
	struct hub_team team;
	CHECK_EQ_U64(hub_team_start(&team, 2), 2);
	static struct team_count c[2]; /* runs alternate between two contexts */
	static const unsigned owner[4] = { 0, 1, 2, 1 };
	unsigned expect[2][4] = { { 0 } };
	int bad = 0;
	for (unsigned run = 0; run < 20000 && !bad; run++) {
		unsigned n = 1 + run % 4, k = run % 2;
		hub_team_run(&team, n, count_item, &c[k], owner);
		for (unsigned i = 0; i < n; i++)
			expect[k][i]++;
		for (unsigned j = 0; j < 2; j++)
			for (unsigned i = 0; i < 4; i++)
				bad |= atomic_load(&c[j].ran[i]) != expect[j][i];
	}
	CHECK(!bad);
	hub_team_stop(&team);
}

/* A thread in a system call holds nobody up; when it logs again it
 * rejoins at the replay's clock. */
TEST(idle_member_is_passed_and_rejoins_at_the_clock)
{
	setup();
	struct member *a = &member[0], *b = &member[1];
	produce(b, 100);
	event_ring_drain(&b->ring);
	atomic_store(&b->idle, 1); /* b enters a system call */
	replay_hub_poke(&hub);
	produce(a, 8 * (uint64_t)EVENT_RING_BATCH); /* more than the ring holds: a must not wait */
	event_ring_drain(&a->ring);
	CHECK_EQ_U64(hub.timeouts, 0);
	uint64_t a_clock = hub_clock(a), b_before = b->clock;
	CHECK(a_clock > 10 * b_before);
	/* b returns and logs: its clock joins a's instead of replaying
	 * from far behind (where it would hold a up for 100k cycles). */
	atomic_store(&b->idle, 0);
	produce(b, 10);
	event_ring_drain(&b->ring);
	CHECK(hub_clock(b) >= a_clock);
	CHECK(hub.member[1].offset >= a_clock - b_before);
	check_all_replayed();
	teardown();
}

/* A running thread that logs nothing (QEMU holding it, say) is waited for
 * about HUB_WAIT_MS, then passed. */
TEST(silent_member_is_passed_after_a_wait)
{
	setup();
	struct member *a = &member[0], *c = &member[2];
	/* c logs a batch (replayed as it comes), then says nothing, in no
	 * system call. */
	atomic_store(&c->idle, 0);
	produce(c, EVENT_RING_BATCH);
	pthread_mutex_lock(&hub.lock);
	while (c->ring.replayed != 1)
		pthread_cond_wait(&hub.done, &hub.lock);
	pthread_mutex_unlock(&hub.lock);
	CHECK_EQ_U64(hub.timeouts, 0);
	pthread_mutex_lock(&hub.lock);
	hub.wait_ms = HUB_WAIT_MS;
	pthread_mutex_unlock(&hub.lock);
	produce(a, 3 * (uint64_t)EVENT_RING_BATCH);
	/* a's full batches went out; a is a quantum ahead of c at once, so
	 * the hub waits for c before going on. */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_mutex_lock(&hub.lock);
	while (a->ring.replayed != a->ring.published)
		pthread_cond_wait(&hub.done, &hub.lock);
	pthread_mutex_unlock(&hub.lock);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	CHECK(hub.timeouts >= 1);
	CHECK(ms >= HUB_WAIT_MS * 0.9);
	event_ring_drain(&a->ring);
	check_all_replayed();
	teardown();
}

/* A drain (a thread's exit, a checkpoint, the end) returns while another
 * thread runs with nothing logged: it does not wait for that one. */
TEST(drain_passes_running_members)
{
	setup();
	struct member *a = &member[0], *b = &member[1];
	produce(b, EVENT_RING_BATCH); /* replayed as it comes; b runs on, logging nothing yet */
	pthread_mutex_lock(&hub.lock);
	while (b->ring.replayed != 1)
		pthread_cond_wait(&hub.done, &hub.lock);
	pthread_mutex_unlock(&hub.lock);
	produce(a, 123); /* a partial batch: only the drain sends it */
	event_ring_drain(&a->ring);
	CHECK_EQ_U64(a->replayed, 123);
	/* Without the drain's say-so the hub would have waited for b. */
	CHECK_EQ_U64(hub.timeouts, 0);
	check_all_replayed();
	teardown();
}

/* A drain passes the others only while its own events are replayed: the
 * drained thread runs on, so once its log is out the others wait for it
 * again, and its clock never jumps (before, the flush lasted until the
 * drain returned, and meanwhile the hub parked b and replayed a batch of
 * a past it; CI saw b then rejoin far ahead of its own clock). */
TEST(drained_member_is_waited_for_again)
{
	setup();
	struct member *a = &member[0], *b = &member[1];
	atomic_store(&a->idle, 0);
	atomic_store(&b->idle, 0); /* both run */
	produce(a, 3 * (uint64_t)EVENT_RING_BATCH);
	produce(b, 10);
	event_ring_drain(&b->ring);
	CHECK_EQ_U64(b->replayed, 10);
	/* Time enough for a's three batches, had the hub gone on. */
	struct timespec pause = { 0, 50 * 1000000L };
	nanosleep(&pause, NULL);
	CHECK(__atomic_load_n(&a->replayed, __ATOMIC_ACQUIRE) < 100);
	CHECK_EQ_U64(hub.member[1].offset, 0); /* b was never passed */
	atomic_store(&b->idle, 1); /* b's thread waits: a goes on */
	replay_hub_poke(&hub);
	event_ring_drain(&a->ring);
	check_all_replayed();
	CHECK_EQ_U64(hub.timeouts, 0);
	teardown();
}

/* Wait until m's replay has reached `events`, then a little longer. */
static void await_replayed(const struct member *m, uint64_t events)
{
	while (__atomic_load_n(&m->replayed, __ATOMIC_ACQUIRE) < events)
		sched_yield();
	struct timespec pause = { 0, 5 * 1000000L };
	nanosleep(&pause, NULL);
}

/* a wakes b (a futex wake that woke one): a's replay stops where it woke
 * b, however far a's thread runs on, until b is back from its wait; b
 * then goes on from a's clock at the wake, so that the two run side by
 * side from there as on hardware (without the hold, a's three batches
 * would be replayed before b's thread is even back). */
TEST(woken_member_rejoins_at_the_wakers_clock)
{
	setup();
	struct member *a = &member[0], *b = &member[1];
	atomic_store(&b->idle, 1); /* b waits in a futex */
	replay_hub_poke(&hub);
	produce(a, 1000);
	event_ring_publish(&a->ring); /* a's system call: its log so far goes out */
	replay_hub_woke(&hub, 0, replay_hub_resumed_count(&hub), 1, 0);
	produce(a, 3 * (uint64_t)EVENT_RING_BATCH); /* a runs on */
	await_replayed(a, 1000);
	CHECK_EQ_U64(a->replayed, 1000);
	uint64_t wake_clock = hub_clock(a);
	atomic_store(&b->idle, 0); /* b's wait returns */
	replay_hub_resumed(&hub);
	produce(b, 10);
	event_ring_drain(&b->ring);
	atomic_store(&b->idle, 1); /* and waits again */
	CHECK_EQ_U64(hub.member[1].offset, wake_clock); /* b's own clock was 0 */
	event_ring_drain(&a->ring);
	check_all_replayed();
	CHECK_EQ_U64(hub.wake_holds, 1);
	CHECK_EQ_U64(hub.timeouts, 0);
	teardown();
}

/* A guessed wake-up (a wake that found nobody asleep) that nobody comes
 * back from holds the waker about HUB_GUESS_MS, then the replay goes on;
 * it is made HUB_GUESSES_MAX times in vain, and then no more. (One whose
 * woken thread never comes back, another process's, say, is given up
 * after HUB_WAIT_MS: the same path.) */
TEST(wake_hold_is_given_up_after_a_wait)
{
	setup();
	struct member *a = &member[0];
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned k = 0; k <= HUB_GUESSES_MAX; k++) {
		produce(a, 100);
		event_ring_publish(&a->ring);
		replay_hub_woke(&hub, 0, replay_hub_resumed_count(&hub), 1, 1);
		produce(a, EVENT_RING_BATCH); /* one batch after the wake, replayed once the hold ends */
		await_replayed(a, a->logged);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	check_all_replayed();
	CHECK_EQ_U64(hub.wake_holds, HUB_GUESSES_MAX);
	CHECK_EQ_U64(hub.guesses_missed, HUB_GUESSES_MAX);
	CHECK_EQ_U64(hub.timeouts, HUB_GUESSES_MAX);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	CHECK(ms >= HUB_GUESSES_MAX * HUB_GUESS_MS * 0.9);
	teardown();
}

/* A thread started by a member (clone) is a wake-up too: the starter is
 * held until the new member joins, which starts at the starter's clock. */
TEST(started_member_joins_at_the_starters_clock)
{
	setup();
	struct member *a = &member[0];
	static struct member extra;
	memset(&extra, 0, sizeof(extra));
	extra.id = MEMBERS;
	CHECK(event_ring_init(&extra.ring, replay, &extra, 0) == 0);
	produce(a, 500);
	event_ring_publish(&a->ring);
	replay_hub_woke(&hub, 0, replay_hub_resumed_count(&hub), 1, 0);
	produce(a, 3 * (uint64_t)EVENT_RING_BATCH);
	await_replayed(a, 500);
	CHECK_EQ_U64(a->replayed, 500);
	uint64_t start_clock = hub_clock(a);
	CHECK(event_ring_join_hub(&extra.ring, &hub, MEMBERS, &extra.idle, &extra.met_others, 0) == 0);
	produce(&extra, 10);
	event_ring_drain(&extra.ring);
	atomic_store(&extra.idle, 1);
	CHECK_EQ_U64(hub.member[MEMBERS].offset, start_clock);
	CHECK_EQ_U64(extra.replayed, 10);
	event_ring_drain(&a->ring);
	check_all_replayed();
	CHECK_EQ_U64(hub.timeouts, 0);
	event_ring_fini(&extra.ring);
	teardown();
}

/* A member's thread in a system call that keeps running on the host (a
 * short call on a busy host): the replay waits for it instead of passing
 * it, as it would a thread asleep in the kernel. */
struct busy_call {
	struct member *m;
	_Atomic int64_t tid;
	_Atomic int go, done;
};

static void *in_a_busy_call(void *arg)
{
	struct busy_call *c = arg;
	atomic_store(&c->tid, (int64_t)syscall(SYS_gettid));
	while (!atomic_load(&c->go))
		sched_yield();
	atomic_store(&c->m->idle, 1); /* enters its call */
	replay_hub_poke(&hub);
	while (!atomic_load(&c->done))
		; /* runnable all along */
	atomic_store(&c->m->idle, 0);
	replay_hub_poke(&hub);
	produce(c->m, 10);
	event_ring_drain(&c->m->ring);
	atomic_store(&c->m->idle, 1);
	return NULL;
}

TEST(runnable_member_in_a_call_is_waited_for)
{
	setup();
	struct member *a = &member[0], *b = &member[1];
	static struct busy_call call;
	call = (struct busy_call){ .m = b };
	pthread_t t;
	CHECK(pthread_create(&t, NULL, in_a_busy_call, &call) == 0);
	while (!atomic_load(&call.tid))
		sched_yield();
	pthread_mutex_lock(&hub.lock);
	hub.member[1].tid = atomic_load(&call.tid);
	pthread_mutex_unlock(&hub.lock);
	/* b runs (its log replayed), then enters a call it keeps running in. */
	atomic_store(&b->idle, 0);
	produce(b, 50);
	event_ring_publish(&b->ring);
	await_replayed(b, 50);
	atomic_store(&call.go, 1);
	produce(a, 3 * (uint64_t)EVENT_RING_BATCH);
	struct timespec pause = { 0, 10 * 1000000L };
	nanosleep(&pause, NULL);
	/* a goes no further than a hand-over's quantum (and an event) past b. */
	pthread_mutex_lock(&hub.lock);
	uint64_t a_clock = hub_clock(a), b_clock = hub_clock(b);
	pthread_mutex_unlock(&hub.lock);
	CHECK(a_clock <= b_clock + QUANTUM_MAX + 4);
	CHECK(a->replayed < a->logged);
	atomic_store(&call.done, 1);
	pthread_join(t, NULL);
	event_ring_drain(&a->ring);
	check_all_replayed();
	CHECK_EQ_U64(hub.timeouts, 0);
	teardown();
}

TEST_MAIN(CASE(members_interleave_in_clock_order), CASE(quantum_grows_while_members_keep_apart),
          CASE(calm_members_replay_side_by_side), CASE(team_runs_every_item_once),
          CASE(idle_member_is_passed_and_rejoins_at_the_clock),
          CASE(silent_member_is_passed_after_a_wait), CASE(drain_passes_running_members),
          CASE(drained_member_is_waited_for_again),
          CASE(woken_member_rejoins_at_the_wakers_clock), CASE(wake_hold_is_given_up_after_a_wait),
          CASE(started_member_joins_at_the_starters_clock), CASE(runnable_member_in_a_call_is_waited_for))

/* The plugin's per-vCPU ring of event batches (plugins/qemu/event_ring.c),
 * without QEMU, so that it also runs under ASan and UBSan: every event
 * reaches the replay once, in the order logged, with and without a model
 * thread; drain waits for the model thread; after a fork the ring replays
 * on the caller and forgets the batches in flight; each side's waits on
 * the ring are counted, with durations that fit the run's. */
#define _DEFAULT_SOURCE 1 /* fork, waitpid, _exit */
#include <pthread.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "event_ring.h"
#include "harness.h"

struct replay_log {
	uint64_t next;    /* the sequence number expected next */
	uint64_t seen;    /* events replayed */
	uint64_t batches; /* replay calls */
	int out_of_order;
	pthread_t last_thread;
};

static uint32_t replay(void *ctx, const struct plugin_event *ev, uint32_t n, uint64_t stop, int until_meeting)
{
	(void)stop, (void)until_meeting; /* a ring of its own replays whole batches */
	struct replay_log *log = ctx;
	for (uint32_t i = 0; i < n; i++) {
		if (ev[i].vaddr != log->next || ev[i].what != (uintptr_t)(log->next * 8))
			log->out_of_order = 1;
		log->next++;
	}
	log->seen += n;
	log->batches++;
	log->last_thread = pthread_self();
	if (log->batches % 7 == 0)
		nanosleep(&(struct timespec){ 0, 100000 }, NULL); /* a slow replay: the guest side must wait */
	return n;
}

/* Log n events the way plugin.c's log_event does. */
static void produce(struct event_ring *r, uint64_t first, uint64_t n)
{
	struct event_batch *b = event_ring_current(r);
	for (uint64_t k = first; k < first + n; k++) {
		struct plugin_event *e = &b->ev[b->n++];
		e->what = (uintptr_t)(k * 8);
		e->vaddr = k;
		if (b->n == EVENT_RING_BATCH)
			b = event_ring_publish(r);
	}
}

static void run(int threaded)
{
	struct replay_log log = { 0 };
	struct event_ring r;
	CHECK(event_ring_init(&r, replay, &log, threaded) == 0);
	CHECK_EQ_U64(r.threaded, threaded);
	uint64_t n = 20 * (uint64_t)EVENT_RING_BATCH + 123; /* many hand-overs, a partial last batch */
	produce(&r, 0, n);
	event_ring_drain(&r);
	/* After drain the replay state is the caller's to read. */
	CHECK_EQ_U64(log.seen, n);
	CHECK_EQ_U64(log.next, n);
	CHECK(!log.out_of_order);
	CHECK_EQ_U64(log.batches, 21);
	CHECK(threaded ? !pthread_equal(log.last_thread, pthread_self())
	               : pthread_equal(log.last_thread, pthread_self()));
	/* Draining an empty ring changes nothing; logging goes on after it. */
	event_ring_drain(&r);
	CHECK_EQ_U64(log.batches, 21);
	produce(&r, n, 5);
	event_ring_drain(&r);
	CHECK_EQ_U64(log.seen, n + 5);
	CHECK(!log.out_of_order);
	event_ring_fini(&r);
}

TEST(ring_with_model_thread) { run(1); }

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void sleep_us(long us)
{
	nanosleep(&(struct timespec){ 0, us * 1000 }, NULL);
}

/* A replay that takes at least 1 ms a batch. */
static uint32_t slow_replay(void *ctx, const struct plugin_event *ev, uint32_t n, uint64_t stop, int until_meeting)
{
	(void)ev, (void)stop, (void)until_meeting;
	*(uint64_t *)ctx += n;
	sleep_us(1000);
	return n;
}

static uint32_t quick_replay(void *ctx, const struct plugin_event *ev, uint32_t n, uint64_t stop, int until_meeting)
{
	(void)ev, (void)stop, (void)until_meeting;
	*(uint64_t *)ctx += n;
	return n;
}

/* Fill and publish batches batches, sleeping gap_us before each. */
static void produce_batches(struct event_ring *r, unsigned batches, long gap_us)
{
	struct event_batch *b = event_ring_current(r);
	for (unsigned i = 0; i < batches; i++) {
		if (gap_us)
			sleep_us(gap_us);
		b->n = EVENT_RING_BATCH;
		b = event_ring_publish(r);
	}
}

/* Both threads busy (issue 30): the ring counts how often and how long the
 * logging thread waited for room (a model slower than the program) and at
 * a drain, and the model thread waited for a batch (a program slower than
 * the model); each duration within the run's wall time, never a wait
 * counted without a duration or the reverse. */
TEST(ring_counts_each_sides_waits)
{
	uint64_t seen = 0;
	struct event_ring r;
	/* The model is slow: three rings' worth of batches of 1 ms. */
	const unsigned many = 3 * EVENT_RING_BATCHES;
	CHECK(event_ring_init(&r, slow_replay, &seen, 1) == 0);
	uint64_t t0 = now_ns();
	produce_batches(&r, many, 0);
	event_ring_drain(&r);
	uint64_t wall = now_ns() - t0;
	CHECK_EQ_U64(seen, many * (uint64_t)EVENT_RING_BATCH);
	/* Publishing takes microseconds, replaying 48 ms: the logging thread
	 * found the ring full and spent most of the run waiting (a loaded host
	 * may keep it off its CPU now and then: half, not all); it resumes
	 * with half the ring free, so it waited at most once per half ring. */
	CHECK(r.full.n >= 1 && r.full.n <= many / (EVENT_RING_BATCHES - EVENT_RING_RESUME) && r.full.ns > 0);
	CHECK(r.drain.n == 1 && r.drain.ns > 0);
	CHECK(wall >= many * 1000000u && r.full.ns + r.drain.ns >= wall / 2 && r.full.ns + r.drain.ns <= wall);
	CHECK(r.empty.ns <= wall);
	event_ring_fini(&r);

	/* The program is slow: 8 batches, 3 ms apart; the model waits for each. */
	seen = 0;
	CHECK(event_ring_init(&r, quick_replay, &seen, 1) == 0);
	t0 = now_ns();
	produce_batches(&r, 8, 3000);
	event_ring_drain(&r);
	wall = now_ns() - t0;
	CHECK_EQ_U64(seen, 8 * (uint64_t)EVENT_RING_BATCH);
	CHECK_EQ_U64(r.full.n, 0);
	CHECK_EQ_U64(r.full.ns, 0);
	CHECK(r.empty.n >= 1 && r.empty.n <= 9); /* at most one a batch; the ninth: under way, not counted yet */
	/* Waited, within the wall time. Not "most of it": a loaded host that
	 * takes the model thread off its CPU in the middle of a replay
	 * (uncounted: it is not waiting) can take most of the 3 ms gaps. */
	CHECK(wall >= 24000000u && r.empty.ns > 0 && r.empty.ns <= wall);
	CHECK((r.drain.n == 0) == (r.drain.ns == 0));
	event_ring_fini(&r);

	/* Without a model thread nobody waits. */
	CHECK(event_ring_init(&r, quick_replay, &seen, 0) == 0);
	produce_batches(&r, 6, 0);
	event_ring_drain(&r);
	CHECK(!r.full.n && !r.full.ns && !r.drain.n && !r.drain.ns && !r.empty.n && !r.empty.ns);
	event_ring_fini(&r);
}

TEST(ring_on_the_logging_thread) { run(0); }

/* A real fork(): the child has no model thread, only the parent's ring in
 * its memory (possibly with the lock held or batches in flight). */
TEST(ring_after_fork_replays_on_the_caller)
{
	struct replay_log log = { 0 };
	struct event_ring r;
	CHECK(event_ring_init(&r, replay, &log, 1) == 0);
	produce(&r, 0, 3 * EVENT_RING_BATCH + 10);
	event_ring_drain(&r);
	produce(&r, log.next, 2 * EVENT_RING_BATCH + 17); /* in flight at the fork */
	r.full = (struct ring_wait){ 3, 3000 }; /* the parent's waits, whether or not it waited here */
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		int bad = 0;
		event_ring_after_fork(&r);
		bad |= r.threaded != 0 || event_ring_current(&r)->n != 0;
		bad |= r.full.n || r.full.ns || r.drain.n || r.empty.n; /* counted in the parent's stats */
		uint64_t seen = log.seen;
		log.next = 1000000; /* what was in flight is gone: replay starts here */
		log.out_of_order = 0;
		produce(&r, 1000000, EVENT_RING_BATCH + 3);
		bad |= log.seen != seen + EVENT_RING_BATCH; /* the full batch, on this thread */
		bad |= !pthread_equal(log.last_thread, pthread_self());
		event_ring_drain(&r);
		bad |= log.seen != seen + EVENT_RING_BATCH + 3 || log.out_of_order;
		_exit(bad);
	}
	int status = -1;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The parent's ring is untouched by the child. */
	event_ring_drain(&r);
	CHECK_EQ_U64(log.seen, 5 * EVENT_RING_BATCH + 27);
	CHECK(!log.out_of_order);
	event_ring_fini(&r);
}

TEST_MAIN(CASE(ring_with_model_thread), CASE(ring_on_the_logging_thread), CASE(ring_counts_each_sides_waits),
          CASE(ring_after_fork_replays_on_the_caller))

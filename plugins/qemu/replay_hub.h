/* Interleaved replay: one model thread replays the event logs of every
 * vCPU, always advancing the one whose model clock is furthest behind, by
 * at most a quantum of cycles past the next one's.
 *
 * Why: the threads of a program meet in the model's shared state (the LLC
 * and the coherence directory: false sharing is a load finding that another
 * core wrote its line since). With a model thread per vCPU (event_ring.h)
 * each replays a batch of thousands of events at a time, whenever the host
 * schedules it, so two threads' accesses meet only where their batches
 * happen to overlap in host time: false sharing showed on 0-1% of the
 * accesses where hardware shows it on most. Here the order comes from the
 * model: as if the cores ran side by side at the speed the model gives
 * them (clock = operations + dependency stalls), each within about
 * `quantum` cycles of the others.
 *
 * That order matters only while the threads meet in the shared state. A
 * hand-over costs tens of nanoseconds, so while none of them meets
 * another's write for HUB_CALM_CYCLES the quantum doubles, up to
 * HUB_CALM_QUANTUM, and it is back to `quantum` at the next meeting: the
 * fine order where threads share lines, few hand-overs where they do not.
 * Where they do not, their order changes nothing, so with helper threads
 * (a host with CPUs to spare) the hub replays them side by side
 * (hub_team.h), a window of HUB_PARALLEL_WINDOW cycles at a time; a
 * meeting in a window makes the next ones fine and one at a time again.
 *
 * A thread in a system call (or being drained: it exited, or a checkpoint
 * or the end of the run) logs nothing until it returns, so the others go on
 * without it ("parked"); once it has returned it rejoins at the clock of
 * the replay so far and is waited for like any running thread. Where one
 * thread wakes others (a futex wake that woke n: a barrier, a mutex, a
 * condition variable), the woken ones resume where their waker woke them,
 * as on hardware: the waker's replay stops at that point of its log until n
 * futex waits have returned (replay_hub_woke), so host time (how soon the
 * host runs a woken thread) does not let the waker run on alone. Host time
 * still decides what is rare and documented in docs/record-and-report.md:
 * a running thread whose log has nothing yet, or a wake whose woken threads
 * do not return, is waited for HUB_WAIT_MS at a time, and the replay goes
 * on without it once no thread it waits for is runnable on the host (QEMU
 * can hold a thread inside itself, waiting for another, in ways a plugin
 * cannot see; a futex may wake a thread of another process), or after
 * HUB_RUNNABLE_WAITS such waits (a host too busy to run it).
 *
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_REPLAY_HUB_H
#define ARMPROF_PLUGIN_REPLAY_HUB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "event_ring.h"
#include "hub_team.h"

#define HUB_MAX_MEMBERS 256
#define HUB_WAIT_MS 20
#define HUB_CALM_CYCLES 10000
#define HUB_CALM_QUANTUM 4096
#define HUB_PARALLEL_WINDOW 65536
#define HUB_GUESSES_MAX 8
#define HUB_GUESS_MS 2 /* a guessed hold's wait (replay_hub_woke) */
#define HUB_RUNNABLE_WAITS 25 /* a wait goes on while the thread is runnable, up to 25 * HUB_WAIT_MS */

/* The model clock of a vCPU's replay so far (its own units: the hub adds
 * an offset when a parked vCPU rejoins). */
typedef uint64_t (*hub_clock_fn)(void *ctx);

struct hub_member {
	struct event_ring *ring; /* NULL: the slot is free */
	void *ctx;
	const _Atomic int *idle; /* the thread logs nothing until this clears (a system call) */
	int64_t tid;             /* its host thread (0: unknown), asked whether it is runnable */
	/* Grows when the vCPU's replay meets another's writes
	 * (ap_uarch_core_met_others); NULL: it never does. */
	const uint64_t *met_others;
	uint64_t offset;         /* added to the vCPU's own clock */
	uint8_t parked;          /* HUB_PARKED_*: left out of the order (0: in it) */
	/* A wake-up under way (replay_hub_woke): once the batches published
	 * before it (hold_batch) are replayed, the member waits until the
	 * hub's count of resumed threads reaches hold_until (0: none). */
	uint64_t hold_batch, hold_until;
	int hold_guess; /* the hold is a guess (replay_hub_woke) */
	/* In a system call, its thread was seen runnable (wait_for_work):
	 * not asked again until it returns. */
	uint8_t seen_runnable;
};

/* Why a member is out of the order: in a system call (or a drain under
 * way), back once it has returned; or waited for in vain (HUB_WAIT_MS),
 * back once its log has events. */
enum { HUB_IN_ORDER, HUB_PARKED_IDLE, HUB_PARKED_LATE };

struct replay_hub {
	pthread_mutex_t lock;
	pthread_cond_t work; /* the hub waits here: a batch was published, a drain asked */
	pthread_cond_t done; /* producers and drains wait here: a batch was replayed */
	int started, stop;
	pthread_t thread;
	hub_clock_fn clock;
	/* Each hand-over lets a vCPU run to a clock from about half to 1.5
	 * times cur past the next one's, drawn from rng (replay_hub.c
	 * draw_quantum). cur is quantum while the vCPUs meet each other's
	 * writes; after HUB_CALM_CYCLES without that it doubles, up to
	 * HUB_CALM_QUANTUM (calm_since: the clock of the last change). */
	uint64_t quantum, cur, calm_since, seed, rng;
	/* Calm windows replayed side by side (hub_team.h): helper threads
	 * asked for and the window's length in cycles. */
	unsigned helpers;
	uint64_t parallel_window;
	/* How long a member is waited for at a time: HUB_WAIT_MS (the tests
	 * lengthen it where a host too busy to run them must not make the hub
	 * pass a member). */
	unsigned wait_ms;
	struct hub_team team;
	/* Drained rings with events still to replay: every vCPU with nothing
	 * logged is parked meanwhile, so that those events are replayed
	 * without waiting for others. Counted down as each ring empties, not
	 * when its drain returns: the drained vCPU, running on, would
	 * otherwise be parked and passed in the meantime. */
	int flushing;
	const _Atomic int *flush_flag; /* the same while it is set (a checkpoint's hold) */
	struct hub_member member[HUB_MAX_MEMBERS];
	unsigned n_slots;  /* members are in member[0 .. n_slots) */
	uint64_t now;      /* the largest clock replayed so far */
	/* Threads resumed: futex waits of members' threads that returned
	 * (replay_hub_resumed) and members attached. */
	_Atomic uint64_t resumed;
	/* Statistics, read after a drain: CPU time of the hub thread while it
	 * was replaying, hand-overs from one vCPU to another, parks for a
	 * thread that logged nothing in time or for a wake-up whose woken
	 * threads did not return in time; wake-ups held for. */
	uint64_t cpu_ns, switches, timeouts, wake_holds;
	uint64_t guesses_missed; /* guessed holds that timed out */
	unsigned late_waits;     /* wait_ms waits in a row for a runnable thread */
	uint64_t windows; /* calm windows replayed side by side */
	struct ring_wait idle; /* the hub thread's waits for a log (ring_wait.h) */
};

/* quantum: cycles a vCPU may run ahead of the next one on average (>= 1;
 * each hand-over draws from about half to 1.5 times it, from seed). flush_flag:
 * while it is set, treat every vCPU with nothing logged as parked (NULL:
 * none). helpers: threads to replay calm windows side by side (0: none).
 * The threads start with the first member. */
void replay_hub_init(struct replay_hub *h, hub_clock_fn clock, uint64_t quantum, uint64_t seed,
                     const _Atomic int *flush_flag, unsigned helpers);
/* Add r (its events replayed with ctx's replay function), logged by host
 * thread tid (0: unknown), as member slot. Returns 0, or -1 when the
 * thread cannot start (the caller replays r another way). */
int replay_hub_attach(struct replay_hub *h, unsigned slot, struct event_ring *r, void *ctx,
                      const _Atomic int *idle, const uint64_t *met_others, int64_t tid);
/* event_ring_publish and event_ring_drain of a member's ring. */
void replay_hub_publish(struct replay_hub *h, struct event_ring *r);
void replay_hub_drain(struct replay_hub *h, struct event_ring *r);
/* Wake the hub after a member's idle flag was set (it may be waiting for
 * that thread's log). */
void replay_hub_poke(struct replay_hub *h);
/* A member's thread returned from a futex wait (it may have been woken by
 * another member: replay_hub_woke). Locks the hub. A member's attach
 * (a new thread) counts as one too. */
void replay_hub_resumed(struct replay_hub *h);
/* The count of threads resumed so far (replay_hub_resumed): read when a
 * wake-up starts, for replay_hub_woke. */
uint64_t replay_hub_resumed_count(const struct replay_hub *h);
/* Member slot's thread woke (or started) n > 0 threads with a call that
 * started when replay_hub_resumed_count said before, and has logged
 * nothing since: its replay stops at this point of its log until n more
 * threads have resumed (or HUB_WAIT_MS passes), so that they rejoin at
 * the waker's clock. guess: n is 1 for a wake that found nobody asleep,
 * where a thread is most likely on its way into a wait that will return
 * at once (the word changed); such a hold lasts HUB_GUESS_MS at most, and
 * after HUB_GUESSES_MAX that nobody ended, they are no longer made. Call
 * before the thread logs again, instead of replay_hub_poke: it tells the
 * hub the thread is back from its call too. */
void replay_hub_woke(struct replay_hub *h, unsigned slot, uint64_t before, uint64_t n, int guess);
/* Stop the thread once nothing is left to replay (the plugin's runs until
 * the process ends; tests stop theirs). */
void replay_hub_fini(struct replay_hub *h);
/* In the child of a fork(): no hub thread, no members (the parent's
 * vCPU states are gone); a new thread starts with the next member. */
void replay_hub_after_fork(struct replay_hub *h);

#endif

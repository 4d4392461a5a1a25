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
 * Host time still decides two things, both rare and both documented in
 * docs/record-and-report.md: a thread in a system call (or being drained:
 * it exited, or a checkpoint or the end of the run) logs nothing until it
 * returns, so the others go on without it ("parked"), and it rejoins at the
 * clock of the replay so far; and a running thread whose log has nothing
 * yet is waited for at most HUB_WAIT_MS, then parked as well (QEMU can hold
 * a thread inside itself, waiting for another, in ways a plugin cannot
 * see).
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

/* The model clock of a vCPU's replay so far (its own units: the hub adds
 * an offset when a parked vCPU rejoins). */
typedef uint64_t (*hub_clock_fn)(void *ctx);

struct hub_member {
	struct event_ring *ring; /* NULL: the slot is free */
	void *ctx;
	const _Atomic int *idle; /* the thread logs nothing until this clears (a system call) */
	/* Grows when the vCPU's replay meets another's writes
	 * (ap_uarch_core_met_others); NULL: it never does. */
	const uint64_t *met_others;
	uint64_t offset;         /* added to the vCPU's own clock */
	uint8_t parked;          /* left out of the order until its log has events again */
};

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
	struct hub_team team;
	/* Drains under way: every vCPU with nothing logged is parked, so that
	 * the drained one's events are replayed without waiting for others. */
	int flushing;
	const _Atomic int *flush_flag; /* the same while it is set (a checkpoint's hold) */
	struct hub_member member[HUB_MAX_MEMBERS];
	unsigned n_slots;  /* members are in member[0 .. n_slots) */
	uint64_t now;      /* the largest clock replayed so far */
	/* Statistics, read after a drain: CPU time of the hub thread while it
	 * was replaying, hand-overs from one vCPU to another, parks for a
	 * thread that logged nothing in time. */
	uint64_t cpu_ns, switches, timeouts;
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
/* Add r (its events replayed with ctx's replay function) as member slot,
 * parked until it logs. Returns 0, or -1 when the thread cannot start
 * (the caller replays r another way). */
int replay_hub_attach(struct replay_hub *h, unsigned slot, struct event_ring *r, void *ctx,
                      const _Atomic int *idle, const uint64_t *met_others);
/* event_ring_publish and event_ring_drain of a member's ring. */
void replay_hub_publish(struct replay_hub *h, struct event_ring *r);
void replay_hub_drain(struct replay_hub *h, struct event_ring *r);
/* Wake the hub after a member's idle flag was set (it may be waiting for
 * that thread's log). */
void replay_hub_poke(struct replay_hub *h);
/* Stop the thread once nothing is left to replay (the plugin's runs until
 * the process ends; tests stop theirs). */
void replay_hub_fini(struct replay_hub *h);
/* In the child of a fork(): no hub thread, no members (the parent's
 * vCPU states are gone); a new thread starts with the next member. */
void replay_hub_after_fork(struct replay_hub *h);

#endif

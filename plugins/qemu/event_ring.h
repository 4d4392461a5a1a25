/* A vCPU's event log as a ring of batches handed from the guest thread,
 * which appends what its callbacks saw, to a model thread of its own,
 * which replays each full batch through the timing and SPE models.
 *
 * Why: the models cost several times what QEMU spends running the guest,
 * and they depend only on the order of one vCPU's events, never on host
 * time. Replaying on another host thread overlaps the two, so a program's
 * wall time under `armprof record` is about the slower of the two instead
 * of their sum, with the same results (one thread replays one vCPU's
 * batches, in order). Without a model thread (a one-CPU host, or
 * pipeline=0) the guest thread replays each batch itself when it fills.
 *
 * The hand-off is once per batch (thousands of events), under a mutex: no
 * lock or atomic per event. Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_EVENT_RING_H
#define ARMPROF_PLUGIN_EVENT_RING_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "ring_wait.h"

/* One logged callback (plugin_state.h says what each kind holds). */
struct plugin_event {
	uintptr_t what;
	uint64_t vaddr;
};

/* Events per batch, and batches in flight per vCPU (4 MiB of events,
 * which stay in a host's last-level cache). A batch is about 0.15 ms of
 * the models' work: 16 of them let the model thread run on while the
 * program's thread, woken, waits for a CPU of a busy host (fewer left the
 * models waiting for events most of a run: docs/PERFORMANCE.md). */
#define EVENT_RING_BATCH 16384u
#define EVENT_RING_BATCHES 16u
/* A program's thread that found every batch in flight waits until no more
 * than this many are (the model thread wakes it then, not after every
 * batch): it then logs several batches in a row, and the two threads
 * hand over a few times per ring instead of once per batch. */
#define EVENT_RING_RESUME (EVENT_RING_BATCHES / 2)

struct event_batch {
	uint32_t n;
	struct plugin_event ev[EVENT_RING_BATCH];
};

/* Replays events ev[0 .. n) of a batch, stopping before the first event
 * that finds the vCPU's model clock at or past stop, or (until_meeting)
 * after the first that meets another vCPU's write (replay_hub.h; a ring
 * of its own passes UINT64_MAX and 0); returns how many it replayed. Runs
 * on the model thread, or on the guest thread without one. */
typedef uint32_t (*event_replay_fn)(void *ctx, const struct plugin_event *ev, uint32_t n, uint64_t stop,
                                    int until_meeting);

struct replay_hub;

struct event_ring {
	struct event_batch *batch; /* EVENT_RING_BATCHES of them */
	event_replay_fn replay;
	void *ctx;
	int threaded;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	uint64_t published, replayed; /* batch sequence numbers, under lock */
	int stop;
	/* Interleaved replay (replay_hub.h): the hub's thread replays this
	 * ring, under the hub's lock instead of this one; pos: events of the
	 * batch `replayed` that it has replayed. */
	struct replay_hub *hub;
	uint32_t pos;
	/* A drain waits for this ring's events (the hub's flushing counts
	 * it until the last of them is replayed; under the hub's lock). */
	int draining;
	/* CPU time spent replaying, on the model thread or the guest thread
	 * (summed per batch; read after a drain). */
	uint64_t replay_cpu_ns;
	/* Waits on the ring (ring_wait.h; read after a drain): the program's
	 * thread for room while every batch was being replayed (full), and
	 * for the models to catch up at a drain (drain); the model thread
	 * for a batch to replay (empty; a hub's thread counts its own). */
	struct ring_wait full, drain, empty;
};

/* threaded: start a model thread (falls back to replaying on the guest
 * thread when one cannot be started). Returns 0 or -1 (out of memory). */
int event_ring_init(struct event_ring *r, event_replay_fn replay, void *ctx, int threaded);
/* Replay on hub's thread instead (replay_hub_attach; a ring made with
 * threaded = 0). Returns 0, or -1 when the hub cannot run (the ring
 * stays as it was). */
int event_ring_join_hub(struct event_ring *r, struct replay_hub *hub, unsigned slot, const _Atomic int *idle,
                        const uint64_t *met_others, int64_t tid);
/* The batch the guest thread appends to. */
static inline struct event_batch *event_ring_current(struct event_ring *r)
{
	return &r->batch[r->published % EVENT_RING_BATCHES];
}
/* Hand over the current batch (possibly partial) and return the next one
 * to fill, waiting while every batch is still being replayed. */
struct event_batch *event_ring_publish(struct event_ring *r);
/* Publish what the current batch holds and wait until every batch has
 * been replayed: afterwards the caller may touch the replay state. */
void event_ring_drain(struct event_ring *r);
/* In the child of a fork(), which has no model thread: forget the batches
 * in flight (they are the parent's) and replay on the calling thread from
 * now on, with fresh synchronization objects (the parent's may have been
 * held at the fork). */
void event_ring_after_fork(struct event_ring *r);
/* Drain, stop the model thread and free the batches. */
void event_ring_fini(struct event_ring *r);

#endif

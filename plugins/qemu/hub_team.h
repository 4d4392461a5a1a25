/* A small fork-join team for the replay hub (replay_hub.h): run a function
 * on items 0..n-1, spread over the calling thread and a few helper
 * threads, and return when every item is done.
 *
 * Why: while a program's threads keep apart, the order of their replays
 * changes nothing (replay_hub.h), so the hub replays them side by side,
 * one window of model time at a time, instead of one after the other on
 * its own thread. A run costs a wake-up of the helpers (microseconds), so
 * it is meant for windows of hundreds of microseconds of work.
 *
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_HUB_TEAM_H
#define ARMPROF_PLUGIN_HUB_TEAM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define HUB_TEAM_MAX_HELPERS 15
#define HUB_TEAM_MAX_ITEMS 256

typedef void (*hub_team_fn)(void *ctx, unsigned item);

struct hub_team {
	pthread_mutex_t lock;
	pthread_cond_t start, done;
	unsigned helpers; /* threads started */
	pthread_t thread[HUB_TEAM_MAX_HELPERS];
	struct hub_team_helper {
		struct hub_team *team;
		unsigned index; /* 1.. */
	} helper[HUB_TEAM_MAX_HELPERS];
	/* The run under way, under lock except next (taken with an atomic). */
	uint64_t generation;
	hub_team_fn fn;
	void *ctx;
	unsigned n;
	const unsigned *owner;
	_Atomic unsigned char claimed[HUB_TEAM_MAX_ITEMS];
	unsigned finished; /* items done */
	/* Helpers working on the run: it ends when they are back, so that no
	 * helper still holds its fn and ctx when the next run starts. */
	unsigned active;
	int stop;
	/* CPU time the helpers spent on items (read after a run). */
	_Atomic uint64_t helper_cpu_ns;
};

/* Start up to helpers threads (they block every signal); returns how many
 * started (0: the caller does all the work). */
unsigned hub_team_start(struct hub_team *t, unsigned helpers);
/* fn(ctx, i) for every i < n (at most HUB_TEAM_MAX_ITEMS), each on the
 * thread owner[i] says (0: the caller, k: helper k, taken modulo helpers
 * + 1) unless another thread is out of work before that one starts it;
 * returns when all are done. An owner per item: the same item (a vCPU's
 * models) on the same thread from run to run keeps its data in that host
 * CPU's caches. Taking over an item not started: a helper the host has
 * not scheduled yet holds nobody up. Not re-entrant: one run at a time. */
void hub_team_run(struct hub_team *t, unsigned n, hub_team_fn fn, void *ctx, const unsigned *owner);
/* Stop and join the helpers. */
void hub_team_stop(struct hub_team *t);

#endif

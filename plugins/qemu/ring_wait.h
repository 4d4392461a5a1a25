/* How long a thread waited on an event ring (event_ring.h): the program's
 * thread for room (every batch still being replayed) or for a drain, the
 * model thread for a batch to replay. The clock is read only around a
 * wait that happens (once per batch at most, never per event), with
 * CLOCK_MONOTONIC, which the vDSO reads without a system call.
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_RING_WAIT_H
#define ARMPROF_PLUGIN_RING_WAIT_H

#include <stdint.h>
#include <time.h>

struct ring_wait {
	uint64_t n;  /* waits */
	uint64_t ns; /* their total duration, wall time */
};

/* Nanoseconds of CLOCK_MONOTONIC, or 0 where it cannot be read. */
static inline uint64_t ring_wait_now(void)
{
	struct timespec t;
	if (clock_gettime(CLOCK_MONOTONIC, &t) != 0)
		return 0;
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* One wait that began at since (ring_wait_now) ended now. */
static inline void ring_wait_add(struct ring_wait *w, uint64_t since)
{
	uint64_t now = ring_wait_now();
	w->n++;
	w->ns += now > since ? now - since : 0;
}

#endif

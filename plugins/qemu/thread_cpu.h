/* CPU time of the calling thread, for the models' CPU figure the plugin
 * reports (read a few times per batch or window, never per event).
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_THREAD_CPU_H
#define ARMPROF_PLUGIN_THREAD_CPU_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds, or 0 where the clock cannot be read. */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec t;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
		return 0;
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#endif

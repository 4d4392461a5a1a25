/* Host threads: the CPU time of the calling thread, for the models' CPU
 * figure the plugin reports (read a few times per batch or window, never
 * per event), and whether a thread is runnable, for the interleaved
 * replay's waits (read only after a wait timed out). Private to
 * plugins/qemu. */
#ifndef ARMPROF_PLUGIN_THREAD_CPU_H
#define ARMPROF_PLUGIN_THREAD_CPU_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Nanoseconds, or 0 where the clock cannot be read. */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec t;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
		return 0;
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Whether host thread tid of this process is running or waiting for a
 * CPU ('R' in /proc/self/task/TID/stat), rather than asleep (blocked on a
 * lock, a condition, a system call): 1 or 0, 0 where it cannot be told. */
static inline int thread_runnable(int64_t tid)
{
	char path[64], buf[512];
	if (tid <= 0 || snprintf(path, sizeof(path), "/proc/self/task/%lld/stat", (long long)tid) >= (int)sizeof(path))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* "tid (comm) S ...": the name may hold spaces and parentheses. */
	const char *end = strrchr(buf, ')');
	return end && end[1] == ' ' && end[2] == 'R';
}

#endif

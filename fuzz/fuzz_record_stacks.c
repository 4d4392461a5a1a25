/* The call stacks file armprof record reads after a run
 * (tools/armprof/record/record_stacks.c, written by plugins/qemu/call_stack.c: a
 * magic, then per sampled operation 64-bit words tid, time, n, PC, return
 * addresses). It comes from the plugin, but a file cut short by a killed
 * process must give a clear refusal, never a crash or a read past it:
 *   - a refused file has a message naming it;
 *   - an accepted one has every stack's frames inside the frames read, one
 *     to 1099 of them, and after sorting each stack is found again by its
 *     thread and time (a duplicate key finds one with that key). */
#define _GNU_SOURCE 1 /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "record_stacks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("stacks", 0);
	if (fd < 0)
		return 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pwrite(fd, data, size, 0) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	struct record_stacks st;
	memset(&st, 0, sizeof(st));
	char err[256] = "";
	if (record_stacks_load(&st, path, err, sizeof(err)) != 0) {
		if (!strstr(err, path) && strcmp(err, "out of memory") != 0)
			__builtin_trap();
	} else {
		for (size_t i = 0; i < st.n; i++)
			if (st.s[i].n < 1 || st.s[i].n > 1099 || st.s[i].frames + st.s[i].n > st.n_frames)
				__builtin_trap();
		record_stacks_sort(&st);
		/* In order (the cursor's way) and from the end (the search's). */
		size_t next = 0, back = 0;
		for (size_t i = 0; i < st.n; i++) {
			const struct record_stack *f = record_stacks_find(&st, st.s[i].tid, st.s[i].time, &next);
			if (!f || f->tid != st.s[i].tid || f->time != st.s[i].time || next > st.n)
				__builtin_trap();
			size_t j = st.n - 1 - i;
			f = record_stacks_find(&st, st.s[j].tid, st.s[j].time, &back);
			if (!f || f->tid != st.s[j].tid || f->time != st.s[j].time)
				__builtin_trap();
		}
	}
	record_stacks_free(&st);
	close(fd);
	return 0;
}

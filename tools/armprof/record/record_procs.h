/* The processes of a recording: the program, and each child process it
 * forked. The plugin writes the program's outputs under the names armprof
 * record gave it, and a forked child's under the same names with ".PID"
 * added (plugins/qemu/plugin.c after_fork_in_child); these helpers find the
 * children's, read them, and merge what is merged (the statistics, the
 * per-PC counts). */
#ifndef ARMPROF_TOOL_RECORD_PROCS_H
#define ARMPROF_TOOL_RECORD_PROCS_H

#include <stddef.h>
#include <stdint.h>

#include "record_run.h"

/* Children beyond this many are left out (and said to be). */
#define RECORD_MAX_CHILDREN 64

struct record_process {
	int pid;                 /* a child's; 0 for the program's own process */
	struct record_stats *st; /* its stats file */
	uint8_t *spe;            /* its SPE bytes (NULL with --no-model) */
	size_t spe_len;
};

/* The name of one of process pid's outputs, given the program's (base):
 * base itself for the program (pid 0), base.PID for a child
 * (plugins/qemu/plugin_outputs.c names them so). */
void record_process_path(char *out, size_t cap, const char *base, int pid);

/* The pids of the children whose stats file (stats_path.PID) is there:
 * the ones that ended while armprof waited (a child writes its outputs at
 * its exit, its stats last). Sorted, at most max; *more: how many more
 * there were. */
size_t record_child_pids(const char *stats_path, int *pids, size_t max, size_t *more);

/* Add one process's statistics to a total (counts summed, threads
 * appended while they fit; the maps and the run-wide fields are the
 * first process's). */
void record_stats_add(struct record_stats *total, const struct record_stats *st);

/* Sum the per-PC counts files (lines "0xPC COUNT KIND", '#' comments) into
 * out, one line per PC in PC order. Returns 0, or -1 with err set (a file
 * that cannot be read, or a malformed line, named with its line number). */
int record_merge_counts(const char *const *paths, size_t n, const char *out, char *err, size_t errlen);

#endif

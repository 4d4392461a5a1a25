/* The summary `armprof record` prints on standard error after a run: how
 * the program ended, what was sampled and written, the timing model's
 * figures, where the models ran, what they cost and how long each side
 * waited on the event rings. */
#ifndef ARMPROF_TOOL_RECORD_SUMMARY_H
#define ARMPROF_TOOL_RECORD_SUMMARY_H

#include <stddef.h>

#include "record_opts.h"
#include "record_run.h"

/* prog ended with status; st: the plugin's statistics summed over the
 * n_procs processes; main_exec: the program replaced itself (execve);
 * written: the profile was written (else an error was printed, and the
 * summary says that it was not). */
void record_summary(const struct record_opts *o, const char *prog, int status, const struct record_stats *st,
                    int main_exec, size_t n_procs, int written);

#endif

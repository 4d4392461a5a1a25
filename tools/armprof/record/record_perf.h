/* armprof record: the perf.data it writes (record_perf.c). */
#ifndef ARMPROF_TOOL_RECORD_PERF_H
#define ARMPROF_TOOL_RECORD_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "record_opts.h"
#include "record_procs.h"

/* Neoverse N1 r3p1, the model's Data Source values (armprof/data_source.h):
 * perf decodes them for it. */
#define RECORD_MIDR 0x413fd0c1u

/* Write o->output as perf.data: the processes' side-band and SPE data
 * (prog loaded at bias; n_threads CPUs) and, when stacks_base is not NULL,
 * a sample per SPE record with the call chain the plugin's stacks file
 * (stacks_base, a child's with ".PID") gives it; meta (or NULL): the
 * metadata section's text (record_meta.h). *written: the file written
 * (its size, for FILE.meta's data_size=). Returns 0, or -1 after
 * printing the error. */
int record_write_perf(const struct record_opts *o, const char *prog, uint64_t bias,
                      const struct record_process *procs, size_t n_procs, size_t n_threads,
                      const char *stacks_base, const char *meta, struct stat *written);

#endif

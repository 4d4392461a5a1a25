/* The metadata `armprof record` keeps with a profile (read by `armprof
 * report`, report/report_meta.h): the binary and its load bias, the
 * libraries, the run's counts, the signal that ended the program, the
 * aarch64 root.
 *
 * It goes inside the perf.data (the AP_PERF_FEAT_ARMPROF_META section,
 * include/armprof/perfdata.h), wherever that is written, and into
 * FILE.meta beside the output when the output is a regular file (or a
 * link to one): never beside a device, a FIFO or standard output. A raw
 * SPE output has FILE.meta only.
 *
 * Two runs writing the same output take turns (record_pair_lock), so
 * that the output and its FILE.meta are always one run's; and FILE.meta
 * says the size of the profile it goes with (data_size=), a tag a copy
 * keeps, by which a reader tells a FILE.meta of another run (one it read
 * while a run replaced the pair). */
#ifndef ARMPROF_TOOL_RECORD_META_H
#define ARMPROF_TOOL_RECORD_META_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "record_opts.h"
#include "record_run.h"

/* The metadata's text (malloc'd), or NULL when out of memory. */
char *record_meta_text(const struct record_opts *o, const char *prog, const char *sysroot, uint64_t bias,
                       const struct record_stats *st, const struct record_library *libs, size_t n_libs,
                       size_t n_procs, int exit_status);
/* FILE.meta beside o->output: text, then data_size= of data (the
 * profile's file as written). Returns 0, or -1 after printing the error. */
int record_meta_write(const struct record_opts *o, const char *text, const struct stat *data);
/* While the profile and its FILE.meta are written: an exclusive lock on
 * the directory they are in, so that concurrent runs do not interleave
 * their renames. Returns the lock's descriptor, or -1 (no lock: a file
 * system without flock; the data_size= still tells a reader). */
int record_pair_lock(const char *output);
void record_pair_unlock(int fd);

#endif

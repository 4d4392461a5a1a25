/* FILE.meta, the metadata `armprof record` writes beside its output and
 * inside its perf.data (read by `armprof report`): the binary, its load bias, the libraries, the
 * signal that ended the program, the aarch64 root, the modelled CPU. */
#ifndef ARMPROF_TOOL_REPORT_META_H
#define ARMPROF_TOOL_REPORT_META_H

#include <stddef.h>
#include <stdint.h>

/* The libraries (dynamic loader, shared libraries) FILE.meta names. */
#define REPORT_MAX_LIBRARIES 64
struct meta_libraries {
	size_t n;
	struct {
		uint64_t bias;
		char path[1024];
		/* The file name rows show: the recorded one's, when the file
		 * was found elsewhere (a build-ID cache's ".../elf"). */
		char name[256];
	} lib[REPORT_MAX_LIBRARIES];
};

/* Add a library, once (the first bias given stands); paths that do not fit
 * are left out. recorded: the path the recording named (for its name). */
void report_meta_add_library(struct meta_libraries *libs, const char *path, const char *recorded, uint64_t bias);
/* FILE.meta's midr= (the CPU `armprof record` modelled): 1 if there. */
int report_meta_midr(const char *input, uint64_t *midr);
/* FILE.meta from `armprof record`: binary=, load_bias=, library=BIAS PATH,
 * stopped_by_signal=, sysroot= (its usr/lib/debug into sysroot_debug).
 * Returns 1 when a FILE.meta of input was read; 0 when there is none, or
 * when its data_size= is not input's size (a warning says so: the two
 * were not written by one run, record/record_meta.h). */
int report_meta_read(const char *input, char *binary, size_t cap, uint64_t *bias, int *have_bias,
                     struct meta_libraries *libs, int *ended_by_signal, char *sysroot_debug,
                     size_t debug_cap);
/* The same text from inside a perf.data (ap_perf_info.armprof_meta), for
 * an input without FILE.meta (recorded to a device, a FIFO or "-"): the
 * signal that ended the program and the aarch64 root's debug directory
 * (the binary and libraries come from the perf.data's mappings). Returns
 * 0, or -1 when out of memory. */
struct ap_report;
int report_meta_embedded(const char *text, struct ap_report *rep, int *ended_by_signal);

#endif

/* armprof convert's options, shared by its two directions. */
#ifndef ARMPROF_TOOL_CONVERT_OPTS_H
#define ARMPROF_TOOL_CONVERT_OPTS_H

#include <stdint.h>

struct convert_opts {
	const char *in, *out, *to, *binary, *comm;
	int32_t pid, tid, cpu;
	int have_cpu, have_tid;
	uint64_t midr, load_bias, buffer_size;
	uint32_t pmu_type;
};

/* Without --buffer-size, raw data becomes AUX buffers of at most this many
 * bytes (cut where records end), as perf record's own AUX areas are a few
 * MiB: converting holds at most one buffer and a read chunk in memory,
 * whatever the input's length. */
#define CONVERT_DEFAULT_BUFFER (16u << 20)

/* Raw SPE bytes (a file, a pipe, "-") to a perf.data: an exit status. */
int convert_raw_to_perf(const struct convert_opts *o);

#endif

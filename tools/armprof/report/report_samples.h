/* armprof report on a perf.data without SPE data (no AUX buffer): its
 * PERF_RECORD_SAMPLEs are the records (`armprof system --pc-sample`'s PC
 * samples, or perf record's own samples). */
#ifndef ARMPROF_TOOL_REPORT_SAMPLES_H
#define ARMPROF_TOOL_REPORT_SAMPLES_H

#include <stdint.h>

#include "armprof/perfdata.h"
#include "armprof/record.h"

/* Each sample with an IP, of cpu and thread tid (AP_PERF_ANY: all), as a
 * record to on(ctx, rec): pc = IP, EL 0 for a user sample (header misc
 * cpumode USER) else 1, CONTEXTIDR_EL1 = TID, timestamp = TIME, an Other
 * operation without latencies. Stops when on returns non-zero. Returns the
 * samples given to on. */
uint64_t report_feed_samples(const struct ap_perf_reader *r, int32_t cpu, int32_t tid,
                             int (*on)(void *ctx, const struct ap_record *rec), void *ctx);
/* The same for armprof report: 0, or EXIT_DATA_ERROR (printed, naming
 * path) when --cpu/--tid select no sample. */
int report_samples(const struct ap_perf_reader *r, const char *path, int32_t cpu, int32_t tid,
                   int (*on)(void *ctx, const struct ap_record *rec), void *ctx);

#endif

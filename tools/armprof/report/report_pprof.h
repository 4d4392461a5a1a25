/* `armprof report --format pprof -o FILE`: the records as a pprof profile
 * (github.com/google/pprof, proto/profile.proto), gzipped, as `go tool
 * pprof`, Perfetto and speedscope read it. One sample per distinct (call
 * stack, operation, data source, event set), its values the sample types
 * samples, latency (total latency cycles, spec/002 5.3.4), l1d_miss,
 * llc_miss, tlb_walk and mispredict (the Events packet's E[3], E[9], E[5],
 * E[7], 5.3.7), as the report's --sort keys count them; labels op,
 * data_source and events. The stack is the record's call stack when the
 * capture has one (armprof record's), else its PC alone. */
#ifndef ARMPROF_TOOL_REPORT_PPROF_H
#define ARMPROF_TOOL_REPORT_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/decode.h"
#include "armprof/report.h"
#include "cli_output.h"

struct report_pprof;

struct report_pprof *report_pprof_create(void);
void report_pprof_destroy(struct report_pprof *p);
/* Count rec with its stack frames[0..n) (innermost first; n 0: its PC). The
 * data source is named in enc as the report names it. 0, or -1 out of
 * memory. A record without a PC is not counted. */
int report_pprof_add(struct report_pprof *p, const struct ap_record *rec, const uint64_t *frames, size_t n,
                     enum ap_ds_encoding enc);
/* Write the profile to out, its functions named by r (its binary,
 * libraries, kernel symbols and source lines); binary names the mapping.
 * 0, or -1 after printing the reason (out of memory, zlib). */
int report_pprof_write(const struct report_pprof *p, const struct ap_report *r, const char *binary,
                       struct cli_output *out);

#endif

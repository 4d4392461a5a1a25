/* `armprof report --format pprof -o FILE`: the records as a pprof profile
 * (github.com/google/pprof, proto/profile.proto), gzipped, as `go tool
 * pprof` and speedscope read it (tests/report/report_pprof.sh,
 * report_speedscope.sh; Perfetto's importer is documented to, not run).
 * A sample per distinct (call stack, operation, data source, event set),
 * its values the sample types samples, latency (total latency cycles,
 * spec/002 5.3.4), l1d_miss, llc_miss, tlb_walk and mispredict (the Events
 * packet's E[3], E[9], E[5], E[7], 5.3.7), as the report's --sort keys
 * count them; labels op, data_source, and an events label per event the
 * record has (the key repeated: at most 64 strings whatever the event
 * words). The stack is the record's call stack when the
 * capture has one (armprof record's), else its PC alone.
 *
 * Memory does not grow with the records: the profile is written as the
 * records are read. Its strings, functions and locations are written when
 * first met (what is kept of them is an index, per distinct PC or return
 * address as the report's own tables); the distinct samples are counted in
 * a table of at most max_samples, written into the profile and emptied
 * when a new one does not fit. A sample may then appear more than once
 * (profile.proto's repeated fields may come in any order and number, and
 * pprof and speedscope add the values of samples with the same locations
 * and labels): a capture of fewer distinct samples than the
 * table holds gets one each. */
#ifndef ARMPROF_TOOL_REPORT_PPROF_H
#define ARMPROF_TOOL_REPORT_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/decode.h"
#include "armprof/report.h"
#include "cli_output.h"

/* The distinct samples held before they are written (2.5 MiB of table and
 * index, and up to 2 MiB of stacks); the environment variable
 * ARMPROF_PPROF_SAMPLES sets another (tests: a profile written in many
 * parts). */
#define REPORT_PPROF_SAMPLES_DEFAULT 65536

struct report_pprof;

/* A profile of at most max_samples distinct samples held at once (0: the
 * default). NULL after printing the reason (out of memory, zlib). */
struct report_pprof *report_pprof_create(size_t max_samples);
void report_pprof_destroy(struct report_pprof *p);
/* Count rec with its stack frames[0..n) (innermost first; n 0: its PC);
 * the data source named in r's encoding, the functions and lines by r's
 * symbols, which must not change from one call to the next (the binaries
 * are loaded before the records). 0, or -1 after printing the reason (out
 * of memory, the temporary file, zlib). A record without a PC is not
 * counted. */
int report_pprof_add(struct report_pprof *p, const struct ap_report *r, const struct ap_record *rec,
                     const uint64_t *frames, size_t n);
/* Write the rest of the profile and all of it to out; binary names the
 * mapping. 0, or -1 after printing the reason (out's own write errors are
 * for cli_output_close to print). */
int report_pprof_write(struct report_pprof *p, const struct ap_report *r, const char *binary,
                       struct cli_output *out);
/* After report_pprof_write: the samples of kernel PCs, and of those a
 * symbol names (--kallsyms: report_kallsyms_warn). */
void report_pprof_kernel_samples(const struct report_pprof *p, uint64_t *kernel, uint64_t *named);

#endif

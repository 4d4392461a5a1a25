/* `armprof report --diff OLD NEW`: where a change moved the samples and
 * the cycles. Functions are matched by name (and library), not address:
 * a rebuilt program moves them. For each: its share of the samples (or of
 * the --sort key's events) and of the summed latency in each run, the
 * change in percentage points, its mean latency and miss and mispredict
 * rates before and after; ranked by how far the sort key's share moved. */
#ifndef ARMPROF_TOOL_REPORT_DIFF_H
#define ARMPROF_TOOL_REPORT_DIFF_H

#include <stdio.h>

#include "report_format.h"

/* Returns 0, or -1 when out of memory (nothing written). */
int report_write_diff(FILE *out, enum report_format fmt, const struct ap_report *old_r,
                      const struct report_view *old_v, const struct ap_report *new_r,
                      const struct report_view *new_v, enum ap_report_key key);

#endif

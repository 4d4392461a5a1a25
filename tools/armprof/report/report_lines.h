/* The shared cache lines of `armprof report` (ap_report_shared_lines):
 * a table in text, an array in JSON, "line" rows in CSV. Written only
 * when some sampled load's data came from another core's cache. */
#ifndef ARMPROF_TOOL_REPORT_LINES_H
#define ARMPROF_TOOL_REPORT_LINES_H

#include <stdio.h>

#include "report_table.h"

void report_lines_text(FILE *out, const struct ap_report *r, const struct report_view *v);
/* ,\n"shared_lines":[...] (always there, maybe empty). */
void report_lines_json(FILE *out, const struct ap_report *r, const struct report_view *v);
void report_lines_csv(FILE *out, const struct ap_report *r, const struct report_view *v);

#endif

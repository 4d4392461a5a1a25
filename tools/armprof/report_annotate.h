/* `armprof report --annotate FUNCTION`: one function instruction by
 * instruction, in address order, with each instruction's samples, latency,
 * miss and mispredict rates and data sources (blank where no sample fell),
 * its disassembly, and its source line wherever that changes: where in the
 * function the time and the misses go, as perf annotate shows it. */
#ifndef ARMPROF_TOOL_REPORT_ANNOTATE_H
#define ARMPROF_TOOL_REPORT_ANNOTATE_H

#include <stddef.h>
#include <stdio.h>

#include "report_format.h"

/* Write the annotation of the function called name (ap_report_find_function
 * chooses among same-named ones) in fmt. Returns 0, or -1 with err set when
 * no loaded binary has a function of that name. */
int report_write_annotation(FILE *out, enum report_format fmt, const struct ap_report *r,
                            const struct report_view *v, const char *name, char *err, size_t errlen);

#endif

/* The usage text of `armprof report` (its options, inputs and exit
 * statuses), kept apart from the command's code. */
#ifndef ARMPROF_TOOL_REPORT_USAGE_H
#define ARMPROF_TOOL_REPORT_USAGE_H

#include <stdio.h>

void report_usage(FILE *out);

#endif

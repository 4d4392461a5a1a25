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

/* A function's instructions with their statistics. */
struct annotation {
	const char *name, *binary;
	uint64_t start, size;
	struct ap_report_row *rows; /* one per instruction, in address order (free()) */
	size_t n;
	struct ap_report_stats total; /* the function's samples (samples and lat_total_sum) */
};
/* Build a for the function called name (ap_report_find_function). Returns
 * 0, -AP_ERR_INVALID (no such function) or -AP_ERR_NOMEM. */
int report_annotation_build(const struct ap_report *r, const char *name, struct annotation *a);

/* Write the annotation of the function called name (ap_report_find_function
 * chooses among same-named ones) in fmt. Returns 0, or -1 with err set when
 * no loaded binary has a function of that name. */
int report_write_annotation(FILE *out, enum report_format fmt, const struct ap_report *r,
                            const struct report_view *v, const char *name, char *err, size_t errlen);

#endif

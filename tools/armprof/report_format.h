/* Output of `armprof report`: text for people, JSON and CSV for tools. */
#ifndef ARMPROF_TOOL_REPORT_FORMAT_H
#define ARMPROF_TOOL_REPORT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/report.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV };

struct report_view {
	const char *input;      /* file name */
	const char *input_kind; /* "raw SPE" or "perf.data" */
	const char *binary;     /* or NULL */
	uint64_t load_bias;
	size_t top_functions, top_instructions; /* 0 = all */
	int disasm, lines;
	uint64_t decode_errors;
};

int report_format_parse(const char *name, enum report_format *fmt);
void report_write(FILE *out, enum report_format fmt, const struct ap_report *r,
                  const struct report_view *v);

#endif

/* Output of `armprof report`: text for people, JSON and CSV for tools. */
#ifndef ARMPROF_TOOL_REPORT_FORMAT_H
#define ARMPROF_TOOL_REPORT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/report.h"
#include "report_table.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV };

int report_format_parse(const char *name, enum report_format *fmt);
/* --sort names: samples, latency, l1d-miss, llc-miss, tlb-walk, mispredict. */
int report_sort_parse(const char *name, enum ap_report_key *key);
const char *report_sort_name(enum ap_report_key key);
/* The whole report: its sections, each of the cells of report_table.h. */
void report_write(FILE *out, enum report_format fmt, const struct ap_report *r,
                  const struct report_view *v);

#endif

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
	enum ap_report_key sort; /* what the rows are ranked by (ap_report_sort) */
	enum ap_report_key weight; /* --weight: the flame graph's first weight (--html) */
	/* FILE.meta: the program was ended by this signal and the profile
	 * stops there (armprof record's checkpoint); 0: it exited. */
	int ended_by_signal;
};

int report_format_parse(const char *name, enum report_format *fmt);
/* --sort names: samples, latency, l1d-miss, llc-miss, tlb-walk, mispredict. */
int report_sort_parse(const char *name, enum ap_report_key *key);
const char *report_sort_name(enum ap_report_key key);
void report_write(FILE *out, enum report_format fmt, const struct ap_report *r,
                  const struct report_view *v);
/* The Data Source encoding the tables name sources by
 * (ap_report_data_source_encoding of the report written): its Neoverse
 * classes, or raw numbers for AP_DS_ENC_RAW. */
void report_format_set_encoding(enum ap_ds_encoding enc);

/* Pieces of the tables, shared with report_annotate.c. share and lat-share
 * are of t's samples and latency. */
void report_text_header(FILE *out, const char *what);
void report_text_row(FILE *out, const struct ap_report_row *row, const struct ap_report_stats *t);
/* n / total, 0 for an empty total. */
double report_share(uint64_t n, uint64_t total);
/* The statistics columns of a row, blank (a row without samples). */
void report_text_blank(FILE *out);
void report_json_string(FILE *out, const char *s);
void report_json_stats(FILE *out, const struct ap_report_stats *s, const struct ap_report_stats *t);
void report_csv_field(FILE *out, const char *s);
/* One CSV row: kind (function, instruction, thread, line), its name field,
 * then the statistics columns. */
void report_csv_row(FILE *out, const struct ap_report *r, const struct report_view *v, const char *kind,
                    const char *name, const struct ap_report_row *row);

#endif

/* The cells of `armprof report`'s tables, beneath the report's sections
 * (report_format.c writes the whole report; report_lines.c,
 * report_annotate.c, report_diff.c, report_html_data.c ... their parts):
 * what is shown (struct report_view), the statistics columns of a row in
 * text, JSON and CSV, and the Data Source names they use. */
#ifndef ARMPROF_TOOL_REPORT_TABLE_H
#define ARMPROF_TOOL_REPORT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/report.h"

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

/* How many of n rows a table shows: top (--top-*), or all when top is 0. */
static inline size_t report_shown(size_t top, size_t n)
{
	return top && top < n ? top : n;
}

/* The Data Source encoding the tables name sources by
 * (ap_report_data_source_encoding of the report written): its Neoverse
 * classes, or raw numbers for AP_DS_ENC_RAW. */
void report_format_set_encoding(enum ap_ds_encoding enc);
/* The encoding report_format_set_encoding set. */
enum ap_ds_encoding report_format_encoding(void);

/* The pieces of a table. share and lat-share are of t's samples and
 * latency. */
void report_text_header(FILE *out, const char *what);
void report_text_row(FILE *out, const struct ap_report_row *row, const struct ap_report_stats *t);
/* n / total, 0 for an empty total. */
double report_share(uint64_t n, uint64_t total);
/* The statistics columns of a row, blank (a row without samples). */
void report_text_blank(FILE *out);
/* s as a JSON string, quotes included: the one escaping of every name the
 * JSON report and the HTML page's data carry (file, symbol, library names
 * are bytes, not always UTF-8). '"', '\\' and controls escaped; each byte
 * that begins no well-formed UTF-8 character (RFC 3629) becomes \ufffd, the
 * replacement character, so that a strict parser takes the output. */
void report_json_string(FILE *out, const char *s);
void report_json_stats(FILE *out, const struct ap_report_stats *s, const struct ap_report_stats *t);
void report_csv_field(FILE *out, const char *s);
/* One CSV row: kind (function, instruction, thread, line), its name field,
 * then the statistics columns. */
void report_csv_row(FILE *out, const struct ap_report *r, const struct report_view *v, const char *kind,
                    const char *name, const struct ap_report_row *row);
/* A row's name: its symbol, "[unknown]" without one. */
const char *report_row_name(const struct ap_report_row *row);
/* ,"binary":"libc.so.6" for a library's function; nothing for the program's. */
void report_json_binary(FILE *out, const struct ap_report_row *row);
/* The CSV header line: the columns report_csv_row writes. */
void report_csv_header(FILE *out);

#endif

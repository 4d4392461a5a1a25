/* `armprof report --html OUT`: the report as one self-contained HTML page.
 * The page (tools/armprof/html/report.{html,css,js}, embedded into the
 * binary at build time) renders a JSON document armprof writes into it:
 * the same tables as the text report (from the same library calls), the
 * annotated top functions, the folded stacks, and what only the records
 * tell (a latency histogram per data source, a sample of the accessed data
 * addresses over time), gathered here as the records are read. */
#ifndef ARMPROF_TOOL_REPORT_HTML_H
#define ARMPROF_TOOL_REPORT_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "report_format.h"

/* Sampled accesses kept for the heat map: a uniform sample (reservoir) of
 * the records with a data address, of at most this many. */
#define REPORT_HTML_POINTS 20000
#define REPORT_HTML_MAX_LAT 4096 /* the 12-bit counter's values */
/* Latency rows: the report's AP_REPORT_DS_VALUES values, another value,
 * no Data Source packet. */
#define REPORT_HTML_SOURCES (AP_REPORT_DS_VALUES + 2)

struct report_html_point {
	uint64_t ts;   /* timestamp (0: none) */
	uint64_t n;    /* the record's number (from 1): time when some access has no timestamp */
	uint64_t addr; /* data virtual address (ap_record_vaddr) */
	uint16_t lat;  /* total latency, 0 when none */
	uint8_t src;   /* latency row */
};

struct report_html_extras {
	int on;
	/* [source * REPORT_HTML_MAX_LAT + latency]: samples with a total latency */
	uint64_t *lat;
	struct report_html_point *points;
	size_t n_points;
	uint64_t accesses; /* records with a data address (the reservoir's population) */
	uint64_t seq;      /* records seen */
	int all_ts;        /* every access had a timestamp */
	uint64_t rng;
};

/* 0, or -1 (out of memory). x stays usable for _add and _free. */
int report_html_extras_init(struct report_html_extras *x);
/* Count rec (nothing unless initialised); r gives the Data Source encoding.
 * Allocates nothing. */
void report_html_extras_add(struct report_html_extras *x, const struct ap_report *r, const struct ap_record *rec);
void report_html_extras_free(struct report_html_extras *x);

/* The page, for r finished (and sorted by v->sort). Returns 0, or -1 when
 * out of memory (nothing useful written). */
int report_write_html(FILE *out, const struct ap_report *r, const struct report_view *v,
                      const struct report_html_extras *x);
/* The data document the page renders (JSON); for report_write_html.
 * Returns 0, or -1 when out of memory (out then holds no document). */
int report_html_data(FILE *out, const struct ap_report *r, const struct report_view *v,
                      const struct report_html_extras *x);

#endif

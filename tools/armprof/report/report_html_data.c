/* The data document of `armprof report --html` (report_html.h): the tables
 * from the same library calls and JSON writers as --format json, and the
 * records' latencies and data addresses gathered as they are read. */
#include "report_html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_annotate.h"
#include "report_lines.h"

#define HTML_INSTRUCTIONS 1000 /* instruction rows (the page is for reading, not for export) */
#define HTML_ANNOTATED 25      /* functions annotated, the top ones */
#define HTML_ANNOTATE_MAX 4096 /* instructions in a function annotated */
#define HTML_STACKS 20000      /* folded stacks, the heaviest by samples */

int report_html_extras_init(struct report_html_extras *x)
{
	memset(x, 0, sizeof(*x));
	x->lat = calloc((size_t)REPORT_HTML_SOURCES * REPORT_HTML_MAX_LAT, sizeof(*x->lat));
	x->points = malloc(REPORT_HTML_POINTS * sizeof(*x->points));
	if (!x->lat || !x->points) {
		report_html_extras_free(x);
		return -1;
	}
	x->on = 1;
	x->all_ts = 1;
	x->rng = 0x9E3779B97F4A7C15ull; /* fixed: the same input gives the same page */
	return 0;
}

void report_html_extras_free(struct report_html_extras *x)
{
	free(x->lat);
	free(x->points);
	memset(x, 0, sizeof(*x));
}

/* The latency row of rec: its Data Source as the report counts it. */
static unsigned source_row(const struct ap_report *r, const struct ap_record *rec)
{
	if (!(rec->has & AP_HAS_DATA_SOURCE))
		return AP_REPORT_DS_VALUES + 1;
	enum ap_ds_encoding enc = ap_report_data_source_encoding(r);
	int v = enc == AP_DS_ENC_RAW ? (int)rec->data_source : ap_ds_common(enc, rec->data_source);
	return v >= 0 && v < AP_REPORT_DS_VALUES ? (unsigned)v : AP_REPORT_DS_VALUES;
}

void report_html_extras_add(struct report_html_extras *x, const struct ap_report *r, const struct ap_record *rec)
{
	if (!x->on)
		return;
	x->seq++;
	unsigned src = source_row(r, rec);
	unsigned lat = rec->lat_total < REPORT_HTML_MAX_LAT ? rec->lat_total : REPORT_HTML_MAX_LAT - 1;
	if (rec->has & AP_HAS_LAT_TOTAL)
		x->lat[(size_t)src * REPORT_HTML_MAX_LAT + lat]++;
	if (!(rec->has & AP_HAS_VADDR))
		return;
	/* Reservoir sampling (Vitter's algorithm R): each access is kept with
	 * probability REPORT_HTML_POINTS / accesses. */
	x->accesses++;
	size_t slot = x->n_points;
	if (x->n_points == REPORT_HTML_POINTS) {
		x->rng ^= x->rng << 13;
		x->rng ^= x->rng >> 7;
		x->rng ^= x->rng << 17;
		uint64_t j = x->rng % x->accesses;
		if (j >= REPORT_HTML_POINTS)
			return;
		slot = (size_t)j;
	} else {
		x->n_points++;
	}
	/* One access without a timestamp: the page's time is the record number. */
	if (!(rec->has & AP_HAS_TS))
		x->all_ts = 0;
	struct report_html_point *p = &x->points[slot];
	p->ts = rec->ts;
	p->n = x->seq;
	p->addr = ap_record_vaddr(rec);
	p->lat = (uint16_t)((rec->has & AP_HAS_LAT_TOTAL) ? lat : 0);
	p->src = (uint8_t)src;
}

static const char *row_name(const struct ap_report_row *row)
{
	return row->name ? row->name : "[unknown]";
}

static void json_binary(FILE *out, const char *binary)
{
	if (!binary)
		return;
	fprintf(out, ",\"binary\":");
	report_json_string(out, binary);
}

static void write_rows(FILE *out, const struct ap_report *r, const struct ap_report_row *rows, size_t n, int threads)
{
	const struct ap_report_stats *t = ap_report_totals(r);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n{", i ? "," : "");
		if (threads) {
			if (rows[i].addr == AP_REPORT_NO_CONTEXT)
				fprintf(out, "\"tid\":null,");
			else
				fprintf(out, "\"tid\":%" PRIu64 ",", rows[i].addr);
		} else {
			fprintf(out, "\"function\":");
			report_json_string(out, row_name(&rows[i]));
			json_binary(out, rows[i].binary);
			fprintf(out, ",\"addr\":\"0x%" PRIx64 "\",", rows[i].addr);
		}
		report_json_stats(out, &rows[i].stats, t);
		fputc('}', out);
	}
}

static void write_instructions(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	size_t n = ap_report_instruction_count(r);
	fprintf(out, ",\n\"instructions_total\":%zu,\"instructions\":[", n);
	n = report_shown(HTML_INSTRUCTIONS, n);
	struct ap_report_row row;
	for (size_t i = 0; i < n && ap_report_instruction(r, i, &row) == 0; i++) {
		char buf[160];
		fprintf(out, "%s\n{\"pc\":\"0x%" PRIx64 "\",\"function\":", i ? "," : "", row.addr);
		report_json_string(out, row_name(&row));
		json_binary(out, row.binary);
		fprintf(out, ",\"offset\":%" PRIu64 ",", row.offset);
		if (v->disasm && ap_report_disassemble(r, row.addr, buf, sizeof(buf)) == 0) {
			fprintf(out, "\"disasm\":");
			report_json_string(out, buf);
			fputc(',', out);
		}
		if (v->lines && ap_report_source_line(r, row.addr, buf, sizeof(buf)) == 0) {
			fprintf(out, "\"line\":");
			report_json_string(out, buf);
			fputc(',', out);
		}
		report_json_stats(out, &row.stats, ap_report_totals(r));
		fputc('}', out);
	}
	fputc(']', out);
}

/* The top named functions instruction by instruction: [offset, samples,
 * latency, L1D refills, LLC misses, disassembly, source line]. */
static int write_annotations(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	const struct ap_report_row *fns;
	size_t nf = ap_report_functions(r, &fns), done = 0;
	fprintf(out, ",\n\"annotate\":[");
	for (size_t i = 0; i < nf && done < HTML_ANNOTATED; i++) {
		struct annotation a;
		if (!fns[i].name)
			continue;
		int rc = report_annotation_build(r, fns[i].name, &a);
		if (rc == -AP_ERR_NOMEM)
			return -1;
		if (rc < 0 || a.n > HTML_ANNOTATE_MAX) {
			free(a.rows);
			continue;
		}
		fprintf(out, "%s\n{\"function\":", done++ ? "," : "");
		report_json_string(out, a.name);
		json_binary(out, a.binary);
		fprintf(out, ",\"start\":\"0x%" PRIx64 "\",\"samples\":%" PRIu64 ",\"lat_total_sum\":%" PRIu64 ",\"insns\":[",
		        a.start, a.total.samples, a.total.lat_total_sum);
		for (size_t k = 0; k < a.n; k++) {
			const struct ap_report_stats *s = &a.rows[k].stats;
			char dis[96] = "", line[160] = "";
			if (v->disasm)
				ap_report_disassemble(r, a.rows[k].addr, dis, sizeof(dis));
			if (v->lines)
				ap_report_source_line(r, a.rows[k].addr, line, sizeof(line));
			fprintf(out, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", k ? "," : "",
			        a.rows[k].offset, s->samples, s->lat_total_sum, s->l1d_refill, s->llc_miss);
			report_json_string(out, dis);
			fputc(',', out);
			report_json_string(out, line);
			fputc(']', out);
		}
		fprintf(out, "]}");
		free(a.rows);
	}
	fputc(']', out);
	return 0;
}

static void write_flame(FILE *out, const struct ap_report *r)
{
	const struct ap_report_folded *f;
	size_t n = ap_report_folded_stacks(r, &f), kept = report_shown(HTML_STACKS, n);
	fprintf(out, ",\n\"keys\":[");
	for (int k = 0; k < AP_REPORT_N_KEYS; k++)
		fprintf(out, "%s\"%s\"", k ? "," : "", report_sort_name((enum ap_report_key)k));
	fprintf(out, "],\n\"stacks_total\":%zu,\"stacks\":[", n);
	for (size_t i = 0; i < kept; i++) {
		fprintf(out, "%s\n[", i ? "," : "");
		report_json_string(out, f[i].stack);
		for (int k = 0; k < AP_REPORT_N_KEYS; k++)
			fprintf(out, ",%" PRIu64, f[i].weight[k]);
		fputc(']', out);
	}
	fputc(']', out);
}

static void write_latency(FILE *out, const struct ap_report *r, const struct report_html_extras *x)
{
	fprintf(out, ",\n\"sources\":[");
	for (unsigned s = 0; s < REPORT_HTML_SOURCES; s++) {
		const char *name = s < AP_REPORT_DS_VALUES ? ap_report_source_label(r, s) : NULL;
		char raw[16];
		snprintf(raw, sizeof(raw), "0x%x", s);
		report_json_string(out, s == AP_REPORT_DS_VALUES       ? "other"
		                        : s == AP_REPORT_DS_VALUES + 1 ? "none"
		                        : name                         ? name
		                                                       : raw);
		fputc(s + 1 < REPORT_HTML_SOURCES ? ',' : ']', out);
	}
	/* [source, latency, samples] where samples is not 0. */
	fprintf(out, ",\n\"latency\":[");
	int first = 1;
	for (unsigned s = 0; s < REPORT_HTML_SOURCES; s++)
		for (unsigned l = 0; l < REPORT_HTML_MAX_LAT; l++) {
			uint64_t c = x->lat[(size_t)s * REPORT_HTML_MAX_LAT + l];
			if (!c)
				continue;
			fprintf(out, "%s[%u,%u,%" PRIu64 "]", first ? "" : ",", s, l, c);
			first = 0;
		}
	fputc(']', out);
	/* [time, "address", latency, source]: addresses as hex text, which
	 * JavaScript numbers (53 bits) could not all hold. */
	fprintf(out, ",\n\"heat\":{\"time\":\"%s\",\"accesses\":%" PRIu64 ",\"points\":[",
	        x->all_ts ? "timestamp" : "record", x->accesses);
	for (size_t i = 0; i < x->n_points; i++)
		fprintf(out, "%s[%" PRIu64 ",\"%" PRIx64 "\",%u,%u]", i ? "," : "", x->all_ts ? x->points[i].ts : x->points[i].n, x->points[i].addr,
		        x->points[i].lat, x->points[i].src);
	fprintf(out, "]}");
}

int report_html_data(FILE *out, const struct ap_report *r, const struct report_view *v,
                      const struct report_html_extras *x)
{
	const struct ap_report_stats *t = ap_report_totals(r);
	const struct ap_report_row *rows;
	fprintf(out, "{\"input\":");
	report_json_string(out, v->input);
	fprintf(out, ",\"format\":");
	report_json_string(out, v->input_kind);
	fprintf(out, ",\"binary\":");
	if (v->binary)
		report_json_string(out, v->binary);
	else
		fputs("null", out);
	fprintf(out, ",\"records\":%" PRIu64 ",\"decode_errors\":%" PRIu64 ",\"ended_by_signal\":%d,\"sort\":\"%s\","
	        "\"weight\":\"%s\",\"totals\":{",
	        ap_report_records(r), v->decode_errors, v->ended_by_signal, report_sort_name(v->sort),
	        report_sort_name(v->weight));
	report_json_stats(out, t, t);
	fprintf(out, "},\n\"functions\":[");
	write_rows(out, r, rows, ap_report_functions(r, &rows), 0);
	fprintf(out, "],\n\"threads\":[");
	write_rows(out, r, rows, ap_report_threads(r, &rows), 1);
	fputc(']', out);
	write_instructions(out, r, v);
	struct report_view all = *v;
	all.top_functions = 0;
	report_lines_json(out, r, &all);
	if (write_annotations(out, r, v) < 0)
		return -1;
	write_flame(out, r);
	write_latency(out, r, x);
	fprintf(out, "}");
	return 0;
}

/* One function, instruction by instruction (report_annotate.h). */
#include "report_annotate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"

/* A64 instructions are 4 bytes: the function's are at start + 4k. */
int report_annotation_build(const struct ap_report *r, const char *name, struct annotation *a)
{
	memset(a, 0, sizeof(*a));
	if (ap_report_find_function(r, name, &a->start, &a->size, &a->binary, &a->name) != 0)
		return -AP_ERR_INVALID;
	a->n = (size_t)((a->size + 3) / 4);
	a->rows = calloc(a->n ? a->n : 1, sizeof(*a->rows));
	if (!a->rows)
		return -AP_ERR_NOMEM;
	for (size_t i = 0; i < a->n; i++) {
		struct ap_report_row *row = &a->rows[i];
		row->addr = a->start + 4 * i;
		row->name = a->name;
		row->binary = a->binary;
		row->offset = 4 * i;
		const struct ap_report_stats *s = ap_report_pc_stats(r, row->addr);
		if (s) {
			row->stats = *s;
			a->total.samples += s->samples;
			a->total.lat_total_sum += s->lat_total_sum;
		}
	}
	return 0;
}

static void write_text(FILE *out, const struct ap_report *r, const struct report_view *v,
                       const struct annotation *a)
{
	const struct ap_report_stats *all = ap_report_totals(r);
	fprintf(out, "# armprof report: %s (%s), %" PRIu64 " records\n", v->input, v->input_kind,
	        ap_report_records(r));
	fprintf(out, "# annotate %s%s%s%s: 0x%" PRIx64 "-0x%" PRIx64 ", %zu instructions; %" PRIu64
	        " samples (%.2f%% of all), %.2f%% of the latency\n",
	        a->name, a->binary ? " (" : "", a->binary ? a->binary : "", a->binary ? ")" : "", a->start,
	        a->start + a->size, a->n, a->total.samples,
	        100.0 * report_share(a->total.samples, all->samples),
	        100.0 * report_share(a->total.lat_total_sum, all->lat_total_sum));
	fprintf(out, "# share and lat-share: of the function's samples and latency\n\n");
	report_text_header(out, "pc offset  instruction");
	char last_line[160] = "";
	for (size_t i = 0; i < a->n; i++) {
		const struct ap_report_row *row = &a->rows[i];
		char line[160], dis[96] = "";
		if (row->stats.samples)
			report_text_row(out, row, &a->total);
		else
			report_text_blank(out);
		fprintf(out, "0x%" PRIx64 " +0x%-4" PRIx64, row->addr, row->offset);
		if (v->disasm)
			ap_report_disassemble(r, row->addr, dis, sizeof(dis));
		/* The source line where it changes, after the instruction. */
		if (v->lines && ap_report_source_line(r, row->addr, line, sizeof(line)) == 0 &&
		    strcmp(line, last_line) != 0) {
			fprintf(out, "  %-32s ; %s", dis, line);
			snprintf(last_line, sizeof(last_line), "%s", line);
		} else if (dis[0]) {
			fprintf(out, "  %s", dis);
		}
		fputc('\n', out);
	}
}

static void write_json(FILE *out, const struct ap_report *r, const struct report_view *v,
                       const struct annotation *a)
{
	fprintf(out, "{\"input\":");
	report_json_string(out, v->input);
	fprintf(out, ",\"format\":");
	report_json_string(out, v->input_kind);
	fprintf(out, ",\"records\":%" PRIu64 ",\"ended_by_signal\":%d,\"function\":", ap_report_records(r),
	        v->ended_by_signal);
	report_json_string(out, a->name);
	if (a->binary) {
		fprintf(out, ",\"binary\":");
		report_json_string(out, a->binary);
	}
	fprintf(out, ",\"start\":\"0x%" PRIx64 "\",\"size\":%" PRIu64 ",\"samples\":%" PRIu64
	        ",\"lat_total_sum\":%" PRIu64 ",\n\"instructions\":[",
	        a->start, a->size, a->total.samples, a->total.lat_total_sum);
	for (size_t i = 0; i < a->n; i++) {
		const struct ap_report_row *row = &a->rows[i];
		char buf[160];
		fprintf(out, "%s\n{\"pc\":\"0x%" PRIx64 "\",\"offset\":%" PRIu64 ",", i ? "," : "", row->addr, row->offset);
		if (v->disasm && ap_report_disassemble(r, row->addr, buf, sizeof(buf)) == 0) {
			fprintf(out, "\"disasm\":");
			report_json_string(out, buf);
			fputc(',', out);
		}
		if (v->lines && ap_report_source_line(r, row->addr, buf, sizeof(buf)) == 0) {
			fprintf(out, "\"line\":");
			report_json_string(out, buf);
			fputc(',', out);
		}
		report_json_stats(out, &row->stats, &a->total);
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}

static void write_csv(FILE *out, const struct ap_report *r, const struct report_view *v,
                      const struct annotation *a)
{
	fprintf(out, "pc,offset,samples,share,latency_share,lat_mean,lat_p50,lat_p90,lat_p99,l1d_miss_rate,"
	             "llc_miss_rate,tlb_walk_rate,mispredict_rate,disasm,line\n");
	for (size_t i = 0; i < a->n; i++) {
		const struct ap_report_row *row = &a->rows[i];
		const struct ap_report_stats *s = &row->stats;
		struct ap_report_rates q;
		ap_report_rates(s, &q);
		double sh = report_share(s->samples, a->total.samples);
		double lsh = report_share(s->lat_total_sum, a->total.lat_total_sum);
		fprintf(out, "0x%" PRIx64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%.6f,%.3f,%.1f,%.1f,%.1f,%.6f,%.6f,%.6f,%.6f,",
		        row->addr, row->offset, s->samples, sh, lsh, q.lat_mean, q.lat_p50, q.lat_p90, q.lat_p99, q.l1d_miss,
		        q.llc_miss, q.tlb_walk, q.mispredict);
		char buf[160] = "";
		if (v->disasm)
			ap_report_disassemble(r, row->addr, buf, sizeof(buf));
		report_csv_field(out, buf);
		fputc(',', out);
		buf[0] = 0;
		if (v->lines)
			ap_report_source_line(r, row->addr, buf, sizeof(buf));
		report_csv_field(out, buf);
		fputc('\n', out);
	}
}

int report_write_annotation(FILE *out, enum report_format fmt, const struct ap_report *r,
                            const struct report_view *v, const char *name, char *err, size_t errlen)
{
	struct annotation a;
	int rc = report_annotation_build(r, name, &a);
	if (rc == -AP_ERR_INVALID) {
		snprintf(err, errlen, "no function '%s' in %s%s", name, v->binary ? v->binary : "(no binary: use --binary)",
		         v->binary ? " or the libraries it ran" : "");
		return -1;
	}
	if (rc < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (fmt == REPORT_TEXT)
		write_text(out, r, v, &a);
	else if (fmt == REPORT_JSON)
		write_json(out, r, v, &a);
	else
		write_csv(out, r, v, &a);
	free(a.rows);
	return 0;
}

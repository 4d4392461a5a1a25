/* Shared cache lines in the report's three formats (report_lines.h). */
#include "report_lines.h"

#include <inttypes.h>

/* A line as a table row: the line's address, no name. */
static struct ap_report_row row_of(const struct ap_report_line *l)
{
	struct ap_report_row row = { 0 };
	row.addr = l->addr;
	row.stats = l->stats;
	return row;
}

static const char *fn_name(const struct ap_report_line_function *f)
{
	return f->name ? f->name : "[unknown]";
}

static const char *sharing_short(enum ap_report_sharing s)
{
	return s == AP_REPORT_SHARING_ONE_THREAD ? "-" : ap_report_sharing_name(s);
}

/* The words the line's samples touched, by offset, each with how many
 * threads touched it ("+0:1 +8:1": false sharing at a glance). */
static const char *words_text(const struct ap_report_line *l, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	for (unsigned k = 0; k < AP_REPORT_LINE_WORDS && len + 12 < cap; k++)
		if (l->word[k].samples)
			len += (size_t)snprintf(buf + len, cap - len, "%s+%u:%s", len ? " " : "", 8 * k,
			                        l->word[k].threads > 1 ? "2+" : "1");
	return buf;
}

void report_lines_text(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	const struct ap_report_line *lines;
	uint64_t dropped;
	size_t nl = ap_report_shared_lines(r, &lines, &dropped);
	if (!nl)
		return;
	size_t n = report_shown(v->top_functions, nl);
	fprintf(out, "\nShared cache lines (%zu of %zu, by loads another core's cache served; %d-byte lines, as perf c2c "
	             "shows them)\n",
	        n, nl, AP_REPORT_LINE_BYTES);
	report_text_header(out, "[pid:]line         peer-loads threads sharing  words (thread count)  functions (samples)");
	for (size_t i = 0; i < n; i++) {
		struct ap_report_row row = row_of(&lines[i]);
		char words[64];
		report_text_row(out, &row, ap_report_totals(r));
		char where[48];
		if (lines[i].pid == AP_REPORT_NO_PROCESS)
			snprintf(where, sizeof(where), "0x%" PRIx64, lines[i].addr);
		else /* the process matters: one address in two processes is two lines */
			snprintf(where, sizeof(where), "%" PRIu64 ":0x%" PRIx64, lines[i].pid, lines[i].addr);
		fprintf(out, "%-18s %10" PRIu64 " %7" PRIu32 " %-8s %-21s", where, lines[i].peer_loads, lines[i].threads,
		        sharing_short(lines[i].sharing), words_text(&lines[i], words, sizeof(words)));
		for (size_t k = 0; k < lines[i].n_functions; k++)
			fprintf(out, "%s %s (%" PRIu64 ")", k ? "," : "", fn_name(&lines[i].function[k]),
			        lines[i].function[k].samples);
		fputc('\n', out);
	}
	if (dropped)
		fprintf(out, "# %" PRIu64 " more such loads on lines past the first %d, not shown\n", dropped,
		        AP_REPORT_MAX_SHARED_LINES);
}

void report_lines_json(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	const struct ap_report_line *lines;
	uint64_t dropped;
	size_t n = report_shown(v->top_functions, ap_report_shared_lines(r, &lines, &dropped));
	fprintf(out, ",\n\"shared_lines_dropped_loads\":%" PRIu64 ",\n\"shared_lines\":[", dropped);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n{\"pid\":", i ? "," : "");
		if (lines[i].pid == AP_REPORT_NO_PROCESS)
			fputs("null", out);
		else
			fprintf(out, "%" PRIu64, lines[i].pid);
		fprintf(out, ",\"line\":\"0x%" PRIx64 "\",\"peer_loads\":%" PRIu64 ",\"threads\":%" PRIu32
		        ",\"sharing\":\"%s\",\"words\":[",
		        lines[i].addr, lines[i].peer_loads, lines[i].threads, ap_report_sharing_name(lines[i].sharing));
		int first = 1;
		for (unsigned k = 0; k < AP_REPORT_LINE_WORDS; k++) {
			if (!lines[i].word[k].samples)
				continue;
			fprintf(out, "%s{\"offset\":%u,\"samples\":%" PRIu64 ",\"threads\":%" PRIu32 "}", first ? "" : ",",
			        8 * k, lines[i].word[k].samples, lines[i].word[k].threads);
			first = 0;
		}
		fprintf(out, "],\"functions\":[");
		for (size_t k = 0; k < lines[i].n_functions; k++) {
			const struct ap_report_line_function *f = &lines[i].function[k];
			fprintf(out, "%s{\"function\":", k ? "," : "");
			report_json_string(out, fn_name(f));
			if (f->binary) {
				fprintf(out, ",\"binary\":");
				report_json_string(out, f->binary);
			}
			fprintf(out, ",\"samples\":%" PRIu64 "}", f->samples);
		}
		fprintf(out, "],");
		report_json_stats(out, &lines[i].stats, ap_report_totals(r));
		fputc('}', out);
	}
	fputc(']', out);
}

void report_lines_csv(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	const struct ap_report_line *lines;
	size_t n = report_shown(v->top_functions, ap_report_shared_lines(r, &lines, NULL));
	for (size_t i = 0; i < n; i++) {
		struct ap_report_row row = row_of(&lines[i]);
		/* The name field: the function with the most samples on the line. */
		row.binary = lines[i].n_functions ? lines[i].function[0].binary : NULL;
		report_csv_row(out, r, v, "line", lines[i].n_functions ? fn_name(&lines[i].function[0]) : "", &row);
	}
}

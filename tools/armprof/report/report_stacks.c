/* --flame and --children (report_stacks.h). */
#include "report_stacks.h"

#include <inttypes.h>

void report_write_flame(FILE *out, const struct ap_report *r, enum ap_report_key key)
{
	const struct ap_report_folded *f;
	size_t n = ap_report_folded_stacks(r, &f);
	/* Ranked by key: the first weight 0 ends the lines worth a frame. */
	for (size_t i = 0; i < n && f[i].weight[key]; i++)
		fprintf(out, "%s %" PRIu64 "\n", f[i].stack, f[i].weight[key]);
}

static const char *name_of(const struct ap_report_inclusive *row)
{
	return row->name ? row->name : "[unknown]";
}

static void write_text(FILE *out, const struct ap_report *r, const struct report_view *v,
                       const struct ap_report_inclusive *rows, size_t n, size_t nr)
{
	const struct ap_report_stats *t = ap_report_totals(r);
	enum ap_report_key k = v->sort;
	uint64_t total = ap_report_key_count(t, k);
	fprintf(out, "# armprof report: %s (%s), %" PRIu64 " records\n", v->input, v->input_kind, ap_report_records(r));
	fprintf(out, "# children: the share of all samples' %s that is of samples whose call stack holds the "
	             "function (once however deep it recurs); self: of samples in the function itself\n\n",
	        report_sort_name(k));
	fprintf(out, "Functions, inclusive (%zu of %zu, by %s)\n", n, nr, report_sort_name(k));
	fprintf(out, "%9s %9s %12s %12s %12s  %s\n", "children", "self", "children-n", "self-n", "samples", "function");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%8.2f%% %8.2f%% %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "  %s",
		        100.0 * report_share(rows[i].children[k], total), 100.0 * report_share(rows[i].self[k], total),
		        rows[i].children[k], rows[i].self[k], rows[i].children[AP_REPORT_BY_SAMPLES], name_of(&rows[i]));
		if (rows[i].binary)
			fprintf(out, " (%s)", rows[i].binary);
		fputc('\n', out);
	}
}

static void json_weights(FILE *out, const uint64_t *w)
{
	for (int k = 0; k < AP_REPORT_N_KEYS; k++)
		fprintf(out, "%s\"%s\":%" PRIu64, k ? "," : "{", report_sort_name((enum ap_report_key)k), w[k]);
	fputc('}', out);
}

static void write_json(FILE *out, const struct ap_report *r, const struct report_view *v,
                       const struct ap_report_inclusive *rows, size_t n)
{
	const struct ap_report_stats *t = ap_report_totals(r);
	uint64_t totals[AP_REPORT_N_KEYS];
	for (int k = 0; k < AP_REPORT_N_KEYS; k++)
		totals[k] = ap_report_key_count(t, (enum ap_report_key)k);
	fprintf(out, "{\"input\":");
	report_json_string(out, v->input);
	fprintf(out, ",\"records\":%" PRIu64 ",\"sort\":\"%s\",\"totals\":", ap_report_records(r),
	        report_sort_name(v->sort));
	json_weights(out, totals);
	fprintf(out, ",\n\"functions\":[");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n{\"function\":", i ? "," : "");
		report_json_string(out, name_of(&rows[i]));
		if (rows[i].binary) {
			fprintf(out, ",\"binary\":");
			report_json_string(out, rows[i].binary);
		}
		fprintf(out, ",\"addr\":\"0x%" PRIx64 "\",\"children\":", rows[i].addr);
		json_weights(out, rows[i].children);
		fprintf(out, ",\"self\":");
		json_weights(out, rows[i].self);
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}

static void write_csv(FILE *out, const struct ap_report_inclusive *rows, size_t n)
{
	fprintf(out, "function,binary,addr");
	for (int k = 0; k < AP_REPORT_N_KEYS; k++) {
		char name[16];
		snprintf(name, sizeof(name), "%s", report_sort_name((enum ap_report_key)k));
		for (char *c = name; *c; c++)
			*c = *c == '-' ? '_' : *c;
		fprintf(out, ",children_%s,self_%s", name, name);
	}
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		report_csv_field(out, name_of(&rows[i]));
		fputc(',', out);
		report_csv_field(out, rows[i].binary ? rows[i].binary : "");
		fprintf(out, ",0x%" PRIx64, rows[i].addr);
		for (int k = 0; k < AP_REPORT_N_KEYS; k++)
			fprintf(out, ",%" PRIu64 ",%" PRIu64, rows[i].children[k], rows[i].self[k]);
		fputc('\n', out);
	}
}

void report_write_children(FILE *out, enum report_format fmt, const struct ap_report *r,
                           const struct report_view *v)
{
	const struct ap_report_inclusive *rows;
	size_t nr = ap_report_inclusive(r, &rows);
	size_t n = v->top_functions && v->top_functions < nr ? v->top_functions : nr;
	if (fmt == REPORT_TEXT)
		write_text(out, r, v, rows, n, nr);
	else if (fmt == REPORT_JSON)
		write_json(out, r, v, rows, n);
	else
		write_csv(out, rows, n);
}

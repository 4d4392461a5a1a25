/* Two runs compared function by function (report_diff.h). */
#include "report_diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A function in either run: the rows are the runs' own (NULL where the
 * function has no sample in that run). */
struct diff_row {
	const char *name, *binary;
	const struct ap_report_row *old_row, *new_row;
	double old_share, new_share;         /* of the key's events */
	double old_lat_share, new_lat_share; /* of the summed latency */
};

static const struct ap_report_stats no_samples;

static const char *name_of(const struct ap_report_row *r)
{
	return r->name ? r->name : "[unknown]";
}

static int same_function(const struct ap_report_row *a, const struct ap_report_row *b)
{
	const char *x = a->binary ? a->binary : "", *y = b->binary ? b->binary : "";
	return !strcmp(name_of(a), name_of(b)) && !strcmp(x, y);
}

/* |after - before| in billionths: shares that differ by rounding alone
 * (0.8 - 0.1 against 0.9 - 0.2) rank as equal, then by name. */
static long long change_of(double before, double after)
{
	return llround(1e9 * fabs(after - before));
}

static int by_change(const void *a, const void *b)
{
	const struct diff_row *x = a, *y = b;
	long long dx = change_of(x->old_share, x->new_share), dy = change_of(y->old_share, y->new_share);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	long long lx = change_of(x->old_lat_share, x->new_lat_share);
	long long ly = change_of(y->old_lat_share, y->new_lat_share);
	if (lx != ly)
		return lx > ly ? -1 : 1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->binary ? x->binary : "", y->binary ? y->binary : "");
}

/* Every function of both runs, matched by name and library, ranked. */
static struct diff_row *build(const struct ap_report *old_r, const struct ap_report *new_r, enum ap_report_key key,
                              size_t *n_out)
{
	const struct ap_report_row *o, *nw;
	size_t no = ap_report_functions(old_r, &o), nn = ap_report_functions(new_r, &nw), n = 0;
	struct diff_row *rows = calloc(no + nn + 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (size_t i = 0; i < no; i++)
		rows[n++] = (struct diff_row){ .name = name_of(&o[i]), .binary = o[i].binary, .old_row = &o[i] };
	for (size_t j = 0; j < nn; j++) {
		size_t i = 0;
		/* Quadratic only in the functions with samples in both runs'
		 * tables: a few hundred at most in practice. */
		while (i < no && !(rows[i].old_row && !rows[i].new_row && same_function(rows[i].old_row, &nw[j])))
			i++;
		if (i < no)
			rows[i].new_row = &nw[j];
		else
			rows[n++] = (struct diff_row){ .name = name_of(&nw[j]), .binary = nw[j].binary, .new_row = &nw[j] };
	}
	const struct ap_report_stats *to = ap_report_totals(old_r), *tn = ap_report_totals(new_r);
	uint64_t ko = ap_report_key_count(to, key), kn = ap_report_key_count(tn, key);
	for (size_t i = 0; i < n; i++) {
		struct diff_row *d = &rows[i];
		const struct ap_report_stats *so = d->old_row ? &d->old_row->stats : &no_samples;
		const struct ap_report_stats *sn = d->new_row ? &d->new_row->stats : &no_samples;
		d->old_share = report_share(ap_report_key_count(so, key), ko);
		d->new_share = report_share(ap_report_key_count(sn, key), kn);
		d->old_lat_share = report_share(so->lat_total_sum, to->lat_total_sum);
		d->new_lat_share = report_share(sn->lat_total_sum, tn->lat_total_sum);
	}
	qsort(rows, n, sizeof(*rows), by_change);
	*n_out = n;
	return rows;
}

static const struct ap_report_stats *stats_of(const struct ap_report_row *r)
{
	return r ? &r->stats : &no_samples;
}

static void write_text(FILE *out, const struct diff_row *rows, size_t n, const struct report_view *ov,
                       const struct ap_report *old_r, const struct report_view *nv, const struct ap_report *new_r,
                       enum ap_report_key key)
{
	fprintf(out, "# armprof report --diff: %s (%s, %" PRIu64 " records) -> %s (%s, %" PRIu64 " records)\n",
	        ov->input, ov->input_kind, ap_report_records(old_r), nv->input, nv->input_kind, ap_report_records(new_r));
	fprintf(out, "# share: of each run's %s; lat-share: of each run's summed total latency; changes in "
	             "percentage points\n\n",
	        key == AP_REPORT_BY_SAMPLES ? "samples" : report_sort_name(key));
	size_t top = nv->top_functions && nv->top_functions < n ? nv->top_functions : n;
	fprintf(out, "Functions (%zu of %zu, by the change in %s share)\n", top, n, report_sort_name(key));
	fprintf(out, "%9s %9s %8s %9s %9s %8s %8s %8s %8s %8s %8s %8s  %s\n", "old-share", "new-share", "change",
	        "old-lat", "new-lat", "change", "old-mean", "new-mean", "old-l1d", "new-l1d", "old-llc", "new-llc",
	        "function");
	for (size_t i = 0; i < top; i++) {
		const struct diff_row *d = &rows[i];
		struct ap_report_rates qo, qn;
		ap_report_rates(stats_of(d->old_row), &qo);
		ap_report_rates(stats_of(d->new_row), &qn);
		fprintf(out, "%8.2f%% %8.2f%% %+8.2f %8.2f%% %8.2f%% %+8.2f %8.1f %8.1f %7.1f%% %7.1f%% %7.1f%% %7.1f%%  %s",
		        100 * d->old_share, 100 * d->new_share, 100 * (d->new_share - d->old_share), 100 * d->old_lat_share,
		        100 * d->new_lat_share, 100 * (d->new_lat_share - d->old_lat_share), qo.lat_mean, qn.lat_mean,
		        100 * qo.l1d_miss, 100 * qn.l1d_miss, 100 * qo.llc_miss, 100 * qn.llc_miss, d->name);
		if (d->binary)
			fprintf(out, " (%s)", d->binary);
		if (!d->old_row)
			fprintf(out, "  [new]");
		else if (!d->new_row)
			fprintf(out, "  [gone]");
		fputc('\n', out);
	}
}

static void write_json(FILE *out, const struct diff_row *rows, size_t n, const struct report_view *ov,
                       const struct ap_report *old_r, const struct report_view *nv, const struct ap_report *new_r,
                       enum ap_report_key key)
{
	const struct ap_report_stats *to = ap_report_totals(old_r), *tn = ap_report_totals(new_r);
	fprintf(out, "{\"old\":{\"input\":");
	report_json_string(out, ov->input);
	fprintf(out, ",\"records\":%" PRIu64 "},\"new\":{\"input\":", ap_report_records(old_r));
	report_json_string(out, nv->input);
	fprintf(out, ",\"records\":%" PRIu64 "},\"sort\":\"%s\",\n\"functions\":[", ap_report_records(new_r),
	        report_sort_name(key));
	size_t top = nv->top_functions && nv->top_functions < n ? nv->top_functions : n;
	for (size_t i = 0; i < top; i++) {
		const struct diff_row *d = &rows[i];
		fprintf(out, "%s\n{\"function\":", i ? "," : "");
		report_json_string(out, d->name);
		if (d->binary) {
			fprintf(out, ",\"binary\":");
			report_json_string(out, d->binary);
		}
		fprintf(out, ",\"share_change\":%.6f,\"latency_share_change\":%.6f,\"old\":{", d->new_share - d->old_share,
		        d->new_lat_share - d->old_lat_share);
		report_json_stats(out, stats_of(d->old_row), to);
		fprintf(out, "},\"new\":{");
		report_json_stats(out, stats_of(d->new_row), tn);
		fprintf(out, "}}");
	}
	fprintf(out, "]}\n");
}

static void write_csv(FILE *out, const struct diff_row *rows, size_t n, const struct report_view *nv)
{
	fprintf(out, "function,binary,old_share,new_share,share_change,old_latency_share,new_latency_share,"
	             "latency_share_change,old_samples,new_samples,old_lat_mean,new_lat_mean,old_l1d_miss_rate,"
	             "new_l1d_miss_rate,old_llc_miss_rate,new_llc_miss_rate,old_mispredict_rate,new_mispredict_rate\n");
	size_t top = nv->top_functions && nv->top_functions < n ? nv->top_functions : n;
	for (size_t i = 0; i < top; i++) {
		const struct diff_row *d = &rows[i];
		struct ap_report_rates qo, qn;
		ap_report_rates(stats_of(d->old_row), &qo);
		ap_report_rates(stats_of(d->new_row), &qn);
		report_csv_field(out, d->name);
		fputc(',', out);
		report_csv_field(out, d->binary ? d->binary : "");
		fprintf(out, ",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
		        d->old_share, d->new_share, d->new_share - d->old_share, d->old_lat_share, d->new_lat_share,
		        d->new_lat_share - d->old_lat_share, stats_of(d->old_row)->samples, stats_of(d->new_row)->samples,
		        qo.lat_mean, qn.lat_mean, qo.l1d_miss, qn.l1d_miss, qo.llc_miss, qn.llc_miss, qo.mispredict,
		        qn.mispredict);
	}
}

int report_write_diff(FILE *out, enum report_format fmt, const struct ap_report *old_r,
                      const struct report_view *old_v, const struct ap_report *new_r,
                      const struct report_view *new_v, enum ap_report_key key)
{
	size_t n = 0;
	struct diff_row *rows = build(old_r, new_r, key, &n);
	if (!rows)
		return -1;
	if (fmt == REPORT_TEXT)
		write_text(out, rows, n, old_v, old_r, new_v, new_r, key);
	else if (fmt == REPORT_JSON)
		write_json(out, rows, n, old_v, old_r, new_v, new_r, key);
	else
		write_csv(out, rows, n, new_v);
	free(rows);
	return 0;
}

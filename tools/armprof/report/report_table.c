/* The cells of `armprof report`'s tables (report_table.h): the statistics
 * columns of a row in text, JSON and CSV, shared by the report's sections
 * (report_format.c, report_lines.c, report_annotate.c, ...). */
#include "report_table.h"

#include <inttypes.h>
#include <string.h>

const char *report_row_name(const struct ap_report_row *row)
{
	return row->name ? row->name : "[unknown]";
}

double report_share(uint64_t n, uint64_t total)
{
	return total ? (double)n / (double)total : 0.0;
}

/* The Data Source encoding of the report being written: the tables'
 * source names come from it (report_format_set_encoding). */
static enum ap_ds_encoding shown_encoding = AP_DS_ENC_NEOVERSE;

void report_format_set_encoding(enum ap_ds_encoding enc)
{
	shown_encoding = enc;
}

enum ap_ds_encoding report_format_encoding(void)
{
	return shown_encoding;
}

/* The name of a counted Data Source value, or NULL (shown as a number). */
static const char *source_name(unsigned value)
{
	return shown_encoding == AP_DS_ENC_RAW ? NULL : ap_report_data_source_name(value);
}

/* "DRAM 80% L1D 20%": the three most frequent data sources. */
static void sources_text(const struct ap_report_stats *s, char *buf, size_t cap)
{
	buf[0] = 0;
	if (!s->n_data_source) {
		snprintf(buf, cap, "-");
		return;
	}
	int taken[AP_REPORT_DS_VALUES] = { 0 };
	size_t len = 0;
	for (int k = 0; k < 3; k++) {
		int best = -1;
		for (int i = 0; i < AP_REPORT_DS_VALUES; i++)
			if (!taken[i] && s->data_source[i] && (best < 0 || s->data_source[i] > s->data_source[best]))
				best = i;
		if (best < 0)
			break;
		taken[best] = 1;
		const char *n = source_name((unsigned)best);
		char other[16];
		if (!n) {
			snprintf(other, sizeof(other), "0x%x", best);
			n = other;
		}
		len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s %.0f%%", k ? " " : "", n,
		                        100.0 * report_share(s->data_source[best], s->n_data_source));
		if (len >= cap)
			break;
	}
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), or 0 if s[0] starts none. */
static size_t utf8_length(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80; /* overlong */
		hi = c == 0xED ? 0x9F : 0xBF; /* surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		lo = c == 0xF0 ? 0x90 : 0x80; /* overlong */
		hi = c == 0xF4 ? 0x8F : 0xBF; /* above U+10FFFF */
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF) /* the NUL ending s stops here too */
			return 0;
	return n;
}

void report_json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', out);
	while (*s) {
		unsigned char c = *s;
		size_t n = utf8_length(s);
		if (!n) { /* a byte of no UTF-8 character: U+FFFD, a strict parser's reading */
			fputs("\\ufffd", out);
			s++;
		} else if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
			s++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
			s++;
		} else {
			fwrite(s, 1, n, out);
			s += n;
		}
	}
	fputc('"', out);
}

/* ,"binary":"libc.so.6" for a library's function; nothing for the program's. */
void report_json_binary(FILE *out, const struct ap_report_row *row)
{
	if (!row->binary)
		return;
	fprintf(out, ",\"binary\":");
	report_json_string(out, row->binary);
}

void report_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static const unsigned ds_values[] = { 0x0, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe };

/* share: of the samples; lat-share: of the summed total latency of all
 * samples, where the cycles go (report.h, enum ap_report_key). */
#define TEXT_COLUMNS "%9s %7s %9s %8s %6s %6s %6s %8s %8s %8s %7s  %-24s "

void report_text_header(FILE *out, const char *what)
{
	fprintf(out, TEXT_COLUMNS "%s\n", "samples", "share", "lat-share", "lat-mean", "p50", "p90", "p99",
	        "l1d-miss", "llc-miss", "tlb-walk", "mispred", "data-sources", what);
}

void report_text_blank(FILE *out)
{
	fprintf(out, TEXT_COLUMNS, "", "", "", "", "", "", "", "", "", "", "", "");
}

void report_text_row(FILE *out, const struct ap_report_row *row, const struct ap_report_stats *t)
{
	struct ap_report_rates q;
	char src[96];
	ap_report_rates(&row->stats, &q);
	sources_text(&row->stats, src, sizeof(src));
	fprintf(out, "%9" PRIu64 " %6.2f%% %8.2f%% %8.1f %6.0f %6.0f %6.0f %7.1f%% %7.1f%% %7.2f%% %6.1f%%  %-24s ",
	        row->stats.samples, 100.0 * report_share(row->stats.samples, t->samples),
	        100.0 * report_share(row->stats.lat_total_sum, t->lat_total_sum), q.lat_mean, q.lat_p50, q.lat_p90,
	        q.lat_p99, 100.0 * q.l1d_miss, 100.0 * q.llc_miss, 100.0 * q.tlb_walk, 100.0 * q.mispredict, src);
}

void report_json_stats(FILE *out, const struct ap_report_stats *s, const struct ap_report_stats *t)
{
	struct ap_report_rates q;
	ap_report_rates(s, &q);
	fprintf(out, "\"lat_total_sum\":%" PRIu64 ",\"latency_share\":%.6f,", s->lat_total_sum,
	        report_share(s->lat_total_sum, t->lat_total_sum));
	fprintf(out,
	        "\"samples\":%" PRIu64 ",\"share\":%.6f,\"loads\":%" PRIu64 ",\"stores\":%" PRIu64
	        ",\"atomics\":%" PRIu64 ",\"branches\":%" PRIu64 ",\"other\":%" PRIu64
	        ",\"lat_mean\":%.3f,\"lat_p50\":%.1f,\"lat_p90\":%.1f,\"lat_p99\":%.1f"
	        ",\"issue_lat_mean\":%.3f,\"xlat_lat_mean\":%.3f"
	        ",\"l1d_miss_rate\":%.6f,\"llc_miss_rate\":%.6f,\"tlb_walk_rate\":%.6f,\"mispredict_rate\":%.6f"
	        ",\"l1d_access\":%" PRIu64 ",\"l1d_refill\":%" PRIu64 ",\"llc_access\":%" PRIu64
	        ",\"llc_miss\":%" PRIu64 ",\"tlb_access\":%" PRIu64 ",\"tlb_walk\":%" PRIu64
	        ",\"mispredicted\":%" PRIu64 ",\"not_taken\":%" PRIu64 ",\"data_source\":{",
	        s->samples, report_share(s->samples, t->samples), s->loads, s->stores, s->atomics, s->branches, s->others,
	        q.lat_mean, q.lat_p50, q.lat_p90, q.lat_p99, s->n_lat_issue ? (double)s->lat_issue_sum / (double)s->n_lat_issue : 0.0,
	        s->n_lat_xlat ? (double)s->lat_xlat_sum / (double)s->n_lat_xlat : 0.0, q.l1d_miss, q.llc_miss,
	        q.tlb_walk, q.mispredict, s->l1d_access, s->l1d_refill, s->llc_access, s->llc_miss, s->tlb_access,
	        s->tlb_walk, s->mispredicted, s->not_taken);
	int first = 1;
	for (unsigned i = 0; i < AP_REPORT_DS_VALUES; i++) {
		if (!s->data_source[i])
			continue;
		const char *n = source_name(i);
		char other[16];
		snprintf(other, sizeof(other), "0x%x", i);
		fprintf(out, "%s\"%s\":%" PRIu64, first ? "" : ",", n ? n : other, s->data_source[i]);
		first = 0;
	}
	fputc('}', out);
}

void report_csv_row(FILE *out, const struct ap_report *r, const struct report_view *v, const char *kind,
                    const char *name, const struct ap_report_row *row)
{
	const struct ap_report_stats *t = ap_report_totals(r), *s = &row->stats;
	struct ap_report_rates q;
	ap_report_rates(s, &q);
	fprintf(out, "%s,", kind);
	report_csv_field(out, name);
	fprintf(out, ",0x%" PRIx64 ",%" PRIu64 ",%.6f,%.6f,%.3f,%.1f,%.1f,%.1f,%.6f,%.6f,%.6f,%.6f,%" PRIu64 ",%" PRIu64
	        ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
	        row->addr, s->samples, report_share(s->samples, t->samples), report_share(s->lat_total_sum, t->lat_total_sum),
	        q.lat_mean, q.lat_p50, q.lat_p90, q.lat_p99, q.l1d_miss, q.llc_miss, q.tlb_walk, q.mispredict, s->loads,
	        s->stores, s->atomics, s->branches, s->others);
	/* The columns are the Neoverse classes: empty for raw values. */
	for (size_t k = 0; k < sizeof(ds_values) / sizeof(ds_values[0]); k++)
		if (shown_encoding == AP_DS_ENC_RAW)
			fputc(',', out);
		else
			fprintf(out, ",%" PRIu64, s->data_source[ds_values[k]]);
	char dis[96] = "";
	if (!strcmp(kind, "instruction") && v->disasm)
		ap_report_disassemble(r, row->addr, dis, sizeof(dis));
	fputc(',', out);
	report_csv_field(out, dis);
	fputc(',', out);
	report_csv_field(out, row->binary ? row->binary : "");
	fputc('\n', out);
}

void report_csv_header(FILE *out)
{
	fprintf(out, "kind,name,addr,samples,share,latency_share,lat_mean,lat_p50,lat_p90,lat_p99,l1d_miss_rate,"
	             "llc_miss_rate,tlb_walk_rate,mispredict_rate,loads,stores,atomics,branches,other");
	for (size_t k = 0; k < sizeof(ds_values) / sizeof(ds_values[0]); k++) {
		char lower[24];
		const char *n = ap_report_data_source_name(ds_values[k]);
		size_t j = 0;
		for (; n[j] && j + 1 < sizeof(lower); j++)
			lower[j] = n[j] == '-' ? '_' : (char)(n[j] | 0x20);
		lower[j] = 0;
		fprintf(out, ",ds_%s", lower);
	}
	fprintf(out, ",disasm,binary\n");
}

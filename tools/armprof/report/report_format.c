/* `armprof report` output (report_format.h). JSON: one object with
 * "functions" and "instructions" arrays; each function entry has at least
 * "function" (name, "[unknown]" without a symbol) and "samples". */
#include "report_format.h"
#include "report_branches.h"
#include "report_lines.h"
#include "report_table.h"

#include <inttypes.h>
#include <string.h>

int report_format_parse(const char *name, enum report_format *fmt)
{
	if (!strcmp(name, "text"))
		*fmt = REPORT_TEXT;
	else if (!strcmp(name, "json"))
		*fmt = REPORT_JSON;
	else if (!strcmp(name, "csv"))
		*fmt = REPORT_CSV;
	else
		return -1;
	return 0;
}

static const struct {
	const char *name;
	enum ap_report_key key;
} sort_keys[] = {
	{ "samples", AP_REPORT_BY_SAMPLES },       { "latency", AP_REPORT_BY_LATENCY },
	{ "l1d-miss", AP_REPORT_BY_L1D_MISSES },   { "llc-miss", AP_REPORT_BY_LLC_MISSES },
	{ "tlb-walk", AP_REPORT_BY_TLB_WALKS },    { "mispredict", AP_REPORT_BY_MISPREDICTS },
};

int report_sort_parse(const char *name, enum ap_report_key *key)
{
	for (size_t i = 0; i < sizeof(sort_keys) / sizeof(sort_keys[0]); i++)
		if (!strcmp(name, sort_keys[i].name)) {
			*key = sort_keys[i].key;
			return 0;
		}
	return -1;
}

const char *report_sort_name(enum ap_report_key key)
{
	for (size_t i = 0; i < sizeof(sort_keys) / sizeof(sort_keys[0]); i++)
		if (sort_keys[i].key == key)
			return sort_keys[i].name;
	return "samples";
}

/* Where the records' threads came from (ap_report_set_context): the
 * register, "CONTEXTIDR_EL2 or _EL1" when some records had only one. */
static const char *context_register(const struct ap_report *r)
{
	uint64_t el1, el2;
	ap_report_context_counts(r, &el1, &el2);
	return el1 && el2 ? "CONTEXTIDR_EL2 or _EL1" : el2 ? "CONTEXTIDR_EL2" : "CONTEXTIDR_EL1";
}

static const char *context_source(const struct ap_report *r)
{
	uint64_t el1, el2;
	ap_report_context_counts(r, &el1, &el2);
	return el1 && el2 ? "CONTEXTIDR_EL2 or CONTEXTIDR_EL1 (Context packets of index 1 and 0)"
	       : el2      ? "CONTEXTIDR_EL2 (Context packet index 1: a kernel at EL2)"
	                  : "CONTEXTIDR_EL1 (Context packet index 0)";
}

static void write_text(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	const struct ap_report_stats *t = ap_report_totals(r);
	const struct ap_report_row *rows;
	size_t nf = ap_report_functions(r, &rows);
	fprintf(out, "# armprof report: %s (%s), %" PRIu64 " records", v->input, v->input_kind, ap_report_records(r));
	if (v->decode_errors)
		fprintf(out, ", %" PRIu64 " with decode errors", v->decode_errors);
	if (v->ended_by_signal)
		fprintf(out, "\n# the program was ended by signal %d (%s): the profile covers it up to then",
		        v->ended_by_signal, strsignal(v->ended_by_signal));
	fprintf(out, "\n# binary: %s", v->binary ? v->binary : "(none: use --binary for symbols)");
	if (v->binary && v->load_bias)
		fprintf(out, " (load bias 0x%" PRIx64 ")", v->load_bias);
	if (t->n_data_source)
		fprintf(out, "\n# data sources: %s", report_format_encoding() == AP_DS_ENC_NEOVERSE    ? "Neoverse N1/N2/V1/V2 values"
		                                     : report_format_encoding() == AP_DS_ENC_AMPEREONE ? "AmpereOne values, as Neoverse classes"
		                                                                            : "raw values (CPU unknown: --cpu-model names it)");
	uint64_t el1, el2;
	ap_report_context_counts(r, &el1, &el2);
	if (el1 || el2)
		fprintf(out, "\n# threads from: %s", context_source(r));
	if (el1 && el2)
		fprintf(out, " (%" PRIu64 " records from CONTEXTIDR_EL2, %" PRIu64 " from CONTEXTIDR_EL1)", el2, el1);
	struct ap_report_rates q;
	ap_report_rates(t, &q);
	fprintf(out, "\n# samples: %" PRIu64 " (loads %" PRIu64 ", stores %" PRIu64 ", atomics %" PRIu64
	        ", branches %" PRIu64 ", other %" PRIu64 "); mean total latency %.1f cycles\n\n",
	        t->samples, t->loads, t->stores, t->atomics, t->branches, t->others, q.lat_mean);
	size_t n = v->top_functions && v->top_functions < nf ? v->top_functions : nf;
	fprintf(out, "Functions (%zu of %zu, by %s)\n", n, nf, report_sort_name(v->sort));
	report_text_header(out, "function");
	for (size_t i = 0; i < n; i++) {
		report_text_row(out, &rows[i], t);
		fprintf(out, "%s", report_row_name(&rows[i]));
		if (rows[i].binary)
			fprintf(out, " (%s)", rows[i].binary);
		fputc('\n', out);
	}
	/* Threads, when there is more than one (CONTEXTIDR_EL1: the thread id). */
	size_t nt = ap_report_threads(r, &rows);
	if (nt > 1) {
		n = v->top_functions && v->top_functions < nt ? v->top_functions : nt;
		fprintf(out, "\nThreads (%zu of %zu, by %s)\n", n, nt, report_sort_name(v->sort));
		char what[64];
		snprintf(what, sizeof(what), "thread (%s)", context_register(r));
		report_text_header(out, what);
		for (size_t i = 0; i < n; i++) {
			report_text_row(out, &rows[i], t);
			if (rows[i].addr == AP_REPORT_NO_CONTEXT)
				fprintf(out, "[no context]\n");
			else
				fprintf(out, "%" PRIu64 "\n", rows[i].addr);
		}
	}
	size_t ni = ap_report_instruction_count(r);
	n = v->top_instructions && v->top_instructions < ni ? v->top_instructions : ni;
	fprintf(out, "\nInstructions (%zu of %zu, by %s)\n", n, ni, report_sort_name(v->sort));
	report_text_header(out, "pc function+offset [instruction] [line]");
	/* Each row made whole as it is written (the report keeps them compact). */
	struct ap_report_row row;
	for (size_t i = 0; i < n && ap_report_instruction(r, i, &row) == 0; i++) {
		char dis[96], line[160];
		report_text_row(out, &row, t);
		/* No function: no offset into one (an unnamed row's offset is 0). */
		if (row.name)
			fprintf(out, "0x%" PRIx64 " %s+0x%" PRIx64, row.addr, row.name, row.offset);
		else
			fprintf(out, "0x%" PRIx64 " %s", row.addr, report_row_name(&row));
		if (row.binary)
			fprintf(out, " (%s)", row.binary);
		if (v->disasm && ap_report_disassemble(r, row.addr, dis, sizeof(dis)) == 0)
			fprintf(out, "  %s", dis);
		if (v->lines && ap_report_source_line(r, row.addr, line, sizeof(line)) == 0)
			fprintf(out, "  %s", line);
		fputc('\n', out);
	}
	report_lines_text(out, r, v);
	report_branches_text(out, r, v);
	/* Where to go from here: the two other views, with the top function. */
	const struct ap_report_row *fns;
	if (ap_report_functions(r, &fns) && fns[0].name)
		fprintf(out, "\n# more: armprof report --annotate %s %s (one function, instruction by instruction);"
		             " --diff OLD %s (against an earlier run)\n",
		        fns[0].name, v->input, v->input);
}

static void write_json(FILE *out, const struct ap_report *r, const struct report_view *v)
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
	fprintf(out, ",\"load_bias\":%" PRIu64 ",\"records\":%" PRIu64 ",\"decode_errors\":%" PRIu64
	        ",\"sort\":\"%s\",\"ended_by_signal\":%d,\"totals\":{",
	        v->load_bias, ap_report_records(r), v->decode_errors, report_sort_name(v->sort), v->ended_by_signal);
	report_json_stats(out, t, t);
	fprintf(out, "},\n\"functions\":[");
	size_t nf = ap_report_functions(r, &rows);
	size_t n = v->top_functions && v->top_functions < nf ? v->top_functions : nf;
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n{\"function\":", i ? "," : "");
		report_json_string(out, report_row_name(&rows[i]));
		report_json_binary(out, &rows[i]);
		fprintf(out, ",\"addr\":\"0x%" PRIx64 "\",", rows[i].addr);
		report_json_stats(out, &rows[i].stats, t);
		fputc('}', out);
	}
	uint64_t el1, el2;
	ap_report_context_counts(r, &el1, &el2);
	fprintf(out, "],\n\"data_source_encoding\":\"%s\"", report_format_encoding() == AP_DS_ENC_NEOVERSE    ? "neoverse"
	                                                       : report_format_encoding() == AP_DS_ENC_AMPEREONE ? "ampereone"
	                                                                                              : "raw");
	fprintf(out, ",\n\"thread_context\":{\"contextidr_el1\":%" PRIu64 ",\"contextidr_el2\":%" PRIu64 "}", el1, el2);
	fprintf(out, ",\n\"threads\":[");
	size_t nt = ap_report_threads(r, &rows);
	n = v->top_functions && v->top_functions < nt ? v->top_functions : nt;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].addr == AP_REPORT_NO_CONTEXT)
			fprintf(out, "%s\n{\"tid\":null,", i ? "," : "");
		else
			fprintf(out, "%s\n{\"tid\":%" PRIu64 ",", i ? "," : "", rows[i].addr);
		report_json_stats(out, &rows[i].stats, t);
		fputc('}', out);
	}
	fputc(']', out);
	report_lines_json(out, r, v);
	report_branches_json(out, r, v);
	fprintf(out, ",\n\"instructions\":[");
	size_t ni = ap_report_instruction_count(r);
	n = v->top_instructions && v->top_instructions < ni ? v->top_instructions : ni;
	struct ap_report_row row;
	for (size_t i = 0; i < n && ap_report_instruction(r, i, &row) == 0; i++) {
		char buf[160];
		fprintf(out, "%s\n{\"pc\":\"0x%" PRIx64 "\",\"function\":", i ? "," : "", row.addr);
		report_json_string(out, report_row_name(&row));
		report_json_binary(out, &row);
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
		report_json_stats(out, &row.stats, t);
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}

enum csv_kind { CSV_FUNCTION, CSV_INSTRUCTION, CSV_THREAD };

static void csv_rows(FILE *out, const struct ap_report *r, const struct report_view *v, enum csv_kind kind)
{
	static const char *const kinds[] = { "function", "instruction", "thread" };
	const struct ap_report_row *rows = NULL;
	size_t nr = kind == CSV_FUNCTION      ? ap_report_functions(r, &rows)
	            : kind == CSV_INSTRUCTION ? ap_report_instruction_count(r)
	                                      : ap_report_threads(r, &rows);
	size_t top = kind == CSV_INSTRUCTION ? v->top_instructions : v->top_functions;
	size_t n = top && top < nr ? top : nr;
	struct ap_report_row made;
	for (size_t i = 0; i < n; i++) {
		/* An instruction row is made whole as it is written. */
		const struct ap_report_row *row = &made;
		if (kind != CSV_INSTRUCTION)
			row = &rows[i];
		else if (ap_report_instruction(r, i, &made) != 0)
			break;
		char tid[24] = "";
		if (kind == CSV_THREAD && row->addr != AP_REPORT_NO_CONTEXT)
			snprintf(tid, sizeof(tid), "%" PRIu64, row->addr);
		report_csv_row(out, r, v, kinds[kind], kind == CSV_THREAD ? tid : report_row_name(row), row);
	}
}

void report_write(FILE *out, enum report_format fmt, const struct ap_report *r, const struct report_view *v)
{
	if (fmt == REPORT_TEXT) {
		write_text(out, r, v);
	} else if (fmt == REPORT_JSON) {
		write_json(out, r, v);
	} else {
		report_csv_header(out);
		csv_rows(out, r, v, CSV_FUNCTION);
		csv_rows(out, r, v, CSV_INSTRUCTION);
		csv_rows(out, r, v, CSV_THREAD);
		report_lines_csv(out, r, v);
	}
}

/* Branch pairs in the report's text and JSON formats (report_branches.h). */
#include "report_branches.h"

#include <inttypes.h>

/* "0xaddr (function)", or the bare address. */
static void where(FILE *out, const struct ap_report *r, uint64_t addr)
{
	const char *name = ap_report_symbol_name(r, addr, NULL);
	if (name)
		fprintf(out, "0x%" PRIx64 " (%s)", addr, name);
	else
		fprintf(out, "0x%" PRIx64, addr);
}

void report_branches_text(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	const struct ap_report_branch *b;
	uint64_t dropped;
	size_t n = ap_report_branch_pairs(r, &b, &dropped);
	if (!n)
		return;
	size_t k = report_shown(v->top_instructions, n);
	fprintf(out, "\nBranch pairs (%zu of %zu, by samples; previous branch target -> branch -> target)\n", k, n);
	fprintf(out, "%10s  %s\n", "samples", "prev-target => branch -> target");
	for (size_t i = 0; i < k; i++) {
		fprintf(out, "%10" PRIu64 "  ", b[i].count);
		where(out, r, b[i].prev_target);
		fputs(" => ", out);
		where(out, r, b[i].pc);
		fputs(" -> ", out);
		where(out, r, b[i].target);
		fputc('\n', out);
	}
	if (dropped)
		fprintf(out, "# %" PRIu64 " samples of further pairs not kept (bounded table)\n", dropped);
}

static void json_addr(FILE *out, const char *key, const struct ap_report *r, uint64_t addr)
{
	const char *name = ap_report_symbol_name(r, addr, NULL);
	fprintf(out, "\"%s\":\"0x%" PRIx64 "\",\"%s_function\":", key, addr, key);
	if (name)
		report_json_string(out, name);
	else
		fputs("null", out);
}

void report_branches_json(FILE *out, const struct ap_report *r, const struct report_view *v)
{
	const struct ap_report_branch *b;
	uint64_t dropped;
	size_t n = ap_report_branch_pairs(r, &b, &dropped);
	if (!n)
		return;
	size_t k = report_shown(v->top_instructions, n);
	fprintf(out, ",\n\"branch_pairs_dropped\":%" PRIu64 ",\n\"branch_pairs\":[", dropped);
	for (size_t i = 0; i < k; i++) {
		fprintf(out, "%s\n{\"samples\":%" PRIu64 ",", i ? "," : "", b[i].count);
		json_addr(out, "prev_br_tgt", r, b[i].prev_target);
		fputc(',', out);
		json_addr(out, "pc", r, b[i].pc);
		fputc(',', out);
		json_addr(out, "target", r, b[i].target);
		fputc('}', out);
	}
	fputc(']', out);
}

/* armprof report FILE: hot functions and instructions of an SPE capture
 * (raw SPE stream or perf.data), with latency, cache/TLB/branch rates and
 * data sources, symbolized from the profiled binary (--binary, or the one
 * `armprof record` named in FILE.meta). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "armprof/number.h"
#include "armprof/decode.h"
#include "armprof/report.h"
#include "cli_inputs.h"
#include "cli_io.h"
#include "cli_stream.h"
#include "commands.h"
#include "perf_input.h"
#include "report_samples.h"
#include "report_annotate.h"
#include "report_diff.h"
#include "report_format.h"
#include "report_html.h"
#include "report_load.h"
#include "report_meta.h"
#include "report_pprof.h"
#include "report_stacks.h"
#include "report_usage.h"

const char cmd_report_summary[] = "hot functions and instructions of an SPE capture (text, json, csv, pprof)";

#define REPORT_MAX_DEBUG_DIRS 16

static int parse_num(const char *s, uint64_t *out)
{
	return s && ap_parse_u64(s, out) == 0 ? 0 : -1;
}

int cmd_report(int argc, char **argv)
{
	enum report_format fmt = REPORT_TEXT;
	const char *input = NULL, *output = NULL, *annotate = NULL, *diff_old = NULL, *html = NULL;
	int flame = 0, children = 0, have_weight = 0, pprof = 0;
	enum ap_report_key weight = AP_REPORT_BY_SAMPLES;
	char binary[4096] = "";
	uint64_t bias = 0, top = 0;
	int have_bias = 0, have_top = 0, disasm = 1, lines = 1;
	int32_t cpu = AP_PERF_ANY, tid = AP_PERF_ANY;
	enum ap_report_context context = AP_REPORT_CONTEXT_AUTO;
	uint64_t midr = 0;
	int have_midr = 0;
	enum ap_report_key sort = AP_REPORT_BY_SAMPLES;
	const char *debug_dirs[REPORT_MAX_DEBUG_DIRS];
	size_t n_debug_dirs = 0;
	const char *symfs = NULL, *kallsyms = NULL;
	int spe_later = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			report_usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--format") && v) {
			pprof = !strcmp(v, "pprof");
			if (!pprof && report_format_parse(v, &fmt) != 0) {
				fprintf(stderr, "armprof report: unknown format '%s' (text, json, csv, pprof)\n", v);
				return EXIT_USAGE;
			}
			i++;
		} else if (!strcmp(a, "--binary") && v) {
			snprintf(binary, sizeof(binary), "%s", v);
			i++;
		} else if (!strcmp(a, "--spe-later")) {
			spe_later = 1;
		} else if (!strcmp(a, "--symfs") && v) {
			symfs = v;
			i++;
		} else if (!strcmp(a, "--kallsyms") && v) {
			kallsyms = v;
			i++;
		} else if (!strcmp(a, "--debug-dir") && v) {
			if (n_debug_dirs == REPORT_MAX_DEBUG_DIRS) {
				fprintf(stderr, "armprof report: --debug-dir: at most %d\n", REPORT_MAX_DEBUG_DIRS);
				return EXIT_USAGE;
			}
			debug_dirs[n_debug_dirs++] = v;
			i++;
		} else if (!strcmp(a, "--load-bias") && v) {
			if (parse_num(v, &bias)) {
				fprintf(stderr, "armprof report: --load-bias '%s': not a number\n", v);
				return EXIT_USAGE;
			}
			have_bias = 1;
			i++;
		} else if (!strcmp(a, "--top") && v) {
			if (parse_num(v, &top)) {
				fprintf(stderr, "armprof report: --top '%s': not a number\n", v);
				return EXIT_USAGE;
			}
			have_top = 1;
			i++;
		} else if (!strcmp(a, "--sort") && v) {
			if (report_sort_parse(v, &sort) != 0) {
				fprintf(stderr, "armprof report: --sort '%s': expected samples, latency, l1d-miss, "
				                "llc-miss, tlb-walk or mispredict\n", v);
				return EXIT_USAGE;
			}
			i++;
		} else if (!strcmp(a, "--weight") && v) {
			if (report_sort_parse(v, &weight) != 0) {
				fprintf(stderr, "armprof report: --weight '%s': expected samples, latency, l1d-miss, "
				                "llc-miss, tlb-walk or mispredict\n", v);
				return EXIT_USAGE;
			}
			have_weight = 1;
			i++;
		} else if (!strcmp(a, "--flame")) {
			flame = 1;
		} else if (!strcmp(a, "--children")) {
			children = 1;
		} else if (!strcmp(a, "--html") && v) {
			html = v;
			i++;
		} else if (!strcmp(a, "--diff") && v) {
			diff_old = v;
			i++;
		} else if (!strcmp(a, "--annotate") && v) {
			annotate = v;
			i++;
		} else if (!strcmp(a, "--no-disasm")) {
			disasm = 0;
		} else if (!strcmp(a, "--no-lines")) {
			lines = 0;
		} else if ((!strcmp(a, "--cpu") || !strcmp(a, "--tid")) && v) {
			if (perf_input_parse_id(v, !strcmp(a, "--cpu") ? &cpu : &tid) != 0) {
				fprintf(stderr, "armprof report: %s '%s': expected a number >= -1\n", a, v);
				return EXIT_USAGE;
			}
			i++;
		} else if (!strcmp(a, "--cpu-model") && v) {
			if (ap_ds_cpu_model(v, &midr) != 0) {
				fprintf(stderr, "armprof report: --cpu-model '%s': expected %s\n", v, ap_ds_cpu_model_names());
				return EXIT_USAGE;
			}
			have_midr = 1;
			i++;
		} else if (!strcmp(a, "--context") && v) {
			if (!strcmp(v, "auto") || !strcmp(v, "el1") || !strcmp(v, "el2")) {
				context = v[0] == 'a' ? AP_REPORT_CONTEXT_AUTO
				          : v[2] == '1' ? AP_REPORT_CONTEXT_EL1 : AP_REPORT_CONTEXT_EL2;
			} else {
				fprintf(stderr, "armprof report: --context '%s': expected auto, el1 or el2\n", v);
				return EXIT_USAGE;
			}
			i++;
		} else if (!strcmp(a, "-o") && v) {
			output = v;
			i++;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "armprof report: unknown or incomplete option '%s'\n", a);
			report_usage(stderr);
			return EXIT_USAGE;
		} else if (input) {
			fprintf(stderr, "armprof report: more than one input file ('%s', '%s')\n", input, a);
			return EXIT_USAGE;
		} else {
			input = a;
		}
	}
	if (!input || (diff_old && !strcmp(input, "-"))) {
		report_usage(stderr);
		return EXIT_USAGE;
	}
	/* The views instead of the tables: one at a time (the first two given named). */
	const char *views[5];
	int n_views = 0;
	if (diff_old)
		views[n_views++] = "--diff";
	if (annotate)
		views[n_views++] = "--annotate";
	if (flame)
		views[n_views++] = "--flame";
	if (children)
		views[n_views++] = "--children";
	if (html)
		views[n_views++] = "--html";
	if (n_views > 1) {
		fprintf(stderr, "armprof report: %s and %s: one at a time\n", views[0], views[1]);
		return EXIT_USAGE;
	}
	if (have_weight && !flame && !html) {
		fprintf(stderr, "armprof report: --weight is for --flame and --html\n");
		return EXIT_USAGE;
	}
	if (html && output) {
		fprintf(stderr, "armprof report: --html names its output: no -o\n");
		return EXIT_USAGE;
	}
	if (pprof && (n_views || !output || (!strcmp(output, "-") && isatty(STDOUT_FILENO)))) {
		fprintf(stderr, "armprof report: --format pprof writes a gzipped file: -o FILE, no %s\n",
		        n_views ? views[0] : "terminal");
		return EXIT_USAGE;
	}
	/* An output that is an input is refused before the work (cli_inputs.h;
	 * the binaries FILE.meta or the perf.data name: when the output opens) */
	const char *named[] = { input, diff_old, binary, kallsyms };
	for (size_t i = 0; i < 4; i++)
		cli_input_note(named[i]);
	if (cli_output_refuse_input("report", html ? html : output) != 0)
		return EXIT_USAGE;
	struct load_opts lo = { binary, bias, have_bias, cpu, tid, context, midr, have_midr, debug_dirs, n_debug_dirs, symfs,
	                        kallsyms, html != NULL, spe_later };
	/* ARMPROF_PPROF_SAMPLES: the distinct samples --format pprof holds
	 * before writing them (report_pprof.h; tests make it small) */
	uint64_t pprof_samples = 0;
	const char *env = getenv("ARMPROF_PPROF_SAMPLES");
	if (pprof && env && (parse_num(env, &pprof_samples) != 0 || !pprof_samples || pprof_samples > (1u << 30))) {
		fprintf(stderr, "armprof report: ARMPROF_PPROF_SAMPLES=%s: not a number of samples from 1 to 2^30\n", env);
		return EXIT_USAGE;
	}
	struct report_run run = { 0 }, old_run = { 0 };
	if (pprof && !(run.pprof = report_pprof_create((size_t)pprof_samples)))
		return EXIT_USAGE;
	struct report_view view = { .disasm = disasm, .lines = lines }, old_view = view;
	static char binary_used[4096], old_binary_used[4096];
	int rc = report_load(input, &lo, &run, &view, binary_used, sizeof(binary_used));
	if (rc) {
		report_pprof_destroy(run.pprof);
		return rc;
	}
	if (diff_old && (rc = report_load(diff_old, &lo, &old_run, &old_view, old_binary_used,
	                                  sizeof(old_binary_used))) != 0) {
		ap_report_destroy(run.rep);
		return rc;
	}
	view.top_functions = view.top_instructions = have_top ? (size_t)top : (fmt == REPORT_TEXT ? 20 : 0);
	if (!pprof) /* the profile is not ranked */
		ap_report_sort(run.rep, flame ? weight : sort);
	view.sort = flame ? weight : sort;
	view.weight = weight;
	cli_input_note(binary_used);
	cli_input_note(old_binary_used);
	struct cli_output out;
	if (cli_output_open(&out, "report", html ? html : output) != 0) {
		report_pprof_destroy(run.pprof);
		ap_report_destroy(run.rep);
		return EXIT_USAGE;
	}
	char err[4600];
	int ok = 1;
	report_format_set_encoding(ap_report_data_source_encoding(run.rep));
	if (flame) {
		report_write_flame(out.f, run.rep, weight);
	} else if (children) {
		report_write_children(out.f, fmt, run.rep, &view);
	} else if (html) {
		ok = report_write_html(out.f, run.rep, &view, &run.extras) == 0;
		snprintf(err, sizeof(err), "--html: out of memory");
	} else if (annotate) {
		ok = report_write_annotation(out.f, fmt, run.rep, &view, annotate, err, sizeof(err)) == 0;
	} else if (diff_old) {
		ok = report_write_diff(out.f, fmt, old_run.rep, &old_view, run.rep, &view, sort) == 0;
		snprintf(err, sizeof(err), "out of memory");
	} else if (pprof) {
		ok = run.pprof && report_pprof_write(run.pprof, run.rep, view.binary, &out) == 0;
		snprintf(err, sizeof(err), "pprof: not written");
		if (ok && kallsyms) {
			uint64_t kernel, kernel_named;
			report_pprof_kernel_samples(run.pprof, &kernel, &kernel_named);
			report_kallsyms_warn(kernel, kernel_named, kallsyms, input);
		}
	} else {
		report_write(out.f, fmt, run.rep, &view);
	}
	report_pprof_destroy(run.pprof);
	uint64_t decode_errors = run.decode_errors + old_run.decode_errors;
	ap_report_destroy(run.rep);
	ap_report_destroy(old_run.rep);
	report_html_extras_free(&run.extras);
	if (!ok)
		fprintf(stderr, "armprof report: %s%s\n", annotate ? "--annotate: " : "", err);
	if (cli_output_close(&out, "report", ok) != 0 || !ok)
		return EXIT_USAGE;
	if (decode_errors) {
		fprintf(stderr, "armprof report: %s%s%s: %" PRIu64 " records held decode errors (see armprof decode)\n",
		        diff_old ? diff_old : "", diff_old ? ", " : "", input, decode_errors);
		return EXIT_DATA_ERROR;
	}
	return EXIT_OK;
}

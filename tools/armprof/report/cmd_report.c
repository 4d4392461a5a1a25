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
#include "report_meta.h"
#include "report_pprof.h"
#include "report_stacks.h"
#include "report_usage.h"

const char cmd_report_summary[] = "hot functions and instructions of an SPE capture (text, json, csv, pprof)";

#define REPORT_MAX_DEBUG_DIRS 16

#include "report_callchains.h"
#include "report_files.h"

struct report_run {
	struct ap_report *rep;
	int nomem;
	uint64_t decode_errors;
	int32_t tid;    /* --tid, or AP_PERF_ANY */
	int have_midr;  /* the CPU is known before the input is read */
	int by_context; /* --tid: select the records by their Context packet */
	uint64_t kept;  /* records that passed --tid */
	struct report_html_extras extras; /* --html: what its page shows besides the tables */
	/* perf.data of armprof record: each record's call stack */
	const struct report_callchains *chains;
	uint64_t frames[AP_REPORT_MAX_FRAMES];
	struct report_pprof *pprof; /* --format pprof */
	int meta_file;  /* FILE.meta was read: the perf.data's own copy is not needed */
};

/* --tid: a record of another thread is left out. */
static int other_thread(const struct report_run *run, const struct ap_record *rec)
{
	return run->by_context && ap_report_thread_of(run->rep, rec) != (uint64_t)(uint32_t)run->tid;
}

static int on_record(void *ctx, const struct ap_record *rec)
{
	struct report_run *run = ctx;
	if (other_thread(run, rec))
		return 0;
	run->kept++;
	if (rec->n_errors_total)
		run->decode_errors++;
	size_t n = run->chains && (rec->has & AP_HAS_TS)
	                   ? report_callchains_find(run->chains, (int32_t)ap_report_thread_of(run->rep, rec), rec->ts,
	                                            rec->pc, run->frames, AP_REPORT_MAX_FRAMES)
	                   : 0;
	if ((n ? ap_report_add_stack(run->rep, rec, run->frames, n) : ap_report_add(run->rep, rec)) < 0 ||
	    (run->pprof && report_pprof_add(run->pprof, rec, run->frames, n, ap_report_data_source_encoding(run->rep)) < 0)) {
		run->nomem = 1;
		return 1;
	}
	report_html_extras_add(&run->extras, run->rep, rec);
	return 0;
}

/* The second pass over the records, for the shared cache lines
 * (ap_report_add_line_sample). */
static int on_line_record(void *ctx, const struct ap_record *rec)
{
	struct report_run *run = ctx;
	if (!other_thread(run, rec) && ap_report_add_line_sample(run->rep, rec) < 0) {
		run->nomem = 1;
		return 1;
	}
	return 0;
}

static int feed_raw(const char *path, struct ap_decoder *dec)
{
	FILE *f = cli_open_input("report", path);
	if (!f)
		return EXIT_USAGE;
	static uint8_t buf[1 << 20];
	size_t n;
	int rc = 0;
	int not_spe = 0;
	while (!rc && !not_spe && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		rc = ap_decoder_feed(dec, buf, n);
		not_spe = cli_no_record_stop("report", path, dec);
	}
	int bad = ferror(f);
	int e = errno;
	if (f != stdin)
		fclose(f);
	if (bad) {
		fprintf(stderr, "armprof report: %s: read error: %s\n", path, strerror(e));
		return EXIT_USAGE;
	}
	if (not_spe)
		return EXIT_DATA_ERROR;
	if (!rc)
		ap_decoder_finish(dec);
	if (!rc && !ap_decoder_stats(dec)->bytes)
		fprintf(stderr, "armprof report: %s: warning: the input is empty (no SPE data)\n", path);
	return 0;
}

/* A library's symbols: only a warning when they cannot be read (the
 * library may have moved since the recording); its PCs then stay unnamed. */
static void load_library(struct report_run *run, const char *path, const char *name, uint64_t bias)
{
	struct ap_error_ctx msg = { 0 };
	if (ap_report_load_library_named(run->rep, path, name, bias, &msg) < 0)
		fprintf(stderr, "armprof report: warning: %s (its functions are left unnamed)\n", msg.message);
	else if (msg.message[0]) /* a debug file found but refused */
		fprintf(stderr, "armprof report: warning: %s\n", msg.message);
}

/* The binary --binary names (named: a usage error, exit 2, if it cannot be
 * used, as in decode and convert), or one FILE.meta or the perf.data's
 * mappings name (a warning, and its PCs stay unnamed: binary emptied). */
static int load_binary(struct report_run *run, struct report_view *view, char *binary, uint64_t bias, int named)
{
	struct ap_error_ctx msg = { 0 };
	if (ap_report_load_binary(run->rep, binary, bias, &msg) < 0) {
		if (named) {
			fprintf(stderr, "armprof report: --binary: %s\n", msg.message);
			return EXIT_USAGE;
		}
		fprintf(stderr, "armprof report: warning: %s (its functions are left unnamed)\n", msg.message);
		binary[0] = 0;
		return 0;
	}
	if (msg.message[0]) /* a debug file found but refused */
		fprintf(stderr, "armprof report: warning: %s\n", msg.message);
	view->binary = binary;
	view->load_bias = bias;
	return 0;
}

/* second_pass: the records again, for the shared cache lines (the
 * binary and the threads' processes are known already). */
static int feed_perf(const char *path, int32_t cpu, int32_t tid, const struct report_file_search *how,
                     struct ap_decoder *dec, struct report_run *run, struct report_view *view, char *binary,
                     size_t cap, int second_pass)
{
	struct perf_input in;
	int rc = perf_input_open(&in, "report", path, cpu, AP_PERF_ANY);
	if (rc)
		return rc;
	/* Which process each thread is of (COMM records), so that a forked
	 * child's copy of a line is not its parent's line. */
	const struct ap_perf_info *info = ap_perf_info(in.reader);
	if (!second_pass && !run->meta_file && info->armprof_meta &&
	    report_meta_embedded(info->armprof_meta, run->rep, &view->ended_by_signal) != 0)
		run->nomem = 1;
	/* The Data Source encoding of the CPU the perf.data names (CPUID),
	 * unless --cpu-model said. */
	if (!second_pass && !run->have_midr)
		ap_report_set_data_source_encoding(run->rep, info->has_midr ? ap_ds_encoding_of_midr(info->midr)
		                                                            : AP_DS_ENC_RAW);
	for (size_t i = 0; !second_pass && i < info->n_comms; i++)
		if (info->comms[i].tid >= 0 && info->comms[i].pid >= 0 &&
		    ap_report_set_thread_process(run->rep, (uint64_t)info->comms[i].tid, (uint64_t)info->comms[i].pid) < 0)
			run->nomem = 1;
	if (!second_pass && !binary[0]) {
		uint64_t bias = 0;
		struct meta_libraries *libs = calloc(1, sizeof(*libs));
		if (libs)
			report_binary_from_mmaps(ap_perf_info(in.reader), how, binary, cap, &bias, libs);
		if (binary[0] && (rc = load_binary(run, view, binary, bias, 0)) != 0) {
			free(libs);
			perf_input_close(&in, NULL);
			return rc;
		}
		for (size_t i = 0; libs && binary[0] && i < libs->n; i++)
			load_library(run, libs->lib[i].path, libs->lib[i].name, libs->lib[i].bias);
		free(libs);
	}
	/* The call stacks armprof record wrote beside the SPE data. */
	struct report_callchains chains;
	if (report_callchains_load(&chains, in.reader) != 0)
		run->nomem = 1;
	run->chains = second_pass ? NULL : &chains;
	const uint8_t *p;
	size_t n;
	while (perf_input_next(&in, dec, &p, &n)) {
		/* --tid: a per-thread buffer of that thread whole; a CPU-wide
		 * one (tid -1), its records of the thread. */
		if (tid != AP_PERF_ANY && in.cur->tid != tid && in.cur->tid != -1)
			continue;
		run->by_context = tid != AP_PERF_ANY && in.cur->tid != tid;
		/* Each AUX buffer is a stream of its own: records never span two.
		 * A last record cut where perf says why is not a decode error. */
		uint64_t errors = run->decode_errors;
		if (perf_input_feed_buffer(&in, dec, p, n) != 0)
			break;
		if (perf_input_finish_buffer(&in, dec) && run->decode_errors == errors + 1)
			run->decode_errors--;
		if (run->nomem)
			break;
	}
	run->chains = NULL;
	report_callchains_free(&chains);
	if (!second_pass)
		perf_input_note_cuts(&in, stderr);
	/* No SPE data: the samples are the records (report_samples.h). */
	if (!second_pass && !info->n_aux_buffers && info->n_samples)
		rc = report_samples(in.reader, path, cpu, tid, on_record, run);
	else
		rc = second_pass ? 0 : perf_input_check_selection(&in);
	int shrank = perf_input_check_read(&in);
	if (shrank)
		rc = shrank;
	if (!rc && !second_pass && tid != AP_PERF_ANY && !run->kept) {
		/* Buffers were selected (CPU-wide ones), but no record's
		 * Context packet names the thread. */
		fprintf(stderr, "armprof report: %s: the selection (--tid %" PRId32 ") matches none of its records\n",
		        path, tid);
		rc = EXIT_DATA_ERROR;
	}
	perf_input_close(&in, NULL);
	return rc;
}

static int parse_num(const char *s, uint64_t *out)
{
	return s && ap_parse_u64(s, out) == 0 ? 0 : -1;
}

/* --kallsyms from another boot (KASLR moves the kernel each time) or
 * machine names none of the kernel's samples: say so rather than show
 * them all [unknown] without a word. Kernel rows are those the library
 * gave the binary [kernel.kallsyms] or a [module]. */
static void check_kallsyms(const struct ap_report *rep, const char *kallsyms, const char *input)
{
	const struct ap_report_row *rows;
	size_t n = ap_report_functions(rep, &rows); /* a row per function, an unnamed one per binary */
	uint64_t kernel = 0, named = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].binary && rows[i].binary[0] == '[') {
			kernel += rows[i].stats.samples;
			named += rows[i].name ? rows[i].stats.samples : 0;
		}
	if (kernel && !named)
		fprintf(stderr, "armprof report: warning: %s names none of %s's %" PRIu64 " kernel samples: is it from "
		        "another boot (KASLR moves the kernel at each) or machine?\n", kallsyms, input, kernel);
}

/* What one input needs besides its path: the options that say how to
 * read it. */
struct load_opts {
	const char *binary; /* --binary, or "" */
	uint64_t bias;
	int have_bias;
	int32_t cpu, tid;
	enum ap_report_context context;
	uint64_t midr; /* --cpu-model's, or FILE.meta's midr= */
	int have_midr;
	const char *const *debug_dirs; /* --debug-dir, in order */
	size_t n_debug_dirs;
	const char *symfs; /* --symfs, or NULL */
	const char *kallsyms; /* --kallsyms, or NULL */
	int html; /* --html: gather its extras */
	int spe_later; /* --spe-later: ap_decoder_config.spe_later */
};

/* Read input into a finished report (run->rep, made here) and its view:
 * FILE.meta, the binary and libraries, the records. Returns 0 or an exit
 * status (the message printed); on error run->rep is freed. binary holds
 * the binary's path for the view (cap bytes, lives as long as the view). */
static int load_report(const char *input, const struct load_opts *lo, struct report_run *run,
                       struct report_view *view, char *binary, size_t cap)
{
	uint64_t bias = lo->bias;
	int have_bias = lo->have_bias;
	snprintf(binary, cap, "%s", lo->binary);
	struct meta_libraries *libs = calloc(1, sizeof(*libs));
	if (!libs) {
		fprintf(stderr, "armprof report: out of memory\n");
		return EXIT_USAGE;
	}
	int ended_by_signal = 0;
	char sysroot_debug[4200] = "";
	int meta_file = report_meta_read(input, binary, cap, &bias, &have_bias, libs, &ended_by_signal,
	                                 sysroot_debug, sizeof(sysroot_debug));
	struct report_pprof *pprof = run->pprof; /* the caller's, kept */
	memset(run, 0, sizeof(*run));
	run->pprof = pprof;
	run->meta_file = meta_file;
	if (ap_report_create(&run->rep) < 0) {
		fprintf(stderr, "armprof report: out of memory\n");
		free(libs);
		return EXIT_USAGE;
	}
	ap_report_set_context(run->rep, lo->context);
	/* --cpu-model, else FILE.meta's midr=, else (perf.data) its CPUID, else
	 * raw values. */
	uint64_t midr = lo->midr;
	run->have_midr = lo->have_midr || report_meta_midr(input, &midr);
	ap_report_set_data_source_encoding(run->rep, run->have_midr ? ap_ds_encoding_of_midr(midr) : AP_DS_ENC_RAW);
	run->tid = lo->tid;
	run->by_context = lo->tid != AP_PERF_ANY; /* a raw stream: by context */
	/* --debug-dir first, then the recording's aarch64 root's. */
	for (size_t i = 0; i <= lo->n_debug_dirs; i++)
		if ((i < lo->n_debug_dirs || sysroot_debug[0]) &&
		    ap_report_add_debug_dir(run->rep, i < lo->n_debug_dirs ? lo->debug_dirs[i] : sysroot_debug) < 0) {
			fprintf(stderr, "armprof report: out of memory\n");
			ap_report_destroy(run->rep);
			free(libs);
			return EXIT_USAGE;
		}
	struct ap_error_ctx msg = { 0 };
	if (lo->kallsyms && ap_report_load_kallsyms(run->rep, lo->kallsyms, &msg) < 0) {
		fprintf(stderr, "armprof report: --kallsyms: %s\n", msg.message);
		ap_report_destroy(run->rep);
		free(libs);
		return EXIT_USAGE;
	}
	view->input = input;
	view->input_kind = "raw SPE";
	view->ended_by_signal = ended_by_signal;
	/* FILE.meta's binary may have moved since the recording (a copied
	 * recording): then the perf.data's mappings are searched instead
	 * (report_files.h); --binary names a file that must be there. */
	if (binary[0] && !lo->binary[0] && access(binary, R_OK) != 0) {
		fprintf(stderr, "armprof report: warning: %s.meta's binary %s cannot be read; %s\n", input, binary,
		        "looking for the programs the perf.data names instead (--symfs, ~/.debug)");
		binary[0] = 0;
	}
	if (binary[0] && load_binary(run, view, binary, bias, lo->binary[0] != 0) != 0) {
		ap_report_destroy(run->rep);
		free(libs);
		return EXIT_USAGE;
	}
	for (size_t i = 0; binary[0] && i < libs->n; i++)
		load_library(run, libs->lib[i].path, libs->lib[i].name, libs->lib[i].bias);
	free(libs);
	if (lo->html && report_html_extras_init(&run->extras) < 0) {
		fprintf(stderr, "armprof report: out of memory\n");
		ap_report_destroy(run->rep);
		return EXIT_USAGE;
	}

	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = on_record;
	dc.ctx = run;
	dc.spe_later = (uint8_t)lo->spe_later;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	int is_perf = perf_input_sniff("report", input);
	int rc;
	if (is_perf < 0) {
		rc = EXIT_USAGE;
	} else if (is_perf) {
		view->input_kind = "perf.data";
		struct report_file_search how = { lo->symfs, getenv("HOME") };
		rc = feed_perf(input, lo->cpu, lo->tid, &how, &dec, run, view, binary, cap, 0);
	} else {
		rc = feed_raw(input, &dec);
	}
	/* Shared cache lines: the same records again, for the lines the
	 * first pass found (a file, or a perf.data from a pipe, which
	 * cli_stream.h copied to one: raw data from a pipe cannot be read
	 * twice). */
	if (!rc && !run->nomem && ap_report_has_shared_lines(run->rep) && (is_perf || !cli_stream_is_stream(input))) {
		dc.on_record = on_line_record;
		ap_decoder_init(&dec, &dc);
		rc = is_perf ? feed_perf(input, lo->cpu, lo->tid, NULL, &dec, run, view, binary, cap, 1)
		             : feed_raw(input, &dec);
	}
	if (!rc && run->nomem) {
		fprintf(stderr, "armprof report: out of memory\n");
		rc = EXIT_USAGE;
	}
	if (!rc && ap_report_finish(run->rep) < 0) {
		fprintf(stderr, "armprof report: out of memory\n");
		rc = EXIT_USAGE;
	}
	if (rc) {
		ap_report_destroy(run->rep);
		run->rep = NULL;
		report_html_extras_free(&run->extras);
		return rc;
	}
	if (lo->kallsyms)
		check_kallsyms(run->rep, lo->kallsyms, input);
	view->decode_errors = run->decode_errors;
	return 0;
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
	struct report_run run = { .pprof = pprof ? report_pprof_create() : NULL }, old_run = { 0 };
	struct report_view view = { .disasm = disasm, .lines = lines }, old_view = view;
	static char binary_used[4096], old_binary_used[4096];
	int rc = load_report(input, &lo, &run, &view, binary_used, sizeof(binary_used));
	if (rc)
		return rc;
	if (diff_old && (rc = load_report(diff_old, &lo, &old_run, &old_view, old_binary_used,
	                                  sizeof(old_binary_used))) != 0) {
		ap_report_destroy(run.rep);
		return rc;
	}
	view.top_functions = view.top_instructions = have_top ? (size_t)top : (fmt == REPORT_TEXT ? 20 : 0);
	ap_report_sort(run.rep, flame ? weight : sort);
	view.sort = flame ? weight : sort;
	view.weight = weight;
	cli_input_note(binary_used);
	cli_input_note(old_binary_used);
	struct cli_output out;
	if (cli_output_open(&out, "report", html ? html : output) != 0) {
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

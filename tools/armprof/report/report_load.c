/* `armprof report`'s reading of one input (report_load.h). */
#include "report_load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/decode.h"
#include "armprof/report.h"
#include "cli_inputs.h"
#include "cli_io.h"
#include "cli_stream.h"
#include "commands.h"
#include "perf_input.h"
#include "report_callchains.h"
#include "report_meta.h"
#include "report_samples.h"
#include "report_stacks.h"

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
	/* A profile needs the report's symbols, not its tables (kept per PC,
	 * and ranked at the end: as much time again as the profile's own). */
	if (run->pprof) {
		if (report_pprof_add(run->pprof, run->rep, rec, run->frames, n) < 0) {
			run->failed = 1; /* said why */
			return 1;
		}
		return 0;
	}
	if ((n ? ap_report_add_stack(run->rep, rec, run->frames, n) : ap_report_add(run->rep, rec)) < 0) {
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
		if (run->nomem || run->failed)
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


void report_kallsyms_warn(uint64_t kernel, uint64_t named, const char *kallsyms, const char *input)
{
	if (kernel && !named)
		fprintf(stderr, "armprof report: warning: %s names none of %s's %" PRIu64 " kernel samples: is it from "
		        "another boot (KASLR moves the kernel at each) or machine?\n", kallsyms, input, kernel);
}

/* Kernel rows are those the library gave the binary [kernel.kallsyms] or a
 * [module]. */
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
	report_kallsyms_warn(kernel, named, kallsyms, input);
}


/* Read input into a finished report (run->rep, made here) and its view:
 * FILE.meta, the binary and libraries, the records. Returns 0 or an exit
 * status (the message printed); on error run->rep is freed. binary holds
 * the binary's path for the view (cap bytes, lives as long as the view). */
int report_load(const char *input, const struct load_opts *lo, struct report_run *run, struct report_view *view,
                char *binary, size_t cap)
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
	if (!rc && !run->nomem && !run->failed && ap_report_has_shared_lines(run->rep) && (is_perf || !cli_stream_is_stream(input))) {
		dc.on_record = on_line_record;
		ap_decoder_init(&dec, &dc);
		rc = is_perf ? feed_perf(input, lo->cpu, lo->tid, NULL, &dec, run, view, binary, cap, 1)
		             : feed_raw(input, &dec);
	}
	if (!rc && run->failed)
		rc = EXIT_USAGE;
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
	if (lo->kallsyms && !run->pprof) /* a profile's: once written (cmd_report.c) */
		check_kallsyms(run->rep, lo->kallsyms, input);
	view->decode_errors = run->decode_errors;
	return 0;
}

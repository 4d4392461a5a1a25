/* armprof record [-o FILE] [options] -- PROG [ARGS...]
 *
 * Runs PROG under qemu-aarch64 with armprof's plugin (plugins/qemu), which
 * feeds every executed instruction to the SPE model with timing from the
 * micro-architectural model, and writes what the profiling buffers held:
 * as perf.data (one AUX buffer per guest thread) or as raw SPE bytes. Its
 * metadata (record_meta.h: the binary and its load bias, for `armprof
 * report`) goes inside the perf.data and into FILE.meta beside a regular
 * FILE. The program's output (with -o -: to standard error) and exit
 * status pass through. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "cli_inputs.h"
#include "cli_io.h"
#include "commands.h"
#include "cli_output.h"
#include "record_meta.h"
#include "record_opts.h"
#include "record_perf.h"
#include "record_procs.h"
#include "record_run.h"
#include "record_summary.h"

const char cmd_record_summary[] = "run an aarch64 program under QEMU and record SPE data";

struct record_tmp {
	char dir[PATH_MAX];
	char cfg[PATH_MAX + 16], spe[PATH_MAX + 16], counts[PATH_MAX + 16], stats[PATH_MAX + 16];
	char stacks[PATH_MAX + 16], stack_counts[PATH_MAX + 16];
};

static int make_tmp(struct record_tmp *t, const char *output, int beside)
{
	/* Beside a regular output, on its file system (a full disk is said
	 * before the program's results are worked on); never beside a
	 * device, a FIFO or "-": then in $TMPDIR. */
	char dir[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	if (!beside)
		snprintf(dir, sizeof(dir), "%s/", tmpdir && *tmpdir ? tmpdir : "/tmp");
	else
		snprintf(dir, sizeof(dir), "%s", output);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = 0;
	else
		dir[0] = 0;
	/* a path too long for the buffers is an error, never a cut path */
	int n = snprintf(t->dir, sizeof(t->dir), "%s.armprof-record.XXXXXX", dir);
	if (n < 0 || (size_t)n >= sizeof(t->dir))
		return -1;
	if (!mkdtemp(t->dir))
		return -1;
	int ok = (size_t)snprintf(t->cfg, sizeof(t->cfg), "%s/plugin.cfg", t->dir) < sizeof(t->cfg);
	ok &= (size_t)snprintf(t->spe, sizeof(t->spe), "%s/spe.raw", t->dir) < sizeof(t->spe);
	ok &= (size_t)snprintf(t->counts, sizeof(t->counts), "%s/counts.txt", t->dir) < sizeof(t->counts);
	ok &= (size_t)snprintf(t->stats, sizeof(t->stats), "%s/stats.txt", t->dir) < sizeof(t->stats);
	ok &= (size_t)snprintf(t->stacks, sizeof(t->stacks), "%s/stacks.bin", t->dir) < sizeof(t->stacks);
	ok &= (size_t)snprintf(t->stack_counts, sizeof(t->stack_counts), "%s/stack_counts.txt", t->dir) <
	      sizeof(t->stack_counts);
	if (!ok) {
		rmdir(t->dir);
		return -1;
	}
	return 0;
}

/* After the run, a ^C, SIGTERM, SIGHUP or SIGPIPE (-o - into a pipe its
 * reader closed: the write fails with EPIPE, said) waits until the
 * temporary directory is gone (the plugin's outputs in it can be hundreds
 * of MB): then it ends armprof as it would have (remove_tmp lets it in). */
static sigset_t held_signals, mask_before;
static int signals_held;

static void hold_signals(void)
{
	sigemptyset(&held_signals);
	sigaddset(&held_signals, SIGINT);
	sigaddset(&held_signals, SIGTERM);
	sigaddset(&held_signals, SIGHUP);
	sigaddset(&held_signals, SIGPIPE);
	signals_held = sigprocmask(SIG_BLOCK, &held_signals, &mask_before) == 0;
}

/* The directory and whatever is in it: the plugin's outputs, a forked
 * child's, and the temporary file of a write a signal cut short. */
static void remove_tmp(const struct record_tmp *t)
{
	DIR *d = opendir(t->dir);
	if (d) {
		for (struct dirent *e; (e = readdir(d));) {
			char path[sizeof(t->dir) + 256];
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    (size_t)snprintf(path, sizeof(path), "%s/%s", t->dir, e->d_name) < sizeof(path))
				remove(path);
		}
		closedir(d);
	}
	rmdir(t->dir);
	if (signals_held) {
		signals_held = 0;
		sigprocmask(SIG_SETMASK, &mask_before, NULL);
	}
}

/* armprof-qemu-preload.so in the plugin's directory: 1 and its path in
 * out, or 0 when it is not there (a plugin given from elsewhere). */
/* The qemu-aarch64 to run: --qemu, $ARMPROF_QEMU, else the one
 * system/qemu/build.sh built in the source tree (its patch 0007 lets the
 * plugin's events be logged inline: docs/PERFORMANCE.md), else Debian's
 * on PATH (the plugin falls back to callbacks there). */
static const char *find_qemu(const char *given, char *buf, size_t cap)
{
	const char *env = getenv("ARMPROF_QEMU");
	if (given)
		return given;
	if (env && *env)
		return env;
	snprintf(buf, cap, "%s/.cache/qemu/current/bin/qemu-aarch64", ARMPROF_SOURCE_DIR);
	return ARMPROF_SOURCE_DIR[0] && access(buf, X_OK) == 0 ? buf : "qemu-aarch64";
}

static int preload_beside(const char *plugin, char *out, size_t cap)
{
	const char *slash = strrchr(plugin, '/');
	int dir = slash ? (int)(slash - plugin) : 1;
	int n = snprintf(out, cap, "%.*s/armprof-qemu-preload.so", dir, slash ? plugin : ".");
	return n > 0 && (size_t)n < cap && access(out, R_OK) == 0;
}

/* ELF e_entry of the program, to turn QEMU's entry address into a bias. */
static uint64_t elf_entry(const char *path)
{
	unsigned char h[64];
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(h, 1, sizeof(h), f);
	fclose(f);
	if (n < 32)
		return 0;
	uint64_t e = 0;
	for (int i = 7; i >= 0; i--)
		e = e << 8 | h[24 + i];
	return e;
}

/* --counts with forked children: one count per PC over every process. */
static int merge_counts(const struct record_tmp *t, const struct record_process *procs, size_t n_procs,
                        const char *out)
{
	size_t each = sizeof(t->counts) + 16;
	const char **paths = calloc(n_procs, sizeof(*paths));
	char *names = calloc(n_procs, each);
	char err[2 * PATH_MAX];
	int rc = -1;
	if (paths && names) {
		for (size_t k = 0; k < n_procs; k++) {
			record_process_path(names + k * each, each, t->counts, procs[k].pid);
			paths[k] = names + k * each;
		}
		rc = record_merge_counts(paths, n_procs, out, err, sizeof(err));
		if (rc)
			fprintf(stderr, "armprof record: %s\n", err);
	} else {
		fprintf(stderr, "armprof record: out of memory\n");
	}
	free(paths);
	free(names);
	return rc;
}

/* --stack-counts: every process's paths, one after the other (a path of
 * two processes is two lines). */
static int concat_stack_counts(const struct record_tmp *t, const struct record_process *procs, size_t n_procs,
                               const char *out_path)
{
	if (!procs[0].st->call_graph) {
		fprintf(stderr, "armprof record: --stack-counts: the plugin kept no call stacks\n");
		return -1;
	}
	struct cli_output out;
	if (cli_output_open(&out, "record", out_path) != 0)
		return -1;
	int ok = 1;
	for (size_t k = 0; ok && k < n_procs; k++) {
		char path[sizeof(t->stack_counts) + 16];
		record_process_path(path, sizeof(path), t->stack_counts, procs[k].pid);
		uint8_t *data = NULL;
		size_t len = 0;
		ok = cli_read_all("record", path, &data, &len) == 0 && cli_output_write(&out, data, len) == 0;
		free(data);
	}
	return cli_output_close(&out, "record", ok);
}

/* Raw SPE output: the processes' bytes one after the other. */
static int write_raw(const struct record_opts *o, const struct record_process *procs, size_t n_procs,
                     struct stat *written)
{
	struct cli_output out;
	if (cli_output_open(&out, "record", o->output) != 0)
		return -1;
	int ok = 1;
	for (size_t k = 0; k < n_procs && ok; k++)
		ok = cli_output_write(&out, procs[k].spe, procs[k].spe_len) == 0;
	if (fstat(out.fd, written) != 0) /* the file as it will be at o->output */
		memset(written, 0, sizeof(*written));
	return cli_output_close(&out, "record", ok);
}

/* The outputs, before the program runs: what cannot be written is said
 * now (exit 2), not after a long run. *beside: the profile is a regular
 * file, so its FILE.meta and the temporary directory go beside it. */
static int check_outputs(const struct record_opts *o, int *beside)
{
	*beside = 0;
	char meta[PATH_MAX + 8];
	if (o->model && cli_output_check("record", o->output, beside) != 0)
		return -1;
	if (*beside && (size_t)snprintf(meta, sizeof(meta), "%s.meta", o->output) < sizeof(meta) &&
	    cli_output_check("record", meta, NULL) != 0)
		return -1;
	if (o->counts && cli_output_check("record", o->counts, NULL) != 0)
		return -1;
	if (o->stack_counts && cli_output_check("record", o->stack_counts, NULL) != 0)
		return -1;
	return 0;
}

/* Where the program's standard output goes: --program-output FILE, else
 * standard error when the profile goes to armprof's standard output ("-",
 * or a path that is the same file or pipe: its bytes would mix), else
 * armprof's own (-1). -2 when FILE cannot be opened (printed). */
static int program_stdout(const struct record_opts *o)
{
	if (o->program_output) {
		int fd = open(o->program_output, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
		if (fd < 0)
			fprintf(stderr, "armprof record: --program-output %s: %s\n", o->program_output, strerror(errno));
		return fd < 0 ? -2 : fd;
	}
	if (!o->model)
		return -1;
	if (!strcmp(o->output, "-"))
		return STDERR_FILENO;
	struct stat a, b;
	if (stat(o->output, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino && (S_ISREG(a.st_mode) || S_ISFIFO(a.st_mode)))
		return STDERR_FILENO;
	return -1;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	int r = record_parse(&o, argc, argv);
	if (r < 0)
		return EXIT_OK;
	if (r)
		return r;

	char prog[PATH_MAX], plugin[PATH_MAX], sysroot[PATH_MAX], err[3 * PATH_MAX + 256];
	const char *root = o.sysroot ? o.sysroot : getenv("QEMU_LD_PREFIX");
	if (record_resolve_program(o.prog_argv[0], root, prog, sizeof(prog), err, sizeof(err)) != 0 ||
	    record_choose_sysroot(prog, o.sysroot, sysroot, sizeof(sysroot), err, sizeof(err)) != 0 ||
	    record_find_plugin(o.plugin, plugin, sizeof(plugin), err, sizeof(err)) != 0) {
		fprintf(stderr, "armprof record: %s\n", err);
		return EXIT_USAGE;
	}
	/* -o must not be the program (nor any file it reads): refused before it runs */
	cli_input_note(prog);
	if (cli_output_refuse_input("record", o.output) != 0)
		return EXIT_USAGE;
	int beside = 0;
	if (check_outputs(&o, &beside) != 0)
		return EXIT_USAGE;
	int prog_out = program_stdout(&o);
	if (prog_out == -2)
		return EXIT_USAGE;
	struct record_tmp t;
	if (make_tmp(&t, o.output, beside) != 0) {
		fprintf(stderr, "armprof record: %s: cannot create a temporary directory %s: %s\n", o.output,
		        beside ? "beside it" : "in $TMPDIR", strerror(errno));
		if (prog_out > STDERR_FILENO)
			close(prog_out);
		return EXIT_USAGE;
	}
	/* Per-PC counts cost the plugin a counter per executed TB: only on request. */
	if (record_write_plugin_cfg(&o, t.cfg, t.spe, o.counts ? t.counts : "", t.stats,
	                            o.call_graph && o.model && o.ts && o.format != RECORD_OUT_RAW ? t.stacks : "",
	                            o.call_graph && o.stack_counts ? t.stack_counts : "") != 0) {
		fprintf(stderr, "armprof record: %s: %s\n", t.cfg, strerror(errno));
		remove_tmp(&t);
		return EXIT_USAGE;
	}

	/* qemu-aarch64 -R SIZE [-L SYSROOT] -plugin armprof-qemu.so,cfg=FILE PROG ARGS... */
	int nargs = 0;
	while (o.prog_argv[nargs])
		nargs++;
	char **qargv = calloc((size_t)nargs + 11, sizeof(*qargv));
	char plugarg[2 * PATH_MAX + 32];
	snprintf(plugarg, sizeof(plugarg), "%s,cfg=%s", plugin, t.cfg);
	char qemu_built[PATH_MAX];
	const char *qemu = find_qemu(o.qemu, qemu_built, sizeof(qemu_built));
	if (!qargv) {
		remove_tmp(&t);
		return EXIT_USAGE;
	}
	int q = 0;
	qargv[q++] = (char *)qemu;
	/* The program's address space reserved at start (1 TiB): QEMU 8 and
	 * later otherwise place its stack and mmaps where the host puts them,
	 * beside the plugin's own allocations and under the host's address
	 * randomization, so its data addresses (and so the model's caches and
	 * the records) would change from run to run. */
	qargv[q++] = (char *)"-R";
	qargv[q++] = (char *)"0x10000000000";
	if (sysroot[0]) {
		qargv[q++] = (char *)"-L";
		qargv[q++] = sysroot;
	}
	/* armprof-qemu-preload.so beside the plugin: a program a fault kills
	 * keeps its profile (plugins/qemu/fatal_preload.c). It is QEMU's alone:
	 * the program's environment gets LD_PRELOAD as armprof found it. */
	char preload[PATH_MAX + 32], guest_preload[PATH_MAX + 32];
	int have_preload = preload_beside(plugin, preload, sizeof(preload));
	if (have_preload) {
		const char *user = getenv("LD_PRELOAD");
		if (user) {
			snprintf(guest_preload, sizeof(guest_preload), "LD_PRELOAD=%s", user);
			qargv[q++] = (char *)"-E";
			qargv[q++] = guest_preload;
		} else {
			qargv[q++] = (char *)"-U";
			qargv[q++] = (char *)"LD_PRELOAD";
		}
	}
	qargv[q++] = (char *)"-plugin";
	qargv[q++] = plugarg;
	qargv[q++] = prog;
	for (int i = 1; i < nargs; i++)
		qargv[q++] = o.prog_argv[i];
	int status = record_run_child(qargv, have_preload ? preload : NULL, prog_out, err, sizeof(err));
	free(qargv);
	if (prog_out > STDERR_FILENO)
		close(prog_out);
	hold_signals();
	if (status < 0) {
		fprintf(stderr, "armprof record: %s\n", err);
		remove_tmp(&t);
		return EXIT_USAGE;
	}

	struct record_stats *st = calloc(1, sizeof(*st));
	if (!st || record_read_stats(t.stats, st) != 0) {
		/* QEMU runs the plugin's exit handler on exit() and exit_group,
		 * not when a signal kills the program; the plugin writes its
		 * outputs first for the signals QEMU lets it see (stop_signal.h)
		 * and, with armprof-qemu-preload.so beside it, for the faults
		 * (fatal_preload.c), not for SIGKILL: then nothing was recorded,
		 * and the program's status still passes through. */
		fprintf(stderr,
		        "armprof record: no profile written: the plugin wrote no results (qemu-aarch64 exited with "
		        "status %d%s; see its message above)\n",
		        status,
		        status > 128 ? ", killed by a signal the plugin cannot see first: SIGKILL, or a fault "
		                       "without armprof-qemu-preload.so beside the plugin" : "");
		free(st);
		remove_tmp(&t);
		return status ? status : EXIT_USAGE;
	}
	/* The program's process, then each child it forked that ended while
	 * it ran (record_procs.h), with its SPE bytes. */
	struct record_process procs[1 + RECORD_MAX_CHILDREN];
	memset(procs, 0, sizeof(procs));
	procs[0].st = st;
	size_t n_procs = 1, more = 0;
	int pids[RECORD_MAX_CHILDREN];
	size_t n_children = record_child_pids(t.stats, pids, RECORD_MAX_CHILDREN, &more);
	for (size_t k = 0; k < n_children; k++) {
		char path[sizeof(t.stats) + 16];
		record_process_path(path, sizeof(path), t.stats, pids[k]);
		struct record_stats *cs = calloc(1, sizeof(*cs));
		if (cs && record_read_stats(path, cs) == 0)
			procs[n_procs++] = (struct record_process){ .pid = pids[k], .st = cs };
		else
			free(cs);
	}
	if (more)
		fprintf(stderr, "armprof record: %zu more child processes left out (at most %d are kept)\n", more,
		        RECORD_MAX_CHILDREN);
	int failed = 0;
	for (size_t k = 0; o.model && k < n_procs && !failed; k++) {
		char path[sizeof(t.spe) + 16];
		record_process_path(path, sizeof(path), t.spe, procs[k].pid);
		failed = cli_read_all("record", path, &procs[k].spe, &procs[k].spe_len) != 0;
	}
	struct record_stats *total = malloc(sizeof(*total));
	if (!total) {
		fprintf(stderr, "armprof record: out of memory\n");
		failed = 1;
	} else {
		*total = *st;
		for (size_t k = 1; k < n_procs; k++)
			record_stats_add(total, procs[k].st);
	}

	/* Where the program was loaded: from the plugin's view of its
	 * mappings, else from where QEMU put its entry point (which for a
	 * dynamically linked program is the dynamic loader's: the mappings
	 * are then needed). */
	char abs_prog[PATH_MAX];
	if (!realpath(prog, abs_prog))
		snprintf(abs_prog, sizeof(abs_prog), "%s", prog);
	uint64_t bias = 0, entry = elf_entry(prog);
	if (!record_file_bias(st, abs_prog, &bias))
		bias = st->entry && entry ? st->entry - entry : 0;
	struct record_library libs[RECORD_MAX_MAPS];
	size_t n_libs = record_libraries(st, abs_prog, libs, RECORD_MAX_MAPS);
	int wrote_profile = 0; /* for the summary: the other outputs may fail apart */
	char *meta = NULL;
	struct stat written;
	memset(&written, 0, sizeof(written));
	if (!failed && o.model && !(meta = record_meta_text(&o, prog, sysroot, bias, total, libs, n_libs, n_procs,
	                                                    status))) {
		fprintf(stderr, "armprof record: out of memory\n");
		failed = 1;
	}
	/* The profile and its FILE.meta: one run's pair (record_meta.h). */
	int lock = !failed && o.model && beside ? record_pair_lock(o.output) : -1;
	if (!failed && o.model) {
		if (o.format == RECORD_OUT_RAW) {
			failed = write_raw(&o, procs, n_procs, &written) != 0;
		} else {
			failed = record_write_perf(&o, prog, bias, procs, n_procs, total->n_vcpus,
			                           st->call_graph ? t.stacks : NULL, meta, &written) != 0;
		}
		wrote_profile = !failed;
	}
	/* Written through cli_output.h like every output (never renamed from
	 * the temporary directory, which may be on another file system than
	 * --counts and would replace a link there). */
	if (!failed && o.counts && merge_counts(&t, procs, n_procs, o.counts) != 0)
		failed = 1;
	if (!failed && o.stack_counts && concat_stack_counts(&t, procs, n_procs, o.stack_counts) != 0)
		failed = 1;
	if (!failed && o.model && beside && record_meta_write(&o, meta, &written) != 0)
		failed = 1;
	record_pair_unlock(lock);
	free(meta);
	if (!o.quiet && total)
		record_summary(&o, o.prog_argv[0], status, total, st->ended_by_exec != 0, n_procs, wrote_profile);
	for (size_t k = 0; k < n_procs; k++) {
		free(procs[k].spe);
		if (k)
			free(procs[k].st);
	}
	free(total);
	free(st);
	remove_tmp(&t);
	if (failed)
		return EXIT_USAGE;
	return status;
}

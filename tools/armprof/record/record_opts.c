/* `armprof record` options (see record_opts.h). Each option maps to the SPE
 * register field it programs (spec/002 section 4): -c PMSIRR_EL1.INTERVAL,
 * -j PMSIRR_EL1.RND, --filter-type PMSFCR_EL1.{FT,B,LD,ST}, --filter-events
 * PMSFCR_EL1.FE + PMSEVFR_EL1, --min-latency PMSFCR_EL1.FL +
 * PMSLATFR_EL1.MINLAT, --no-timestamps/--pa/--no-context PMSCR_EL1.{TS,PA,CX}. */
#include "armprof/number.h"
#include "record_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "armprof/model.h"
#include "armprof/uarch.h"
#include "commands.h"

void record_usage(FILE *out)
{
	fprintf(out,
	        "usage: armprof record [-o FILE] [options] -- PROG [ARGS...]\n"
	        "Run an aarch64 program under qemu-aarch64 with armprof's plugin and record SPE data.\n"
	        "  -o, --output FILE      output (default armprof.data); perf.data format, or raw SPE\n"
	        "                         bytes with --format raw or a .spe/.raw suffix\n"
	        "      --format perf|raw  output format (default: by suffix, else perf)\n"
	        "  -c, --interval N       operations between samples, a multiple of 256 (default 1024)\n"
	        "  -j, --jitter           randomise the interval (PMSIRR_EL1.RND)\n"
	        "      --filter-type L    record only these types: load,store,branch (PMSFCR_EL1.FT)\n"
	        "      --filter-events L  record only operations with all these events (PMSEVFR_EL1):\n"
	        "                         retired, l1d-refill, tlb-walk, mispredicted, or a raw mask\n"
	        "      --min-latency N    record only operations with total latency >= N (PMSLATFR_EL1)\n"
	        "    SPE after v1, spelled as perf's arm_spe formats (the model needs the feature:\n"
	        "    --set spe.version=v1p4 --set spe.fne=1 ..., docs/requirements-later.md):\n"
	        "      --inv-event-filter L   drop operations with any of these events (PMSNEVFR_EL1, FnE)\n"
	        "      --data-source-filter M keep loads whose Data Source<5:0> has its bit set in M\n"
	        "      --inv-data-src-filter M  the same with M inverted, as perf's inv_data_src_filter\n"
	        "                         (PMSDSFR_EL1, PMSFCR_EL1.FDS; FEAT_SPE_FDS)\n"
	        "      --simd-filter, --float-filter  SIMD / floating-point operations (FEAT_SPE_EFT)\n"
	        "      --branch-filter-mask, --load-filter-mask, --store-filter-mask, --simd-filter-mask,\n"
	        "      --float-filter-mask    that type filter is an AND: its type bit must match\n"
	        "      --discard          discard mode: count SPE's PMU events, write no record\n"
	        "                         (PMBLIMITR_EL1.FM, FEAT_SPEv1p2)\n"
	        "      --no-timestamps    no Timestamp packets (PMSCR_EL1.TS = 0)\n"
	        "      --pa               collect physical addresses (PMSCR_EL1.PA; qemu-user: PA = VA)\n"
	        "      --no-context       no CONTEXTIDR_EL1 (thread id) packets (PMSCR_EL1.CX = 0)\n"
	        "      --buffer-size N    profiling buffer per thread in bytes, K/M suffix (default 16M)\n"
	        "      --seed N           seed of the model's random choices (default 0)\n"
	        "      --set KEY=VALUE    model configuration (docs/model-config.md), repeatable;\n"
	        "                         --config KEY=VALUE is the same option\n"
	        "      --uarch KEY=VALUE  timing model configuration (docs/record-and-report.md), repeatable\n"
	        "      --no-model         instrumentation and timing only: no SPE data (for comparison)\n"
	        "      --no-timing        no cache/TLB/branch timing model (latencies are constants)\n"
	        "      --timing-window N  full timing only for the N operations before each sample;\n"
	        "                         caches and TLBs still follow every access (default 0: full\n"
	        "                         timing everywhere; see docs/record-and-report.md)\n"
	        "      --no-pipeline      run the models on the program's own threads (default: each\n"
	        "                         thread's models run on a host thread of their own when the\n"
	        "                         host has more than one CPU; the results are the same)\n"
	        "      --interleave N     replay the threads' events in model-clock order on one model\n"
	        "                         thread, each within about N cycles of the others, so that\n"
	        "                         threads meet in the caches as on hardware (false sharing);\n"
	        "                         default 8; 0: a model thread per program thread, which\n"
	        "                         meet only where their batches overlap in host time\n"
	        "                         (with --no-timing threads do not meet: always 0)\n"
	        "      --no-loop-runs     replay every iteration of a one-block loop through the models\n"
	        "                         (default: runs of iterations that change nothing but counts\n"
	        "                         are taken at once; the results are the same)\n"
	        "      --counts FILE      also write exact executed-operation counts per PC\n"
	        "      --call-graph[=on|off]  follow each thread's call stack and give every sample\n"
	        "                         its call chain (default on; costs the replay a test per\n"
	        "                         block and a frame per call: docs/PERFORMANCE.md); perf.data\n"
	        "                         output with timestamps (a record's stack is found by its\n"
	        "                         thread and timestamp)\n"
	        "      --call-graph-depth N  frames kept per thread, 1..1024 (default 128; deeper\n"
	        "                         stacks keep their newest N frames)\n"
	        "      --stack-counts FILE  also write exact executed-operation counts per call path\n"
	        "                         and block: \"count block-pc return-addresses...\"\n"
	        "      --qemu PATH        qemu-aarch64 to run (default $ARMPROF_QEMU, else the one\n"
	        "                         `bash system/qemu/build.sh` builds, .cache/qemu/current/bin,\n"
	        "                         which logs events inline; else qemu-aarch64 on PATH)\n"
	        "      --no-inline-ring   use the plugin's callbacks even where QEMU can log inline\n"
	        "      --plugin PATH      armprof-qemu.so (default next to armprof, or installed)\n"
	        "      --sysroot DIR      aarch64 root file system of a dynamically linked program's\n"
	        "                         interpreter and libraries, for QEMU's -L (default\n"
	        "                         $QEMU_LD_PREFIX, else /usr/aarch64-linux-gnu when it has them);\n"
	        "                         a PROG without a slash is looked for on PATH in it first\n"
	        "      --program-output FILE  the program's standard output goes to FILE (created,\n"
	        "                         or truncated as the shell's > does; a device or FIFO\n"
	        "                         written in place); default: armprof's standard output,\n"
	        "                         except with -o - (the profile goes there), where it\n"
	        "                         goes to standard error\n"
	        "  -q, --quiet            no summary on stderr\n"
	        "The program's output and exit status pass through; armprof's own errors exit 2\n"
	        "(a failed write: with its reason, and the summary says nothing was written).\n"
	        "Outputs: a regular file (or a link's target) is replaced when complete, a device\n"
	        "or FIFO written in place (docs/outputs.md); checked before the program runs.\n"
	        "The metadata armprof report reads (binary, libraries, the ending signal) is inside\n"
	        "the perf.data, and in FILE.meta beside a regular FILE (never beside a device,\n"
	        "a FIFO or -). ^C, SIGINT, SIGTERM and SIGHUP sent to armprof go to the program;\n"
	        "the profile of what ran is written.\n"
	        "A program ended by a signal (^C, kill, a closed pipe, abort, a crash) keeps its\n"
	        "profile up to the signal, one that execs another program up to the exec; the\n"
	        "child processes it forks are recorded with it.\n");
}

static int parse_u64(const char *s, uint64_t *out)
{
	return s && ap_parse_u64_scaled(s, out) == 0 ? 0 : -1;
}

/* Event names accepted by --filter-events: the events PMSEVFR_EL1 can
 * select (spec/002 4.3.8: E[1], E[3], E[5], E[7]; events 2, 4, 6 and 8-11
 * cannot be filtered, SPE-4.3.8-13). A number gives a raw mask for the
 * IMPLEMENTATION DEFINED bits. */
static const struct {
	const char *name;
	unsigned bit;
} event_names[] = {
	{ "retired", 1 }, { "l1d-refill", 3 }, { "tlb-walk", 5 }, { "mispredicted", 7 },
};

static int parse_events(const char *list, uint64_t *mask)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", list);
	*mask = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t m;
		if (!parse_u64(t, &m)) {
			*mask |= m;
			continue;
		}
		for (char *c = t; *c; c++)
			if (*c == '_')
				*c = '-';
		size_t i;
		for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
			if (!strcasecmp(t, event_names[i].name))
				break;
		if (i == sizeof(event_names) / sizeof(event_names[0]))
			return -1;
		*mask |= 1ull << event_names[i].bit;
	}
	return *mask ? 0 : -1;
}

static int parse_types(const char *list, uint64_t *fcr)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", list);
	uint64_t bits = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcasecmp(t, "branch") || !strcasecmp(t, "b"))
			bits |= 1ull << 16; /* PMSFCR_EL1.B */
		else if (!strcasecmp(t, "load") || !strcasecmp(t, "ld"))
			bits |= 1ull << 17; /* PMSFCR_EL1.LD */
		else if (!strcasecmp(t, "store") || !strcasecmp(t, "st"))
			bits |= 1ull << 18; /* PMSFCR_EL1.ST */
		else
			return -1;
	}
	if (!bits)
		return -1;
	*fcr |= bits | 1ull << 1; /* PMSFCR_EL1.FT */
	return 0;
}

static int bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "armprof record: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\n(armprof record --help lists the options)\n");
	return EXIT_USAGE;
}

/* Options that take a value: "--opt V" or "--opt=V". */
static const char *value_of(int argc, char **argv, int *i, const char *lng, const char *shrt)
{
	const char *a = argv[*i];
	size_t n = strlen(lng);
	if (!strncmp(a, lng, n) && a[n] == '=')
		return a + n + 1;
	if (!strcmp(a, lng) || (shrt && !strcmp(a, shrt))) {
		if (*i + 1 >= argc)
			return "";
		return argv[++*i];
	}
	return NULL;
}

static int validate(struct record_opts *o)
{
	struct ap_config cfg;
	struct ap_error_ctx err;
	ap_config_init(&cfg);
	for (int i = 0; i < o->n_sets; i++) {
		char kv[512];
		snprintf(kv, sizeof(kv), "%s", o->sets[i]);
		char *eq = strchr(kv, '=');
		if (!eq)
			return bad("--set %s: expected KEY=VALUE%s", o->sets[i], "");
		*eq = 0;
		if (ap_config_set(&cfg, kv, eq + 1, &err) < 0)
			return bad("--set %s: %s", o->sets[i], err.message);
	}
	if (ap_config_validate(&cfg, &err) < 0)
		return bad("model configuration: %s%s", err.message, "");
	/* The filters of SPE after v1 need their feature in the model. */
	const struct ap_spe_later_config *l = &cfg.spe_later;
	if ((o->pmsnevfr || (o->pmsfcr & 1u << 3)) && !l->fne)
		return bad("--inv-event-filter needs FEAT_SPE_FnE: %s%s", "--set spe.version=v1p2 --set spe.fne=1", "");
	if ((o->pmsfcr & 1u << 4) && !l->fds)
		return bad("--data-source-filter/--inv-data-src-filter need FEAT_SPE_FDS: %s%s",
		           "--set spe.version=v1p4 --set spe.fne=1 --set spe.fds=1", "");
	if ((o->pmsfcr & (0x1Full << 48 | 3ull << 19)) && !l->eft)
		return bad("--simd-filter, --float-filter and the *-filter-mask options need FEAT_SPE_EFT: %s%s",
		           "--set spe.version=v1p4 --set spe.fne=1 --set spe.eft=1", "");
	if (o->discard && l->version < AP_SPE_V1P2)
		return bad("--discard needs FEAT_SPEv1p2: %s%s", "--set spe.version=v1p2 --set spe.fne=1", "");
	struct ap_uarch_config ucfg;
	ap_uarch_config_init(&ucfg);
	for (int i = 0; i < o->n_uarch; i++) {
		char kv[512];
		snprintf(kv, sizeof(kv), "%s", o->uarch[i]);
		char *eq = strchr(kv, '=');
		if (eq)
			*eq = 0;
		if (!eq || ap_uarch_config_set(&ucfg, kv, eq + 1) < 0)
			return bad("--uarch %s: unknown key or bad value (%s)", o->uarch[i],
			           "see docs/record-and-report.md for the keys");
	}
	struct ap_uarch_system *sys;
	struct ap_uarch_core *core = NULL;
	int r = ap_uarch_system_create(&sys, &ucfg);
	if (!r) {
		r = ap_uarch_core_create(&core, sys, 0);
		ap_uarch_core_destroy(core);
		ap_uarch_system_destroy(sys);
	}
	if (r < 0)
		return bad("--uarch: inconsistent timing model (%s%s)",
		           "sizes and entries must give power-of-two sets; one line size for all levels", "");
	return 0;
}

int record_parse(struct record_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->output = "armprof.data";
	o->interval = 1024;
	o->ts = o->ctx = 1;
	o->buffer_bytes = 16u << 20;
	o->model = o->timing = 1;
	o->interleave = RECORD_DEFAULT_INTERLEAVE;
	o->call_graph = 1;
	o->call_graph_depth = RECORD_DEFAULT_CALL_GRAPH_DEPTH;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		uint64_t n;
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			record_usage(stdout);
			return -1;
		} else if ((v = value_of(argc, argv, &i, "--output", "-o"))) {
			if (!*v)
				return bad("%s needs a file name%s", a, "");
			o->output = v;
		} else if ((v = value_of(argc, argv, &i, "--format", NULL))) {
			if (!strcmp(v, "perf"))
				o->format = RECORD_OUT_PERF;
			else if (!strcmp(v, "raw"))
				o->format = RECORD_OUT_RAW;
			else
				return bad("--format '%s': expected perf or raw%s", v, "");
			o->format_given = 1;
		} else if ((v = value_of(argc, argv, &i, "--interval", "-c"))) {
			if (parse_u64(v, &n) || n < 256 || n % 256 || n > 0xFFFFFF00ull)
				return bad("--interval '%s': expected a multiple of 256 from 256 to %s", v,
				           "4294967040 (PMSIRR_EL1.INTERVAL is bits [31:8])");
			o->interval = n;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--jitter")) {
			o->jitter = 1;
		} else if ((v = value_of(argc, argv, &i, "--filter-type", NULL))) {
			if (parse_types(v, &o->pmsfcr))
				return bad("--filter-type '%s': expected a list of load, store, branch%s", v, "");
		} else if ((v = value_of(argc, argv, &i, "--filter-events", NULL))) {
			if (parse_events(v, &o->pmsevfr))
				return bad("--filter-events '%s': not an event PMSEVFR_EL1 can select (%s)", v,
				           "retired, l1d-refill, tlb-walk, mispredicted, or a mask");
			o->pmsfcr |= 1; /* PMSFCR_EL1.FE */
		} else if ((v = value_of(argc, argv, &i, "--min-latency", NULL))) {
			if (parse_u64(v, &n) || n == 0 || n > 0xFFF)
				return bad("--min-latency '%s': expected 1..4095 cycles%s", v, "");
			o->pmslatfr = n;
			o->pmsfcr |= 1u << 2; /* PMSFCR_EL1.FL */
		} else if ((v = value_of(argc, argv, &i, "--inv-event-filter", NULL))) {
			if (parse_events(v, &o->pmsnevfr))
				return bad("--inv-event-filter '%s': not an event (%s)", v,
				           "retired, l1d-refill, tlb-walk, mispredicted, or a mask");
			o->pmsfcr |= 1u << 3; /* PMSFCR_EL1.FnE (LATER-FNE-1) */
		} else if ((v = value_of(argc, argv, &i, "--data-source-filter", NULL)) ||
		           (v = value_of(argc, argv, &i, "--inv-data-src-filter", NULL))) {
			if (parse_u64(v, &n))
				return bad("%s '%s': expected a 64-bit mask of data sources 0-63", a, v);
			/* perf's inv_data_src_filter is written inverted (LATER-FDS-4) */
			o->pmsdsfr = !strncmp(a, "--inv", 5) ? ~n : n;
			o->pmsfcr |= 1u << 4; /* PMSFCR_EL1.FDS */
		} else if (!strcmp(a, "--simd-filter") || !strcmp(a, "--float-filter")) {
			o->pmsfcr |= (a[2] == 's' ? 1ull << 20 : 1ull << 19) | 1ull << 1; /* SIMD / FP, FT */
		} else if (!strcmp(a, "--branch-filter-mask") || !strcmp(a, "--load-filter-mask") ||
		           !strcmp(a, "--store-filter-mask") || !strcmp(a, "--float-filter-mask") ||
		           !strcmp(a, "--simd-filter-mask")) {
			/* PMSFCR_EL1.{B,LD,ST,FP,SIMD}m [52:48] (LATER-EFT-1) */
			unsigned bit = a[2] == 'b' ? 48 : a[2] == 'l' ? 49 : a[3] == 't' ? 50 : a[2] == 'f' ? 51 : 52;
			o->pmsfcr |= 1ull << bit | 1ull << 1;
		} else if (!strcmp(a, "--discard")) {
			o->discard = 1;
		} else if (!strcmp(a, "--no-timestamps")) {
			o->ts = 0;
		} else if (!strcmp(a, "--pa")) {
			o->pa = 1;
		} else if (!strcmp(a, "--no-context")) {
			o->ctx = 0;
		} else if ((v = value_of(argc, argv, &i, "--buffer-size", NULL))) {
			if (parse_u64(v, &n) || n < 4096 || n % 4096 || n > (1ull << 32))
				return bad("--buffer-size '%s': expected a multiple of 4096 up to 4G%s", v, "");
			o->buffer_bytes = n;
		} else if ((v = value_of(argc, argv, &i, "--seed", NULL))) {
			if (parse_u64(v, &o->seed))
				return bad("--seed '%s': not a number%s", v, "");
		} else if ((v = value_of(argc, argv, &i, "--set", NULL)) ||
		           (v = value_of(argc, argv, &i, "--config", NULL))) {
			if (o->n_sets == 64)
				return bad("too many --set options%s%s", "", "");
			o->sets[o->n_sets++] = v;
		} else if ((v = value_of(argc, argv, &i, "--uarch", NULL))) {
			if (o->n_uarch == 64)
				return bad("too many --uarch options%s%s", "", "");
			o->uarch[o->n_uarch++] = v;
		} else if (!strcmp(a, "--no-model")) {
			o->model = 0;
		} else if (!strcmp(a, "--no-timing")) {
			o->timing = 0;
		} else if ((v = value_of(argc, argv, &i, "--timing-window", NULL))) {
			if (parse_u64(v, &n) || n > 0xFFFFFFFFull)
				return bad("--timing-window '%s': expected a number of operations (0: all)%s", v, "");
			o->timing_window = n;
		} else if ((v = value_of(argc, argv, &i, "--interleave", NULL))) {
			if (parse_u64(v, &n) || n > 0xFFFFFFFFull)
				return bad("--interleave '%s': expected a number of cycles (0: a model thread per "
				           "program thread)%s", v, "");
			o->interleave = n;
		} else if (!strcmp(a, "--no-pipeline")) {
			o->no_pipeline = 1;
		} else if (!strcmp(a, "--no-loop-runs")) {
			o->no_loop_runs = 1;
		} else if (!strcmp(a, "--call-graph") || !strcmp(a, "--call-graph=on")) {
			o->call_graph = 1;
		} else if (!strcmp(a, "--call-graph=off")) {
			o->call_graph = 0;
		} else if (!strncmp(a, "--call-graph=", 13)) {
			return bad("--call-graph '%s': expected on or off%s", a + 13, "");
		} else if ((v = value_of(argc, argv, &i, "--call-graph-depth", NULL))) {
			if (parse_u64(v, &n) || n < 1 || n > 1024)
				return bad("--call-graph-depth '%s': expected 1 to 1024 frames%s", v, "");
			o->call_graph_depth = n;
		} else if ((v = value_of(argc, argv, &i, "--stack-counts", NULL))) {
			if (!*v)
				return bad("--stack-counts needs a file name%s%s", "", "");
			o->stack_counts = v;
		} else if (!strcmp(a, "--no-inline-ring")) {
			o->no_inline_ring = 1;
		} else if ((v = value_of(argc, argv, &i, "--counts", NULL))) {
			if (!*v)
				return bad("--counts needs a file name%s%s", "", "");
			o->counts = v;
		} else if ((v = value_of(argc, argv, &i, "--program-output", NULL))) {
			if (!*v)
				return bad("--program-output needs a file name%s%s", "", "");
			o->program_output = v;
		} else if ((v = value_of(argc, argv, &i, "--qemu", NULL))) {
			o->qemu = v;
		} else if ((v = value_of(argc, argv, &i, "--plugin", NULL))) {
			o->plugin = v;
		} else if ((v = value_of(argc, argv, &i, "--sysroot", NULL))) {
			if (!*v)
				return bad("--sysroot needs a directory%s%s", "", "");
			o->sysroot = v;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o->quiet = 1;
		} else {
			return bad("unknown option '%s'%s", a, "");
		}
	}
	if (i >= argc)
		return bad("no program to run: armprof record [options] -- PROG [ARGS...]%s%s", "", "");
	o->prog_argv = argv + i;
	if (!o->format_given) {
		const char *dot = strrchr(o->output, '.');
		o->format = dot && (!strcmp(dot, ".spe") || !strcmp(dot, ".raw")) ? RECORD_OUT_RAW
		                                                                   : RECORD_OUT_PERF;
	}
	return validate(o);
}

int record_write_plugin_cfg(const struct record_opts *o, const char *path, const char *spe_out,
                            const char *counts_out, const char *stats_out, const char *stacks_out,
                            const char *stack_counts_out)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# armprof record -> armprof-qemu.so\n");
	fprintf(f, "out=%s\ncounts=%s\nstats=%s\n", spe_out, counts_out, stats_out);
	fprintf(f, "model=%d\ntiming=%d\ninterval=%llu\njitter=%d\n", o->model, o->timing,
	        (unsigned long long)o->interval, o->jitter);
	fprintf(f, "pmsfcr=0x%llx\npmsevfr=0x%llx\npmslatfr=0x%llx\n", (unsigned long long)o->pmsfcr,
	        (unsigned long long)o->pmsevfr, (unsigned long long)o->pmslatfr);
	if (o->pmsnevfr || o->pmsdsfr || o->discard)
		fprintf(f, "pmsnevfr=0x%llx\npmsdsfr=0x%llx\ndiscard=%d\n", (unsigned long long)o->pmsnevfr,
		        (unsigned long long)o->pmsdsfr, o->discard);
	fprintf(f, "ts=%d\npa=%d\nctx=%d\nbuffer=%llu\nseed=%llu\n", o->ts, o->pa, o->ctx,
	        (unsigned long long)o->buffer_bytes, (unsigned long long)o->seed);
	if (o->no_pipeline)
		fprintf(f, "pipeline=0\n");
	if (o->no_loop_runs)
		fprintf(f, "loop_runs=0\n");
	/* Call stacks only where something uses them: samples in perf.data, or
	 * the per-path counts (replay_run takes fewer loops as runs with them). */
	fprintf(f, "call_graph=%d\ncall_graph_depth=%llu\nstacks=%s\nstack_counts=%s\n",
	        o->call_graph && (stacks_out[0] || stack_counts_out[0]), (unsigned long long)o->call_graph_depth,
	        stacks_out, stack_counts_out);
	if (o->no_inline_ring)
		fprintf(f, "inline_ring=0\n");
	if (o->timing_window)
		fprintf(f, "timing_window=%llu\n", (unsigned long long)o->timing_window);
	if (o->interleave != RECORD_DEFAULT_INTERLEAVE) /* the plugin's default otherwise */
		fprintf(f, "interleave=%llu\n", (unsigned long long)o->interleave);
	for (int i = 0; i < o->n_sets; i++)
		fprintf(f, "set=%s\n", o->sets[i]);
	for (int i = 0; i < o->n_uarch; i++)
		fprintf(f, "uarch=%s\n", o->uarch[i]);
	int bad_write = ferror(f);
	if (fclose(f) != 0 || bad_write)
		return -1;
	return 0;
}

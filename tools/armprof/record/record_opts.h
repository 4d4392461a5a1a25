/* `armprof record` options: parsing, validation against the model and
 * timing-model configurations, and the key=value file the QEMU plugin reads
 * (plugins/qemu/plugin_options.c). */
#ifndef ARMPROF_TOOL_RECORD_OPTS_H
#define ARMPROF_TOOL_RECORD_OPTS_H

#include <stdint.h>
#include <stdio.h>

enum record_out_format { RECORD_OUT_PERF = 0, RECORD_OUT_RAW = 1 };

/* --interleave's default: a model choice, not the architecture's
 * (docs/record-and-report.md "Threads"); the plugin's own default
 * (plugins/qemu/plugin_options.c) is the same. */
#define RECORD_DEFAULT_INTERLEAVE 8
/* --call-graph-depth's default (the plugin's CS_DEFAULT_DEPTH). */
#define RECORD_DEFAULT_CALL_GRAPH_DEPTH 128

struct record_opts {
	const char *output;      /* -o */
	int format;              /* enum record_out_format */
	int format_given;
	uint64_t interval;       /* -c: operations between samples */
	int jitter;              /* -j: PMSIRR_EL1.RND */
	uint64_t pmsfcr, pmsevfr, pmslatfr;
	uint64_t pmsnevfr, pmsdsfr; /* SPE after v1: --inv-event-filter, --*data-s*-filter */
	int discard;             /* --discard: PMBLIMITR_EL1.FM = 0b10 */
	int ts, pa, ctx;
	uint64_t buffer_bytes;
	uint64_t seed;
	int model, timing;
	int no_pipeline;         /* --no-pipeline: models on the guest threads */
	int no_loop_runs;        /* --no-loop-runs: every loop iteration through the models */
	int no_inline_ring;      /* --no-inline-ring: the plugin's callbacks under any QEMU */
	uint64_t timing_window;  /* --timing-window N: 0 = every operation */
	uint64_t interleave;     /* --interleave N: cycles of model clock; 0 = a model thread per thread */
	int quiet;
	const char *counts;      /* --counts FILE */
	int call_graph;          /* --call-graph[=on|off] (default on) */
	uint64_t call_graph_depth; /* --call-graph-depth N */
	const char *stack_counts; /* --stack-counts FILE */
	const char *program_output; /* --program-output FILE: the program's stdout */
	const char *qemu;        /* --qemu PATH */
	const char *plugin;      /* --plugin PATH */
	const char *sysroot;     /* --sysroot DIR: where QEMU finds a dynamic program's libraries */
	const char *sets[64];    /* --set KEY=VALUE, model configuration */
	int n_sets;
	const char *uarch[64];   /* --uarch KEY=VALUE, timing model */
	int n_uarch;
	char **prog_argv;        /* PROG ARGS..., NULL-terminated */
};

void record_usage(FILE *out);
/* Parse argv (argv[0] = "record"). Returns -1 to exit 0 (--help shown),
 * 0 on success, or the exit code (2) after printing the error. */
int record_parse(struct record_opts *o, int argc, char **argv);
/* Write the plugin's options file. Returns 0 or -1 (errno set). */
int record_write_plugin_cfg(const struct record_opts *o, const char *path, const char *spe_out,
                            const char *counts_out, const char *stats_out, const char *stacks_out,
                            const char *stack_counts_out);

#endif

/* `armprof report`'s reading of one input into a finished report: FILE.meta,
 * the binary and its libraries, the records (raw SPE or perf.data), the
 * thread selection and the --kallsyms check (cmd_report.c parses the
 * options and writes the result). */
#ifndef ARMPROF_TOOL_REPORT_LOAD_H
#define ARMPROF_TOOL_REPORT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/report.h"
#include "report_files.h"
#include "report_html.h"
#include "report_pprof.h"

struct report_callchains;

/* One input's report and what its reading found. */
struct report_run {
	struct ap_report *rep;
	int nomem;
	int failed; /* a part stopped the reading, its reason printed (pprof) */
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
 * the binary's path for the view (cap bytes, lives as long as the view).
 * run->pprof, when set by the caller, is fed and kept. */
int report_load(const char *input, const struct load_opts *lo, struct report_run *run, struct report_view *view,
                char *binary, size_t cap);
/* --kallsyms from another boot (KASLR moves the kernel each time) or
 * machine names none of the kernel's samples: say so (kernel samples of
 * which named have a symbol) rather than show them all [unknown] without a
 * word. report_load checks a report; a pprof profile is checked once
 * written. */
void report_kallsyms_warn(uint64_t kernel, uint64_t named, const char *kallsyms, const char *input);

#endif

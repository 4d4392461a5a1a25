/* Private to lib/report: the accumulator and the loaded binary. */
#ifndef ARMPROF_REPORT_INTERNAL_H
#define ARMPROF_REPORT_INTERNAL_H

#include "armprof/report.h"

struct report_binary; /* binary.c */

struct report_symbol {
	uint64_t start, size; /* runtime addresses (bias applied) */
	const char *name;
	unsigned char bind;   /* STB_LOCAL, STB_GLOBAL or STB_WEAK */
};

/* lines.c: shared cache lines. */
struct report_pc_count {
	uint64_t pc; /* or a context, for the threads */
	uint64_t count;
};
struct report_line_acc {
	struct ap_report_line line; /* addr, peer_loads (first pass), stats */
	struct report_pc_count *pcs, *ctx;
	size_t n_pcs, cap_pcs, n_ctx, cap_ctx;
	uint64_t other_pcs;
	uint64_t word_thread[AP_REPORT_LINE_WORDS]; /* the first thread that touched each word */
};
struct report_lines {
	/* tid -> pid (ap_report_set_thread_process): a sorted array, looked up
	 * by bisection; few entries (a program's threads). */
	struct report_pc_count *procs; /* pc: tid, count: pid */
	size_t n_procs, cap_procs;
	int procs_sorted;
	struct report_line_acc *acc;
	size_t n;
	uint32_t *index; /* open addressing, line -> acc + 1 (0: empty), at most half full */
	size_t index_cap;
	uint64_t dropped;
	int second_pass;
	struct ap_report_line *rows;
	size_t n_rows;
};
int report_lines_note(struct report_lines *l, const struct ap_record *rec);
int report_lines_finish(struct ap_report *r);
void report_lines_free(struct report_lines *l);

struct ap_report {
	/* PC -> stats, open addressing; pcs[i] == 0 with used[i] == 0 is empty */
	uint64_t *pcs;
	uint8_t *used;
	struct ap_report_stats *stats;
	size_t cap, n;
	struct ap_report_stats totals;
	uint64_t records;

	struct report_binary *bin;
	struct report_binary *libs; /* ap_report_load_library, a list in the order added */

	struct ap_report_row *insn_rows, *fn_rows;
	size_t n_insn_rows, n_fn_rows;
	/* Per thread (CONTEXTIDR_EL1), added as records come: a thread's
	 * records mostly come together, so the last one found is tried first;
	 * else an open-addressing index, context -> row + 1 (0: empty), at
	 * most half full, so that any number of threads costs O(1) each. */
	struct ap_report_row *thread_rows;
	size_t n_thread_rows, cap_thread_rows, last_thread;
	uint32_t *thread_index;
	size_t thread_index_cap;
	struct report_lines lines;
	int finished;
};

void report_stats_add(struct ap_report_stats *s, const struct ap_record *rec);
void report_stats_merge(struct ap_report_stats *into, const struct ap_report_stats *from);

/* binary.c */
void report_binary_free(struct report_binary *b);
/* The function symbol covering pc, or NULL. */
const struct report_symbol *report_binary_symbol(const struct report_binary *b, uint64_t pc);
/* The function symbol covering pc in the binary or a library (NULL if
 * none), and in *binary the library's file name (NULL for the binary). */
const struct report_symbol *report_find_symbol(const struct ap_report *r, uint64_t pc, const char **binary);
void report_libraries_free(struct report_binary *libs);

#endif

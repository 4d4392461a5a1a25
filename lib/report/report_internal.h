/* Private to lib/report: the accumulator and the loaded binary. */
#ifndef ARMPROF_REPORT_INTERNAL_H
#define ARMPROF_REPORT_INTERNAL_H

#include "armprof/report.h"

struct report_binary; /* binary.c */

/* stats.c: what one record adds to the statistics, in 12 bytes, decided
 * as report_stats_add decides it: a PC's few records are kept so
 * (pcs.c), and counted into full statistics only when they are shown. */
struct report_digest {
	uint16_t lat[3]; /* total, issue, translation latency (REPORT_D_LAT_* say which) */
	uint16_t flags;  /* REPORT_D_* */
	uint16_t events; /* REPORT_E_* */
	uint8_t ds;      /* 0: no Data Source; 1 + the value counted; REPORT_DS_OTHER */
	uint8_t pad;
};
#define REPORT_D_LAT_TOTAL 0x1
#define REPORT_D_LAT_ISSUE 0x2
#define REPORT_D_LAT_XLAT 0x4
#define REPORT_D_COND 0x8 /* a conditional branch */
#define REPORT_D_CLS_SHIFT 4
#define REPORT_D_CLS_MASK 0x70
enum { REPORT_CLS_NONE, REPORT_CLS_LOAD, REPORT_CLS_STORE, REPORT_CLS_ATOMIC, REPORT_CLS_BRANCH, REPORT_CLS_OTHER };
#define REPORT_E_L1D_ACCESS 0x1
#define REPORT_E_L1D_REFILL 0x2
#define REPORT_E_LLC_ACCESS 0x4
#define REPORT_E_LLC_MISS 0x8
#define REPORT_E_TLB_ACCESS 0x10
#define REPORT_E_TLB_WALK 0x20
#define REPORT_E_REMOTE 0x40
#define REPORT_E_MISPREDICTED 0x80 /* of a branch only */
#define REPORT_E_NOT_TAKEN 0x100   /* of a branch only */
#define REPORT_DS_OTHER (1 + AP_REPORT_DS_VALUES)
void report_digest_make(struct report_digest *d, const struct ap_record *rec, enum ap_ds_encoding enc);
void report_stats_add_digest(struct ap_report_stats *s, const struct report_digest *d);
/* Add d's part to w (ap_report_key_count of the statistics, per key). */
void report_digest_weights(const struct report_digest *d, uint64_t w[AP_REPORT_N_KEYS]);

/* stats.c: the statistics of up to REPORT_SMALL_MAX records in 196 bytes,
 * exact: ap_report_stats's counters in a byte each (none passes samples),
 * the latency sums in 32 bits (255 latencies of 16 bits), a byte per
 * latency histogram bin. */
#define REPORT_SMALL_MAX 255
struct report_small {
	uint32_t lat_total_sum, lat_issue_sum, lat_xlat_sum;
	uint8_t samples, loads, stores, atomics, branches, others;
	uint8_t l1d_access, l1d_refill, llc_access, llc_miss, tlb_access, tlb_walk, remote;
	uint8_t l1d_refill_in_access, llc_miss_in_access, tlb_walk_in_access;
	uint8_t cond_branches, not_taken, mispredicted;
	uint8_t n_lat_total, n_lat_issue, n_lat_xlat;
	uint8_t data_source[AP_REPORT_DS_VALUES], data_source_other, n_data_source;
	uint8_t hist[AP_REPORT_HIST_BINS];
};
/* Count d into s (s->samples < REPORT_SMALL_MAX). */
void report_small_add_digest(struct report_small *s, const struct report_digest *d);
void report_small_merge(struct ap_report_stats *into, const struct report_small *s);
void report_small_weights(const struct report_small *s, uint64_t w[AP_REPORT_N_KEYS]);

/* pcs.c: the statistics per distinct PC, compact, of a size bounded
 * whatever the number of records. A PC's entry (32 bytes) holds its one
 * record's digest; a PC of 2 to REPORT_PC_DIGESTS records holds their
 * digests in a block of a shared pool (blocks of 2 and 4 digests, reused
 * through a free list per size); then a small summary (struct
 * report_small, 196 bytes) up to REPORT_SMALL_MAX records; past that, its
 * full statistics (920 bytes). A freed block or summary is reused by the
 * next PC that needs one, and a pool mostly of free blocks is compacted,
 * so that the memory follows the PCs, not the records. Found by an open-addressing index of 4 bytes a slot, at most
 * half full. Entries stay in the order first seen. */
#define REPORT_PC_DIGESTS 4
#define REPORT_PC_SMALL (UINT32_MAX - 1)
#define REPORT_PC_FULL UINT32_MAX
#define REPORT_PC_CLASSES 2 /* blocks of 2 << class digests, up to REPORT_PC_DIGESTS */
struct report_pc {
	uint64_t pc;
	uint32_t n;   /* digests held, or REPORT_PC_SMALL, REPORT_PC_FULL */
	uint32_t ref; /* n >= 2: the block's first digest in digests[]; SMALL: its small[] index; FULL: its full[] index */
	uint32_t fn;  /* its function, report_functions (ap_report_finish) */
	struct report_digest one; /* n == 1 */
};
struct report_pcs {
	struct report_pc *v;
	size_t n, cap;
	uint32_t *index; /* PC -> v + 1 (0: empty) */
	size_t index_cap;
	struct report_digest *digests;
	size_t n_digests, cap_digests;
	size_t live_digests; /* in blocks held by PCs (the rest: free blocks) */
	uint32_t free_block[REPORT_PC_CLASSES]; /* a free block's first digest + 1 (0: none) */
	struct report_small *small;
	size_t n_small, cap_small;
	uint32_t free_small; /* a free summary's index + 1 (0: none) */
	struct ap_report_stats *full;
	size_t n_full, cap_full;
};
int report_pcs_init(struct report_pcs *p);
void report_pcs_free(struct report_pcs *p);
/* Count d at pc. 0 or -AP_ERR_NOMEM. */
int report_pcs_add(struct report_pcs *p, uint64_t pc, const struct report_digest *d);
/* The entry of pc, or -1. */
long report_pcs_find(const struct report_pcs *p, uint64_t pc);
uint64_t report_pcs_samples(const struct report_pcs *p, size_t k);
/* Entry k's statistics, made whole in *out. */
void report_pcs_stats(const struct report_pcs *p, size_t k, struct ap_report_stats *out);
/* Add entry k's statistics to *into. */
void report_pcs_merge(const struct report_pcs *p, size_t k, struct ap_report_stats *into);
/* Entry k's ap_report_key_count for every key. */
void report_pcs_weights(const struct report_pcs *p, size_t k, uint64_t w[AP_REPORT_N_KEYS]);

/* functions.c: the functions the PCs are in, each looked up once per PC at
 * ap_report_finish and kept once per function: told apart as the function
 * table tells them (start address, or 0 without a symbol; the binary). */
struct report_function {
	uint64_t start; /* 0 without a symbol */
	const char *name, *binary; /* name: NULL without a symbol (a symbol's name is never NULL) */
	uint32_t row; /* its row of the function table */
};

struct report_symbol {
	uint64_t start, size; /* runtime addresses (bias applied) */
	const char *name;
	unsigned char bind;   /* STB_LOCAL, STB_GLOBAL or STB_WEAK */
	/* The end of the symbol's section (0: unknown): a size-0 symbol
	 * (_init, hand-written assembly) reaches at most there, not over the
	 * PLT or the next section's code. */
	uint64_t section_end;
};

/* Symbols sorted by start, one per address (binary.c), at ELF address +
 * bias. */
struct report_binary_symbols {
	const struct report_symbol *v;
	size_t n;
	uint64_t bias;
};
/* Does a symbol cover ELF address addr? */
int report_symbols_cover(const struct report_binary_symbols *have, uint64_t addr);

/* elf_functions.c: the functions a stripped ELF file still tells (FDE
 * extents, PLT stubs) where no symbol of have covers them, at ELF
 * addresses, named in one allocation (*names, freed with the symbols).
 * Returns 0 or -AP_ERR_NOMEM. */
#include <libelf.h>
int report_elf_functions(Elf *elf, const struct report_binary_symbols *have, struct report_symbol **out,
                         size_t *n, char **names);
/* The functions in the search table of an .eh_frame_hdr section (hdr,
 * hdr_len bytes at ELF address hdr_addr) with the extents their FDEs in
 * .eh_frame (eh, eh_len at eh_addr) give: up to cap into out, at most one
 * per 8 bytes of hdr. Returns how many, 0 without a table, -AP_ERR_FORMAT
 * (malformed) or -AP_ERR_UNSUPPORTED (a table encoding other than the one
 * linkers write). FDEs whose fields do not read back are left out. */
struct report_extent {
	uint64_t start, size;
};
long report_fde_functions(const uint8_t *hdr, size_t hdr_len, uint64_t hdr_addr, const uint8_t *eh, size_t eh_len,
                          uint64_t eh_addr, struct report_extent *out, size_t cap);

/* debug_file.c: the separate debug file of the ELF file at path (build ID
 * under each of dirs, then .gnu_debuglink), its path in out; 1 if found.
 * A candidate that is there but cannot be used (report_elf_open refuses
 * it) is skipped, and why goes to warn (warn_cap bytes; left as is if none). */
int report_find_debug_file(Elf *elf, const char *path, unsigned machine, const char *const *dirs, size_t n_dirs,
                           char *out, size_t cap, char *warn, size_t warn_cap);

/* elf_open.c: open path as an ELF file the report may read: a regular file
 * (opened without blocking), a 64-bit ELF of machine (0: any) whose section
 * headers and sections lie inside the file. 0 with *fd_out and *elf_out
 * set; else -AP_ERR_IO (cannot open, or not a regular file) or
 * -AP_ERR_FORMAT (not such an ELF file), and why (cap bytes) says why,
 * without the path. */
int report_elf_open(const char *path, unsigned machine, int *fd_out, Elf **elf_out, char *why, size_t cap);

/* kallsyms.c: the kernel's functions (ap_report_load_kallsyms). */
struct report_kernel_symbol {
	struct report_symbol sym; /* start, size (to the next function), name, bind */
	const char *binary;       /* "[kernel.kallsyms]", or the module's "[name]" */
	int is_function;          /* 0: a data symbol, which only ends the function before it */
};
struct report_kernel {
	struct report_kernel_symbol *v; /* sorted by start, one per address (functions and data) */
	size_t n;
	char *text; /* the file, its names and modules NUL-terminated in place */
};
/* Parse text (len bytes, text[len] == 0, malloc'd: k owns it from the
 * call on) into k. Returns 0, -AP_ERR_FORMAT (err names file and the line)
 * or -AP_ERR_NOMEM; k is empty on error. */
int report_kallsyms_parse(struct report_kernel *k, const char *file, char *text, size_t len, char *err,
                          size_t err_len);
const struct report_kernel_symbol *report_kernel_symbol(const struct report_kernel *k, uint64_t pc);
/* The function covering pc, or NULL; *binary its module, or the kernel's
 * "[kernel.kallsyms]" (also when no function covers pc). */
const struct report_symbol *report_kernel_find(const struct report_kernel *k, uint64_t pc, const char **binary);
void report_kernel_fini(struct report_kernel *k);
/* A PC of the kernel's half of the address space (TTBR1: bit 55, which the
 * decoder copied into [63:56]); only these are looked up in its symbols. */
static inline int report_is_kernel_pc(uint64_t pc)
{
	return (pc >> 55) == 0x1FF;
}

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
/* The thread of rec: the Context packet prefer names when the record has
 * it, else the other one (ap_report_set_context). *from_el2 (may be NULL):
 * 1 when the value came from CONTEXTIDR_EL2. */
static inline uint64_t report_thread(enum ap_report_context prefer, const struct ap_record *rec, int *from_el2)
{
	int el1 = (rec->has & AP_HAS_CTX_EL1) != 0, el2 = (rec->has & AP_HAS_CTX_EL2) != 0;
	int use_el2 = el2 && (!el1 || prefer != AP_REPORT_CONTEXT_EL1);
	if (from_el2)
		*from_el2 = use_el2;
	return use_el2 ? rec->ctx_el2 : el1 ? rec->ctx_el1 : AP_REPORT_NO_CONTEXT;
}

/* The Data Source value a record counts as (ap_report_set_data_source_
 * encoding): its Neoverse class, or the raw value for RAW; -1 without a
 * Data Source packet or for a value the encoding does not define. */
static inline int report_ds_value(enum ap_ds_encoding enc, const struct ap_record *rec)
{
	if (!(rec->has & AP_HAS_DATA_SOURCE))
		return -1;
	return enc == AP_DS_ENC_RAW ? (int)rec->data_source : ap_ds_common(enc, rec->data_source);
}

/* How the records are read (shared by the whole report). */
struct report_lines {
	enum ap_report_context prefer; /* ap_report_set_context */
	enum ap_ds_encoding ds_enc;    /* ap_report_set_data_source_encoding */
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

/* stacks.c: the records' call stacks (ap_report_add_stack). */
struct report_stack_acc {
	uint64_t hash;
	size_t off;  /* first frame in the pool */
	uint32_t n;  /* frames */
	uint64_t w[AP_REPORT_N_KEYS];
};
struct report_pc_weights {
	uint64_t pc;
	uint64_t w[AP_REPORT_N_KEYS];
};
/* Branch pairs (branches.c). */
struct report_branches {
	struct ap_report_branch *slots; /* count 0: empty */
	size_t cap, n;
	uint64_t dropped;
	struct ap_report_branch *sorted; /* ap_report_finish: by count */
	size_t n_sorted;
};
int report_branches_add(struct report_branches *t, const struct ap_record *rec);
int report_branches_finish(struct report_branches *t);
void report_branches_free(struct report_branches *t);

struct report_stacks {
	uint64_t *pool; /* every distinct stack's frames, one after the other */
	size_t n_pool, cap_pool;
	struct report_stack_acc *acc;
	size_t n, cap;
	uint32_t *index; /* open addressing, stack -> acc + 1 (0: empty), at most half full */
	size_t index_cap;
	/* The weights of the records with a PC given a stack of their own
	 * (ap_report_add_stack with frames), per PC: an open-addressing table
	 * (w[0], the samples, 0: empty). The others' one-frame stacks [PC] are
	 * not stored: the per-PC statistics hold them (their weights, less
	 * these). */
	struct report_pc_weights *given;
	size_t n_given, cap_given;
	/* ap_report_finish's views; rows made on the first ap_report_stacks */
	enum ap_report_key key;
	int have_rows;
	struct ap_report_stack *rows;
	struct ap_report_folded *folded;
	char *names; /* the folded strings */
	struct ap_report_inclusive *incl;
	size_t n_rows, n_folded, n_incl;
};
/* Attribute rec to the stack f[0..n) ([rec->pc] when n is 0). 0 or
 * -AP_ERR_NOMEM. */
int report_stacks_add(struct report_stacks *s, const struct ap_record *rec, const uint64_t *f, size_t n);
int report_stacks_finish(const struct ap_report *r, struct report_stacks *s);
/* The stacks' rows (ap_report_stacks), once. 0 or -AP_ERR_NOMEM. */
int report_stacks_rows(const struct ap_report *r, struct report_stacks *s);
void report_stacks_sort(struct report_stacks *s, enum ap_report_key key);
void report_stacks_free(struct report_stacks *s);

struct ap_report {
	/* Per distinct PC, its statistics, compact (pcs.c); ap_report_finish
	 * gives each its function (fns) and ranks them (order: entries of
	 * pcs, most first); rows are made whole only when asked for
	 * (ap_report_instruction). */
	struct report_pcs pcs;
	uint32_t *order;
	size_t n_order;
	struct report_function *fns;
	size_t n_fns;
	struct ap_report_row *all_rows; /* ap_report_instructions: made on the first call */
	struct ap_report_stats totals;
	uint64_t records;
	uint64_t ctx_from[2]; /* records whose thread came from CONTEXTIDR_EL1, _EL2 */

	struct report_binary *bin;
	struct report_binary *libs; /* ap_report_load_library, a list in the order added */
	struct report_kernel kernel; /* ap_report_load_kallsyms (n 0: none) */

	struct ap_report_row *fn_rows;
	size_t n_fn_rows;
	/* Per thread (CONTEXTIDR_EL1), added as records come: a thread's
	 * records mostly come together, so the last one found is tried first;
	 * else an open-addressing index, context -> row + 1 (0: empty), at
	 * most half full, so that any number of threads costs O(1) each. */
	struct ap_report_row *thread_rows;
	size_t n_thread_rows, cap_thread_rows, last_thread;
	uint32_t *thread_index;
	size_t thread_index_cap;
	struct report_lines lines;
	struct report_stacks stacks;
	struct report_branches branches;
	/* Where separate debug files are looked for (ap_report_add_debug_dir),
	 * then /usr/lib/debug. */
	unsigned elf_machine; /* ap_report_set_elf_machine: EM_AARCH64, or 0 for any */
	char **debug_dirs;
	size_t n_debug_dirs;
	int finished;
};

/* Count rec, its Data Source as report_ds_value reads it in enc. */
void report_stats_add(struct ap_report_stats *s, const struct ap_record *rec, enum ap_ds_encoding enc);
/* What rec adds to ap_report_key_count of the statistics, per key. */
void report_record_weights(const struct ap_record *rec, uint64_t w[AP_REPORT_N_KEYS]);
/* functions.c: fns, the function rows and each PC's function. 0 or
 * -AP_ERR_NOMEM. */
int report_functions_build(struct ap_report *r);
/* report.c: count rec in the statistics (ap_report_add without the stack). */
int report_count(struct ap_report *r, const struct ap_record *rec);
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

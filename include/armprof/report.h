/* Profile reports from SPE records: per-instruction and per-function sample
 * counts with latency statistics, cache/TLB/branch event rates and data
 * sources, symbolized from the profiled ELF binary (elfutils libelf/libdw)
 * with optional disassembly (capstone).
 *
 * Use: ap_report_create(), ap_report_add() for every decoded record (the
 * decoder's on_record callback), or ap_report_add_stack() with its call
 * stack, optionally ap_report_load_binary(), then
 * ap_report_finish() and read the rows. The library formats nothing: the
 * CLI (`armprof report`) prints text, JSON or CSV. */
#ifndef ARMPROF_REPORT_H
#define ARMPROF_REPORT_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#include "armprof/data_source.h"
#include "armprof/error.h"
#include "armprof/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Total-latency histogram: values 0..31 exactly, then 16 bins per octave up
 * to the 12-bit counter's 4095 (saturated counts land in the last bin), so
 * a percentile is within 1/16 of the true value. */
#define AP_REPORT_HIST_EXACT 32
#define AP_REPORT_HIST_BINS (AP_REPORT_HIST_EXACT + 7 * 16)

/* Data Source values kept apart: values 0..15 of the Neoverse encoding
 * that every known CPU's values are mapped onto (armprof/data_source.h,
 * ap_report_set_data_source_encoding), or the raw values 0..15 for a CPU
 * of no known encoding; other values are counted in data_source_other. */
#define AP_REPORT_DS_VALUES 16

/* Everything the report counts for one instruction, one function, or all. */
struct ap_report_stats {
	uint64_t samples;
	uint64_t loads, stores, atomics, branches, others;
	uint64_t l1d_access, l1d_refill, llc_access, llc_miss, tlb_access, tlb_walk, remote;
	/* The same events counted only in samples that also have the rate's
	 * denominator event (E[2] for the L1D and LLC rates, E[4] for the TLB
	 * rate), so that a rate is a fraction even of a stream whose records
	 * break the events' implications (a refill without an access). */
	uint64_t l1d_refill_in_access, llc_miss_in_access, tlb_walk_in_access;
	uint64_t cond_branches, not_taken, mispredicted;
	uint64_t n_lat_total, lat_total_sum, n_lat_issue, lat_issue_sum, n_lat_xlat, lat_xlat_sum;
	uint64_t data_source[AP_REPORT_DS_VALUES], data_source_other, n_data_source;
	uint32_t hist[AP_REPORT_HIST_BINS];
};

/* Rates the reports show, each a fraction in [0, 1] (0 when the
 * denominator is 0):
 * l1d_miss    of the samples with an L1D access (spec/002 5.3.7 E[2]), the
 *             share that refilled L1D (E[3])
 * llc_miss    of the same samples, the share that missed the last-level
 *             cache (E[9]): the share of sampled memory operations that
 *             went beyond it
 * tlb_walk    of the samples with a TLB access (E[4]), the share that
 *             walked (E[5])
 * mispredict  of the sampled branches, the share mispredicted (E[7]) */
struct ap_report_rates {
	double lat_mean, lat_p50, lat_p90, lat_p99;
	double l1d_miss, llc_miss, tlb_walk, mispredict;
};
AP_API void ap_report_rates(const struct ap_report_stats *s, struct ap_report_rates *out);
/* q in [0,1]: the total latency below which a fraction q of the samples
 * with a total latency fall (bin midpoint), or 0 without samples. */
AP_API double ap_report_percentile(const struct ap_report_stats *s, double q);
/* Short name of a Neoverse Data Source value: "L1D", "L2", "PEER-CORE",
 * "LOCAL-CLUSTER", "SYS-CACHE", "PEER-CLUSTER", "REMOTE", "DRAM", or NULL. */
AP_API const char *ap_report_data_source_name(unsigned value);

struct ap_report_row {
	uint64_t addr;      /* instruction PC, or the function's start address */
	const char *name;   /* function name, or NULL when no symbol covers it */
	const char *binary; /* the file name of a library's function (ap_report_load_library), else NULL */
	uint64_t offset;    /* addr - function start (instruction rows) */
	struct ap_report_stats stats;
};

struct ap_report;

AP_API int ap_report_create(struct ap_report **out);
AP_API void ap_report_destroy(struct ap_report *r);
/* The Data Source encoding of the CPU that wrote the records (by its MIDR:
 * ap_ds_encoding_of_midr): the statistics count each value as the
 * Neoverse class it maps onto, named by ap_report_data_source_name; the
 * shared cache lines are those of loads another core's cache served. With
 * AP_DS_ENC_RAW the raw values are counted, unnamed, and no line is known
 * to be shared. Default AP_DS_ENC_NEOVERSE (armprof's model, Neoverse N1
 * like). Set before the first record. */
AP_API void ap_report_set_data_source_encoding(struct ap_report *r, enum ap_ds_encoding enc);
AP_API enum ap_ds_encoding ap_report_data_source_encoding(const struct ap_report *r);
/* The name the report shows for a counted Data Source value (index of
 * ap_report_stats.data_source): the Neoverse class, or NULL (RAW). */
AP_API const char *ap_report_source_label(const struct ap_report *r, unsigned value);
/* Count one record. Records without a PC count only in the totals. Never
 * fails once created except -AP_ERR_NOMEM (when the PC table must grow). */
AP_API int ap_report_add(struct ap_report *r, const struct ap_record *rec);

/* Symbols (and DWARF line information, when present) of the ELF file at
 * path, loaded at load_bias (runtime address = ELF address + bias). A
 * stripped file's symbols and lines come from its separate debug file when
 * one is found (by build ID, then .gnu_debuglink: the debug directories of
 * ap_report_add_debug_dir, then /usr/lib/debug); without one, from its
 * dynamic symbols, and the functions no symbol names are still told apart:
 * each function with unwind information (an FDE) is named sub_<ELF
 * address>, each PLT stub <symbol>@plt.
 * Only an AArch64 file is taken: a regular file (a FIFO or device is
 * refused, never waited on), a 64-bit ELF file of EM_AARCH64 whose section
 * header table and sections lie inside it.
 * Returns 0, -AP_ERR_IO (cannot open, or not a regular file),
 * -AP_ERR_FORMAT (not a 64-bit ELF file, another machine's, or cut short /
 * broken section headers) or -AP_ERR_NOMEM; err (may be NULL) gets a
 * message naming path and why. On success err->message is empty, or holds
 * a warning naming a debug file that was found but refused (and why): the
 * caller prints it. */
AP_API int ap_report_load_binary(struct ap_report *r, const char *path, uint64_t load_bias,
                                 struct ap_error_ctx *err);
/* The name of the function symbol covering the runtime address pc in the
 * binary or a library loaded so far (as the report's rows name it), or NULL;
 * *binary (may be NULL) gets the library's file name, NULL for the binary.
 * With the binary alone (no library added) it only reads: several threads
 * may call it once the binary is loaded (with libraries, libelf loads
 * sections lazily). For per-record symbols outside a report (`armprof
 * decode --binary`). */
AP_API const char *ap_report_symbol_name(const struct ap_report *r, uint64_t pc,
                                         const char **binary);
/* Symbols of another ELF file the program ran code of (its dynamic loader,
 * a shared library), loaded at load_bias: PCs no symbol of the binary
 * covers are looked up in the libraries, in the order added, and their
 * rows name the file (ap_report_row.binary). Same returns as
 * ap_report_load_binary. */
AP_API int ap_report_load_library(struct ap_report *r, const char *path, uint64_t load_bias,
                                  struct ap_error_ctx *err);
/* The same, the rows naming the library name (a file name) rather than
 * path's own: for a copy found elsewhere (a build-ID cache's ".../elf"). */
AP_API int ap_report_load_library_named(struct ap_report *r, const char *path, const char *name,
                                        uint64_t load_bias, struct ap_error_ctx *err);
/* The kernel's functions, from path, a /proc/kallsyms text (perf report
 * --kallsyms): lines "ADDRESS TYPE NAME [MODULE]" (address in hex), of
 * which the text symbols (types t, T, w, W) with an address other than 0
 * are the functions (kptr_restrict shows 0 to a reader without the right
 * to see them); several at one address: the last in the file, the one
 * perf keeps. Each function reaches to the next symbol's address (a
 * function's, or a data symbol's of type d, D, b or B, which perf reads
 * too); the last of the kernel or of a module, to the end of the page
 * after its start's page. PCs of the kernel's half of the
 * address space (bits [63:55] set: Linux's kernel and modules on arm64)
 * are then looked up there, and their rows name the binary
 * "[kernel.kallsyms]" or the module ("[arm_spe_pmu]"), as perf does; a
 * kernel PC no function covers has a NULL name and "[kernel.kallsyms]".
 * A second call replaces the first. Call before ap_report_finish.
 * Returns 0; -AP_ERR_IO (cannot open or read); -AP_ERR_FORMAT (a line that
 * is not "ADDRESS TYPE NAME [MODULE]", named with its number; no function;
 * every function's address 0; larger than 256 MiB); -AP_ERR_NOMEM.
 * err (may be NULL) gets a message naming path (and the line). */
AP_API int ap_report_load_kallsyms(struct ap_report *r, const char *path, struct ap_error_ctx *err);
/* A directory to look for separate debug files in, laid out as
 * /usr/lib/debug is (.build-id/xx/yyyy.debug, or the file's own directory
 * below it). Directories are searched in the order added, then
 * /usr/lib/debug; a binary loaded later sees them. Returns 0 or
 * -AP_ERR_NOMEM. */
AP_API int ap_report_add_debug_dir(struct ap_report *r, const char *dir);
/* The ELF machine (e_machine) every file loaded later must be: the binary,
 * the libraries, the debug files. By default EM_AARCH64 (183), what SPE
 * profiles; 0 takes any machine (a host program reading its own code, as
 * armprof's unit tests do). */
AP_API void ap_report_set_elf_machine(struct ap_report *r, unsigned e_machine);

/* Sort and aggregate: instruction rows by samples (then PC), function rows
 * by samples (then name). Call after the last ap_report_add. */
AP_API int ap_report_finish(struct ap_report *r);

/* What the rows can be ranked by. SPE samples operations, not time, so the
 * samples say where the operations are; the summed total latency of the
 * samples (spec/002 5.3.4, the Counter packet's total latency: cycles from
 * dispatch to completion) says where the cycles go, overlap aside; the
 * event counts say where the misses go. */
enum ap_report_key {
	AP_REPORT_BY_SAMPLES,
	AP_REPORT_BY_LATENCY,     /* lat_total_sum */
	AP_REPORT_BY_L1D_MISSES,  /* l1d_refill */
	AP_REPORT_BY_LLC_MISSES,  /* llc_miss */
	AP_REPORT_BY_TLB_WALKS,   /* tlb_walk */
	AP_REPORT_BY_MISPREDICTS, /* mispredicted */
};
/* How many keys there are: the size of the weight arrays below, indexed
 * by enum ap_report_key. */
#define AP_REPORT_N_KEYS 6
/* The count key ranks by. */
AP_API uint64_t ap_report_key_count(const struct ap_report_stats *s, enum ap_report_key key);
/* Rank the instruction and function rows (after ap_report_finish) by key,
 * most first; ties by samples, then name, then address. */
AP_API void ap_report_sort(struct ap_report *r, enum ap_report_key key);
AP_API const struct ap_report_stats *ap_report_totals(const struct ap_report *r);
AP_API uint64_t ap_report_records(const struct ap_report *r);
/* The instruction rows, one per distinct PC, ranked. The report keeps a
 * PC's statistics compact (tens of bytes); a row is made whole when asked
 * for: ap_report_instruction fills row (its name and binary strings the
 * report's) with the one ranked i (0: first), for 0 <= i <
 * ap_report_instruction_count; 0, or -AP_ERR_INVALID (i out of range, or
 * before ap_report_finish). */
AP_API size_t ap_report_instruction_count(const struct ap_report *r);
AP_API int ap_report_instruction(const struct ap_report *r, size_t i, struct ap_report_row *row);
/* Every instruction row at once, made whole on the first call (about 1 KiB
 * a row: for a report of many PCs, ap_report_instruction one at a time);
 * valid until the next ap_report_add*, ap_report_finish, ap_report_sort
 * or ap_report_destroy. Returns how many (0 without memory for them). */
AP_API size_t ap_report_instructions(const struct ap_report *r, const struct ap_report_row **rows);
AP_API size_t ap_report_functions(const struct ap_report *r, const struct ap_report_row **rows);
/* One row per thread, by the records' Context packet (spec/002 5.3.3):
 * Linux with CONFIG_PID_IN_CONTEXTIDR writes the thread id to
 * CONTEXTIDR_EL1 when its kernel runs at EL1 (and armprof record does),
 * and to CONTEXTIDR_EL2 when it runs at EL2 (VHE: Neoverse and Ampere
 * servers, bare-metal clouds), whose records then carry the Context packet
 * of INDEX 1 only. addr is the value, AP_REPORT_NO_CONTEXT for the records
 * without a Context packet; name NULL. Ranked like the other tables. */
#define AP_REPORT_NO_CONTEXT UINT64_MAX
AP_API size_t ap_report_threads(const struct ap_report *r, const struct ap_report_row **rows);
/* Which Context packet gives a record's thread when it has both (a record
 * with one takes that one). AUTO, the default, prefers CONTEXTIDR_EL2 as
 * perf does: Linux sets PMSCR_EL2.CX only when its kernel runs at EL2,
 * where CONTEXTIDR_EL1 then holds a guest's value. Set before the first
 * record: the threads table, the shared lines' threads and processes and
 * ap_report_thread_of all use it. */
enum ap_report_context {
	AP_REPORT_CONTEXT_AUTO = 0,
	AP_REPORT_CONTEXT_EL1,
	AP_REPORT_CONTEXT_EL2,
};
AP_API void ap_report_set_context(struct ap_report *r, enum ap_report_context prefer);
/* The thread of rec, as the report takes it, or AP_REPORT_NO_CONTEXT. */
AP_API uint64_t ap_report_thread_of(const struct ap_report *r, const struct ap_record *rec);
/* How many records (ap_report_add) took their thread from CONTEXTIDR_EL1
 * (Context INDEX 0) and from CONTEXTIDR_EL2 (INDEX 1); either may be NULL. */
AP_API void ap_report_context_counts(const struct ap_report *r, uint64_t *from_el1, uint64_t *from_el2);

/* Shared cache lines, as `perf c2c` shows them: the data lines of
 * AP_REPORT_LINE_BYTES where some sampled load's data came from another
 * core's cache (Data Source class PEER-CORE, LOCAL-CLUSTER, PEER-CLUSTER
 * or REMOTE of the records' encoding, spec/002 5.3.5), each
 * with the statistics of every sample whose data address lies in it, the
 * threads and the functions those samples came from. Which lines these
 * are is known only after the last record, so they take a second pass
 * over the same records: ap_report_add notes the lines; when
 * ap_report_has_shared_lines() says there are some, give every record
 * again to ap_report_add_line_sample(), then call ap_report_finish. */
#define AP_REPORT_LINE_BYTES 64
#define AP_REPORT_LINE_FUNCTIONS 4   /* functions listed per line */
#define AP_REPORT_LINE_PCS 64        /* PCs told apart per line (the rest: other_pcs) */
#define AP_REPORT_MAX_SHARED_LINES 4096
#define AP_REPORT_LINE_WORDS (AP_REPORT_LINE_BYTES / 8) /* 8-byte words per line */
/* How a line's threads share it, from the words their samples touched:
 * FALSE: two threads or more, each word touched by one thread only (the
 * threads share the line, not the data: padding or moving the data apart
 * removes the traffic); TRUE: some word touched by two threads or more;
 * ONE_THREAD: a single thread (its line was written by a thread whose
 * samples missed it, or by another process). */
enum ap_report_sharing { AP_REPORT_SHARING_ONE_THREAD, AP_REPORT_SHARING_FALSE, AP_REPORT_SHARING_TRUE };
struct ap_report_line_word {
	uint64_t samples;  /* samples whose data address lies in the word */
	uint32_t threads;  /* distinct threads among them: 0, 1, or 2 for two or more */
};
struct ap_report_line_function {
	const char *name;   /* NULL: no symbol */
	const char *binary; /* a library's file name, else NULL */
	uint64_t samples;
};
#define AP_REPORT_NO_PROCESS UINT64_MAX
struct ap_report_line {
	uint64_t pid;        /* its process (ap_report_set_thread_process), else AP_REPORT_NO_PROCESS */
	uint64_t addr;       /* the line's first byte (virtual, in that process) */
	uint64_t peer_loads; /* its sampled loads that another core's cache served */
	uint32_t threads;    /* distinct threads (ap_report_thread_of) among its samples */
	struct ap_report_stats stats; /* every sample with a data address in the line */
	size_t n_functions;  /* most samples first */
	struct ap_report_line_function function[AP_REPORT_LINE_FUNCTIONS];
	struct ap_report_line_word word[AP_REPORT_LINE_WORDS]; /* by offset / 8 */
	enum ap_report_sharing sharing;
};
/* "false", "true" or "one thread". */
AP_API const char *ap_report_sharing_name(enum ap_report_sharing s);
AP_API int ap_report_has_shared_lines(const struct ap_report *r);
/* Thread tid (a Context value, ap_report_thread_of) belongs to process pid: one virtual
 * address in two processes is two lines (a forked child's copy of a
 * variable is not its parent's). Give every mapping before the first
 * record; threads not given are of no known process (all one). 0, or
 * -AP_ERR_NOMEM. */
AP_API int ap_report_set_thread_process(struct ap_report *r, uint64_t tid, uint64_t pid);
/* Second pass: count rec if its data address lies in a shared line.
 * 0 or -AP_ERR_NOMEM. */
AP_API int ap_report_add_line_sample(struct ap_report *r, const struct ap_record *rec);
/* The lines, most loads from another core first (none without the second
 * pass). *dropped (may be NULL): such loads on lines past
 * AP_REPORT_MAX_SHARED_LINES, not shown. */
AP_API size_t ap_report_shared_lines(const struct ap_report *r, const struct ap_report_line **lines, uint64_t *dropped);

/* Call stacks. Every record counted is also attributed to its call stack:
 * the one ap_report_add_stack gives, or the one-frame stack [PC] of a
 * record ap_report_add counts. Distinct stacks are stored once (their
 * frames interned in one pool, found by a hash), each with its weight for
 * every key: the record's contribution to ap_report_key_count of the
 * statistics (1 sample; its total latency; 1 for each of L1D refill, LLC
 * miss, TLB walk, mispredicted branch when its events say so, exactly as
 * the function table counts them). */

/* Count rec exactly as ap_report_add does and attribute it to the call
 * stack frames[0..n_frames): frames[0] the sampled instruction's PC,
 * frames[1..] the return addresses outward (innermost first, as perf's
 * callchains without their context markers). n_frames 0 (frames may then
 * be NULL) is the stack [rec->pc]; a record with neither PC nor frames
 * counts in no stack. frames is copied: the caller may reuse it. Stacks
 * longer than AP_REPORT_MAX_FRAMES keep their innermost frames.
 * Returns 0 or -AP_ERR_NOMEM (the record may then be counted in the
 * statistics but not in a stack). */
#define AP_REPORT_MAX_FRAMES 1024
AP_API int ap_report_add_stack(struct ap_report *r, const struct ap_record *rec, const uint64_t *frames,
                               size_t n_frames);

/* A distinct call stack (addresses as given). */
struct ap_report_stack {
	const uint64_t *frames; /* n_frames addresses, innermost first */
	size_t n_frames;
	uint64_t weight[AP_REPORT_N_KEYS]; /* by enum ap_report_key */
};
/* The distinct stacks, after ap_report_finish, ranked by the key of the
 * last ap_report_sort (most first; ties by samples, then frames). *stacks
 * and the frames stay valid until the next ap_report_add*,
 * ap_report_finish or ap_report_destroy. Returns how many. */
AP_API size_t ap_report_stacks(const struct ap_report *r, const struct ap_report_stack **stacks);

/* A folded stack: the distinct stacks that name the same functions in the
 * same order, merged. stack is "root;caller;callee", the functions
 * outermost first, each frame kept (recursion repeats the name), a frame no
 * symbol covers "[unknown]"; the return addresses (frames[1..]) are looked
 * up at address - 1, inside the call instruction, so that a call ending
 * its function names the caller. A name's ';' and control characters are
 * written '_' so that the line reads back (FlameGraph, speedscope). */
struct ap_report_folded {
	const char *stack;
	uint64_t weight[AP_REPORT_N_KEYS]; /* by enum ap_report_key */
};
/* The folded stacks, after ap_report_finish, ranked by the key of the
 * last ap_report_sort (most first; ties by samples, then stack).
 * Valid, with their strings, until the next ap_report_add*,
 * ap_report_finish or ap_report_destroy. Returns how many. */
AP_API size_t ap_report_folded_stacks(const struct ap_report *r, const struct ap_report_folded **rows);

/* A function's inclusive weights (perf report --children): self, of the
 * stacks whose innermost frame is in it (the function table's numbers
 * for the keys); children, of the stacks with a frame in it anywhere, each
 * stack counted once however often the function recurs in it. Functions
 * are told apart as the function table does (symbol and binary; the
 * frames no symbol covers are one row, name NULL, per binary). */
struct ap_report_inclusive {
	uint64_t addr;      /* the function's start address (0: no symbol) */
	const char *name;   /* NULL when no symbol covers it */
	const char *binary; /* a library's file name, else NULL */
	uint64_t self[AP_REPORT_N_KEYS], children[AP_REPORT_N_KEYS];
};
/* The functions with their inclusive weights, after ap_report_finish,
 * ranked by children[key] of the last ap_report_sort's key (then self,
 * then name, then address). Valid until the next ap_report_add*,
 * ap_report_finish or ap_report_destroy. Returns how many. */
AP_API size_t ap_report_inclusive(const struct ap_report *r, const struct ap_report_inclusive **rows);

/* The instruction at pc as text ("ldr x0, [x0]"), from the loaded binary,
 * with capstone; 0 or -AP_ERR_UNSUPPORTED (no binary, not in it). */
AP_API int ap_report_disassemble(const struct ap_report *r, uint64_t pc, char *buf, size_t cap);

/* The statistics of the samples at pc, or NULL when none is there. Made
 * whole from the compact per-PC state: valid until the next call on the
 * same thread. */
AP_API const struct ap_report_stats *ap_report_pc_stats(const struct ap_report *r, uint64_t pc);
/* Where the function called name is, in runtime addresses: [*start,
 * *start + *size), in the binary, a loaded library or the kernel
 * (ap_report_load_kallsyms) (*binary: the library's file name,
 * "[kernel.kallsyms]" or the module's "[name]", NULL for the binary).
 * Several symbols may have the name (static functions of different
 * files, a library's copy): the one with the most samples, the first of
 * them in the binary, then the libraries in load order, then the kernel,
 * on a tie. Without a symbol of that exact name,
 * the compiler's copies of the function count (name.constprop.0,
 * name.isra.0, name.part.0, ...). *found: the symbol's name. Returns 0, or
 * -AP_ERR_INVALID when no function symbol with a size has the name. */
AP_API int ap_report_find_function(const struct ap_report *r, const char *name, uint64_t *start, uint64_t *size,
                                   const char **binary, const char **found);
/* "file.c:42" for pc from DWARF line information; 0 or -AP_ERR_UNSUPPORTED. */
AP_API int ap_report_source_line(const struct ap_report *r, uint64_t pc, char *buf, size_t cap);

/* Branch pairs (FEAT_SPE_PBT, docs/requirements-later.md LATER-OUT-1): the
 * sampled branches whose record has a previous branch target (decoded with
 * ap_decoder_config.spe_later), one row per (branch PC, target, previous
 * branch target), most samples first; valid after ap_report_finish().
 * *dropped (may be NULL) counts the samples of pairs beyond the report's
 * bound. */
struct ap_report_branch {
	uint64_t pc, target;  /* the sampled branch and where it went */
	uint64_t prev_target; /* the target of the taken branch before it */
	uint64_t count;       /* samples */
};
AP_API size_t ap_report_branch_pairs(const struct ap_report *r, const struct ap_report_branch **rows,
                                     uint64_t *dropped);

#ifdef __cplusplus
}
#endif
#endif

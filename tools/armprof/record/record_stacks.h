/* Call stacks of `armprof record` (issue 20): the plugin writes the stack
 * of each sampled operation (plugins/qemu/call_stack.h cs_write_samples:
 * after the magic, 64-bit words tid, time, n, PC, return addresses); armprof record gives each SPE record the stack
 * of its operation, found by thread (the record's Context) and timestamp
 * (the thread's operation number), and writes it into perf.data as the
 * PERF_RECORD_SAMPLE perf would synthesise from the record, with its call
 * chain (docs/record-and-report.md "Call stacks"). */
#ifndef ARMPROF_TOOL_RECORD_STACKS_H
#define ARMPROF_TOOL_RECORD_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/perfdata.h"
#include "armprof/record.h"

struct record_stack {
	int64_t tid;
	uint64_t time;
	size_t frames; /* offset in record_stacks.frames: pc, then return addresses */
	uint32_t n;
};

struct record_stacks {
	struct record_stack *s;
	size_t n;
	const uint64_t *frames; /* the file's words after its magic */
	size_t n_frames;        /* words there */
	char *path;             /* the file's (a copy), for record_stacks_check */
	struct ap_mapped_file map; /* the file mapped (guarded), or */
	uint64_t *copy;            /* read, when it could not be mapped */
};

#define RECORD_STACKS_MAGIC "APSTACK1" /* = the plugin's CS_STACKS_MAGIC */

/* Load the stacks of the plugin's file at path into st, zeroed (a missing file: none, a child that wrote none). A
 * regular file is mapped, not copied (its stacks are hundreds of megabytes
 * for a long run), guarded as ap_mapped_file_open guards (a file that
 * shrinks reads as zeros: record_stacks_check says so), and stays mapped
 * until record_stacks_free. Returns 0, or -1 with err set (unreadable, not
 * such a file, a stack cut short or too deep: named by its offset, out of
 * memory). */
int record_stacks_load(struct record_stacks *st, const char *path, char *err, size_t errlen);
/* After the stacks were read: 0, or -1 with err set when the mapped file
 * shrank meanwhile (what was read past its new end was zeros). */
int record_stacks_check(const struct record_stacks *st, char *err, size_t errlen);
/* Sort by thread and time (after the last load). */
void record_stacks_sort(struct record_stacks *st);
/* The stack of thread tid's operation at time, or NULL. *next: the
 * caller's cursor, 0 at first, the index after the last stack found
 * (tried first: a thread's records come in time order). */
const struct record_stack *record_stacks_find(const struct record_stacks *st, int64_t tid, uint64_t time,
                                              size_t *next);
void record_stacks_free(struct record_stacks *st);

/* The sample event armprof record writes beside the SPE attr. */
extern const struct ap_perf_write_event record_stack_event;

/* perf's union perf_mem_data_src of an SPE record, as Debian's perf 6.1
 * synthesises it for a Neoverse CPU (tools/perf/util/arm-spe.c
 * arm_spe__synth_data_source): the operation (load, store), for a load the
 * level, snoop and remote its Data Source names (a store: not available),
 * the TLB (walk: miss). 0 for an operation that is not a load or store. */
uint64_t record_perf_data_src(const struct ap_record *rec);

/* Decode one thread's SPE bytes and write a sample per record (event 0 of
 * the writer's events): ip, pid/tid (the record's Context, else tid),
 * time, data address, cpu, weight = total latency, data source, physical
 * address, and the call chain of its stack: the PC, then each frame's
 * call instruction (its return address - 4: perf looks addresses up as
 * they are, and a return address after a call that ends its function lies
 * in the next function); the PC alone when the plugin kept none. *n_with_stack counts the samples that had one. Returns 0 or
 * a negative enum ap_error of the writer. */
int record_write_stack_samples(struct ap_perf_writer *w, const uint8_t *spe, size_t len, int32_t pid,
                               int32_t tid, int32_t cpu, const struct record_stacks *st,
                               uint64_t *n_samples, uint64_t *n_with_stack);

#endif

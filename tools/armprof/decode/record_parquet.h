/* `armprof decode --format parquet`: records as rows of a Parquet table
 * (include/armprof/parquet.h), the schema in docs/parquet-schema.md:
 * armprof's own (the fields of docs/jsonl-schema.md), typed columns, the
 * absent fields null. One table is one file; `--split` writes three, one
 * per operation class, all with the same columns. `--format spe-parser`
 * tables (decode_spe_parser.h) go through the same type. */
#ifndef ARMPROF_TOOL_RECORD_PARQUET_H
#define ARMPROF_TOOL_RECORD_PARQUET_H

#include <stdint.h>

#include "armprof/data_source.h"
#include "armprof/decode.h"
#include "cli_output.h"

struct ap_report;

/* Where a record came from: a perf.data AUX buffer's cpu and tid (-1 when
 * perf did not record one), or nothing for a raw stream. */
struct record_origin {
	int has;
	int32_t cpu, tid;
};

/* The table a record goes to with --split: its operation class. */
enum record_class { CLASS_LDST, CLASS_BRANCH, CLASS_OTHER, CLASS_COUNT };
enum record_class record_class_of(const struct ap_record *rec);
/* "ldst", "br", "other": the class column's value and the file's stem. */
const char *record_class_name(enum record_class c);

struct record_parquet;
/* A table written to out (opened by the caller, closed by the caller after
 * record_parquet_finish); out NULL: a table whose row groups stay in memory
 * for record_parquet_append (a decode thread's). symbols (may be NULL) names the function of each
 * PC in the symbol column. Returns NULL after printing the reason. */
struct record_parquet *record_parquet_new(struct cli_output *out, const struct ap_report *symbols);
/* A table of spe-parser's file of class c (decode_spe_parser.h): put
 * writes the row spe-parser writes, or none for a record it drops. */
struct record_parquet *record_parquet_new_spe_parser(struct cli_output *out, enum record_class c);
/* One row. Returns 0, or -1 (then the table is abandoned: the caller
 * closes its output with ok = 0; the reason is printed at finish). */
int record_parquet_put(struct record_parquet *t, const struct ap_record *rec,
                       const struct record_origin *origin);
uint64_t record_parquet_rows(const struct record_parquet *t);
/* End the row group here (decode ends one at each AUX buffer, so that the
 * threads of -j N make the file -j 1 makes). 0 or -1 (reason at finish). */
int record_parquet_end_group(struct record_parquet *t);
/* The row groups of the in-memory table from, appended to t, from emptied.
 * 0 or -1 (reason at finish). */
int record_parquet_append(struct record_parquet *t, struct record_parquet *from);
/* The Data Source encoding that names data_source values (default RAW: none). */
void record_parquet_set_encoding(struct record_parquet *t, enum ap_ds_encoding enc);
/* Write the footer: 0, or -1 after printing the reason (a write error's
 * reason is printed by cli_output_close). */
int record_parquet_finish(struct record_parquet *t);
void record_parquet_free(struct record_parquet *t);

#endif

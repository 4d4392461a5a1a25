/* Where `armprof decode` puts its records: a text format (text, jsonl,
 * csv; record_format.h) or the packet listing on a stream (standard output
 * or -o FILE), or Parquet (record_parquet.h) in one file (-o FILE) or, with
 * --split, a directory of one file per operation class (ldst.parquet,
 * br.parquet, other.parquet). Every file is written through cli_output.h:
 * to a temporary file renamed into place only when complete, removed on an
 * error or a signal. */
#ifndef ARMPROF_TOOL_DECODE_SINK_H
#define ARMPROF_TOOL_DECODE_SINK_H

#include <stdio.h>

#include "armprof/data_source.h"
#include "armprof/decode.h"
#include "record_format.h"
#include "record_parquet.h"

struct ap_report;

/* Parquet: every table's row group ends after this many records of a
 * stream or AUX buffer (and at a buffer's end), so that -j's jobs, cut at
 * the same records, write the bytes -j 1 writes while holding at most this
 * many records' rows each. */
#define DECODE_GROUP_RECORDS 65536u

struct decode_sink_opts {
	enum record_format fmt; /* for text formats */
	int parquet;            /* --format parquet */
	int split;              /* --split: out_path is a directory */
	int spe_parser;         /* --format spe-parser: out_path is the prefix of
	                           spe-parser's three files (decode_spe_parser.h) */
	int packets;            /* --packets listing (text) */
	const char *out_path;   /* -o, NULL: standard output */
	const struct ap_report *symbols; /* --binary, or NULL */
	enum ap_ds_encoding encoding;    /* names Data Source values (--cpu-model) */
};

struct decode_sink;

/* "text", "jsonl", "csv", "parquet" or "spe-parser": 0, or -1 for an unknown name. */
int decode_sink_parse_format(const char *name, struct decode_sink_opts *o);
/* Open the outputs (creating the --split directory). NULL after printing
 * the reason. */
struct decode_sink *decode_sink_open(const struct decode_sink_opts *o);
/* The Data Source encoding records are named by from now on (a perf.data's
 * CPUID, known once it is open), and the one in use. */
void decode_sink_set_encoding(struct decode_sink *s, enum ap_ds_encoding enc);
enum ap_ds_encoding decode_sink_encoding(const struct decode_sink *s);
/* A record, and where it came from (may be NULL). */
void decode_sink_put(struct decode_sink *s, const struct ap_record *rec,
                     const struct record_origin *origin);
/* Bytes already formatted in the sink's text format (parallel decode). */
void decode_sink_put_bytes(struct decode_sink *s, const void *data, size_t len);
/* Parquet: end the tables' row groups at the end of an AUX buffer (and
 * every DECODE_GROUP_RECORDS records, which decode_sink_put does). */
void decode_sink_end_buffer(struct decode_sink *s);
/* Parquet, -j: in-memory tables (record_parquet_new(NULL, ...)) like the
 * sink's, one per output (three with --split, in enum record_class order),
 * filled by a decode thread; 0, or -1 (the caller frees what was made). */
int decode_sink_new_tables(const struct decode_sink *s, struct record_parquet **tables);
int decode_sink_is_split(const struct decode_sink *s);
/* Their row groups appended to the outputs, the tables emptied. */
void decode_sink_put_tables(struct decode_sink *s, struct record_parquet **tables);
/* The text stream (the packet listing is written to it), NULL for Parquet. */
FILE *decode_sink_stream(struct decode_sink *s);
/* 1 if the sink takes formatted text (decode_sink_put_bytes). */
int decode_sink_is_text(const struct decode_sink *s);
/* Finish and put the outputs in place (ok != 0), or remove them (ok == 0).
 * Returns 0, or -1 after printing the reason (ok == 0 included). */
int decode_sink_close(struct decode_sink *s, int ok);

#endif

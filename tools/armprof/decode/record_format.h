/* Record and packet output formats of `armprof decode`:
 *   text   one line per record, for people
 *   jsonl  one JSON object per record (docs/jsonl-schema.md is the contract)
 *   csv    one row per record with a fixed header
 *   packets one line per packet: offset, raw bytes, description */
#ifndef ARMPROF_TOOL_RECORD_FORMAT_H
#define ARMPROF_TOOL_RECORD_FORMAT_H

#include <stdio.h>

#include "armprof/data_source.h"
#include "armprof/decode.h"

enum record_format { FMT_TEXT, FMT_JSONL, FMT_CSV };

int record_format_parse(const char *name, enum record_format *fmt);
/* Header line for formats that have one (csv), else nothing. */
void record_format_header(FILE *out, enum record_format fmt);
/* Write one record; enc: the Data Source encoding of the CPU that wrote
 * it (names its values). Returns the bytes written. */
size_t record_format_write(FILE *out, enum record_format fmt, const struct ap_record *rec,
                           enum ap_ds_encoding enc);
/* Many records to one FILE, formatted into a 64 KiB buffer written with one
 * fwrite when full (per-record fwrite cost 9% of `decode --format jsonl`). */
struct record_writer;
struct record_writer *record_writer_new(FILE *out, enum record_format fmt);
void record_writer_put(struct record_writer *w, const struct ap_record *rec);
/* The Data Source encoding records are named by (default AP_DS_ENC_RAW:
 * values only). */
void record_writer_set_encoding(struct record_writer *w, enum ap_ds_encoding enc);
void record_writer_flush(struct record_writer *w);
/* The errno of the first write that failed (the output is incomplete), or
 * 0 */
int record_writer_failed(const struct record_writer *w);
void record_writer_free(struct record_writer *w); /* flushes first */
/* A writer that hands each full block (and the rest at flush) to write
 * instead of a FILE: an output whose stream has no descriptor
 * (cli_output.h), or memory (parallel decode formats each AUX buffer on its
 * own thread). write returns 0, or nonzero with errno set. */
typedef int (*record_write_fn)(void *ctx, const void *buf, size_t len);
struct record_writer *record_writer_new_fn(record_write_fn write, void *ctx, enum record_format fmt);
/* A writer into memory: each record is formatted straight into a text
 * that grows as needed (a parallel decode job's; no copy of it is made).
 * record_writer_text: the text since record_writer_clear (or the start),
 * its length in *len, valid until the next put or clear; a memory failure
 * sets record_writer_failed. */
struct record_writer *record_writer_new_mem(enum record_format fmt);
const char *record_writer_text(struct record_writer *w, size_t *len);
void record_writer_clear(struct record_writer *w);
/* Write one packet line of the --packets listing. */
void packet_format_write(FILE *out, uint64_t offset, const uint8_t *bytes,
                         const struct ap_packet *pkt, int in_record);

#endif

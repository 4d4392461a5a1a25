/* `armprof decode --format spe-parser -o PREFIX`: the three Parquet files
 * Arm's spe-parser writes (github.com/ARM-software/telemetry-solution,
 * tools/spe_parser), PREFIX-ldst.parquet, PREFIX-br.parquet and
 * PREFIX-other.parquet, each with spe-parser's own columns in its order
 * (spe_parser/schema.py: LDST_COLS, BRANCH_COLS, OTHER_COLS), its types
 * (int64, bool, string: a pandas DataFrame of Python int, bool and str),
 * its defaults for an absent field (0, false, "") and its value spellings
 * (spe_parser/payload.py, spe_decoder.py: hexadecimal address strings,
 * upper-case event names joined by ':', Neoverse N1 data source names).
 * docs/parquet-schema.md says where armprof writes what spe-parser cannot
 * (unnamed data sources, records it would stop on). */
#ifndef ARMPROF_TOOL_DECODE_SPE_PARSER_H
#define ARMPROF_TOOL_DECODE_SPE_PARSER_H

#include <stddef.h>

#include "armprof/decode.h"
#include "armprof/parquet.h"
#include "record_parquet.h"

/* The columns of class c's file, in spe-parser's order. */
const struct ap_parquet_column *spe_parser_columns(enum record_class c, size_t *n);
/* 1 if spe-parser writes a row for rec (it has an Operation Type packet of
 * the load/store, branch or other class, and ended with an End or
 * Timestamp packet), 0 if spe-parser drops it. Its file: record_class_of. */
int spe_parser_keeps(const struct ap_record *rec);
/* Set rec's row in w (a writer of spe_parser_columns(c)) and end it. cpu:
 * the AUX buffer's CPU, 0 for a raw stream (spe-parser's -r). 0 or a
 * negative enum ap_error. */
int spe_parser_put(struct ap_parquet_writer *w, enum record_class c, const struct ap_record *rec,
                   int64_t cpu);

#endif

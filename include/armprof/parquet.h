/* A small Apache Parquet writer (layer armprof-export): flat schemas of
 * BOOLEAN, INT32, INT64 (signed or unsigned) and UTF-8 string columns, each REQUIRED or OPTIONAL,
 * written row by row into row groups of bounded size, so memory stays flat
 * whatever the number of rows.
 *
 * The format (github.com/apache/parquet-format, parquet.thrift):
 *   "PAR1", then per row group and column a column chunk: for a string
 *   column a dictionary page (PLAIN), then one data page (v1) of definition
 *   levels (RLE/bit-packed hybrid, width 1, for OPTIONAL columns) and values
 *   (PLAIN for numbers and booleans, RLE_DICTIONARY for strings), each page
 *   compressed with zstd; then the footer (FileMetaData, Thrift compact
 *   protocol), its length (4 bytes LE) and "PAR1".
 *
 * Usage: ap_parquet_writer_create with the columns and a write callback;
 * per row, ap_parquet_set_* for the columns that have a value (the others
 * are null; a REQUIRED column left unset is an error) and
 * ap_parquet_end_row; ap_parquet_writer_finish writes the last row group and
 * the footer; ap_parquet_writer_destroy frees. Setting values and ending
 * rows allocates nothing except when a string dictionary grows. */
#ifndef ARMPROF_PARQUET_H
#define ARMPROF_PARQUET_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Column types: the Parquet physical type (and logical type) written. */
enum ap_parquet_type {
	AP_PARQUET_BOOLEAN = 0, /* BOOLEAN */
	AP_PARQUET_INT32 = 1,   /* INT32 */
	AP_PARQUET_INT64 = 2,   /* INT64 */
	AP_PARQUET_STRING = 3,  /* BYTE_ARRAY, converted type UTF8, dictionary-encoded */
	AP_PARQUET_UINT64 = 4,  /* INT64, converted type UINT_64 (addresses) */
};

struct ap_parquet_column {
	const char *name;  /* copied by create */
	uint8_t type;      /* enum ap_parquet_type */
	uint8_t optional;  /* 1: OPTIONAL (may be null), 0: REQUIRED */
	/* A STRING column of a known set of values (an enumeration): the
	 * values, set by index with ap_parquet_set_enum, which hashes nothing.
	 * Every row group's dictionary lists them all. NULL: any string. The
	 * array and strings must outlive the writer. */
	const char *const *values;
	uint32_t n_values;
};

/* Writes len bytes of the file; returns 0, or nonzero to stop the writer
 * (every later call then fails with -AP_ERR_IO). */
typedef int (*ap_parquet_write_fn)(void *ctx, const void *buf, size_t len);

struct ap_parquet_writer_config {
	size_t size; /* sizeof(struct ap_parquet_writer_config) */
	const struct ap_parquet_column *columns;
	size_t n_columns;       /* 1 .. 4096 */
	uint32_t row_group_rows; /* rows per row group (default 65536) */
	int zstd_level;          /* default 3; 0 writes the pages uncompressed */
	ap_parquet_write_fn write; /* NULL: row groups kept in memory, for
	                              ap_parquet_writer_append */
	void *ctx;
	const char *created_by;  /* the footer's created_by (default "armprof") */
};

struct ap_parquet_writer;

/* Fill cfg with the defaults (no columns, no write callback). */
AP_API void ap_parquet_writer_config_init(struct ap_parquet_writer_config *cfg);

/* Allocate a writer and write the leading "PAR1". Returns 0, -AP_ERR_INVALID
 * (no columns, a column without a name or with an unknown type, no write
 * callback), -AP_ERR_NOMEM or -AP_ERR_IO. */
AP_API int ap_parquet_writer_create(struct ap_parquet_writer **w,
                                    const struct ap_parquet_writer_config *cfg);

/* Set column col (index into cfg->columns) of the current row; setting it
 * twice keeps the last value. A type that is not the column's is
 * -AP_ERR_INVALID. The string is copied (len bytes, need not be
 * NUL-terminated). */
AP_API int ap_parquet_set_bool(struct ap_parquet_writer *w, size_t col, int v);
AP_API int ap_parquet_set_int32(struct ap_parquet_writer *w, size_t col, int32_t v);
AP_API int ap_parquet_set_int64(struct ap_parquet_writer *w, size_t col, int64_t v);
AP_API int ap_parquet_set_uint64(struct ap_parquet_writer *w, size_t col, uint64_t v);
AP_API int ap_parquet_set_string(struct ap_parquet_writer *w, size_t col, const char *s,
                                 size_t len);

/* Set an enumeration column (ap_parquet_column.values) to values[index]. */
AP_API int ap_parquet_set_enum(struct ap_parquet_writer *w, size_t col, uint32_t index);

/* End the current row (unset OPTIONAL columns are null). A REQUIRED column
 * left unset is -AP_ERR_INVALID (the row is dropped). Writes a row group when
 * full: then also -AP_ERR_IO or -AP_ERR_NOMEM. */
AP_API int ap_parquet_end_row(struct ap_parquet_writer *w);

/* End the current row group now, if it has rows (else nothing): a row
 * group's boundary where the caller wants one. 0 or a negative enum
 * ap_error. */
AP_API int ap_parquet_writer_flush(struct ap_parquet_writer *w);

/* Row groups encoded apart: a writer created without a write callback keeps
 * the row groups it writes in memory (no "PAR1", no footer); append writes
 * them into w, after what w has written, as w's own (the file is the one w
 * would have written with the same rows and flushes), and empties from for
 * reuse. from must have no row in progress (flush it first) and the same
 * columns as w. Several such writers may be filled on several threads at
 * once and appended in order on one. 0, -AP_ERR_INVALID, or w's error. */
AP_API int ap_parquet_writer_append(struct ap_parquet_writer *w, struct ap_parquet_writer *from);

/* Rows ended so far. */
AP_API uint64_t ap_parquet_rows(const struct ap_parquet_writer *w);

/* Write the last row group and the footer. Returns 0 or a negative
 * enum ap_error. The writer accepts nothing afterwards. */
AP_API int ap_parquet_writer_finish(struct ap_parquet_writer *w);

/* Free the writer (NULL is ignored). Without finish the file is incomplete:
 * the caller removes it. */
AP_API void ap_parquet_writer_destroy(struct ap_parquet_writer *w);

#ifdef __cplusplus
}
#endif
#endif

/* One column of the row group being built: its values (only the non-null
 * ones, in row order), definition levels for an OPTIONAL column, and for a
 * string column the dictionary. Buffers are sized for a full row group at
 * creation, so adding a row never allocates (except dictionary growth). */
#ifndef AP_PARQUET_COLUMN_H
#define AP_PARQUET_COLUMN_H

#include <stddef.h>
#include <stdint.h>

#include "parquet/bytes.h"
#include "parquet/dict.h"

struct column {
	char *name;
	uint8_t type;     /* enum ap_parquet_type */
	uint8_t optional;
	uint8_t is_set;   /* a value was set for the current row */
	uint8_t *def;     /* per row: 1 present, 0 null (OPTIONAL columns only) */
	void *values;     /* uint8_t (bool), int32_t, int64_t or uint32_t (dictionary index) */
	uint32_t n_values, n_rows;
	struct dict dict; /* string columns */
	uint32_t n_enum;  /* an enumeration: its values are dict's first, never cleared */
};

/* Allocate the buffers for rows_max rows. 0 or -1. */
int column_init(struct column *c, const char *name, uint8_t type, uint8_t optional,
                uint32_t rows_max);
/* Make a string column an enumeration of these values. 0 or -1. */
int column_set_enum(struct column *c, const char *const *values, uint32_t n);
/* Close the current row: its value, if set, is kept; else a null. Returns 0,
 * or -1 if the column is REQUIRED and was not set. */
int column_end_row(struct column *c);
/* Undo the current row's set (the row is dropped). */
void column_drop_row(struct column *c);
/* Page bodies, uncompressed: the dictionary page's (string columns) and the
 * data page's (definition levels, then the values). */
void column_dict_page(const struct column *c, struct bytes *out);
void column_data_page(const struct column *c, struct bytes *out);
/* Parquet physical type (parquet.thrift Type) and data page encoding. */
int32_t column_physical_type(const struct column *c);
int32_t column_data_encoding(const struct column *c);
void column_clear(struct column *c); /* after the row group is written */
void column_free(struct column *c);

#endif

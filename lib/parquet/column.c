/* A column of the row group being built: see column.h. */
#include <stdlib.h>
#include <string.h>

#include "armprof/parquet.h"
#include "parquet/column.h"
#include "parquet/rle.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "PLAIN values are copied as stored: this writer needs a little-endian host"
#endif

/* parquet.thrift: Type and Encoding */
enum { PT_BOOLEAN = 0, PT_INT32 = 1, PT_INT64 = 2, PT_BYTE_ARRAY = 6 };
enum { ENC_PLAIN = 0, ENC_RLE = 3, ENC_RLE_DICTIONARY = 8 };

static size_t value_size(uint8_t type)
{
	switch (type) {
	case AP_PARQUET_BOOLEAN: return 1;
	case AP_PARQUET_INT32: return 4;
	case AP_PARQUET_INT64:
	case AP_PARQUET_UINT64: return 8;
	default: return 4; /* dictionary index */
	}
}

int column_init(struct column *c, const char *name, uint8_t type, uint8_t optional,
                uint32_t rows_max)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	c->optional = optional;
	c->name = strdup(name);
	c->values = malloc((size_t)rows_max * value_size(type));
	c->def = optional ? malloc(rows_max) : NULL;
	if (!c->name || !c->values || (optional && !c->def))
		return -1;
	return 0;
}

int column_set_enum(struct column *c, const char *const *values, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!values[i] || dict_index(&c->dict, values[i], strlen(values[i])) != (int64_t)i)
			return -1; /* NULL, a duplicate, or no memory */
	c->n_enum = n;
	return 0;
}

int column_end_row(struct column *c)
{
	if (!c->is_set && !c->optional)
		return -1;
	if (c->optional)
		c->def[c->n_rows] = c->is_set;
	c->n_values += c->is_set;
	c->n_rows++;
	c->is_set = 0;
	return 0;
}

void column_drop_row(struct column *c)
{
	c->is_set = 0;
}

void column_dict_page(const struct column *c, struct bytes *out)
{
	dict_plain(&c->dict, out);
}

void column_data_page(const struct column *c, struct bytes *out)
{
	if (c->optional) {
		/* v1 data page: the levels' byte length, then the levels (max level 1) */
		size_t at = out->len;
		bytes_le32(out, 0);
		rle_hybrid_encode(out, c->def, 1, c->n_rows, 1);
		if (out->failed)
			return;
		uint32_t n = (uint32_t)(out->len - at - 4);
		for (int b = 0; b < 4; b++)
			out->p[at + b] = (uint8_t)(n >> (8 * b));
	}
	switch (c->type) {
	case AP_PARQUET_BOOLEAN: {
		/* PLAIN booleans: one bit each, from the least significant bit */
		const uint8_t *v = c->values;
		uint8_t acc = 0;
		for (uint32_t i = 0; i < c->n_values; i++) {
			acc |= (uint8_t)((v[i] & 1) << (i % 8));
			if (i % 8 == 7) {
				bytes_u8(out, acc);
				acc = 0;
			}
		}
		if (c->n_values % 8)
			bytes_u8(out, acc);
		break;
	}
	case AP_PARQUET_INT32:
	case AP_PARQUET_INT64:
	case AP_PARQUET_UINT64:
		/* PLAIN: little-endian, as the values are stored on this host */
		bytes_put(out, c->values, (size_t)c->n_values * value_size(c->type));
		break;
	default: {
		int width = rle_bit_width(c->dict.n ? c->dict.n - 1 : 0);
		bytes_u8(out, (uint8_t)width);
		rle_hybrid_encode(out, c->values, 4, c->n_values, width);
		break;
	}
	}
}

int32_t column_physical_type(const struct column *c)
{
	switch (c->type) {
	case AP_PARQUET_BOOLEAN: return PT_BOOLEAN;
	case AP_PARQUET_INT32: return PT_INT32;
	case AP_PARQUET_INT64:
	case AP_PARQUET_UINT64: return PT_INT64;
	default: return PT_BYTE_ARRAY;
	}
}

int32_t column_data_encoding(const struct column *c)
{
	return c->type == AP_PARQUET_STRING ? ENC_RLE_DICTIONARY : ENC_PLAIN;
}

void column_clear(struct column *c)
{
	c->n_values = c->n_rows = 0;
	c->is_set = 0;
	if (!c->n_enum)
		dict_clear(&c->dict);
}

void column_free(struct column *c)
{
	free(c->name);
	free(c->values);
	free(c->def);
	dict_free(&c->dict);
	memset(c, 0, sizeof(*c));
}

/* Thrift compact protocol writer: see thrift.h. */
#include <string.h>

#include "parquet/thrift.h"

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

void thrift_init(struct thrift *t, struct bytes *out)
{
	memset(t, 0, sizeof(*t));
	t->out = out;
	t->depth = 0; /* the outermost struct is begun with thrift_struct_begin(t, 0) */
}

static void field_header(struct thrift *t, int16_t id, enum thrift_type type)
{
	if (t->depth < 1 || t->depth > THRIFT_MAX_DEPTH) {
		t->depth = THRIFT_MAX_DEPTH + 1; /* unbalanced: thrift_check fails */
		return;
	}
	int16_t *last = &t->last_id[t->depth - 1];
	int delta = id - *last;
	if (delta > 0 && delta <= 15) {
		bytes_u8(t->out, (uint8_t)(delta << 4 | type));
	} else {
		bytes_u8(t->out, (uint8_t)type);
		bytes_uvarint(t->out, zigzag(id));
	}
	*last = id;
}

void thrift_i32(struct thrift *t, int16_t id, int32_t v)
{
	field_header(t, id, TT_I32);
	bytes_uvarint(t->out, zigzag(v));
}

void thrift_i64(struct thrift *t, int16_t id, int64_t v)
{
	field_header(t, id, TT_I64);
	bytes_uvarint(t->out, zigzag(v));
}

void thrift_bool(struct thrift *t, int16_t id, int v)
{
	/* compact protocol: the value is in the field header's type */
	field_header(t, id, v ? TT_BOOL_TRUE : TT_BOOL_FALSE);
}

void thrift_binary(struct thrift *t, int16_t id, const void *p, size_t len)
{
	field_header(t, id, TT_BINARY);
	bytes_uvarint(t->out, len);
	bytes_put(t->out, p, len);
}

void thrift_string(struct thrift *t, int16_t id, const char *s)
{
	thrift_binary(t, id, s, strlen(s));
}

void thrift_struct_begin(struct thrift *t, int16_t id)
{
	if (id > 0)
		field_header(t, id, TT_STRUCT);
	if (t->depth >= THRIFT_MAX_DEPTH) {
		t->depth = THRIFT_MAX_DEPTH + 1;
		return;
	}
	t->last_id[t->depth++] = 0;
}

void thrift_struct_end(struct thrift *t)
{
	bytes_u8(t->out, 0); /* STOP */
	if (t->depth < 1 || t->depth > THRIFT_MAX_DEPTH)
		t->depth = THRIFT_MAX_DEPTH + 1;
	else
		t->depth--;
}

void thrift_list_begin(struct thrift *t, int16_t id, enum thrift_type elem, uint32_t n)
{
	field_header(t, id, TT_LIST);
	if (n < 15) {
		bytes_u8(t->out, (uint8_t)(n << 4 | elem));
	} else {
		bytes_u8(t->out, (uint8_t)(0xf0 | elem));
		bytes_uvarint(t->out, n);
	}
}

void thrift_list_i32(struct thrift *t, int32_t v)
{
	bytes_uvarint(t->out, zigzag(v));
}

void thrift_list_string(struct thrift *t, const char *s)
{
	size_t n = strlen(s);
	bytes_uvarint(t->out, n);
	bytes_put(t->out, s, n);
}

int thrift_check(const struct thrift *t)
{
	return (t->depth == 0 && !t->out->failed) ? 0 : -1;
}

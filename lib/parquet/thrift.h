/* The Thrift compact protocol, write side only, as much as Parquet's
 * metadata needs (thrift/doc/specs/thrift-compact-protocol.md): structs of
 * i32/i64/bool/binary fields and lists of i32, binary and structs.
 *
 * A field header is one byte (field-id delta << 4 | type) when the id grows
 * by 1..15 from the previous field of the same struct, else the type byte
 * and the id as a zigzag varint; integers are zigzag varints; binary is a
 * varint length and the bytes; a struct ends with a 0 byte. */
#ifndef AP_PARQUET_THRIFT_H
#define AP_PARQUET_THRIFT_H

#include <stddef.h>
#include <stdint.h>

#include "parquet/bytes.h"

enum thrift_type {
	TT_BOOL_TRUE = 1,
	TT_BOOL_FALSE = 2,
	TT_I32 = 5,
	TT_I64 = 6,
	TT_BINARY = 8,
	TT_LIST = 9,
	TT_STRUCT = 12,
};

#define THRIFT_MAX_DEPTH 8

struct thrift {
	struct bytes *out;
	int depth;
	int16_t last_id[THRIFT_MAX_DEPTH]; /* previous field id per open struct */
};

void thrift_init(struct thrift *t, struct bytes *out);
void thrift_i32(struct thrift *t, int16_t id, int32_t v);
void thrift_i64(struct thrift *t, int16_t id, int64_t v);
void thrift_bool(struct thrift *t, int16_t id, int v);
void thrift_binary(struct thrift *t, int16_t id, const void *p, size_t len);
void thrift_string(struct thrift *t, int16_t id, const char *s);
/* A struct field (struct_begin with id >= 1), or a struct element of a list
 * (id 0: no field header); then its fields, then thrift_struct_end. */
void thrift_struct_begin(struct thrift *t, int16_t id);
void thrift_struct_end(struct thrift *t);
/* A list field's header; the n elements follow (thrift_list_i32 values,
 * thrift_list_string, or structs begun with id 0). */
void thrift_list_begin(struct thrift *t, int16_t id, enum thrift_type elem, uint32_t n);
void thrift_list_i32(struct thrift *t, int32_t v);
void thrift_list_string(struct thrift *t, const char *s);
/* 0, or -1 if the structs do not balance or the buffer failed. */
int thrift_check(const struct thrift *t);

#endif

/* The Parquet writer's encoders from inside (lib/parquet/), against bytes
 * worked out by hand from parquet-format's Encodings.md and Thrift's
 * compact protocol specification; the files as a whole are read back by
 * DuckDB in parquet_duckdb.sh. */
#include "harness.h"
#include "parquet/dict.h"
#include "parquet/rle.h"
#include "parquet/thrift.h"

static int bytes_eq(const struct bytes *b, const uint8_t *want, size_t n)
{
	if (b->len != n || b->failed) {
		fprintf(stderr, "  length %zu, want %zu\n", b->len, n);
		return 0;
	}
	return memcmp(b->p, want, n) == 0;
}

TEST(rle_run)
{
	uint8_t v[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct bytes b = { 0 };
	rle_hybrid_encode(&b, v, 1, 10, 1);
	static const uint8_t want[] = { 10 << 1, 0x01 }; /* RLE run: count << 1, value */
	CHECK(bytes_eq(&b, want, sizeof(want)));
	bytes_free(&b);
}

TEST(rle_bit_packed_padded)
{
	uint32_t v[4] = { 0, 1, 2, 3 };
	struct bytes b = { 0 };
	rle_hybrid_encode(&b, v, 4, 4, 2);
	/* one group: header 1 << 1 | 1; 0 | 1 << 2 | 2 << 4 | 3 << 6, then padding */
	static const uint8_t want[] = { 0x03, 0xe4, 0x00 };
	CHECK(bytes_eq(&b, want, sizeof(want)));
	bytes_free(&b);
}

TEST(rle_literal_then_run)
{
	uint32_t v[17] = { 1, 2, 3, 4, 5, 6, 7, 0, 7, 7, 7, 7, 7, 7, 7, 7, 7 };
	struct bytes b = { 0 };
	rle_hybrid_encode(&b, v, 4, 17, 3);
	/* 8 values of 3 bits from the LSB: 0x1f58d1; then a run of nine 7s */
	static const uint8_t want[] = { 0x03, 0xd1, 0x58, 0x1f, 9 << 1, 0x07 };
	CHECK(bytes_eq(&b, want, sizeof(want)));
	bytes_free(&b);
}

TEST(rle_wide_run_value)
{
	uint32_t v[8] = { 300, 300, 300, 300, 300, 300, 300, 300 };
	struct bytes b = { 0 };
	rle_hybrid_encode(&b, v, 4, 8, rle_bit_width(300));
	CHECK_EQ_U64(rle_bit_width(300), 9);
	static const uint8_t want[] = { 8 << 1, 0x2c, 0x01 }; /* value in ceil(9/8) bytes LE */
	CHECK(bytes_eq(&b, want, sizeof(want)));
	CHECK_EQ_U64(rle_bit_width(0), 1);
	CHECK_EQ_U64(rle_bit_width(1), 1);
	CHECK_EQ_U64(rle_bit_width(2), 2);
	bytes_free(&b);
}

TEST(thrift_compact)
{
	struct bytes b = { 0 };
	struct thrift t;
	thrift_init(&t, &b);
	thrift_struct_begin(&t, 0);
	thrift_i32(&t, 1, 1);
	thrift_i64(&t, 3, -2);
	thrift_binary(&t, 4, "ab", 2);
	thrift_i32(&t, 20, 5); /* delta 16: long form */
	thrift_list_begin(&t, 21, TT_I32, 2);
	thrift_list_i32(&t, 1);
	thrift_list_i32(&t, -1);
	thrift_struct_begin(&t, 22);
	thrift_bool(&t, 1, 1);
	thrift_struct_end(&t);
	thrift_i32(&t, 23, 0); /* the delta counts from 22 again after the nested struct */
	thrift_struct_end(&t);
	CHECK(thrift_check(&t) == 0);
	static const uint8_t want[] = {
		0x15, 0x02,             /* 1: i32 zigzag(1) */
		0x26, 0x03,             /* 3: i64 zigzag(-2) */
		0x18, 0x02, 'a', 'b',   /* 4: binary */
		0x05, 0x28, 0x0a,       /* 20: type, zigzag(20), zigzag(5) */
		0x19, 0x25, 0x02, 0x01, /* 21: list of 2 i32 */
		0x1c, 0x11, 0x00,       /* 22: struct { 1: true } */
		0x15, 0x00,             /* 23: i32 0 */
		0x00,
	};
	CHECK(bytes_eq(&b, want, sizeof(want)));
	bytes_free(&b);

	thrift_init(&t, &b);
	thrift_struct_begin(&t, 0);
	thrift_list_begin(&t, 1, TT_BINARY, 20); /* 15 or more elements: long header */
	CHECK(thrift_check(&t) != 0);            /* not closed */
	static const uint8_t want_list[] = { 0x19, 0xf8, 20 };
	CHECK(bytes_eq(&b, want_list, sizeof(want_list)));
	bytes_free(&b);
}

TEST(dictionary)
{
	struct dict d = { 0 };
	CHECK_EQ_U64(dict_index(&d, "a", 1), 0);
	CHECK_EQ_U64(dict_index(&d, "b", 1), 1);
	CHECK_EQ_U64(dict_index(&d, "a", 1), 0);
	CHECK_EQ_U64(dict_index(&d, "", 0), 2);
	struct bytes b = { 0 };
	dict_plain(&d, &b);
	static const uint8_t want[] = { 1, 0, 0, 0, 'a', 1, 0, 0, 0, 'b', 0, 0, 0, 0 };
	CHECK(bytes_eq(&b, want, sizeof(want)));
	bytes_free(&b);
	/* growth of the table and the arena keeps every index */
	char s[16];
	int bad = 0;
	for (int i = 0; i < 20000; i++) {
		snprintf(s, sizeof(s), "x%d", i);
		bad += dict_index(&d, s, strlen(s)) != i + 3;
	}
	for (int i = 0; i < 20000; i += 7) {
		snprintf(s, sizeof(s), "x%d", i);
		bad += dict_index(&d, s, strlen(s)) != i + 3;
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(d.n, 20003);
	dict_clear(&d);
	CHECK_EQ_U64(dict_index(&d, "b", 1), 0);
	dict_free(&d);
}

TEST_MAIN(CASE(rle_run), CASE(rle_bit_packed_padded), CASE(rle_literal_then_run),
          CASE(rle_wide_run_value), CASE(thrift_compact), CASE(dictionary))

/* The Parquet writer's encoders from inside (lib/parquet/), against bytes
 * worked out by hand from parquet-format's Encodings.md and Thrift's
 * compact protocol specification; the files as a whole are read back by
 * DuckDB in parquet_duckdb.sh. */
#include "harness.h"
#include "armprof/error.h"
#include "armprof/parquet.h"
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

/* A sink that takes `room` bytes, then fails. */
struct sink {
	size_t len, room;
	int calls;
};

static int sink_write(void *ctx, const void *buf, size_t len)
{
	struct sink *k = ctx;
	(void)buf;
	k->calls++;
	if (k->len + len > k->room)
		return -1;
	k->len += len;
	return 0;
}

TEST(writer_api)
{
	static const char *const e[] = { "a", "b" };
	const struct ap_parquet_column cols[] = {
		{ .name = "req", .type = AP_PARQUET_INT64 },
		{ .name = "opt", .type = AP_PARQUET_STRING, .optional = 1 },
		{ .name = "en", .type = AP_PARQUET_STRING, .optional = 1, .values = e, .n_values = 2 },
	};
	struct sink k = { 0, SIZE_MAX, 0 };
	struct ap_parquet_writer_config cfg;
	ap_parquet_writer_config_init(&cfg);
	struct ap_parquet_writer *w = (struct ap_parquet_writer *)1;
	CHECK(ap_parquet_writer_create(&w, &cfg) == -AP_ERR_INVALID); /* no columns */
	CHECK(w == NULL);
	cfg.columns = cols;
	cfg.n_columns = 3;
	cfg.write = sink_write;
	cfg.ctx = &k;
	cfg.row_group_rows = 2;
	CHECK(ap_parquet_writer_create(&w, &cfg) == 0);
	CHECK_EQ_U64(k.len, 4); /* "PAR1" */
	CHECK(ap_parquet_set_int32(w, 0, 1) == -AP_ERR_INVALID);  /* not the column's type */
	CHECK(ap_parquet_set_int64(w, 3, 1) == -AP_ERR_INVALID);  /* no such column */
	CHECK(ap_parquet_set_enum(w, 2, 2) == -AP_ERR_INVALID);   /* not one of the values */
	CHECK(ap_parquet_set_enum(w, 1, 0) == -AP_ERR_INVALID);   /* not an enumeration */
	CHECK(ap_parquet_end_row(w) == -AP_ERR_INVALID);          /* req unset: the row is dropped */
	CHECK_EQ_U64(ap_parquet_rows(w), 0);
	CHECK(ap_parquet_set_int64(w, 0, 7) == 0);
	CHECK(ap_parquet_set_string(w, 1, "x", 1) == 0);
	CHECK(ap_parquet_end_row(w) == 0);
	CHECK(ap_parquet_set_int64(w, 0, 8) == 0);
	CHECK(ap_parquet_end_row(w) == 0); /* the row group is full: written */
	CHECK(k.len > 4);
	CHECK_EQ_U64(ap_parquet_rows(w), 2);
	/* the file stops taking bytes: the next row group's write fails, and
	 * every later call says so */
	k.room = k.len;
	CHECK(ap_parquet_set_int64(w, 0, 9) == 0);
	CHECK(ap_parquet_end_row(w) == 0);
	CHECK(ap_parquet_set_int64(w, 0, 10) == 0);
	CHECK(ap_parquet_end_row(w) == -AP_ERR_IO);
	CHECK(ap_parquet_set_int64(w, 0, 11) == -AP_ERR_IO);
	CHECK(ap_parquet_writer_finish(w) == -AP_ERR_IO);
	ap_parquet_writer_destroy(w);
	ap_parquet_writer_destroy(NULL);

	/* a complete file ends with the footer's length and "PAR1" */
	k = (struct sink){ 0, SIZE_MAX, 0 };
	CHECK(ap_parquet_writer_create(&w, &cfg) == 0);
	CHECK(ap_parquet_writer_finish(w) == 0); /* no rows: a valid empty file */
	CHECK(ap_parquet_writer_finish(w) == -AP_ERR_INVALID);
	CHECK(k.len > 12);
	ap_parquet_writer_destroy(w);
}

/* A sink that keeps the bytes. */
static int keep_write(void *ctx, const void *buf, size_t len)
{
	bytes_put(ctx, buf, len);
	return 0;
}

static void rows(struct ap_parquet_writer *w, int from, int to)
{
	char s[8];
	for (int i = from; i < to; i++) {
		snprintf(s, sizeof(s), "s%d", i % 5);
		ap_parquet_set_int64(w, 0, i);
		if (i % 3)
			ap_parquet_set_string(w, 1, s, strlen(s));
		ap_parquet_end_row(w);
	}
}

/* Row groups encoded in memory writers and appended make the file a single
 * writer makes with the same rows and flushes, byte for byte. */
TEST(writer_append)
{
	const struct ap_parquet_column cols[] = {
		{ .name = "n", .type = AP_PARQUET_INT64 },
		{ .name = "s", .type = AP_PARQUET_STRING, .optional = 1 },
	};
	struct ap_parquet_writer_config cfg;
	ap_parquet_writer_config_init(&cfg);
	cfg.columns = cols;
	cfg.n_columns = 2;
	cfg.row_group_rows = 100;
	struct bytes one = { 0 }, two = { 0 };
	struct ap_parquet_writer *w, *file, *a, *b;
	cfg.write = keep_write;
	cfg.ctx = &one;
	CHECK(ap_parquet_writer_create(&w, &cfg) == 0);
	rows(w, 0, 250);
	CHECK(ap_parquet_writer_flush(w) == 0);
	rows(w, 250, 300);
	CHECK(ap_parquet_writer_flush(w) == 0);
	CHECK(ap_parquet_writer_flush(w) == 0); /* nothing to end: no empty group */
	CHECK(ap_parquet_writer_finish(w) == 0);
	ap_parquet_writer_destroy(w);

	cfg.ctx = &two;
	CHECK(ap_parquet_writer_create(&file, &cfg) == 0);
	cfg.write = NULL;
	CHECK(ap_parquet_writer_create(&a, &cfg) == 0);
	CHECK(ap_parquet_writer_create(&b, &cfg) == 0);
	rows(a, 0, 250);
	rows(b, 250, 300);
	CHECK(ap_parquet_writer_append(file, a) == -AP_ERR_INVALID); /* a row group in progress */
	CHECK(ap_parquet_writer_flush(a) == 0);
	CHECK(ap_parquet_writer_flush(b) == 0);
	CHECK(ap_parquet_writer_finish(a) == -AP_ERR_INVALID);      /* in memory: appended only */
	CHECK(ap_parquet_writer_append(file, a) == 0);
	CHECK(ap_parquet_writer_append(file, b) == 0);
	CHECK_EQ_U64(ap_parquet_rows(a), 0);
	CHECK_EQ_U64(ap_parquet_rows(file), 300);
	CHECK(ap_parquet_writer_finish(file) == 0);
	CHECK(one.len > 100 && one.len == two.len && memcmp(one.p, two.p, one.len) == 0);
	ap_parquet_writer_destroy(file);
	ap_parquet_writer_destroy(a);
	ap_parquet_writer_destroy(b);
	bytes_free(&one);
	bytes_free(&two);
}

TEST_MAIN(CASE(rle_run), CASE(rle_bit_packed_padded), CASE(rle_literal_then_run),
          CASE(rle_wide_run_value), CASE(thrift_compact), CASE(dictionary),
          CASE(writer_api), CASE(writer_append))

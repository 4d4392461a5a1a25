/* Writes a Parquet file of known values with armprof's writer, for
 * parquet_duckdb.sh to read back with DuckDB. Row i (0 <= i < N):
 *   id     INT64 required  i
 *   small  INT32 optional  i * 7 - 1000, null when i % 3 == 0
 *   flag   BOOL  optional  i % 2 == 1,   null when i % 5 == 0
 *   name   STRING optional "s<i % 13>" ("" when i % 13 == 5), null when i % 7 == 0
 *   big    INT64 optional  i << 40 (negated when i is odd), null when i % 11 == 3
 *   k      STRING required "k"
 *   addr   UINT64 required 0xffff000000000000 + i
 *   colour STRING optional, an enumeration: red, green, blue by i % 3, null when i % 4 == 0
 * Usage: parquet_sample OUT N ROW_GROUP_ROWS ZSTD_LEVEL */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "armprof/parquet.h"

static int write_file(void *ctx, const void *buf, size_t len)
{
	return fwrite(buf, 1, len, ctx) == len ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: parquet_sample OUT N ROW_GROUP_ROWS ZSTD_LEVEL\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "wb");
	if (!f)
		return 2;
	long n = atol(argv[2]);
	static const char *const colours[] = { "red", "green", "blue" };
	static const struct ap_parquet_column cols[] = {
		{ .name = "id", .type = AP_PARQUET_INT64 },
		{ .name = "small", .type = AP_PARQUET_INT32, .optional = 1 },
		{ .name = "flag", .type = AP_PARQUET_BOOLEAN, .optional = 1 },
		{ .name = "name", .type = AP_PARQUET_STRING, .optional = 1 },
		{ .name = "big", .type = AP_PARQUET_INT64, .optional = 1 },
		{ .name = "k", .type = AP_PARQUET_STRING },
		{ .name = "addr", .type = AP_PARQUET_UINT64 },
		{ .name = "colour", .type = AP_PARQUET_STRING, .optional = 1, .values = colours, .n_values = 3 },
	};
	struct ap_parquet_writer_config cfg;
	ap_parquet_writer_config_init(&cfg);
	cfg.columns = cols;
	cfg.n_columns = sizeof(cols) / sizeof(cols[0]);
	cfg.row_group_rows = (uint32_t)atol(argv[3]);
	cfg.zstd_level = atoi(argv[4]);
	cfg.write = write_file;
	cfg.ctx = f;
	struct ap_parquet_writer *w;
	int rc = ap_parquet_writer_create(&w, &cfg);
	for (long i = 0; rc == 0 && i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "s%ld", i % 13);
		if (i % 13 == 5)
			name[0] = '\0';
		rc |= ap_parquet_set_int64(w, 0, i);
		if (i % 3)
			rc |= ap_parquet_set_int32(w, 1, (int32_t)(i * 7 - 1000));
		if (i % 5)
			rc |= ap_parquet_set_bool(w, 2, i % 2 == 1);
		if (i % 7)
			rc |= ap_parquet_set_string(w, 3, name, strlen(name));
		if (i % 11 != 3)
			rc |= ap_parquet_set_int64(w, 4, (i % 2 ? -1 : 1) * (int64_t)((uint64_t)i << 40));
		rc |= ap_parquet_set_string(w, 5, "k", 1);
		rc |= ap_parquet_set_uint64(w, 6, 0xffff000000000000ull + (uint64_t)i);
		if (i % 4)
			rc |= ap_parquet_set_enum(w, 7, (uint32_t)(i % 3));
		rc |= ap_parquet_end_row(w);
	}
	if (rc == 0)
		rc = ap_parquet_writer_finish(w);
	ap_parquet_writer_destroy(w);
	if (fclose(f) != 0 && rc == 0)
		rc = -AP_ERR_IO;
	if (rc) {
		fprintf(stderr, "parquet_sample: %s\n", ap_errstr(rc));
		return 1;
	}
	return 0;
}

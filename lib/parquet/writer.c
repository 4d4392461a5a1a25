/* The Parquet writer: rows into column buffers, a row group written when
 * full, the footer at the end (see include/armprof/parquet.h). */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "armprof/error.h"
#include "armprof/parquet.h"
#include "parquet/column.h"
#include "parquet/thrift.h"

/* parquet.thrift enums */
enum { PAGE_DATA = 0, PAGE_DICTIONARY = 2 };
enum { ENC_PLAIN = 0, ENC_RLE = 3 };
enum { CODEC_UNCOMPRESSED = 0, CODEC_ZSTD = 6 };
enum { REP_REQUIRED = 0, REP_OPTIONAL = 1 };
enum { CONVERTED_UTF8 = 0, CONVERTED_UINT_64 = 14 }; /* ConvertedType */

#define MAX_COLUMNS 4096
/* A row group is also cut when its string dictionaries reach this size,
 * which bounds memory when strings are many and distinct. */
#define MAX_DICT_BYTES (32u << 20)

/* Where a written column chunk is, for the footer. */
struct chunk_meta {
	int64_t dict_offset; /* -1: no dictionary page */
	int64_t data_offset;
	int64_t compressed, uncompressed; /* page headers included */
	int64_t num_values;
};

struct ap_parquet_writer {
	struct column *cols;
	size_t n_cols;
	uint32_t group_rows;
	int level;
	ap_parquet_write_fn write;
	void *ctx;
	char *created_by;
	int error;        /* sticky negative enum ap_error */
	int finished;
	uint64_t offset;  /* bytes written */
	uint64_t rows;
	size_t dict_bytes; /* of the row group being built */
	struct bytes page, comp, hdr;
	struct bytes mem; /* no write callback: the encoded row groups */
	ZSTD_CCtx *zc;
	struct chunk_meta *meta; /* n_groups * n_cols */
	int64_t *group_rows_written, *group_bytes;
	size_t n_groups, cap_groups;
};

void ap_parquet_writer_config_init(struct ap_parquet_writer_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->row_group_rows = 65536;
	cfg->zstd_level = 3;
}

static int emit(struct ap_parquet_writer *w, const void *p, size_t len)
{
	if (w->error)
		return w->error;
	if (!w->write) { /* a writer of row groups in memory */
		bytes_put(&w->mem, p, len);
		if (w->mem.failed)
			return w->error = -AP_ERR_NOMEM;
	} else if (len && w->write(w->ctx, p, len) != 0) {
		return w->error = -AP_ERR_IO;
	}
	w->offset += len;
	return 0;
}

int ap_parquet_writer_create(struct ap_parquet_writer **out,
                             const struct ap_parquet_writer_config *cfg)
{
	*out = NULL;
	if (!cfg || cfg->size < sizeof(*cfg) || !cfg->columns || cfg->n_columns == 0 ||
	    cfg->n_columns > MAX_COLUMNS || cfg->row_group_rows == 0 || cfg->zstd_level < 0 ||
	    cfg->zstd_level > ZSTD_maxCLevel())
		return -AP_ERR_INVALID;
	for (size_t i = 0; i < cfg->n_columns; i++)
		if ((cfg->columns[i].values && cfg->columns[i].type != AP_PARQUET_STRING) ||
		    !cfg->columns[i].name || !cfg->columns[i].name[0] ||
		    cfg->columns[i].type > AP_PARQUET_UINT64 || cfg->columns[i].optional > 1)
			return -AP_ERR_INVALID;
	struct ap_parquet_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return -AP_ERR_NOMEM;
	w->n_cols = cfg->n_columns;
	w->group_rows = cfg->row_group_rows;
	w->level = cfg->zstd_level;
	w->write = cfg->write;
	w->ctx = cfg->ctx;
	w->created_by = strdup(cfg->created_by ? cfg->created_by : "armprof");
	w->cols = calloc(cfg->n_columns, sizeof(*w->cols));
	w->zc = cfg->zstd_level ? ZSTD_createCCtx() : NULL;
	int bad = !w->created_by || !w->cols || (cfg->zstd_level && !w->zc);
	for (size_t i = 0; !bad && i < cfg->n_columns; i++)
		bad = column_init(&w->cols[i], cfg->columns[i].name, cfg->columns[i].type,
		                  cfg->columns[i].optional, cfg->row_group_rows) != 0 ||
		      (cfg->columns[i].values &&
		       column_set_enum(&w->cols[i], cfg->columns[i].values, cfg->columns[i].n_values) != 0);
	if (bad) {
		ap_parquet_writer_destroy(w);
		return -AP_ERR_NOMEM;
	}
	int rc = w->write ? emit(w, "PAR1", 4) : 0;
	if (rc) {
		ap_parquet_writer_destroy(w);
		return rc;
	}
	*out = w;
	return 0;
}

static struct column *column_for(struct ap_parquet_writer *w, size_t col, uint8_t type)
{
	if (w->error || w->finished || col >= w->n_cols || w->cols[col].type != type)
		return NULL;
	return &w->cols[col];
}

/* The slot of the current row's value: values are stored densely, so the
 * current row's goes at n_values until the row ends. */
#define SLOT(c, T) (((T *)(c)->values)[(c)->n_values])

int ap_parquet_set_bool(struct ap_parquet_writer *w, size_t col, int v)
{
	struct column *c = column_for(w, col, AP_PARQUET_BOOLEAN);
	if (!c)
		return w->error ? w->error : -AP_ERR_INVALID;
	SLOT(c, uint8_t) = v != 0;
	c->is_set = 1;
	return 0;
}

int ap_parquet_set_int32(struct ap_parquet_writer *w, size_t col, int32_t v)
{
	struct column *c = column_for(w, col, AP_PARQUET_INT32);
	if (!c)
		return w->error ? w->error : -AP_ERR_INVALID;
	SLOT(c, int32_t) = v;
	c->is_set = 1;
	return 0;
}

int ap_parquet_set_int64(struct ap_parquet_writer *w, size_t col, int64_t v)
{
	struct column *c = column_for(w, col, AP_PARQUET_INT64);
	if (!c)
		return w->error ? w->error : -AP_ERR_INVALID;
	SLOT(c, int64_t) = v;
	c->is_set = 1;
	return 0;
}

int ap_parquet_set_uint64(struct ap_parquet_writer *w, size_t col, uint64_t v)
{
	struct column *c = column_for(w, col, AP_PARQUET_UINT64);
	if (!c)
		return w->error ? w->error : -AP_ERR_INVALID;
	SLOT(c, uint64_t) = v;
	c->is_set = 1;
	return 0;
}

int ap_parquet_set_string(struct ap_parquet_writer *w, size_t col, const char *s, size_t len)
{
	struct column *c = column_for(w, col, AP_PARQUET_STRING);
	if (!c || (!s && len))
		return w && w->error ? w->error : -AP_ERR_INVALID;
	size_t before = dict_bytes(&c->dict);
	int64_t idx = dict_index(&c->dict, s ? s : "", len);
	if (idx < 0)
		return w->error = -AP_ERR_NOMEM;
	w->dict_bytes += dict_bytes(&c->dict) - before;
	SLOT(c, uint32_t) = (uint32_t)idx;
	c->is_set = 1;
	return 0;
}

int ap_parquet_set_enum(struct ap_parquet_writer *w, size_t col, uint32_t index)
{
	struct column *c = column_for(w, col, AP_PARQUET_STRING);
	if (!c || index >= c->n_enum)
		return w->error ? w->error : -AP_ERR_INVALID;
	SLOT(c, uint32_t) = index;
	c->is_set = 1;
	return 0;
}

/* Compress body (if the writer compresses) and write header + body. */
static int write_page(struct ap_parquet_writer *w, const struct column *c, int page_type,
                      const struct bytes *body, uint32_t num_values, int32_t encoding,
                      struct chunk_meta *m)
{
	if (body->failed || body->len > INT32_MAX)
		return w->error = -AP_ERR_NOMEM;
	const uint8_t *data = body->p;
	size_t data_len = body->len;
	if (w->zc) {
		size_t bound = ZSTD_compressBound(body->len);
		w->comp.len = 0;
		if (bytes_reserve(&w->comp, bound) != 0)
			return w->error = -AP_ERR_NOMEM;
		size_t n = ZSTD_compressCCtx(w->zc, w->comp.p, bound, body->p, body->len, w->level);
		if (ZSTD_isError(n) || n > INT32_MAX)
			return w->error = -AP_ERR_INTERNAL;
		data = w->comp.p;
		data_len = n;
	}
	w->hdr.len = 0;
	struct thrift t;
	thrift_init(&t, &w->hdr);
	thrift_struct_begin(&t, 0); /* PageHeader */
	thrift_i32(&t, 1, page_type);
	thrift_i32(&t, 2, (int32_t)body->len);
	thrift_i32(&t, 3, (int32_t)data_len);
	if (page_type == PAGE_DATA) {
		thrift_struct_begin(&t, 5); /* DataPageHeader */
		thrift_i32(&t, 1, (int32_t)num_values);
		thrift_i32(&t, 2, encoding);
		thrift_i32(&t, 3, ENC_RLE); /* definition levels */
		thrift_i32(&t, 4, ENC_RLE); /* repetition levels (none: flat schema) */
		thrift_struct_end(&t);
	} else {
		thrift_struct_begin(&t, 7); /* DictionaryPageHeader */
		thrift_i32(&t, 1, (int32_t)num_values);
		thrift_i32(&t, 2, ENC_PLAIN);
		thrift_struct_end(&t);
	}
	thrift_struct_end(&t);
	if (thrift_check(&t) != 0)
		return w->error = -AP_ERR_NOMEM;
	if (page_type == PAGE_DATA)
		m->data_offset = (int64_t)w->offset;
	else
		m->dict_offset = (int64_t)w->offset;
	m->compressed += (int64_t)(w->hdr.len + data_len);
	m->uncompressed += (int64_t)(w->hdr.len + body->len);
	(void)c;
	int rc = emit(w, w->hdr.p, w->hdr.len);
	return rc ? rc : emit(w, data, data_len);
}

static int grow_groups(struct ap_parquet_writer *w)
{
	if (w->n_groups < w->cap_groups)
		return 0;
	size_t cap = w->cap_groups ? w->cap_groups * 2 : 16;
	struct chunk_meta *meta = realloc(w->meta, cap * w->n_cols * sizeof(*meta));
	if (!meta)
		return -1;
	w->meta = meta;
	int64_t *rows = realloc(w->group_rows_written, cap * sizeof(*rows));
	if (!rows)
		return -1;
	w->group_rows_written = rows;
	int64_t *gbytes = realloc(w->group_bytes, cap * sizeof(*gbytes));
	if (!gbytes)
		return -1;
	w->group_bytes = gbytes;
	w->cap_groups = cap;
	return 0;
}

static int flush_row_group(struct ap_parquet_writer *w)
{
	uint32_t rows = w->cols[0].n_rows;
	if (rows == 0 || w->error)
		return w->error;
	if (grow_groups(w) != 0)
		return w->error = -AP_ERR_NOMEM;
	struct chunk_meta *meta = &w->meta[w->n_groups * w->n_cols];
	int64_t total = 0;
	for (size_t i = 0; i < w->n_cols; i++) {
		struct column *c = &w->cols[i];
		struct chunk_meta *m = &meta[i];
		memset(m, 0, sizeof(*m));
		m->dict_offset = -1;
		m->num_values = rows;
		if (c->type == AP_PARQUET_STRING) {
			w->page.len = 0;
			column_dict_page(c, &w->page);
			if (write_page(w, c, PAGE_DICTIONARY, &w->page, c->dict.n, ENC_PLAIN, m) != 0)
				return w->error;
		}
		w->page.len = 0;
		column_data_page(c, &w->page);
		if (write_page(w, c, PAGE_DATA, &w->page, rows, column_data_encoding(c), m) != 0)
			return w->error;
		total += m->uncompressed;
		column_clear(c);
	}
	w->group_rows_written[w->n_groups] = rows;
	w->group_bytes[w->n_groups] = total;
	w->n_groups++;
	w->dict_bytes = 0;
	return 0;
}

int ap_parquet_end_row(struct ap_parquet_writer *w)
{
	if (w->error || w->finished)
		return w->error ? w->error : -AP_ERR_INVALID;
	for (size_t i = 0; i < w->n_cols; i++)
		if (!w->cols[i].is_set && !w->cols[i].optional) {
			for (size_t j = 0; j < w->n_cols; j++)
				column_drop_row(&w->cols[j]);
			return -AP_ERR_INVALID;
		}
	for (size_t i = 0; i < w->n_cols; i++)
		column_end_row(&w->cols[i]);
	w->rows++;
	if (w->cols[0].n_rows >= w->group_rows || w->dict_bytes >= MAX_DICT_BYTES)
		return flush_row_group(w);
	return 0;
}

uint64_t ap_parquet_rows(const struct ap_parquet_writer *w)
{
	return w->rows;
}

static void write_schema(struct thrift *t, const struct ap_parquet_writer *w)
{
	thrift_list_begin(t, 2, TT_STRUCT, (uint32_t)(w->n_cols + 1));
	thrift_struct_begin(t, 0); /* the root: a group of all columns */
	thrift_string(t, 4, "schema");
	thrift_i32(t, 5, (int32_t)w->n_cols);
	thrift_struct_end(t);
	for (size_t i = 0; i < w->n_cols; i++) {
		const struct column *c = &w->cols[i];
		thrift_struct_begin(t, 0);
		thrift_i32(t, 1, column_physical_type(c));
		thrift_i32(t, 3, c->optional ? REP_OPTIONAL : REP_REQUIRED);
		thrift_string(t, 4, c->name);
		if (c->type == AP_PARQUET_STRING) {
			thrift_i32(t, 6, CONVERTED_UTF8);
			thrift_struct_begin(t, 10); /* LogicalType */
			thrift_struct_begin(t, 1);  /* STRING: an empty struct */
			thrift_struct_end(t);
			thrift_struct_end(t);
		} else if (c->type == AP_PARQUET_UINT64) {
			thrift_i32(t, 6, CONVERTED_UINT_64);
		}
		thrift_struct_end(t);
	}
}

static void write_column_chunk(struct thrift *t, const struct column *c, const struct chunk_meta *m,
                               int compressed)
{
	thrift_struct_begin(t, 0); /* ColumnChunk */
	thrift_i64(t, 2, m->dict_offset >= 0 ? m->dict_offset : m->data_offset);
	thrift_struct_begin(t, 3); /* ColumnMetaData */
	thrift_i32(t, 1, column_physical_type(c));
	int dict = c->type == AP_PARQUET_STRING;
	thrift_list_begin(t, 2, TT_I32, dict ? 3 : 2);
	thrift_list_i32(t, ENC_PLAIN);
	thrift_list_i32(t, ENC_RLE);
	if (dict)
		thrift_list_i32(t, column_data_encoding(c));
	thrift_list_begin(t, 3, TT_BINARY, 1);
	thrift_list_string(t, c->name);
	thrift_i32(t, 4, compressed ? CODEC_ZSTD : CODEC_UNCOMPRESSED);
	thrift_i64(t, 5, m->num_values);
	thrift_i64(t, 6, m->uncompressed);
	thrift_i64(t, 7, m->compressed);
	thrift_i64(t, 9, m->data_offset);
	if (m->dict_offset >= 0)
		thrift_i64(t, 11, m->dict_offset);
	thrift_struct_end(t);
	thrift_struct_end(t);
}

int ap_parquet_writer_finish(struct ap_parquet_writer *w)
{
	if (w->finished || !w->write) /* a writer in memory is appended, not finished */
		return -AP_ERR_INVALID;
	int rc = flush_row_group(w);
	w->finished = 1;
	if (rc)
		return rc;
	struct bytes *f = &w->page;
	f->len = 0;
	struct thrift t;
	thrift_init(&t, f);
	thrift_struct_begin(&t, 0); /* FileMetaData */
	thrift_i32(&t, 1, 1);       /* version */
	write_schema(&t, w);
	thrift_i64(&t, 3, (int64_t)w->rows);
	thrift_list_begin(&t, 4, TT_STRUCT, (uint32_t)w->n_groups);
	for (size_t g = 0; g < w->n_groups; g++) {
		thrift_struct_begin(&t, 0); /* RowGroup */
		thrift_list_begin(&t, 1, TT_STRUCT, (uint32_t)w->n_cols);
		for (size_t i = 0; i < w->n_cols; i++)
			write_column_chunk(&t, &w->cols[i], &w->meta[g * w->n_cols + i], w->zc != NULL);
		thrift_i64(&t, 2, w->group_bytes[g]);
		thrift_i64(&t, 3, w->group_rows_written[g]);
		thrift_struct_end(&t);
	}
	thrift_string(&t, 6, w->created_by);
	thrift_struct_end(&t);
	if (thrift_check(&t) != 0 || f->len > UINT32_MAX)
		return w->error = -AP_ERR_NOMEM;
	bytes_le32(f, (uint32_t)f->len);
	bytes_put(f, "PAR1", 4);
	if (f->failed)
		return w->error = -AP_ERR_NOMEM;
	return emit(w, f->p, f->len);
}

int ap_parquet_writer_flush(struct ap_parquet_writer *w)
{
	if (w->error || w->finished)
		return w->error ? w->error : -AP_ERR_INVALID;
	return flush_row_group(w);
}

int ap_parquet_writer_append(struct ap_parquet_writer *w, struct ap_parquet_writer *from)
{
	if (w->error || w->finished)
		return w->error ? w->error : -AP_ERR_INVALID;
	if (from->error)
		return from->error;
	if (from->write || from->finished || from->cols[0].n_rows || from->n_cols != w->n_cols)
		return -AP_ERR_INVALID;
	for (size_t i = 0; i < w->n_cols; i++)
		if (from->cols[i].type != w->cols[i].type || from->cols[i].optional != w->cols[i].optional ||
		    strcmp(from->cols[i].name, w->cols[i].name) != 0)
			return -AP_ERR_INVALID;
	/* the groups' offsets were from the start of from's memory: now from here */
	for (size_t g = 0; g < from->n_groups; g++) {
		if (grow_groups(w) != 0)
			return w->error = -AP_ERR_NOMEM;
		struct chunk_meta *m = &w->meta[w->n_groups * w->n_cols];
		memcpy(m, &from->meta[g * w->n_cols], w->n_cols * sizeof(*m));
		for (size_t i = 0; i < w->n_cols; i++) {
			m[i].data_offset += (int64_t)w->offset;
			if (m[i].dict_offset >= 0)
				m[i].dict_offset += (int64_t)w->offset;
		}
		w->group_rows_written[w->n_groups] = from->group_rows_written[g];
		w->group_bytes[w->n_groups] = from->group_bytes[g];
		w->n_groups++;
	}
	w->rows += from->rows;
	int rc = emit(w, from->mem.p, from->mem.len);
	from->mem.len = 0;
	from->offset = 0;
	from->n_groups = 0;
	from->rows = 0;
	return rc;
}

void ap_parquet_writer_destroy(struct ap_parquet_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; w->cols && i < w->n_cols; i++)
		column_free(&w->cols[i]);
	free(w->cols);
	free(w->created_by);
	bytes_free(&w->page);
	bytes_free(&w->comp);
	bytes_free(&w->hdr);
	bytes_free(&w->mem);
	ZSTD_freeCCtx(w->zc);
	free(w->meta);
	free(w->group_rows_written);
	free(w->group_bytes);
	free(w);
}

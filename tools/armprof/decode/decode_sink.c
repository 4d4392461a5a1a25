/* The outputs of `armprof decode`: see decode_sink.h. */
#include "decode_sink.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_output.h"
#include "cli_outset.h"

struct decode_sink {
	int parquet, packets, n_out, spe_parser;
	struct cli_output out[CLASS_COUNT];  /* [0] alone unless --split */
	struct cli_outset set;               /* --split: the directory, replaced as a whole */
	int split;
	struct record_parquet *table[CLASS_COUNT];
	struct record_writer *writer;        /* text formats */
	int failed;                          /* a put failed: the outputs are incomplete */
	uint32_t group_records;              /* records put in the row groups under way */
	enum ap_ds_encoding enc;
	const struct ap_report *symbols;
};

int decode_sink_parse_format(const char *name, struct decode_sink_opts *o)
{
	o->spe_parser = !strcmp(name, "spe-parser");
	if (!strcmp(name, "parquet") || o->spe_parser) {
		o->parquet = 1;
		return 0;
	}
	o->parquet = 0;
	return record_format_parse(name, &o->fmt);
}

static int write_out(void *ctx, const void *buf, size_t len)
{
	return cli_output_write(ctx, buf, len);
}

/* spe-parser's PREFIX-ldst.parquet, PREFIX-br.parquet, PREFIX-other.parquet
 * (parser.py merge_write), each its own output. */
static int open_spe_parser(struct decode_sink *s, const struct decode_sink_opts *o)
{
	for (int c = 0; c < CLASS_COUNT; c++) {
		const char *stem = record_class_name((enum record_class)c);
		size_t n = strlen(o->out_path) + strlen(stem) + 16;
		char *path = malloc(n);
		if (path)
			snprintf(path, n, "%s-%s.parquet", o->out_path, stem);
		int rc = path ? cli_output_open(&s->out[c], "decode", path) : -1;
		free(path);
		if (rc != 0)
			return -1;
		s->n_out = c + 1;
		s->table[c] = record_parquet_new_spe_parser(&s->out[c], (enum record_class)c);
		if (!s->table[c])
			return -1;
	}
	return 0;
}

static int open_parquet(struct decode_sink *s, const struct decode_sink_opts *o)
{
	if (o->spe_parser)
		return open_spe_parser(s, o);
	if (!o->split) {
		s->n_out = 1;
		if (cli_output_open(&s->out[0], "decode", o->out_path) != 0)
			return -1;
		s->table[0] = record_parquet_new(&s->out[0], o->symbols);
		return s->table[0] ? 0 : -1;
	}
	static const char *const names[CLASS_COUNT] = { "ldst.parquet", "br.parquet", "other.parquet" };
	if (cli_outset_open(&s->set, "decode", o->out_path, names, CLASS_COUNT) != 0)
		return -1;
	s->split = 1;
	for (int c = 0; c < CLASS_COUNT; c++) {
		char name[32];
		snprintf(name, sizeof(name), "%s.parquet", record_class_name((enum record_class)c));
		if (cli_outset_add(&s->set, &s->out[c], name) != 0)
			return -1;
		s->n_out = c + 1;
		s->table[c] = record_parquet_new(&s->out[c], o->symbols);
		if (!s->table[c])
			return -1;
	}
	return 0;
}

struct decode_sink *decode_sink_open(const struct decode_sink_opts *o)
{
	struct decode_sink *s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "armprof decode: out of memory\n");
		return NULL;
	}
	s->parquet = o->parquet;
	s->spe_parser = o->spe_parser;
	s->symbols = o->symbols;
	s->packets = o->packets;
	int rc;
	if (o->parquet) {
		rc = open_parquet(s, o);
	} else {
		s->n_out = 1;
		rc = cli_output_open(&s->out[0], "decode", o->out_path);
		if (rc == 0) {
			/* standard output: record_writer's write() to its descriptor;
			 * a file (a stream without one) through cli_output_write */
			s->writer = s->out[0].f == stdout
			                ? record_writer_new(stdout, o->fmt)
			                : record_writer_new_fn(write_out, &s->out[0], o->fmt);
			if (!s->writer) {
				fprintf(stderr, "armprof decode: out of memory\n");
				rc = -1;
			} else if (o->fmt == FMT_CSV && !o->packets) {
				record_format_header(s->out[0].f, o->fmt);
			}
		}
	}
	if (rc != 0) {
		decode_sink_close(s, 0);
		return NULL;
	}
	decode_sink_set_encoding(s, o->encoding);
	return s;
}

void decode_sink_put(struct decode_sink *s, const struct ap_record *rec,
                     const struct record_origin *origin)
{
	if (s->packets || s->failed)
		return;
	if (!s->parquet) {
		record_writer_put(s->writer, rec);
		return;
	}
	int c = s->n_out == 1 ? 0 : (int)record_class_of(rec);
	if (record_parquet_put(s->table[c], rec, origin) != 0)
		s->failed = 1;
	if (++s->group_records == DECODE_GROUP_RECORDS)
		decode_sink_end_buffer(s);
}

void decode_sink_put_bytes(struct decode_sink *s, const void *data, size_t len)
{
	if (s->failed)
		return;
	if (s->writer)
		record_writer_flush(s->writer);
	if (cli_output_write(&s->out[0], data, len) != 0)
		s->failed = 1;
}

void decode_sink_set_encoding(struct decode_sink *s, enum ap_ds_encoding enc)
{
	s->enc = enc;
	if (s->writer)
		record_writer_set_encoding(s->writer, enc);
	for (int c = 0; c < s->n_out; c++)
		if (s->table[c])
			record_parquet_set_encoding(s->table[c], enc);
}

enum ap_ds_encoding decode_sink_encoding(const struct decode_sink *s)
{
	return s->enc;
}

void decode_sink_end_buffer(struct decode_sink *s)
{
	s->group_records = 0;
	for (int c = 0; s->parquet && c < s->n_out; c++)
		if (record_parquet_end_group(s->table[c]) != 0)
			s->failed = 1;
}

int decode_sink_new_tables(const struct decode_sink *s, struct record_parquet **tables)
{
	for (int c = 0; c < s->n_out; c++) {
		tables[c] = s->spe_parser ? record_parquet_new_spe_parser(NULL, (enum record_class)c)
		                          : record_parquet_new(NULL, s->symbols);
		if (!tables[c])
			return -1;
		record_parquet_set_encoding(tables[c], s->enc);
	}
	return 0;
}

int decode_sink_is_split(const struct decode_sink *s)
{
	return s->n_out > 1;
}

void decode_sink_put_tables(struct decode_sink *s, struct record_parquet **tables)
{
	for (int c = 0; c < s->n_out; c++)
		if (!s->failed && record_parquet_append(s->table[c], tables[c]) != 0)
			s->failed = 1;
}

FILE *decode_sink_stream(struct decode_sink *s)
{
	return s->parquet ? NULL : s->out[0].f;
}

int decode_sink_is_text(const struct decode_sink *s)
{
	return !s->parquet;
}

int decode_sink_close(struct decode_sink *s, int ok)
{
	if (!s)
		return -1;
	ok = ok && !s->failed;
	if (s->writer) {
		record_writer_flush(s->writer);
		int err = record_writer_failed(s->writer);
		if (err && s->out[0].f == stdout) /* else cli_output_close tells why */
			fprintf(stderr, "armprof decode: standard output: write failed: %s\n", strerror(err));
		if (err)
			ok = 0;
		record_writer_free(s->writer);
	}
	for (int c = 0; c < s->n_out; c++)
		if (s->table[c] && ok && record_parquet_finish(s->table[c]) != 0)
			ok = 0;
	/* all or nothing: every output is closed with the same verdict */
	int rc = 0;
	for (int c = 0; c < s->n_out; c++) {
		if (cli_output_close(&s->out[c], "decode", ok) != 0)
			rc = -1;
		record_parquet_free(s->table[c]);
	}
	if (s->split && cli_outset_close(&s->set, ok && rc == 0) != 0)
		rc = -1;
	free(s);
	return ok ? rc : -1;
}

/* armprof convert, raw SPE -> perf.data, streaming: the input is read a
 * chunk at a time and written as AUX buffers that end where records end
 * (the SPE driver never splits a record across AUX buffers), so that an
 * input of any length, a pipe or one that never ends, holds at most one
 * buffer in memory. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"
#include "armprof/report.h"
#include "cli_io.h"
#include "commands.h"
#include "convert_opts.h"

#define READ_CHUNK (1u << 20)

/* The bytes read: buf[0] is input offset buf_base, base is where the
 * bytes not yet written start. A cut is decided when a record ends past
 * base + limit: at the last record end within the limit (cand), or, for a
 * record longer than the limit, where it ends (kept whole). Cuts are
 * written during the decoder's callbacks (the bytes stay where they are);
 * the buffer is compacted between feeds. */
struct stream {
	const struct convert_opts *o;
	struct ap_perf_writer *w;
	uint8_t *buf;
	size_t have, cap, limit;
	uint64_t buf_base, base, cand; /* cand: a record end in (base, base + limit], or 0 */
	int rc;                        /* first writer error */
};

static void emit(struct stream *s, uint64_t end)
{
	if (!s->rc && end > s->base)
		s->rc = ap_perf_write_aux(s->w, s->o->cpu, s->o->pid, s->o->tid, s->buf + (s->base - s->buf_base),
		                          (size_t)(end - s->base), 0, 0);
	s->base = end;
	s->cand = 0;
}

static void compact(struct stream *s)
{
	size_t done = (size_t)(s->base - s->buf_base);
	memmove(s->buf, s->buf + done, s->have - done);
	s->have -= done;
	s->buf_base = s->base;
}

static int on_record_end(void *ctx, const struct ap_record *rec)
{
	struct stream *s = ctx;
	uint64_t end = rec->offset + rec->size;
	if (end - s->base > s->limit) {
		emit(s, s->cand ? s->cand : end);
		if (end - s->base > s->limit) /* still too long: the record alone */
			emit(s, end);
	}
	if (end > s->base)
		s->cand = end;
	return 0;
}

static int write_mmaps(struct ap_perf_writer *w, const struct convert_opts *o)
{
	struct ap_perf_elf_map maps[16];
	struct ap_error_ctx err = { 0 };
	/* The binary is taken as report and decode take it (an AArch64 ELF file
	 * that reads whole, a regular file), and refused as they refuse it:
	 * a --binary that cannot be used is a usage error, exit 2. */
	struct ap_report *check = NULL;
	int rc = ap_report_create(&check);
	if (rc == 0)
		rc = ap_report_load_binary(check, o->binary, 0, &err);
	ap_report_destroy(check);
	if (rc < 0) {
		fprintf(stderr, "armprof convert: --binary: %s\n", err.message[0] ? err.message : ap_errstr(rc));
		return EXIT_USAGE;
	}
	int n = ap_perf_elf_exec_maps(o->binary, maps, 16, &err);
	if (n < 0) {
		fprintf(stderr, "armprof convert: --binary: %s: %s\n", o->binary, err.message);
		return EXIT_USAGE;
	}
	if (n == 0) {
		fprintf(stderr, "armprof convert: --binary: %s: no executable segment\n", o->binary);
		return EXIT_USAGE;
	}
	/* perf opens the file named in the MMAP2 record: give an absolute path */
	char full[PATH_MAX];
	const char *name = realpath(o->binary, full) ? full : o->binary;
	for (int i = 0; i < n && i < 16; i++)
		if (ap_perf_write_mmap2(w, o->pid, o->tid, maps[i].addr + o->load_bias, maps[i].len,
		                        maps[i].pgoff, maps[i].prot, name, 0) != 0)
			return -1;
	return 0;
}

/* The writer and the side-band: 0, or an exit status (printed); a write
 * error is left in s->rc for ap_perf_writer_finish to name. */
static int open_writer(struct stream *s, const struct cli_output *out)
{
	const struct convert_opts *o = s->o;
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.midr = o->midr;
	cfg.pmu_type = o->pmu_type;
	cfg.nr_cpus = o->cpu >= 0 ? (uint32_t)o->cpu + 1 : 1;
	struct ap_error_ctx err;
	if (ap_perf_writer_create_fd(&s->w, out->fd, &cfg, &err) != 0) {
		fprintf(stderr, "armprof convert: %s: %s\n", o->out, err.message);
		return EXIT_USAGE;
	}
	const char *comm = o->comm;
	if (!comm && o->binary) {
		const char *slash = strrchr(o->binary, '/');
		comm = slash ? slash + 1 : o->binary;
	}
	s->rc = ap_perf_write_comm(s->w, o->pid, o->tid, comm ? comm : "armprof", 0);
	int rc = 0;
	if (!s->rc && o->binary) {
		rc = write_mmaps(s->w, o);
		if (rc < 0) {
			s->rc = -AP_ERR_IO;
			rc = 0;
		}
	}
	return rc;
}

/* Read, decode for the record ends, cut: 0, or an exit status (printed). */
static int pump(struct stream *s, FILE *in, struct ap_decoder *dec)
{
	for (;;) {
		size_t want = s->cap - s->have < READ_CHUNK ? s->cap - s->have : READ_CHUNK;
		size_t n = fread(s->buf + s->have, 1, want, in);
		if (n == 0)
			break;
		s->have += n;
		if (ap_decoder_feed(dec, s->buf + s->have - n, n) != 0) {
			fprintf(stderr, "armprof convert: out of memory\n");
			return EXIT_USAGE;
		}
		if (cli_no_record_stop("convert", s->o->in, dec))
			return EXIT_DATA_ERROR;
		/* A full buffer with no record end to cut at (not SPE records):
		 * cut at the limit, so that memory stays bounded. */
		if (s->have == s->cap && s->base == s->buf_base)
			emit(s, s->cand ? s->cand : s->base + s->limit);
		compact(s);
		if (s->rc)
			return 0;
	}
	if (ferror(in)) {
		fprintf(stderr, "armprof convert: %s: read error: %s\n", s->o->in, strerror(errno));
		return EXIT_USAGE;
	}
	ap_decoder_finish(dec);
	if (s->buf_base + s->have - s->base > s->limit && s->cand)
		emit(s, s->cand);
	emit(s, s->buf_base + s->have);
	return 0;
}

int convert_raw_to_perf(const struct convert_opts *o)
{
	struct stream s = { .o = o };
	s.limit = o->buffer_size ? (size_t)o->buffer_size : CONVERT_DEFAULT_BUFFER;
	if (o->buffer_size > SIZE_MAX - READ_CHUNK) {
		fprintf(stderr, "armprof convert: --buffer-size %llu: too large\n", (unsigned long long)o->buffer_size);
		return EXIT_USAGE;
	}
	s.cap = s.limit + READ_CHUNK;
	FILE *in = cli_open_input("convert", o->in);
	if (!in)
		return EXIT_USAGE;
	s.buf = malloc(s.cap);
	struct cli_output out;
	int rc = EXIT_USAGE;
	if (!s.buf) {
		fprintf(stderr, "armprof convert: out of memory (--buffer-size %zu)\n", s.limit);
	} else if (cli_output_open_seekable(&out, "convert", o->out) == 0) {
		rc = open_writer(&s, &out);
		if (rc == 0 && !s.rc) {
			struct ap_decoder_config dc;
			ap_decoder_config_init(&dc);
			dc.on_record = on_record_end;
			dc.ctx = &s;
			/* the later architecture's packets are SPE data too */
			dc.spe_later = 1;
			struct ap_decoder dec;
			ap_decoder_init(&dec, &dc);
			rc = pump(&s, in, &dec);
			/* Bytes that are no SPE stream are refused whatever their
			 * length (the output is removed), as the 64 MiB stop does. */
			if (!rc && cli_not_spe_data("convert", o->in, &dec))
				rc = EXIT_DATA_ERROR;
			if (!rc && !ap_decoder_stats(&dec)->bytes)
				fprintf(stderr, "armprof convert: %s: warning: the input is empty: a perf.data without "
				        "SPE data\n", o->in);
		}
		struct ap_error_ctx err;
		if (rc == 0 && s.rc == -AP_ERR_NOMEM) {
			fprintf(stderr, "armprof convert: out of memory\n");
			rc = EXIT_USAGE;
		}
		/* finish names a write error that happened on the way too */
		if (rc == 0 && ap_perf_writer_finish(s.w, &err) != 0) {
			fprintf(stderr, "armprof convert: %s: %s\n", o->out, err.message);
			rc = EXIT_USAGE;
		} else if (rc != 0 && s.w) {
			ap_perf_writer_destroy(s.w);
		}
		if (cli_output_close(&out, "convert", rc == 0) != 0 && rc == 0)
			rc = EXIT_USAGE;
	}
	free(s.buf);
	if (in != stdin)
		fclose(in);
	return rc;
}

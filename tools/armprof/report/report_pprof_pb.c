/* The protobuf encoding and the gzip stream of `armprof report --format
 * pprof`: see report_pprof_pb.h. */
#include "report_pprof_pb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_tmpfiles.h"
#include "report_pprof_samples.h"

/* Room for n more bytes: 0, or -1 (b->oom). */
static int pb_room(struct pb *b, size_t n)
{
	if (b->len + n <= b->cap)
		return 0;
	if (b->oom || report_pprof_reserve((void **)&b->p, &b->cap, b->len + n, 1) < 0)
		return b->oom = 1, -1;
	return 0;
}

static void pb_raw(struct pb *b, const void *d, size_t n)
{
	if (pb_room(b, n) == 0) {
		memcpy(b->p + b->len, d, n);
		b->len += n;
	}
}

void pb_varint(struct pb *b, uint64_t v)
{
	if (v < 0x80 && b->len < b->cap) { /* most: tags, lengths, counts */
		b->p[b->len++] = (uint8_t)v;
		return;
	}
	if (pb_room(b, 10) < 0)
		return;
	uint8_t *t = b->p + b->len;
	while (v > 0x7F) {
		*t++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*t++ = (uint8_t)v;
	b->len = (size_t)(t - b->p);
}

void pb_int(struct pb *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(b, (uint64_t)field << 3);
	pb_varint(b, v);
}

void pb_bytes(struct pb *b, unsigned field, const void *d, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	pb_raw(b, d, n);
}

void pb_free(struct pb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static int stream_fail(struct pprof_stream *s, const char *what, int e)
{
	if (!s->failed)
		fprintf(stderr, "armprof report: pprof: %s%s%s\n", what, e ? ": " : "", e ? strerror(e) : "");
	s->failed = 1;
	return -1;
}

int pprof_stream_init(struct pprof_stream *s)
{
	memset(s, 0, sizeof(*s));
	if (deflateInit2(&s->z, 1, Z_DEFLATED, 15 + 16 /* gzip */, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return stream_fail(s, "zlib: cannot start a gzip stream", 0);
	s->z_open = 1;
	return 0;
}

/* n deflated bytes to where they go now. */
static int put(struct pprof_stream *s, const uint8_t *d, size_t n)
{
	if (s->out) /* a failed write: cli_output_close says why */
		return cli_output_write(s->out, d, n) == 0 ? 0 : (s->failed = 1, -1);
	if (!s->spool) {
		int fd = cli_tmp_spool("report", "--format pprof", "pprof", "the profile");
		if (fd < 0 || !(s->spool = fdopen(fd, "w+"))) {
			if (fd >= 0)
				close(fd);
			s->failed = 1; /* cli_tmp_spool printed why, or fdopen had no memory */
			return -1;
		}
	}
	errno = 0;
	return fwrite(d, 1, n, s->spool) == n ? 0 : stream_fail(s, "temporary file: write failed", errno ? errno : EIO);
}

int pprof_stream_drain(struct pprof_stream *s, int finish)
{
	if (s->top.oom)
		return stream_fail(s, "out of memory", 0);
	if (s->failed)
		return -1;
	uint8_t buf[1 << 16];
	s->z.next_in = s->top.p;
	s->z.avail_in = (uInt)s->top.len;
	int rc;
	do {
		s->z.next_out = buf;
		s->z.avail_out = sizeof(buf);
		rc = deflate(&s->z, finish ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR)
			return stream_fail(s, "zlib: deflate failed", 0);
		size_t n = sizeof(buf) - s->z.avail_out;
		if (n && put(s, buf, n) != 0)
			return -1;
	} while (s->z.avail_out == 0 || (finish && rc != Z_STREAM_END));
	s->top.len = 0;
	return 0;
}

void pprof_stream_emit(struct pprof_stream *s, unsigned field, struct pb *msg)
{
	pb_bytes(&s->top, field, msg->p, msg->len);
	if (msg->oom)
		s->top.oom = 1;
	msg->len = 0;
	if (s->top.len >= (1u << 16))
		pprof_stream_drain(s, 0);
}

int pprof_stream_to_output(struct pprof_stream *s, struct cli_output *out)
{
	if (s->failed)
		return -1;
	if (s->spool) {
		uint8_t buf[1 << 16];
		size_t n;
		errno = 0;
		if (fflush(s->spool) != 0 || fseek(s->spool, 0, SEEK_SET) != 0)
			return stream_fail(s, "temporary file: write failed", errno ? errno : EIO);
		while ((n = fread(buf, 1, sizeof(buf), s->spool)) > 0)
			if (cli_output_write(out, buf, n) != 0)
				return s->failed = 1, -1;
		if (ferror(s->spool))
			return stream_fail(s, "temporary file: read failed", errno ? errno : EIO);
		fclose(s->spool);
		s->spool = NULL;
	}
	s->out = out;
	return 0;
}

void pprof_stream_fini(struct pprof_stream *s)
{
	if (s->z_open)
		deflateEnd(&s->z);
	if (s->spool)
		fclose(s->spool);
	pb_free(&s->top);
	memset(s, 0, sizeof(*s));
}

/* The writer's byte output, beneath writer.c, write_sample.c and
 * write_features.c (writer_internal.h): every byte of the file goes through
 * pd_w_bytes, which counts the position and keeps the first I/O error. */
#include <errno.h>
#include <stdio.h>

#include "perfdata/writer_internal.h"

/* Write n bytes at p to f, keeping the first error; nothing once failed. */
static void put(struct ap_perf_writer *w, const void *p, size_t n)
{
	if (w->failed || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n) {
		w->failed = 1;
		w->io_errno = errno;
	}
}

void pd_w_flush(struct ap_perf_writer *w)
{
	put(w, w->buf, w->buf_n);
	w->buf_n = 0;
}

void pd_w_spill(struct ap_perf_writer *w, const void *p, size_t n)
{
	pd_w_flush(w);
	if (n > sizeof(w->buf) / 2) { /* large: straight through */
		put(w, p, n);
	} else {
		memcpy(w->buf, p, n);
		w->buf_n = n;
	}
	w->pos += n;
}

int pd_w_seek(struct ap_perf_writer *w, uint64_t off)
{
	pd_w_flush(w);
	if (fseek(w->f, (long)off, SEEK_SET) != 0)
		return -1;
	w->pos = off;
	return 0;
}

void pd_w_zero(struct ap_perf_writer *w, size_t n)
{
	static const uint8_t z[64];
	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);
		pd_w_bytes(w, z, k);
		n -= k;
	}
}

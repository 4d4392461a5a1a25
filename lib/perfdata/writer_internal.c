/* The writer's byte output, beneath writer.c, write_sample.c and
 * write_features.c (writer_internal.h): every byte of the file goes through
 * pd_w_bytes, which counts the position and keeps the first I/O error. */
#include <errno.h>
#include <stdio.h>

#include "perfdata/writer_internal.h"

void pd_w_bytes(struct ap_perf_writer *w, const void *p, size_t n)
{
	if (w->failed || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n) {
		w->failed = 1;
		w->io_errno = errno;
	}
	w->pos += n;
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

/* PERF_RECORD_COMPRESSED payloads (`perf record -z`): zstd data, decoded as
 * one stream across records because perf splits a large frame over several
 * records. The output is appended to the reader's arena. */
#include <stdlib.h>
#include <zstd.h>

#include "perfdata/perf_internal.h"

static int grow(struct ap_perf_reader *r, size_t want, uint64_t offset, struct ap_error_ctx *err)
{
	if (r->arena_cap - r->arena_len >= want)
		return 0;
	size_t cap = r->arena_cap ? r->arena_cap : 1u << 16;
	while (cap - r->arena_len < want)
		cap *= 2;
	uint8_t *p = realloc(r->arena, cap);
	if (!p)
		return pd_fail(err, AP_ERR_NOMEM, offset, AP_PERF_RECORD_COMPRESSED,
		               "PERF_RECORD_COMPRESSED", "out of memory for %zu decompressed bytes", cap);
	r->arena = p;
	r->arena_cap = cap;
	return 0;
}

int pd_decompress(struct ap_perf_reader *r, const uint8_t *src, size_t len, uint64_t offset,
                  struct ap_error_ctx *err)
{
	const uint32_t T = AP_PERF_RECORD_COMPRESSED;
	if (!r->zstd) {
		r->zstd = ZSTD_createDStream();
		if (!r->zstd)
			return pd_fail(err, AP_ERR_NOMEM, offset, T, "PERF_RECORD_COMPRESSED", "out of memory");
		ZSTD_initDStream(r->zstd);
	}
	ZSTD_inBuffer in = { src, len, 0 };
	const size_t chunk = ZSTD_DStreamOutSize();
	for (;;) {
		int rc = grow(r, chunk, offset, err);
		if (rc)
			return rc;
		ZSTD_outBuffer out = { r->arena + r->arena_len, r->arena_cap - r->arena_len, 0 };
		size_t ret = ZSTD_decompressStream(r->zstd, &out, &in);
		if (ZSTD_isError(ret))
			return pd_fail(err, AP_ERR_FORMAT, offset, T, "PERF_RECORD_COMPRESSED",
			               "zstd data does not decompress: %s", ZSTD_getErrorName(ret));
		r->arena_len += out.pos;
		r->info.decompressed_bytes += out.pos;
		if (r->arena_len > r->cfg.max_decompressed)
			return pd_fail(err, AP_ERR_FORMAT, offset, T, "PERF_RECORD_COMPRESSED",
			               "decompressed data exceeds the %llu-byte limit",
			               (unsigned long long)r->cfg.max_decompressed);
		/* ret: 0 when a frame ended, else the input zstd wants next. perf
		 * record -z flushes (ZSTD_e_flush) after each batch but never ends
		 * its frame, so a complete file stops at a block boundary, where
		 * zstd asks for exactly a 3-byte block header; any other value at
		 * the end of the data means a block (and events) was cut. */
		r->zstd_in_frame = ret != 0 && ret != 3;
		if (in.pos == in.size && out.pos < out.size)
			return 0;
	}
}

void pd_zstd_free(struct ap_perf_reader *r)
{
	if (r->zstd)
		ZSTD_freeDStream(r->zstd);
	r->zstd = NULL;
}

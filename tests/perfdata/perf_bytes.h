/* Byte-level perf.data surgery for the tests: read a file, re-wrap the events
 * of an ap_perf_writer file as pipe mode (optionally with side-band inside
 * zstd PERF_RECORD_COMPRESSED records, split like perf record -z does), and
 * build the malformed files of issue 5 from a good one. */
#ifndef ARMPROF_TEST_PERF_BYTES_H
#define ARMPROF_TEST_PERF_BYTES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "armprof/perfdata.h"

struct pb_buf {
	uint8_t *p;
	size_t n, cap;
};

static inline void pb_put(struct pb_buf *o, const void *p, size_t n)
{
	if (o->n + n > o->cap) {
		o->cap = (o->n + n) * 2 + 64;
		o->p = realloc(o->p, o->cap);
		if (!o->p)
			abort();
	}
	memcpy(o->p + o->n, p, n);
	o->n += n;
}

static inline void pb_put_hdr(struct pb_buf *o, uint32_t type, size_t size)
{
	uint16_t misc = 0, sz = (uint16_t)size;
	pb_put(o, &type, 4);
	pb_put(o, &misc, 2);
	pb_put(o, &sz, 2);
}

static inline uint64_t pb_u64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline uint8_t *pb_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct pb_buf b = { 0 };
	uint8_t chunk[65536];
	size_t k;
	while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
		pb_put(&b, chunk, k);
	fclose(f);
	*len = b.n;
	return b.p;
}

static inline int pb_spit(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t w = fwrite(p, 1, n, f);
	return (fclose(f) == 0 && w == n) ? 0 : -1;
}

/* One zstd frame of ev[0..n) over COMPRESSED records of <= chunk bytes. */
static inline void pb_put_compressed(struct pb_buf *o, const uint8_t *ev, size_t n, size_t chunk)
{
	size_t cap = ZSTD_compressBound(n);
	uint8_t *z = malloc(cap);
	size_t zn = z ? ZSTD_compress(z, cap, ev, n, 3) : 0;
	if (!z || ZSTD_isError(zn))
		abort();
	for (size_t off = 0; off < zn; off += chunk) {
		size_t k = zn - off < chunk ? zn - off : chunk;
		pb_put_hdr(o, AP_PERF_RECORD_COMPRESSED, 8 + k);
		pb_put(o, z + off, k);
	}
	free(z);
}

/* File offset of the n-th (0-based) record of the given type in the data
 * section of a file-mode perf.data, or 0. */
static inline uint64_t pb_find_record(const uint8_t *f, size_t len, uint32_t type, unsigned nth)
{
	uint64_t off = pb_u64(f + 40), end = off + pb_u64(f + 48);
	while (off + 8 <= end && end <= len) {
		uint32_t t;
		uint16_t size;
		memcpy(&t, f + off, 4);
		memcpy(&size, f + off + 6, 2);
		if (t == type && nth-- == 0)
			return off;
		uint64_t total = size ? size : 8;
		if (t == AP_PERF_RECORD_AUXTRACE)
			total += pb_u64(f + off + 8);
		off += total;
	}
	return 0;
}

/* Pipe mode from a file written by ap_perf_writer (one attr, features ARCH,
 * NRCPUS, CPUID, EVENT_DESC first in its table): HEADER_ATTR and
 * HEADER_FEATURE records, then the data events; with compress, every run of
 * non-AUXTRACE events goes into COMPRESSED records of <= 40 payload bytes
 * (perf record -z leaves AUX data uncompressed). */
static inline uint8_t *pb_rewrap_pipe(const uint8_t *f, int compress, size_t *out_len)
{
	struct pb_buf o = { 0 }, pend = { 0 };
	uint64_t sixteen = 16;
	pb_put(&o, "PERFILE2", 8);
	pb_put(&o, &sixteen, 8);
	uint64_t attrs_off = pb_u64(f + 24), data_off = pb_u64(f + 40), data_size = pb_u64(f + 48);
	uint64_t ids_off = pb_u64(f + attrs_off + 128);
	pb_put_hdr(&o, AP_PERF_RECORD_HEADER_ATTR, 8 + 128 + 8);
	pb_put(&o, f + attrs_off, 128);
	pb_put(&o, f + ids_off, 8);
	uint64_t table = data_off + data_size;
	static const uint64_t feats[] = { AP_PERF_FEAT_ARCH, AP_PERF_FEAT_NRCPUS, AP_PERF_FEAT_CPUID,
		                              AP_PERF_FEAT_EVENT_DESC };
	for (unsigned i = 0; i < 4; i++) {
		uint64_t off = pb_u64(f + table + 16 * i), size = pb_u64(f + table + 16 * i + 8);
		pb_put_hdr(&o, AP_PERF_RECORD_HEADER_FEATURE, 16 + size);
		pb_put(&o, &feats[i], 8);
		pb_put(&o, f + off, size);
	}
	for (uint64_t pos = data_off; pos < data_off + data_size;) {
		uint32_t type;
		uint16_t size;
		memcpy(&type, f + pos, 4);
		memcpy(&size, f + pos + 6, 2);
		uint64_t total = size;
		if (type == AP_PERF_RECORD_AUXTRACE)
			total += pb_u64(f + pos + 8);
		if (compress && type != AP_PERF_RECORD_AUXTRACE) {
			pb_put(&pend, f + pos, total);
		} else {
			if (pend.n)
				pb_put_compressed(&o, pend.p, pend.n, 40);
			pend.n = 0;
			pb_put(&o, f + pos, total);
		}
		pos += total;
	}
	if (pend.n)
		pb_put_compressed(&o, pend.p, pend.n, 40);
	free(pend.p);
	*out_len = o.n;
	return o.p;
}

/* The malformed files of issue 5, each with what the reader must say. */
struct pb_malformed {
	const char *name;
	uint8_t *bytes;
	size_t len;
	int code;             /* expected -return of the open */
	uint64_t offset;      /* expected error offset */
	uint32_t record_type; /* expected record type (0: none) */
	const char *where;    /* expected substring of err.where */
	const char *msg;      /* expected substring of err.message */
};
#define PB_N_MALFORMED 9

/* Build them from good, a file ap_perf_writer wrote. Returns the count. */
static inline int pb_make_malformed(const uint8_t *good, size_t len, struct pb_malformed *m)
{
	int n = 0;
	uint8_t *c;
	uint64_t comm = pb_find_record(good, len, AP_PERF_RECORD_COMM, 0);
	uint64_t aux = pb_find_record(good, len, AP_PERF_RECORD_AUXTRACE, 0);

	c = malloc(50);
	memcpy(c, good, 50);
	m[n++] = (struct pb_malformed){ "truncated_header", c, 50, AP_ERR_FORMAT, 0, 0, "file header",
		                            "truncated header" };
	c = malloc(len);
	memcpy(c, good, len);
	memcpy(c, "PERFILE3", 8);
	m[n++] = (struct pb_malformed){ "bad_magic", c, len, AP_ERR_FORMAT, 0, 0, "file header", "bad magic" };

	c = malloc(len);
	memcpy(c, good, len);
	uint64_t bad_attr_size = 152;
	memcpy(c + 16, &bad_attr_size, 8);
	m[n++] = (struct pb_malformed){ "attr_size_mismatch", c, len, AP_ERR_FORMAT, pb_u64(good + 24), 0,
		                            "attrs", "attr size mismatch" };

	c = malloc(len);
	memcpy(c, good, len);
	uint16_t huge = 0xFFF8;
	memcpy(c + comm + 6, &huge, 2);
	m[n++] = (struct pb_malformed){ "record_past_end", c, len, AP_ERR_FORMAT, comm, AP_PERF_RECORD_COMM,
		                            "PERF_RECORD_COMM", "runs past the end" };

	c = malloc(len);
	memcpy(c, good, len);
	uint64_t big = pb_u64(good + 48);
	memcpy(c + aux + 8, &big, 8);
	m[n++] = (struct pb_malformed){ "auxtrace_payload_cut", c, len, AP_ERR_FORMAT, aux,
		                            AP_PERF_RECORD_AUXTRACE, "PERF_RECORD_AUXTRACE", "cut short" };

	/* pipe mode, the file ending inside the first AUXTRACE payload */
	size_t plen;
	uint8_t *pipe = pb_rewrap_pipe(good, 0, &plen);
	uint64_t paux = 0;
	for (uint64_t pos = 16; pos + 8 <= plen;) {
		uint32_t t;
		uint16_t sz;
		memcpy(&t, pipe + pos, 4);
		memcpy(&sz, pipe + pos + 6, 2);
		if (t == AP_PERF_RECORD_AUXTRACE) {
			paux = pos;
			break;
		}
		pos += sz;
	}
	m[n++] = (struct pb_malformed){ "pipe_auxtrace_truncated", pipe, (size_t)paux + 48 + 5, AP_ERR_FORMAT,
		                            paux, AP_PERF_RECORD_AUXTRACE, "PERF_RECORD_AUXTRACE", "cut short" };

	/* a COMPRESSED record whose bytes are not zstd, after the pipe header */
	struct pb_buf z = { 0 };
	pb_put(&z, pipe, 16);
	pb_put_hdr(&z, AP_PERF_RECORD_COMPRESSED, 8 + 16);
	pb_put(&z, "not a zstd frame", 16);
	m[n++] = (struct pb_malformed){ "bad_zstd_frame", z.p, z.n, AP_ERR_FORMAT, 16,
		                            AP_PERF_RECORD_COMPRESSED, "PERF_RECORD_COMPRESSED", "does not decompress" };

	/* a zstd frame that stops half way through a block: the file ends inside it */
	struct pb_buf h = { 0 }, full = { 0 };
	pb_put(&h, pipe, 16);
	pb_put_compressed(&full, good + 256, 200, 4096);
	size_t keep = 8 + (full.n - 8) / 2;
	uint16_t ksz = (uint16_t)keep;
	memcpy(full.p + 6, &ksz, 2);
	pb_put(&h, full.p, keep);
	free(full.p);
	m[n++] = (struct pb_malformed){ "zstd_frame_cut", h.p, h.n, AP_ERR_FORMAT, 16,
		                            AP_PERF_RECORD_COMPRESSED, "PERF_RECORD_COMPRESSED", "inside a zstd block" };

	/* a feature section that points past the end of the file */
	c = malloc(len);
	memcpy(c, good, len);
	uint64_t table = pb_u64(good + 40) + pb_u64(good + 48);
	uint64_t far = 1ull << 40;
	memcpy(c + table + 8, &far, 8);
	m[n++] = (struct pb_malformed){ "feature_past_end", c, len, AP_ERR_FORMAT, table, 0, "feature table",
		                            "runs past the end" };
	return n;
}

#endif

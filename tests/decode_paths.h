/* One stream through the decoder's two paths, for the property test
 * (tests/decode/test_decode_paths.c) and the fuzz target
 * (fuzz/fuzz_decode_paths.c).
 *
 * The fast path (fast_run and fuse_after_pc in lib/decode/decoder.c) runs
 * when no packet callback is set; the generic path (every packet through
 * the codec's pd_decode and ap_record_apply) when one is. Both must give the
 * same records and the same counts, however the stream is cut into chunks. */
#ifndef ARMPROF_TEST_DECODE_PATHS_H
#define ARMPROF_TEST_DECODE_PATHS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"

struct dp_run {
	struct ap_record *recs;
	size_t n, cap;
	int nomem;
	struct ap_decoder_stats stats;
};

static int dp_on_record(void *ctx, const struct ap_record *r)
{
	struct dp_run *run = ctx;
	if (run->n == run->cap) {
		size_t cap = run->cap ? 2 * run->cap : 64;
		struct ap_record *p = realloc(run->recs, cap * sizeof(*p));
		if (!p) {
			run->nomem = 1;
			return 1;
		}
		run->recs = p;
		run->cap = cap;
	}
	run->recs[run->n++] = *r;
	return 0;
}

/* Setting it is what sends every packet through the generic path. */
static int dp_on_packet(void *ctx, uint64_t off, const uint8_t *bytes, const struct ap_packet *p,
                        int in_record)
{
	(void)ctx, (void)off, (void)bytes, (void)p, (void)in_record;
	return 0;
}

/* Decode data[0..size) through one path, fed in chunks whose sizes cycle
 * through chunks[0..n_chunks) (n_chunks 0: all at once). */
static void dp_decode(struct dp_run *run, const uint8_t *data, size_t size, int generic,
                      const size_t *chunks, size_t n_chunks, uint64_t base_offset,
                      uint32_t max_record_bytes)
{
	memset(run, 0, sizeof(*run));
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = dp_on_record;
	cfg.on_packet = generic ? dp_on_packet : NULL;
	cfg.ctx = run;
	cfg.base_offset = base_offset;
	cfg.max_record_bytes = max_record_bytes;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	size_t off = 0;
	for (size_t k = 0; off < size; k++) {
		size_t len = n_chunks ? chunks[k % n_chunks] : size;
		if (len == 0 || len > size - off)
			len = size - off;
		ap_decoder_feed(&dec, data + off, len);
		off += len;
	}
	ap_decoder_finish(&dec);
	run->stats = *ap_decoder_stats(&dec);
}

static void dp_free(struct dp_run *run)
{
	free(run->recs);
	memset(run, 0, sizeof(*run));
}

/* A new field of struct ap_record must be compared below. */
_Static_assert(sizeof(struct ap_record) == 264, "struct ap_record changed: update dp_record_diff");
_Static_assert(sizeof(struct ap_decoder_stats) == 10 * sizeof(uint64_t),
               "struct ap_decoder_stats changed: update dp_diff");

/* The first field in which a and b differ, or NULL. Every field, except
 * the entries past n_errors / n_impdef (unspecified, see record.h). */
static const char *dp_record_diff(const struct ap_record *a, const struct ap_record *b)
{
#define DP_FIELD(f)              \
	if (a->f != b->f)        \
		return #f;
	DP_FIELD(offset) DP_FIELD(size) DP_FIELD(has) DP_FIELD(pc) DP_FIELD(el) DP_FIELD(ns)
	DP_FIELD(target) DP_FIELD(target_el) DP_FIELD(target_ns) DP_FIELD(vaddr) DP_FIELD(paddr)
	DP_FIELD(prev_target) DP_FIELD(prev_target_el) DP_FIELD(prev_target_ns)
	DP_FIELD(pa_ns) DP_FIELD(op_class) DP_FIELD(op_subclass) DP_FIELD(events)
	DP_FIELD(events_size) DP_FIELD(lat_total) DP_FIELD(lat_issue) DP_FIELD(lat_xlat) DP_FIELD(ts)
	DP_FIELD(ctx_el1) DP_FIELD(ctx_el2) DP_FIELD(data_source) DP_FIELD(data_source_size)
	DP_FIELD(end) DP_FIELD(n_errors) DP_FIELD(n_errors_total) DP_FIELD(n_impdef)
	for (unsigned i = 0; i < a->n_errors && i < AP_RECORD_MAX_ERRORS; i++) {
		DP_FIELD(errors[i].offset) DP_FIELD(errors[i].kind) DP_FIELD(errors[i].hdr0)
		DP_FIELD(errors[i].hdr1)
	}
	for (unsigned i = 0; i < a->n_impdef && i < AP_RECORD_MAX_IMPDEF; i++) {
		DP_FIELD(impdef[i].is_counter) DP_FIELD(impdef[i].index) DP_FIELD(impdef[i].value)
	}
#undef DP_FIELD
	return NULL;
}

/* Where two runs differ ("records 3: pc", "stats: packets", ...) into buf,
 * or NULL when they agree. */
static const char *dp_diff(const struct dp_run *a, const struct dp_run *b, char *buf, size_t len)
{
	if (a->nomem || b->nomem)
		return "out of memory";
	if (a->n != b->n) {
		snprintf(buf, len, "record count %zu against %zu", a->n, b->n);
		return buf;
	}
	for (size_t i = 0; i < a->n; i++) {
		const char *f = dp_record_diff(&a->recs[i], &b->recs[i]);
		if (f) {
			snprintf(buf, len, "record %zu (offset %llu): %s", i,
			         (unsigned long long)a->recs[i].offset, f);
			return buf;
		}
	}
#define DP_STAT(f)                                             \
	if (a->stats.f != b->stats.f) {                        \
		snprintf(buf, len, "stats.%s: %llu against %llu", #f, \
		         (unsigned long long)a->stats.f, (unsigned long long)b->stats.f); \
		return buf;                                    \
	}
	DP_STAT(bytes) DP_STAT(packets) DP_STAT(records) DP_STAT(pad_bytes) DP_STAT(align_bytes)
	DP_STAT(unknown_packets) DP_STAT(reserved_packets) DP_STAT(truncated_records)
	DP_STAT(forced_records) DP_STAT(records_with_errors)
#undef DP_STAT
	return NULL;
}

#endif

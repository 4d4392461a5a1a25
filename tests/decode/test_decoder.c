/* The streaming decoder: record framing (SPE-5.1.2-1), framing between records
 * (SPE-5.1.4-2), alignment by stream offset (SPE-5.3.2-10), unknown packets
 * skipped by size (SPE-5.1.4-4), truncation, and chunking. */
#include <stdlib.h>

#include "armprof/asm.h"
#include "armprof/decode.h"
#include "harness.h"
#include "random_record.h"

#define MAX_RECS 64

struct got {
	struct ap_record recs[MAX_RECS];
	size_t n, packets, framing;
	int stop_after;
};

static int on_record(void *ctx, const struct ap_record *rec)
{
	struct got *g = ctx;
	if (g->n < MAX_RECS)
		g->recs[g->n] = *rec;
	g->n++;
	return g->stop_after && (int)g->n >= g->stop_after;
}

static int on_packet(void *ctx, uint64_t off, const uint8_t *bytes, const struct ap_packet *p,
                     int in_record)
{
	struct got *g = ctx;
	g->packets++;
	if (!in_record)
		g->framing++;
	return 0;
}

/* Decode text-format input fed in chunks of `chunk` bytes (0: at once). */
static struct ap_decoder decode_text(const char *text, struct got *g, size_t chunk, uint64_t base)
{
	uint8_t *bytes;
	size_t n;
	struct ap_error_ctx err;
	memset(g, 0, sizeof(*g));
	struct ap_decoder dec;
	if (ap_asm_assemble(text, strlen(text), base, &bytes, &n, &err) != 0) {
		fprintf(stderr, "asm line %u: %s\n", err.line, err.message);
		CHECK(0);
		memset(&dec, 0, sizeof(dec));
		return dec;
	}
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.on_packet = on_packet;
	cfg.ctx = g;
	cfg.base_offset = base;
	ap_decoder_init(&dec, &cfg);
	if (!chunk)
		chunk = n ? n : 1;
	for (size_t off = 0; off < n; off += chunk)
		ap_decoder_feed(&dec, bytes + off, off + chunk > n ? n - off : chunk);
	ap_decoder_finish(&dec);
	free(bytes);
	return dec;
}

/* SPE-5.1.2-1, SPE-5.3.6-1, SPE-5.3.10-2: a record ends at End or Timestamp */
TEST(records_end_at_end_or_timestamp)
{
	struct got g;
	struct ap_decoder d = decode_text("pc 0x10 el=0; op ld; end\npc 0x20 el=1; op b; ts 99\n", &g, 0, 0);
	CHECK_EQ_U64(g.n, 2);
	CHECK_EQ_U64(g.recs[0].end, AP_END_END);
	CHECK_EQ_U64(g.recs[0].offset, 0);
	CHECK_EQ_U64(g.recs[0].size, 12);
	CHECK_EQ_U64(g.recs[1].end, AP_END_TIMESTAMP);
	CHECK_EQ_U64(g.recs[1].ts, 99);
	CHECK_EQ_U64(g.recs[1].offset, 12);
	CHECK_EQ_U64(g.recs[1].pc, 0x20);
	CHECK_EQ_U64(g.recs[1].el, 1);
	CHECK_EQ_U64(d.stats.records_with_errors, 0);
}

/* SPE-5.1.4-2, SPE-5.3.9-1: padding between records stays out of records */
TEST(padding_between_records)
{
	struct got g;
	struct ap_decoder d = decode_text("pad 5; pc 0x10; end; pad 3; pc 0x20; end; pad 2", &g, 0, 0);
	CHECK_EQ_U64(g.n, 2);
	CHECK_EQ_U64(g.recs[0].offset, 5);
	CHECK_EQ_U64(g.recs[1].offset, 5 + 10 + 3);
	CHECK_EQ_U64(d.stats.pad_bytes, 10);
	CHECK_EQ_U64(g.framing, 10);
	CHECK_EQ_U64(d.stats.records_with_errors, 0);
}

/* SPE-5.3.2-1, SPE-5.3.2-9, SPE-5.3.2-10: alignment skips UNKNOWN bytes up to the
 * boundary computed from the stream offset, not the host pointer; the decoder
 * does not need to know PMBIDR_EL1.Align (SPE-5.1.4-3) */
TEST(alignment_by_stream_offset)
{
	struct got g;
	/* fill bytes 0x01 would be End packets if they were not skipped */
	const char *text = "pc 0x10; end; align 64 fill=0x01; pc 0x20; end";
	struct ap_decoder d = decode_text(text, &g, 0, 0);
	CHECK_EQ_U64(g.n, 2);
	CHECK_EQ_U64(g.recs[1].offset, 64);
	CHECK_EQ_U64(g.recs[1].pc, 0x20);
	CHECK_EQ_U64(d.stats.align_bytes, 64 - 12);
	/* the same text assembled at stream offset 40: the boundary moves */
	d = decode_text(text, &g, 0, 40);
	CHECK_EQ_U64(g.n, 2);
	CHECK_EQ_U64(g.recs[1].offset, 64);
	CHECK_EQ_U64(d.stats.align_bytes, 64 - 52);
	/* and byte by byte */
	d = decode_text(text, &g, 1, 40);
	CHECK_EQ_U64(g.n, 2);
	CHECK_EQ_U64(g.recs[1].offset, 64);
}

/* SPE-5.1.4-4, SPE-5.1-1: unknown packets and reserved values are skipped by the
 * size in their header and reported; the fields around them survive */
TEST(unknown_and_reserved_packets_skipped_by_size)
{
	struct got g;
	struct ap_decoder d = decode_text(
		"pc 0x10; bytes 0x61 1 2 3 4; addr 4 0x55; op raw 3 0; lat total 9; bytes 0x20 0x7f 1 2 3 4 5 6 7 8; end",
		&g, 0, 0);
	CHECK_EQ_U64(g.n, 1);
	CHECK_EQ_U64(g.recs[0].pc, 0x10);
	CHECK_EQ_U64(g.recs[0].lat_total, 9);
	CHECK(!(g.recs[0].has & AP_HAS_OP)); /* reserved CLASS is ignored */
	CHECK_EQ_U64(g.recs[0].n_errors_total, 4);
	CHECK_EQ_U64(g.recs[0].errors[0].kind, AP_DERR_UNKNOWN_PACKET);
	CHECK_EQ_U64(g.recs[0].errors[0].offset, 9);
	CHECK_EQ_U64(g.recs[0].errors[1].kind, AP_DERR_RESERVED_VALUE);
	CHECK_EQ_U64(g.recs[0].errors[2].kind, AP_DERR_RESERVED_VALUE);
	CHECK_EQ_U64(g.recs[0].errors[3].kind, AP_DERR_UNKNOWN_PACKET);
	CHECK_EQ_U64(g.recs[0].end, AP_END_END);
	CHECK_EQ_U64(d.stats.unknown_packets, 2);
	CHECK_EQ_U64(d.stats.reserved_packets, 2);
}

/* IMPLEMENTATION DEFINED addresses and counters (SPE-5.4-1) are kept as values */
TEST(impdef_values_kept)
{
	struct got g;
	decode_text("pc 0x10; addr 6 0x1234; lat 17 5; end", &g, 0, 0);
	CHECK_EQ_U64(g.n, 1);
	CHECK_EQ_U64(g.recs[0].n_impdef, 2);
	CHECK_EQ_U64(g.recs[0].impdef[0].index, 6);
	CHECK_EQ_U64(g.recs[0].impdef[0].value, 0x1234);
	CHECK_EQ_U64(g.recs[0].impdef[1].is_counter, 1);
	CHECK_EQ_U64(g.recs[0].impdef[1].index, 17);
	CHECK_EQ_U64(g.recs[0].n_errors_total, 0);
}

/* A stream cut inside a packet or a record: the last record is marked truncated */
TEST(truncation)
{
	struct got g;
	struct ap_decoder d = decode_text("pc 0x10; end; pc 0x20; op ld", &g, 0, 0);
	CHECK_EQ_U64(g.n, 2);
	CHECK_EQ_U64(g.recs[1].end, AP_END_NONE);
	CHECK_EQ_U64(g.recs[1].errors[0].kind, AP_DERR_TRUNCATED);
	CHECK_EQ_U64(g.recs[1].errors[0].offset, 10 + 11);
	CHECK_EQ_U64(d.stats.truncated_records, 1);
	/* cut inside the PC packet's payload: 0xb0 and 3 payload bytes */
	d = decode_text("pc 0x10; end; bytes 0xb0 1 2 3", &g, 1, 0);
	CHECK_EQ_U64(g.n, 2);
	CHECK_EQ_U64(g.recs[1].offset, 10);
	CHECK_EQ_U64(g.recs[1].errors[0].kind, AP_DERR_TRUNCATED);
	CHECK_EQ_U64(g.recs[1].errors[0].offset, 10);
	CHECK_EQ_U64(g.recs[1].n_errors_total, 1);
	/* a 16-bit header cut after its prefix byte */
	d = decode_text("bytes 0x20", &g, 0, 0);
	CHECK_EQ_U64(g.n, 1);
	CHECK_EQ_U64(g.recs[0].end, AP_END_NONE);
}

/* A lost End byte cannot swallow the stream: records are cut at max_record_bytes */
TEST(runaway_record_is_cut)
{
	char text[4096] = "";
	for (int i = 0; i < 70; i++)
		strcat(text, "lat total 1;");
	strcat(text, "end; pc 0x30; end");
	uint8_t *bytes;
	size_t n;
	struct ap_error_ctx err;
	CHECK_EQ_U64(ap_asm_assemble(text, strlen(text), 0, &bytes, &n, &err), 0);
	struct got g;
	memset(&g, 0, sizeof(g));
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.ctx = &g;
	cfg.max_record_bytes = 60;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, bytes, n);
	ap_decoder_finish(&dec);
	free(bytes);
	CHECK_EQ_U64(g.n, 5);
	CHECK_EQ_U64(g.recs[0].end, AP_END_FORCED);
	CHECK_EQ_U64(g.recs[0].errors[g.recs[0].n_errors - 1].kind, AP_DERR_TOO_LONG);
	CHECK_EQ_U64(g.recs[g.n - 1].pc, 0x30);
	CHECK_EQ_U64(g.recs[g.n - 1].end, AP_END_END);
	CHECK_EQ_U64(dec.stats.forced_records, 3);
}

/* Duplicate fields are reported; the last one wins */
TEST(duplicate_field)
{
	struct got g;
	decode_text("pc 0x10; pc 0x20; end", &g, 0, 0);
	CHECK_EQ_U64(g.recs[0].pc, 0x20);
	CHECK_EQ_U64(g.recs[0].errors[0].kind, AP_DERR_DUPLICATE);
}

/* Addresses: PC sign-extended from bit 55 (SPE-5.3.1-23), VA with TAG kept */
TEST(address_forms)
{
	struct got g;
	decode_text("pc 0xff800010a2b3c4 el=1; va 0x5a00ffffabcd0123; pa 0x1234 ns=0; tgt 0x10 el=2 ns=0; end",
	            &g, 0, 0);
	CHECK_EQ_U64(g.recs[0].pc, 0xffff800010a2b3c4ull);
	CHECK_EQ_U64(g.recs[0].vaddr, 0x5a00ffffabcd0123ull);
	CHECK_EQ_U64(g.recs[0].paddr, 0x1234);
	CHECK_EQ_U64(g.recs[0].pa_ns, 0);
	CHECK_EQ_U64(g.recs[0].target, 0x10);
	CHECK_EQ_U64(g.recs[0].target_el, 2);
	CHECK_EQ_U64(g.recs[0].target_ns, 0);
}

/* Chunking: any chunk size gives the same records */
TEST(chunk_sizes_agree)
{
	uint64_t seed = 7;
	char *text = malloc(1 << 16);
	text[0] = '\0';
	for (int i = 0; i < 40; i++) {
		struct ap_record r;
		rr_record(&r, &seed, 0);
		char line[256];
		snprintf(line, sizeof(line), "pc 0x%llx el=%u; lat total %u; ev 0x%llx; %s\n",
		         (unsigned long long)(r.pc & 0xFFFFFFFFFFFFull), r.el, r.lat_total,
		         (unsigned long long)r.events, (i % 3) ? "end" : "ts 5; align 16; pad 1");
		strcat(text, line);
	}
	struct got a, b;
	decode_text(text, &a, 0, 0);
	for (size_t chunk = 1; chunk < 24; chunk++) {
		decode_text(text, &b, chunk, 0);
		CHECK_EQ_U64(b.n, a.n);
		CHECK(memcmp(a.recs, b.recs, sizeof(a.recs[0]) * (a.n < MAX_RECS ? a.n : MAX_RECS)) == 0);
	}
	free(text);
}

/* A callback can stop the decoder */
TEST(callback_stops)
{
	uint8_t *bytes;
	size_t n;
	struct ap_error_ctx err;
	const char *text = "pc 1; end; pc 2; end; pc 3; end";
	CHECK_EQ_U64(ap_asm_assemble(text, strlen(text), 0, &bytes, &n, &err), 0);
	struct got g;
	memset(&g, 0, sizeof(g));
	g.stop_after = 2;
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.ctx = &g;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	CHECK_EQ_U64(ap_decoder_feed(&dec, bytes, n), (uint64_t)-AP_ERR_CALLBACK);
	CHECK_EQ_U64(g.n, 2);
	free(bytes);
	/* a config struct from an older, smaller version is accepted */
	struct ap_decoder_config old;
	ap_decoder_config_init(&old);
	old.size = sizeof(size_t);
	CHECK_EQ_U64(ap_decoder_init(&dec, &old), 0);
	old.size = 0;
	CHECK_EQ_U64(ap_decoder_init(&dec, &old), (uint64_t)-AP_ERR_INVALID);
}

TEST_MAIN(CASE(records_end_at_end_or_timestamp), CASE(padding_between_records),
          CASE(alignment_by_stream_offset), CASE(unknown_and_reserved_packets_skipped_by_size),
          CASE(impdef_values_kept), CASE(truncation), CASE(runaway_record_is_cut),
          CASE(duplicate_field), CASE(address_forms), CASE(chunk_sizes_agree), CASE(callback_stops))

/* The decoder's fast path against its generic path (lib/decode/decoder.c):
 * the same records, field by field, and the same counts, on random streams
 * of records and framing (spec/002 5.1.2, 5.1.4), on the same streams
 * mutated (bit flips, header bytes put anywhere, bytes deleted, repeated,
 * the end cut off), fed at once and in random chunks, with record size
 * limits that cut records. The fast path restates the packet rules for
 * speed; this test and fuzz/fuzz_decode_paths.c hold it to the codec's. */
#include "armprof/record.h"
#include "decode_paths.h"
#include "harness.h"
#include "random_record.h"

#define STREAM_CAP 16384

/* Headers worth putting anywhere: every fast-path header, their reserved
 * and unknown neighbours, framing, End, Timestamp, 16-bit prefixes. */
static const uint8_t interesting[] = {
	0x00, 0x01, 0x02, 0x20, 0x21, 0x23, 0x24, 0x2C, 0x30, 0x41, 0x42, 0x52, 0x62, 0x72, 0x43,
	0x53, 0x63, 0x73, 0x48, 0x49, 0x4A, 0x4B, 0x64, 0x65, 0x66, 0x67, 0x71, 0xB0, 0xB1, 0xB2,
	0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0x98, 0x99, 0x9A, 0x9B, 0x9C, 0x9E, 0x9F, 0xFF,
};

/* Records (realistic or any field combination, in every encoding the codec
 * has) with Padding and Alignment between them. */
static size_t build_stream(uint8_t *buf, size_t cap, uint64_t *s)
{
	size_t len = 0;
	unsigned n = 1 + (unsigned)(rr_next(s) % 40);
	for (unsigned k = 0; k < n && cap - len > AP_RECORD_MAX_BYTES + 16; k++) {
		uint64_t x = rr_next(s);
		if (x % 8 == 0) /* Padding run */
			for (unsigned p = 1 + (unsigned)(x >> 8) % 5; p; p--)
				buf[len++] = AP_HDR_PAD;
		if (x % 16 == 1) { /* Alignment command, SIZE 1..6 */
			buf[len++] = (uint8_t)(AP_HDR_EXT_PREFIX | (1 + (x >> 12) % 6));
			buf[len++] = AP_HDR_ALIGN1;
		}
		struct ap_record rec;
		rr_record(&rec, s, (int)(x >> 16 & 1));
		static const uint8_t ev_sizes[] = { 0, 0, 0, 2, 4, 8 };
		struct ap_record_encode_opts opts = {
			.events_size = ev_sizes[(x >> 20) % sizeof(ev_sizes)],
			.counter_ext = (x >> 24) % 8 == 0,
			.address_ext = (x >> 28) % 8 == 0,
		};
		int w = ap_record_encode(buf + len, cap - len, &rec, &opts);
		if (w > 0)
			len += (size_t)w;
	}
	return len;
}

static size_t mutate(uint8_t *buf, size_t len, size_t cap, uint64_t *s)
{
	for (unsigned k = 1 + (unsigned)(rr_next(s) % 4); k && len; k--) {
		uint64_t x = rr_next(s);
		size_t at = (size_t)(x >> 8) % len;
		switch (x % 5) {
		case 0:
			buf[at] ^= (uint8_t)(1u << (x >> 40 & 7));
			break;
		case 1:
			buf[at] = interesting[(x >> 40) % sizeof(interesting)];
			break;
		case 2: { /* delete 1..8 bytes */
			size_t n = 1 + (size_t)(x >> 40) % 8;
			if (n > len - at)
				n = len - at;
			memmove(buf + at, buf + at + n, len - at - n);
			len -= n;
			break;
		}
		case 3: { /* repeat 1..16 bytes (duplicate fields, split packets) */
			size_t n = 1 + (size_t)(x >> 40) % 16;
			if (n > len - at)
				n = len - at;
			if (len + n > cap)
				break;
			memmove(buf + at + n, buf + at, len - at);
			len += n;
			break;
		}
		default:
			len = at;
		}
	}
	return len;
}

static int failures_shown;

/* Decode buf through both paths, at once and in chunks; all four runs must
 * give what the generic path gives at once. */
static void check_paths(const uint8_t *buf, size_t len, uint64_t *s, const char *what, uint64_t seed)
{
	static const uint32_t limits[] = { 0, 0, 0, 16, 40, 64, 100, 4096 };
	uint32_t limit = limits[rr_next(s) % (sizeof(limits) / sizeof(limits[0]))];
	uint64_t base = rr_next(s) % 4 == 0 ? rr_next(s) : rr_next(s) % 64;
	size_t chunks[5];
	for (unsigned i = 0; i < 5; i++)
		chunks[i] = 1 + (size_t)(rr_next(s) % (i < 2 ? 12 : 200));

	struct dp_run ref, run;
	dp_decode(&ref, buf, len, 1, NULL, 0, base, limit);
	static const struct { int generic, chunked; const char *name; } ways[] = {
		{ 0, 0, "fast path, at once" },
		{ 0, 1, "fast path, in chunks" },
		{ 1, 1, "generic path, in chunks" },
	};
	for (unsigned w = 0; w < 3; w++) {
		dp_decode(&run, buf, len, ways[w].generic, chunks, ways[w].chunked ? 5 : 0, base, limit);
		char msg[160];
		const char *d = dp_diff(&ref, &run, msg, sizeof(msg));
		CHECK(d == NULL);
		if (d && failures_shown++ < 5)
			fprintf(stderr, "  %s seed %llu (%zu bytes, base %llu, limit %u): %s: %s\n", what,
			        (unsigned long long)seed, len, (unsigned long long)base, limit,
			        ways[w].name, d);
		dp_free(&run);
	}
	dp_free(&ref);
}

TEST(random_streams)
{
	static uint8_t buf[STREAM_CAP];
	for (uint64_t seed = 1; seed <= 4000; seed++) {
		uint64_t s = seed;
		size_t len = build_stream(buf, sizeof(buf), &s);
		check_paths(buf, len, &s, "random stream", seed);
	}
}

TEST(mutated_streams)
{
	static uint8_t buf[STREAM_CAP];
	for (uint64_t seed = 1; seed <= 6000; seed++) {
		uint64_t s = seed * 7919;
		size_t len = build_stream(buf, sizeof(buf), &s);
		len = mutate(buf, len, sizeof(buf), &s);
		check_paths(buf, len, &s, "mutated stream", seed);
	}
}

/* Every header byte at every position of a few realistic records: each
 * place where the fast path takes a packet meets each header it must take,
 * refuse or hand back. */
TEST(every_header_everywhere)
{
	uint8_t base_stream[4 * AP_RECORD_MAX_BYTES], buf[sizeof(base_stream)];
	uint64_t s = 42;
	size_t len = 0;
	for (unsigned k = 0; k < 3; k++) {
		struct ap_record rec;
		rr_record(&rec, &s, 1);
		len += (size_t)ap_record_encode(base_stream + len, sizeof(base_stream) - len, &rec, NULL);
	}
	for (size_t at = 0; at < len; at++) {
		for (unsigned b = 0; b < 256; b++) {
			memcpy(buf, base_stream, len);
			buf[at] = (uint8_t)b;
			check_paths(buf, len, &s, "one byte changed", at * 256 + b);
		}
	}
}

/* A long realistic stream, the decode benchmark's kind: the fast path and
 * the PC fusion on almost every record. */
TEST(long_realistic_stream)
{
	size_t cap = 20000 * AP_RECORD_MAX_BYTES, len = 0;
	uint8_t *buf = malloc(cap);
	CHECK(buf != NULL);
	if (!buf)
		return;
	uint64_t s = 7;
	for (unsigned k = 0; k < 20000; k++) {
		struct ap_record rec;
		rr_record(&rec, &s, 1);
		len += (size_t)ap_record_encode(buf + len, cap - len, &rec, NULL);
	}
	struct dp_run fast, generic;
	dp_decode(&generic, buf, len, 1, NULL, 0, 0, 0);
	dp_decode(&fast, buf, len, 0, NULL, 0, 0, 0);
	char msg[160];
	const char *d = dp_diff(&generic, &fast, msg, sizeof(msg));
	CHECK(d == NULL);
	if (d)
		fprintf(stderr, "  long stream: %s\n", d);
	CHECK_EQ_U64(fast.n, 20000);
	dp_free(&fast);
	dp_free(&generic);
	free(buf);
}

TEST_MAIN(CASE(random_streams), CASE(mutated_streams), CASE(every_header_everywhere),
          CASE(long_realistic_stream))

/* Fuzz target: the streaming decoder on arbitrary bytes, fed at once and in
 * chunks whose sizes come from the input, with every output formatter's
 * inputs exercised (packet description, record fields). The two feeds must
 * agree on the number of records. And ap_decoder_next_cut, the walk over
 * packet headers that `decode -j` cuts at, must find the record end the
 * decoder's own records give, for every byte and record count. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "fuzz.h"

struct count {
	uint64_t records, packets, checksum;
};

static int on_record(void *ctx, const struct ap_record *r)
{
	struct count *c = ctx;
	c->records++;
	c->checksum += r->offset + r->size + r->pc + r->n_errors_total;
	if (r->n_errors > AP_RECORD_MAX_ERRORS || r->n_impdef > AP_RECORD_MAX_IMPDEF)
		abort();
	return 0;
}

static int on_packet(void *ctx, uint64_t off, const uint8_t *bytes, const struct ap_packet *p,
                     int in_record)
{
	struct count *c = ctx;
	char desc[128];
	ap_pkt_describe(desc, sizeof(desc), p);
	c->packets++;
	if (p->size == 0 || p->size > 10)
		abort();
	c->checksum += bytes[p->size - 1];
	return 0;
}

static struct count run(const uint8_t *data, size_t size, size_t chunk)
{
	struct count c = { 0, 0, 0 };
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.on_packet = on_packet;
	cfg.ctx = &c;
	cfg.max_record_bytes = 256;
	cfg.spe_later = size ? data[size - 1] & 1 : 0; /* SPE after v1's packets too */
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	for (size_t off = 0; off < size; off += chunk)
		ap_decoder_feed(&dec, data + off, off + chunk > size ? size - off : chunk);
	ap_decoder_finish(&dec);
	return c;
}

struct cut {
	size_t min_bytes, n;
	uint32_t max_records, records;
};

static int on_cut_record(void *ctx, const struct ap_record *r)
{
	struct cut *c = ctx;
	size_t end = (size_t)(r->offset + r->size);
	if (end >= c->min_bytes || ++c->records == c->max_records) {
		c->n = end;
		return 1;
	}
	return 0;
}

/* The decoder's answer (no packet callback: its fast path, as -j's jobs). */
static size_t decoder_cut(const uint8_t *data, size_t size, size_t min_bytes, uint32_t max_records)
{
	struct cut c = { min_bytes, 0, max_records, 0 };
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_cut_record;
	cfg.ctx = &c;
	cfg.max_record_bytes = 256;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, data, size);
	return c.n;
}

static void check_cuts(const uint8_t *data, size_t size)
{
	size_t min_bytes = size ? (size_t)data[0] * 3 : 0;
	uint32_t max_records = size > 1 ? data[1] % 9 : 0;
	size_t walk = ap_decoder_next_cut(data, size, min_bytes, max_records, 256);
	if (walk != SIZE_MAX && walk != decoder_cut(data, size, min_bytes, max_records))
		abort();
	walk = ap_decoder_next_cut(data, size, SIZE_MAX, 1 + max_records, 256);
	if (walk != SIZE_MAX && walk != decoder_cut(data, size, SIZE_MAX, 1 + max_records))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_cuts(data, size);
	struct count whole = run(data, size, size ? size : 1);
	size_t chunk = size ? (size_t)data[0] % 13 + 1 : 1;
	struct count pieces = run(data, size, chunk);
	if (whole.records != pieces.records || whole.packets != pieces.packets ||
	    whole.checksum != pieces.checksum)
		abort();
	return 0;
}

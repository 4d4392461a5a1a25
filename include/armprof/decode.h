/* Streaming SPE decoder: bytes in chunks of any size -> packets and records.
 *
 * Records end at an End or Timestamp packet (spec/002 5.1.2). Padding and
 * Alignment commands between records are kept out of records (5.1.4); the
 * bytes an Alignment command skips are found from the stream offset, never
 * from a host pointer. Unknown and reserved packets are skipped by the size
 * their header encodes (SPE-5.1.4-4) and reported in the record's errors.
 * The decoder allocates nothing: it lives in caller storage. */
#ifndef ARMPROF_DECODE_H
#define ARMPROF_DECODE_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#include "armprof/codec.h"
#include "armprof/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called once per complete (or truncated, or forced) record. Return 0 to go
 * on, non-zero to stop: ap_decoder_feed then returns -AP_ERR_CALLBACK. */
typedef int (*ap_record_fn)(void *ctx, const struct ap_record *rec);
/* Called once per packet, in stream order, with its raw bytes. in_record is
 * 1 for packets that belong to a record, 0 for framing between records. */
typedef int (*ap_packet_fn)(void *ctx, uint64_t offset, const uint8_t *bytes,
                            const struct ap_packet *pkt, int in_record);

struct ap_decoder_config {
	size_t size;            /* sizeof(struct ap_decoder_config) */
	ap_record_fn on_record; /* may be NULL */
	ap_packet_fn on_packet; /* may be NULL */
	void *ctx;
	uint64_t base_offset;   /* stream offset of the first byte fed */
	uint32_t max_record_bytes; /* 0: AP_DECODER_DEFAULT_MAX_RECORD_BYTES;
	                              longer records are cut with
	                              AP_DERR_TOO_LONG to resynchronise */
	/* 1: decode what SPE after v1 defines where the 2017 supplement has
	 * reserved values, as perf 7.x does: Address INDEX 0b00100 is the
	 * previous branch target (FEAT_SPE_PBT, AP_HAS_PREV_TARGET) and a
	 * branch's Operation Type subclass has GCS [2] and CR [4:3]
	 * (FEAT_SPE_CRR). 0 (the default): they are reserved values
	 * (SPE-5.3.1-15, SPE-5.3.8-12). docs/requirements-later.md LATER-PBT-3,
	 * LATER-CRR-3. */
	uint8_t spe_later;
};
#define AP_DECODER_DEFAULT_MAX_RECORD_BYTES 4096u
AP_API void ap_decoder_config_init(struct ap_decoder_config *cfg);

/* Counters the decoder keeps for the whole stream. */
struct ap_decoder_stats {
	uint64_t bytes, packets, records;
	uint64_t pad_bytes, align_bytes; /* framing between records */
	uint64_t unknown_packets, reserved_packets;
	uint64_t truncated_records, forced_records;
	uint64_t records_with_errors;
};

/* Internal state: fields are private, the struct is public so that a
 * decoder can live on the stack. */
struct ap_decoder {
	struct ap_decoder_config cfg;
	struct ap_decoder_stats stats;
	uint64_t offset;       /* stream offset of the next byte */
	uint64_t skip_until;   /* Alignment: ignore bytes below this offset */
	uint8_t carry[16];     /* a packet split across chunks */
	uint8_t carry_len;
	uint8_t in_record;
	struct ap_record rec;
};

AP_API int ap_decoder_init(struct ap_decoder *dec, const struct ap_decoder_config *cfg);
/* Feed the next len bytes of the stream. Returns 0, or -AP_ERR_CALLBACK. */
AP_API int ap_decoder_feed(struct ap_decoder *dec, const uint8_t *buf, size_t len);
/* End of stream: a partial packet or record is reported as truncated.
 * Returns 0, or -AP_ERR_CALLBACK. The decoder may then be fed again as a
 * new stream starting at its current offset. */
AP_API int ap_decoder_finish(struct ap_decoder *dec);
AP_API const struct ap_decoder_stats *ap_decoder_stats(const struct ap_decoder *dec);

/* Where a decoder fed buf[0..len) from a point between records (a fresh
 * one, or after a record's end) is next between records again, without
 * decoding: the offset in buf of the end of the first record that ends
 * min_bytes or more into buf, or of the max_records-th record (0: no
 * limit), whichever comes first, with the records cut as a decoder of
 * max_record_bytes (0: the default) cuts them. 0 when no such record ends
 * in buf; SIZE_MAX at an Alignment command before it (its effect depends on
 * the stream offset: decode to find the cut). A decoder started afresh at
 * the returned offset decodes what follows as the first would have: that
 * is how `armprof decode -j` cuts a buffer into segments. */
AP_API size_t ap_decoder_next_cut(const uint8_t *buf, size_t len, size_t min_bytes, uint32_t max_records,
                                  uint32_t max_record_bytes);

#ifdef __cplusplus
}
#endif
#endif

/* Where records end, without decoding them (ap_decoder_next_cut,
 * armprof/decode.h): what `armprof decode -j` cuts its segments at.
 *
 * A record's bounds depend on its packets' sizes and three kinds of packet
 * only, never on a field's value: it starts at the first packet after the
 * last record that is not Padding or an Alignment command (SPE-5.1.4-2),
 * and ends after an End or Timestamp packet (5.3.6, 5.3.10) or where it
 * reaches max_record_bytes (decoder.c: AP_DERR_TOO_LONG); every packet's
 * size comes from its header (SPE-5.1.1-3, pd_size, the decoder's own). So
 * this walk reads a header byte or two per packet, where the decoder
 * builds the record: a third of the decoder's instructions (callgrind).
 * An Alignment command moves the next packet by the stream offset: the
 * walk stops there and says so (the caller decodes instead). The fuzz
 * target fuzz_decode checks the walk against the decoder's own records. */
#include <stdint.h>

#include "armprof/codec.h"
#include "armprof/decode.h"
#include "codec/packet_decode.h"

/* A one-byte header's packet size (SPE-5.1.1-3: 1 + 2^SZ bytes from 0x40,
 * 1 below 0x20) in bits [3:0], and what the walk must know of it. */
#define K_END 0x10u    /* End or Timestamp: the record ends after it */
#define K_PAD 0x20u    /* Padding: no record starts at it */
#define K_PREFIX 0x40u /* byte 0 of a 16-bit header */
#define K(b)                                                                          \
	((b) == AP_HDR_PAD ? K_PAD | 1u : (b) == AP_HDR_END ? K_END | 1u                  \
	 : (b) == AP_HDR_TIMESTAMP ? K_END | 9u : ((b) & 0xE0u) == AP_HDR_EXT_PREFIX ? K_PREFIX \
	 : (b) < 0x20u ? 1u : 1u + AP_PAYLOAD_LEN(b))
#define K4(b) K(b), K((b) + 1u), K((b) + 2u), K((b) + 3u)
#define K16(b) K4(b), K4((b) + 4u), K4((b) + 8u), K4((b) + 12u)
#define K64(b) K16(b), K16((b) + 16u), K16((b) + 32u), K16((b) + 48u)
static const uint8_t kinds[256] = { K64(0u), K64(64u), K64(128u), K64(192u) };

size_t ap_decoder_next_cut(const uint8_t *buf, size_t len, size_t min_bytes, uint32_t max_records,
                           uint32_t max_record_bytes)
{
	if (!max_record_bytes)
		max_record_bytes = AP_DECODER_DEFAULT_MAX_RECORD_BYTES;
	size_t i = 0, limit = 0; /* limit: where the record under way is cut */
	uint32_t records = 0;
	int in_record = 0;
	while (i < len) {
		unsigned k = kinds[buf[i]];
		if (k & (K_PAD | K_PREFIX)) {
			if (k & K_PREFIX) { /* a 16-bit header: rare */
				int n = pd_size(buf + i, len - i);
				if (n < 0)
					return 0;
				if (buf[i + 1] == AP_HDR_ALIGN1)
					return SIZE_MAX;
				k = (unsigned)n;
			} else if (!in_record) { /* Padding between records */
				i++;
				continue;
			}
		}
		size_t size = k & 15u;
		if (size > len - i)
			return 0; /* the data ends inside a packet: no record ends */
		if (!in_record) {
			in_record = 1;
			limit = i + max_record_bytes;
		}
		i += size;
		if ((k & K_END) || i >= limit) {
			in_record = 0;
			if (i >= min_bytes || ++records == max_records)
				return i;
		}
	}
	return 0;
}

/* The streaming SPE decoder: packets -> records (spec/002 5.1.2, 5.1.4). */
#include <string.h>

#include "armprof/decode.h"
#include "codec/packet_decode.h"
#include "decode/record_fields.h"

#define DEFAULT_MAX_RECORD_BYTES 4096u
#define MAX_PACKET_BYTES 10u /* 2 header bytes + 8 payload bytes */

void ap_decoder_config_init(struct ap_decoder_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
}

int ap_decoder_init(struct ap_decoder *dec, const struct ap_decoder_config *cfg)
{
	if (!dec)
		return -AP_ERR_INVALID;
	memset(dec, 0, sizeof(*dec));
	ap_decoder_config_init(&dec->cfg);
	if (cfg) {
		/* Accept older, smaller config structs (libipt style). */
		size_t n = cfg->size < sizeof(dec->cfg) ? cfg->size : sizeof(dec->cfg);
		if (n < sizeof(size_t))
			return -AP_ERR_INVALID;
		memcpy(&dec->cfg, cfg, n);
		dec->cfg.size = sizeof(dec->cfg);
	}
	if (!dec->cfg.max_record_bytes)
		dec->cfg.max_record_bytes = DEFAULT_MAX_RECORD_BYTES;
	dec->offset = dec->cfg.base_offset;
	dec->skip_until = dec->offset;
	return 0;
}

const struct ap_decoder_stats *ap_decoder_stats(const struct ap_decoder *dec)
{
	return &dec->stats;
}

static void start_record(struct ap_decoder *dec, uint64_t off)
{
	memset(&dec->rec, 0, sizeof(dec->rec));
	dec->rec.offset = off;
	dec->in_record = 1;
}

static int emit_record(struct ap_decoder *dec, uint64_t end_off, enum ap_record_end how)
{
	struct ap_record *rec = &dec->rec;
	rec->end = (uint8_t)how;
	rec->size = (uint32_t)(end_off - rec->offset);
	dec->in_record = 0;
	dec->stats.records++;
	if (how == AP_END_NONE)
		dec->stats.truncated_records++;
	else if (how == AP_END_FORCED)
		dec->stats.forced_records++;
	if (rec->n_errors_total)
		dec->stats.records_with_errors++;
	if (dec->cfg.on_record && dec->cfg.on_record(dec->cfg.ctx, rec))
		return -AP_ERR_CALLBACK;
	return 0;
}

/* Alignment command (5.3.2): the next protocol byte is at the next multiple
 * of the alignment, counted in stream offsets; the bytes up to it are
 * UNKNOWN and ignored (SPE-5.3.2-1, SPE-5.3.2-10). */
static void start_alignment(struct ap_decoder *dec, uint64_t next, const struct ap_packet *pkt)
{
	if (pkt->reserved)
		return; /* reserved SIZE: the command is skipped by its size */
	uint64_t a = ap_align_bytes(pkt->index);
	dec->skip_until = (next + a - 1) & ~(a - 1);
}

/* One complete packet at stream offset off. */
static int handle_packet(struct ap_decoder *dec, uint64_t off, const uint8_t *bytes,
                         const struct ap_packet *pkt)
{
	uint64_t next = off + pkt->size;
	dec->stats.packets++;

	if (!dec->in_record) {
		if (pkt->type == AP_PKT_PAD || pkt->type == AP_PKT_ALIGN) {
			/* framing between records (SPE-5.1.4-2) */
			if (pkt->type == AP_PKT_PAD)
				dec->stats.pad_bytes++;
			else
				start_alignment(dec, next, pkt);
			if (dec->cfg.on_packet && dec->cfg.on_packet(dec->cfg.ctx, off, bytes, pkt, 0))
				return -AP_ERR_CALLBACK;
			return 0;
		}
		start_record(dec, off);
	}
	if (dec->cfg.on_packet && dec->cfg.on_packet(dec->cfg.ctx, off, bytes, pkt, 1))
		return -AP_ERR_CALLBACK;

	struct ap_record *rec = &dec->rec;
	switch (pkt->type) {
	case AP_PKT_END:
		return emit_record(dec, next, AP_END_END);
	case AP_PKT_TIMESTAMP:
		ap_record_apply(rec, off, pkt);
		return emit_record(dec, next, AP_END_TIMESTAMP);
	case AP_PKT_PAD:
		break;
	case AP_PKT_ALIGN:
		start_alignment(dec, next, pkt);
		break;
	case AP_PKT_UNKNOWN:
		/* skipped by the size its header encodes (SPE-5.1.4-4) */
		dec->stats.unknown_packets++;
		ap_record_add_error(rec, AP_DERR_UNKNOWN_PACKET, off, pkt);
		break;
	default:
		if (pkt->reserved) {
			dec->stats.reserved_packets++;
			ap_record_add_error(rec, AP_DERR_RESERVED_VALUE, off, pkt);
		} else {
			ap_record_apply(rec, off, pkt);
		}
		break;
	}
	/* A record with no End or Timestamp in sight: cut it, so that one lost
	 * End byte cannot swallow the rest of the stream. */
	if (next - rec->offset >= dec->cfg.max_record_bytes) {
		ap_record_add_error(rec, AP_DERR_TOO_LONG, off, pkt);
		return emit_record(dec, next, AP_END_FORCED);
	}
	return 0;
}

/* Finish a packet split across chunks: top up the carry from buf. Returns
 * the bytes of buf used, or a negative error. */
static long complete_carry(struct ap_decoder *dec, const uint8_t *buf, size_t len)
{
	size_t used = 0;
	for (;;) {
		int need = pd_size(dec->carry, dec->carry_len);
		size_t want = need < 0 ? 2u : (size_t)need;
		while (dec->carry_len < want && used < len)
			dec->carry[dec->carry_len++] = buf[used++];
		if (dec->carry_len < want)
			return (long)used; /* still incomplete: wait for more */
		if (need >= 0)
			break;
	}
	struct ap_packet pkt;
	pd_decode(&pkt, dec->carry, dec->carry_len);
	uint64_t off = dec->offset;
	dec->offset += pkt.size;
	dec->carry_len = 0;
	int rc = handle_packet(dec, off, dec->carry, &pkt);
	return rc < 0 ? rc : (long)used;
}

int ap_decoder_feed(struct ap_decoder *dec, const uint8_t *buf, size_t len)
{
	size_t i = 0;
	dec->stats.bytes += len;

	if (dec->carry_len) {
		long used = complete_carry(dec, buf, len);
		if (used < 0)
			return (int)used;
		i = (size_t)used;
		if (dec->carry_len)
			return 0;
	}
	while (i < len) {
		if (dec->offset < dec->skip_until) {
			uint64_t gap = dec->skip_until - dec->offset;
			size_t n = gap < len - i ? (size_t)gap : len - i;
			dec->stats.align_bytes += n;
			dec->offset += n;
			i += n;
			continue;
		}
		struct ap_packet pkt;
		int size = pd_decode(&pkt, buf + i, len - i);
		if (size < 0) {
			/* a packet split across chunks */
			memcpy(dec->carry, buf + i, len - i);
			dec->carry_len = (uint8_t)(len - i);
			return 0;
		}
		uint64_t off = dec->offset;
		dec->offset += (unsigned)size;
		int rc = handle_packet(dec, off, buf + i, &pkt);
		i += (unsigned)size;
		if (rc < 0)
			return rc;
	}
	return 0;
}

int ap_decoder_finish(struct ap_decoder *dec)
{
	int rc = 0, cut_packet = 0;
	if (dec->carry_len) {
		/* the stream ends inside a packet: report its bytes as truncated */
		struct ap_packet pkt;
		memset(&pkt, 0, sizeof(pkt));
		pkt.type = AP_PKT_UNKNOWN;
		pkt.truncated = 1;
		pkt.size = dec->carry_len;
		pkt.hdr0 = dec->carry[0];
		pkt.hdr1 = dec->carry_len > 1 ? dec->carry[1] : 0;
		pkt.ext = (uint8_t)pd_is_prefix(pkt.hdr0);
		uint64_t off = dec->offset;
		if (!dec->in_record)
			start_record(dec, off);
		dec->stats.packets++;
		if (dec->cfg.on_packet && dec->cfg.on_packet(dec->cfg.ctx, off, dec->carry, &pkt, 1))
			rc = -AP_ERR_CALLBACK;
		ap_record_add_error(&dec->rec, AP_DERR_TRUNCATED, off, &pkt);
		dec->offset += dec->carry_len;
		dec->carry_len = 0;
		cut_packet = 1;
	}
	if (dec->in_record) {
		if (!cut_packet) /* whole packets, but no End or Timestamp */
			ap_record_add_error(&dec->rec, AP_DERR_TRUNCATED, dec->offset, NULL);
		int rc2 = emit_record(dec, dec->offset, AP_END_NONE);
		if (!rc)
			rc = rc2;
	}
	dec->skip_until = dec->offset;
	return rc;
}

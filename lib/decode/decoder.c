/* The streaming SPE decoder: packets -> records (spec/002 5.1.2, 5.1.4). */
#include <stddef.h>
#include <string.h>

#include "armprof/decode.h"
#include "codec/packet_decode.h"
#include "decode/record_fields.h"

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
		dec->cfg.max_record_bytes = AP_DECODER_DEFAULT_MAX_RECORD_BYTES;
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
	/* Field by field, and only those before the error and IMP DEF arrays
	 * (which are read up to their counts): this runs once per record, and
	 * GCC turns a memset of the struct into `rep stos`, which cost 10-30% of
	 * the decoder's time (perf annotate, bench_decode). */
	struct ap_record *r = &dec->rec;
	r->size = 0;
	r->has = 0;
	r->pc = r->target = r->vaddr = r->paddr = r->events = r->ts = r->prev_target = 0;
	r->el = r->ns = r->target_el = r->target_ns = r->pa_ns = 0;
	r->prev_target_el = r->prev_target_ns = 0;
	r->op_class = r->op_subclass = r->events_size = r->data_source_size = 0;
	r->lat_total = r->lat_issue = r->lat_xlat = r->data_source = 0;
	r->ctx_el1 = r->ctx_el2 = 0;
	r->end = r->n_errors = r->n_impdef = 0;
	r->n_errors_total = 0;
	r->offset = off;
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
__attribute__((always_inline)) static inline int handle_packet(struct ap_decoder *dec, uint64_t off, const uint8_t *bytes,
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
		if (pkt->reserved && !(dec->cfg.spe_later && ap_pkt_later_defined(pkt))) {
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
	struct ap_packet pkt = { 0 }; /* (GCC -O3 cannot see pd_decode always sets it) */
	pd_decode(&pkt, dec->carry, dec->carry_len);
	uint64_t off = dec->offset;
	dec->offset += pkt.size;
	dec->carry_len = 0;
	int rc = handle_packet(dec, off, dec->carry, &pkt);
	return rc < 0 ? rc : (long)used;
}

static inline uint64_t load_payload8(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return pd_load_le(p, 8);
#else
	uint64_t v;
	memcpy(&v, p, 8); /* payloads are little-endian (5.1.3) */
	return v;
#endif
}

/* ---- The fast path's packets -------------------------------------------
 * The headers the fast path takes are spelled from the codec's encodings
 * (include/armprof/codec.h), and each is checked at compile time against the
 * codec's header table (PD_TYPE1/PD_PSIZE1/PD_RESERVED1 in
 * lib/codec/packet_decode.h, the one description both paths use): the
 * packet type, payload size and defined value the generic path (pd_decode,
 * ap_record_apply) decodes it as. The sizes below come from the same table.
 * tests/decode/test_decode_paths.c and fuzz/fuzz_decode_paths.c check that
 * both paths give the same records. */
#define HDR_PC (AP_HDR_ADDRESS | AP_ADDR_PC)
#define HDR_TARGET (AP_HDR_ADDRESS | AP_ADDR_TARGET)
#define HDR_DATA_VA (AP_HDR_ADDRESS | AP_ADDR_DATA_VA)
#define HDR_DATA_PA (AP_HDR_ADDRESS | AP_ADDR_DATA_PA)
#define HDR_LAT_TOTAL (AP_HDR_COUNTER | AP_CTR_TOTAL)
#define HDR_LAT_ISSUE (AP_HDR_COUNTER | AP_CTR_ISSUE)
#define HDR_LAT_XLAT (AP_HDR_COUNTER | AP_CTR_XLAT)
#define HDR_EVENTS(sz) (AP_HDR_EVENTS | (sz) << 4)           /* SZ: 2^sz bytes */
#define HDR_DATA_SOURCE(sz) (AP_HDR_DATA_SOURCE | (sz) << 4)
#define HDR_OP_TYPE(cls) (AP_HDR_OP_TYPE | (cls))
#define HDR_CTX_EL1 (AP_HDR_CONTEXT | AP_CTX_EL1)
#define HDR_CTX_EL2 (AP_HDR_CONTEXT | AP_CTX_EL2)
/* Bytes of the packet with one-byte header h, from the codec's table. */
#define PKT_SIZE(h) (1u + PD_PSIZE1(h))
#define FAST_HEADER(h, type)                                                          \
	_Static_assert(PD_TYPE1(h) == (type) && !PD_RESERVED1(h),                       \
	               "fast path: header " #h " is not a defined " #type " in the codec's table")
FAST_HEADER(HDR_PC, AP_PKT_ADDRESS);
FAST_HEADER(HDR_TARGET, AP_PKT_ADDRESS);
FAST_HEADER(HDR_DATA_VA, AP_PKT_ADDRESS);
FAST_HEADER(HDR_DATA_PA, AP_PKT_ADDRESS);
FAST_HEADER(HDR_LAT_TOTAL, AP_PKT_COUNTER);
FAST_HEADER(HDR_LAT_ISSUE, AP_PKT_COUNTER);
FAST_HEADER(HDR_LAT_XLAT, AP_PKT_COUNTER);
FAST_HEADER(HDR_EVENTS(0), AP_PKT_EVENTS);
FAST_HEADER(HDR_EVENTS(1), AP_PKT_EVENTS);
FAST_HEADER(HDR_EVENTS(2), AP_PKT_EVENTS);
FAST_HEADER(HDR_EVENTS(3), AP_PKT_EVENTS);
FAST_HEADER(HDR_DATA_SOURCE(0), AP_PKT_DATA_SOURCE);
FAST_HEADER(HDR_DATA_SOURCE(1), AP_PKT_DATA_SOURCE);
FAST_HEADER(HDR_OP_TYPE(AP_OP_CLASS_OTHER), AP_PKT_OP_TYPE);
FAST_HEADER(HDR_OP_TYPE(AP_OP_CLASS_LDST), AP_PKT_OP_TYPE);
FAST_HEADER(HDR_OP_TYPE(AP_OP_CLASS_BRANCH), AP_PKT_OP_TYPE);
FAST_HEADER(HDR_CTX_EL1, AP_PKT_CONTEXT);
FAST_HEADER(HDR_CTX_EL2, AP_PKT_CONTEXT);
FAST_HEADER(AP_HDR_PAD, AP_PKT_PAD);
FAST_HEADER(AP_HDR_END, AP_PKT_END);
FAST_HEADER(AP_HDR_TIMESTAMP, AP_PKT_TIMESTAMP);
/* The largest packet the fast path takes: it needs that many bytes left. */
#define FAST_MAX_PACKET PKT_SIZE(HDR_PC)
_Static_assert(PKT_SIZE(HDR_PC) == 9 && PKT_SIZE(AP_HDR_TIMESTAMP) == 9,
               "fast path: 8-byte payloads are its largest packets");
/* A record starts with a field packet of the switch below: every one-byte
 * header under the first of them is framing, End or a 16-bit prefix. */
#define FAST_FIRST_FIELD HDR_EVENTS(0)
_Static_assert(FAST_FIRST_FIELD < HDR_OP_TYPE(0) && FAST_FIRST_FIELD < HDR_DATA_SOURCE(0) &&
               FAST_FIRST_FIELD < HDR_CTX_EL1 && FAST_FIRST_FIELD < HDR_LAT_TOTAL &&
               FAST_FIRST_FIELD < HDR_PC,
               "fast path: FAST_FIRST_FIELD is its lowest field header");

/* After a PC packet, the packets records of Neoverse-like PEs (and
 * ap_record_encode) have next, in this order: Operation Type, Events, issue
 * and total latency. Taking them here, each behind a test that is almost
 * always true, saves the switch's indirect jump for each, and so its
 * mispredictions. Anything unexpected stops the run for the switch to handle.
 * The fields are stored by the record's one description
 * (lib/decode/record_fields.h). q has at least 26 readable bytes. Returns
 * the bytes taken; *n counts the packets. */
static inline unsigned fuse_after_pc(struct ap_record *rec, const uint8_t *q, uint64_t *n)
{
	const uint8_t *start = q;
	const uint32_t op_bit = ap_record_field_bit(AP_PKT_OP_TYPE, 0);
	if ((q[0] & 0xFCu) != AP_HDR_OP_TYPE || (rec->has & op_bit) || pd_op_type_reserved(q[0] & 3u, q[1]))
		return 0;
	ap_record_store(rec, AP_PKT_OP_TYPE, q[0] & 3u, q[1], 1);
	rec->has |= op_bit;
	q += PKT_SIZE(HDR_OP_TYPE(0));
	(*n)++;
	const uint32_t ev_bit = ap_record_field_bit(AP_PKT_EVENTS, 0);
	if ((q[0] & 0xCFu) == AP_HDR_EVENTS && !(rec->has & ev_bit)) {
		unsigned sz = AP_PAYLOAD_LEN(q[0]);
		ap_record_store(rec, AP_PKT_EVENTS, 0, load_payload8(q + 1) & pd_payload_mask[sz], sz);
		rec->has |= ev_bit;
		q += 1 + sz;
		(*n)++;
	}
	const uint32_t issue_bit = ap_record_field_bit(AP_PKT_COUNTER, AP_CTR_ISSUE);
	if (q[0] == HDR_LAT_ISSUE && !(rec->has & issue_bit)) {
		ap_record_store(rec, AP_PKT_COUNTER, AP_CTR_ISSUE, q[1] | (unsigned)q[2] << 8, PD_PSIZE1(HDR_LAT_ISSUE));
		rec->has |= issue_bit;
		q += PKT_SIZE(HDR_LAT_ISSUE);
		(*n)++;
	}
	const uint32_t total_bit = ap_record_field_bit(AP_PKT_COUNTER, AP_CTR_TOTAL);
	if (q[0] == HDR_LAT_TOTAL && !(rec->has & total_bit)) {
		ap_record_store(rec, AP_PKT_COUNTER, AP_CTR_TOTAL, q[1] | (unsigned)q[2] << 8, PD_PSIZE1(HDR_LAT_TOTAL));
		rec->has |= total_bit;
		q += PKT_SIZE(HDR_LAT_TOTAL);
		(*n)++;
	}
	return (unsigned)(q - start);
}

/* One field packet with the constant one-byte header h, in fast_run's
 * switch: its type, INDEX, payload size, has-bit and store all come from the
 * codec's header table and the record's one description; `refuse` is an
 * extra condition that hands it to the generic path (a reserved value). */
#define FAST_TAKE(h, refuse)                                                               	do {                                                                                   		bit = ap_record_field_bit(PD_TYPE1(h), (h) & PD_IDXMASK1(h));                     		if ((rec->has & bit) || (refuse))                                                  			goto out;                                                                  		ap_record_store(rec, PD_TYPE1(h), (h) & PD_IDXMASK1(h),                            		                raw & pd_payload_mask[PD_PSIZE1(h)], PD_PSIZE1(h));                		size = PKT_SIZE(h);                                                                	} while (0)
#define FAST_FIELD(h, refuse) \
	case h:               \
		FAST_TAKE(h, refuse); \
		break

/* The fast path, used when no packet callback is set: a 256-way switch on
 * the header byte (as OpenCSD's header table) for the packets real records
 * are made of, each payload read with one 8-byte load, and Padding between
 * records. Anything else (another header, a duplicate or reserved field, a
 * record near its size limit, fewer than 9 bytes left, an alignment gap)
 * returns to the generic path, which handles it exactly as before.
 * Returns the new position in buf, or a negative error. */
static long fast_run(struct ap_decoder *dec, const uint8_t *buf, size_t i, size_t len)
{
	struct ap_record *rec = &dec->rec;
	const uint64_t base = dec->offset - i; /* stream offset of buf[0] */
	uint64_t limit = rec->offset + dec->cfg.max_record_bytes;
	uint64_t packets = 0;
	int rc = 0;

	if (dec->offset < dec->skip_until)
		return (long)i;
	while (len - i >= FAST_MAX_PACKET) {
		const uint8_t *p = buf + i;
		if (!dec->in_record) {
			uint8_t b = p[0];
			if (b == AP_HDR_PAD) {
				dec->stats.pad_bytes++;
				packets++;
				i++;
				continue;
			}
			/* a record starts with a field packet handled below */
			if (b < FAST_FIRST_FIELD || b == AP_HDR_TIMESTAMP)
				break;
			start_record(dec, base + i);
			limit = rec->offset + dec->cfg.max_record_bytes;
		}
		if (base + i + FAST_MAX_PACKET >= limit)
			break;
		const uint64_t raw = load_payload8(p + 1);
		uint32_t bit;
		unsigned size;
		switch (p[0]) {
		case HDR_PC: /* (5.3.1) */
			FAST_TAKE(HDR_PC, 0);
			/* 9 + 26 bytes readable, and the record stays below its
			 * size limit (the generic path cuts it) */
			if (len - i >= 35 && base + i + 35 < limit)
				size += fuse_after_pc(rec, p + PKT_SIZE(HDR_PC), &packets);
			break;
		FAST_FIELD(HDR_TARGET, 0);
		FAST_FIELD(HDR_DATA_VA, 0);
		FAST_FIELD(HDR_DATA_PA, 0);
		FAST_FIELD(HDR_LAT_TOTAL, 0); /* (5.3.4) */
		FAST_FIELD(HDR_LAT_ISSUE, 0);
		FAST_FIELD(HDR_LAT_XLAT, 0);
		FAST_FIELD(HDR_EVENTS(0), 0); /* (5.3.7) */
		FAST_FIELD(HDR_EVENTS(1), 0);
		FAST_FIELD(HDR_EVENTS(2), 0);
		FAST_FIELD(HDR_EVENTS(3), 0);
		FAST_FIELD(HDR_OP_TYPE(AP_OP_CLASS_OTHER), pd_op_type_reserved(AP_OP_CLASS_OTHER, raw & 0xFFu)); /* (5.3.8) */
		FAST_FIELD(HDR_OP_TYPE(AP_OP_CLASS_LDST), pd_op_type_reserved(AP_OP_CLASS_LDST, raw & 0xFFu));
		FAST_FIELD(HDR_OP_TYPE(AP_OP_CLASS_BRANCH), pd_op_type_reserved(AP_OP_CLASS_BRANCH, raw & 0xFFu));
		FAST_FIELD(HDR_DATA_SOURCE(0), 0); /* (5.3.5) */
		FAST_FIELD(HDR_DATA_SOURCE(1), 0);
		FAST_FIELD(HDR_CTX_EL1, 0); /* (5.3.3) */
		FAST_FIELD(HDR_CTX_EL2, 0);
		case AP_HDR_PAD:
			bit = 0;
			size = PKT_SIZE(AP_HDR_PAD);
			break;
		case AP_HDR_END: /* (5.3.6) */
		case AP_HDR_TIMESTAMP: /* (5.3.10) */
			if (p[0] == AP_HDR_TIMESTAMP) {
				rec->has |= ap_record_field_bit(AP_PKT_TIMESTAMP, 0);
				ap_record_store(rec, AP_PKT_TIMESTAMP, 0, raw, PD_PSIZE1(AP_HDR_TIMESTAMP));
				i += PKT_SIZE(AP_HDR_TIMESTAMP);
			} else {
				i += PKT_SIZE(AP_HDR_END);
			}
			packets++;
			dec->offset = base + i;
			rc = emit_record(dec, base + i, p[0] == AP_HDR_END ? AP_END_END : AP_END_TIMESTAMP);
			if (rc < 0)
				goto out;
			continue;
		default:
			goto out;
		}
		rec->has |= bit;
		i += size;
		packets++;
	}
out:
	dec->offset = base + i;
	dec->stats.packets += packets;
	return rc < 0 ? rc : (long)i;
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
		if (!dec->cfg.on_packet) {
			long j = fast_run(dec, buf, i, len);
			if (j < 0)
				return (int)j;
			if ((size_t)j != i) {
				i = (size_t)j;
				continue;
			}
		}
		if (dec->offset < dec->skip_until) {
			uint64_t gap = dec->skip_until - dec->offset;
			size_t n = gap < len - i ? (size_t)gap : len - i;
			dec->stats.align_bytes += n;
			dec->offset += n;
			i += n;
			continue;
		}
		struct ap_packet pkt;
		int size = pd_decode_fast(&pkt, buf + i, len - i);
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

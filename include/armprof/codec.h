/* SPE profile format packets (spec/002 section 5): pure encode and decode.
 *
 * Stateless: no allocation, no I/O. Encoder and decoder share the constants
 * below, which are written like the spec's bit assignments so they can be
 * checked line by line against Figures 2, 5 and 6 and sections 5.3.x. */
#ifndef ARMPROF_CODEC_H
#define ARMPROF_CODEC_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#include "armprof/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Header bytes (5.2.1 Figure 5, 5.2.2 Figure 6) ------------------- */
#define AP_HDR_PAD          0x00u /* 0b00000000 */
#define AP_HDR_END          0x01u /* 0b00000001 */
#define AP_HDR_TIMESTAMP    0x71u /* 0b01110001 */
#define AP_HDR_EVENTS       0x42u /* 0b01xx0010, SZ in [5:4] */
#define AP_HDR_DATA_SOURCE  0x43u /* 0b01xx0011, SZ in [5:4] */
#define AP_HDR_CONTEXT      0x64u /* 0b011001xx, INDEX in [1:0] */
#define AP_HDR_OP_TYPE      0x48u /* 0b010010xx, CLASS in [1:0] */
#define AP_HDR_ADDRESS      0xB0u /* 0b10110xxx, INDEX[2:0] in [2:0] */
#define AP_HDR_COUNTER      0x98u /* 0b10011xxx, INDEX[2:0] in [2:0] */
#define AP_HDR_EXT_PREFIX   0x20u /* 0b001xxxxx: byte 0 of a 16-bit header */
#define AP_HDR_ALIGN1       0x00u /* byte 1 of the Alignment command */

#define AP_HDR_SZ(b)        (((b) >> 4) & 0x3u)   /* bits [5:4] */
#define AP_PAYLOAD_LEN(b)   (1u << AP_HDR_SZ(b))  /* SPE-5.1.1-3 */

/* Operation Type CLASS (5.3.8) */
enum ap_op_class {
	AP_OP_CLASS_OTHER = 0,
	AP_OP_CLASS_LDST = 1,
	AP_OP_CLASS_BRANCH = 2,
	AP_OP_CLASS_RESERVED = 3,
};

/* Operation Type payloads. The load/store figures are blank in spec/002
 * (SPE-5.3.8-14); the layout below is from DDI 0487 (Operation Type packet
 * payload, Load/store):
 *   general-purpose: 0b0000000 ST    (0x00 load, 0x01 store)
 *   SIMD&FP:         0b0000010 ST    (0x04 load, 0x05 store)
 *   extended:        0b000 AR EXCL AT 1 ST                              */
#define AP_OP_ST            0x01u /* bit 0: store (1) or load (0) */
#define AP_OP_LDST_GP       0x00u
#define AP_OP_LDST_SIMD     0x04u
#define AP_OP_LDST_EXT      0x02u /* bit 1 set, bits [7:5] zero */
#define AP_OP_LDST_AT       0x04u /* extended: atomic */
#define AP_OP_LDST_EXCL     0x08u /* extended: exclusive */
#define AP_OP_LDST_AR       0x10u /* extended: acquire/release */
#define AP_OP_BR_COND       0x01u /* branch bit 0: conditional */
#define AP_OP_BR_INDIRECT   0x02u /* branch bit 1: indirect */
#define AP_OP_BR_GCS        0x04u /* branch bit 2: GCS (perf SPE_OP_PKT_GCS) */
#define AP_OP_BR_CR_SHIFT   3     /* branch [4:3] CR, FEAT_SPE_CRR (perf SPE_OP_PKT_CR_MASK) */
#define AP_OP_BR_CR_MASK    0x18u
#define AP_OP_BR_CR_BL      1u    /* call: branch with link */
#define AP_OP_BR_CR_RET     2u    /* procedure return */
#define AP_OP_BR_CR_NON_BL_RET 3u /* a return-class branch that is not BL/RET (perf: NON_BL_RET) */
#define AP_OP_OTHER_COND    0x01u /* other subclass 0x01: conditional/select */

/* Address INDEX (5.3.1) */
enum ap_addr_index {
	AP_ADDR_PC = 0,
	AP_ADDR_TARGET = 1,
	AP_ADDR_DATA_VA = 2,
	AP_ADDR_DATA_PA = 3,
	AP_ADDR_PREV_TARGET = 4, /* FEAT_SPE_PBT (DDI 0487 Address packet INDEX 0b00100) */
};
/* Counter INDEX (5.3.4) */
enum ap_ctr_index {
	AP_CTR_TOTAL = 0,
	AP_CTR_ISSUE = 1,
	AP_CTR_XLAT = 2,
};
/* Context INDEX (5.3.3) */
enum ap_ctx_index {
	AP_CTX_EL1 = 0,
	AP_CTX_EL2 = 1,
};

/* Events packet bits (5.3.7) */
#define AP_EV_EXCEPTION_GEN (1ull << 0)
#define AP_EV_RETIRED       (1ull << 1)
#define AP_EV_L1D_ACCESS    (1ull << 2)
#define AP_EV_L1D_REFILL    (1ull << 3)
#define AP_EV_TLB_ACCESS    (1ull << 4)
#define AP_EV_TLB_WALK      (1ull << 5)
#define AP_EV_NOT_TAKEN     (1ull << 6)
#define AP_EV_MISPREDICTED  (1ull << 7)
#define AP_EV_LLC_ACCESS    (1ull << 8)
#define AP_EV_LLC_MISS      (1ull << 9)
#define AP_EV_REMOTE_ACCESS (1ull << 10)
/* Bits later versions of the architecture define (Arm ARM DDI 0487, the
 * Events packet; the spec of this model, SPEv1, has them read as zero, or
 * IMPLEMENTATION DEFINED for 24 and 25). Captures of newer hardware carry
 * them: the decoder names them. */
#define AP_EV_ALIGNMENT     (1ull << 11) /* misaligned access, FEAT_SPEv1p1 */
#define AP_EV_TRANSACTIONAL (1ull << 16) /* in a transaction, FEAT_TME */
#define AP_EV_PARTIAL_PRED  (1ull << 17) /* partial or empty SVE/SME predicate, FEAT_SPEv1p1 */
#define AP_EV_EMPTY_PRED    (1ull << 18) /* empty SVE/SME predicate, FEAT_SPEv1p1 */
#define AP_EV_L2D_ACCESS    (1ull << 19) /* FEAT_SPEv1p4 */
#define AP_EV_L2D_MISS      (1ull << 20) /* FEAT_SPEv1p4 */
#define AP_EV_CACHE_DATA_MODIFIED (1ull << 21) /* FEAT_SPEv1p4 (perf: HITM) */
#define AP_EV_RECENTLY_FETCHED (1ull << 22) /* FEAT_SPEv1p4 (perf: LFB) */
#define AP_EV_DATA_SNOOPED  (1ull << 23) /* FEAT_SPEv1p4 */
#define AP_EV_STREAMING_SVE (1ull << 24) /* Streaming SVE mode, FEAT_SPE_SME */
#define AP_EV_SMCU          (1ull << 25) /* SMCU or external coprocessor op, FEAT_SPE_SME */
/* Bits that read as zero in every payload size in SPEv1, the version this
 * model implements (5.3.7: byte 1 bit 3, bytes 2, 4, 5); the model never
 * sets them. */
#define AP_EV_RAZ_MASK      ((1ull << 11) | (0xFFull << 16) | (0xFFFFull << 32))
/* Bits below this may have a name; E[15:12], E[31:26] and E[63:48] are
 * IMPLEMENTATION DEFINED and have none (shown as e<N>). */
#define AP_EV_NAMED_COUNT   26
/* The architecture's name of event bit n ("l1d-access", ...), or NULL
 * for a bit without one (IMPLEMENTATION DEFINED, or reserved). */
AP_API const char *ap_event_name(unsigned bit);
/* The architecture version or feature that defines event bit n ("SPEv1",
 * "FEAT_SPEv1p1", "FEAT_TME", "FEAT_SPEv1p4", "FEAT_SPE_SME"), or NULL for
 * a bit without a name. */
AP_API const char *ap_event_feature(unsigned bit);

/* Address payload fields (5.3.1) */
#define AP_ADDR_MASK        0x00FFFFFFFFFFFFFFull /* ADDR, bytes <6:0> */
#define AP_ADDR_NS_BIT      63                    /* byte 7 bit 7 */
#define AP_ADDR_EL_SHIFT    61                    /* byte 7 bits [6:5] */
#define AP_ADDR_TAG_SHIFT   56                    /* byte 7: TAG (data VA) */

/* Counter payload (5.3.4): 12-bit saturating count. */
#define AP_COUNTER_MAX      0xFFFu

/* ---- Packets --------------------------------------------------------- */
enum ap_pkt_type {
	AP_PKT_PAD = 0,
	AP_PKT_END,
	AP_PKT_TIMESTAMP,
	AP_PKT_EVENTS,
	AP_PKT_DATA_SOURCE,
	AP_PKT_CONTEXT,
	AP_PKT_OP_TYPE,
	AP_PKT_ADDRESS,
	AP_PKT_COUNTER,
	AP_PKT_ALIGN,
	AP_PKT_UNKNOWN, /* no defined encoding: skipped by its size (5.1.4) */
	AP_PKT_TYPE_COUNT
};

/* A decoded packet, or the description of one to encode. */
struct ap_packet {
	uint8_t type;      /* enum ap_pkt_type */
	uint8_t ext;       /* 1: 16-bit header (extended format) */
	uint8_t size;      /* total bytes, headers included (decode output) */
	uint8_t psize;     /* payload bytes: 0, 1, 2, 4 or 8 */
	uint8_t index;     /* ADDRESS/COUNTER/CONTEXT INDEX, OP_TYPE CLASS,
	                      ALIGN SIZE field */
	uint8_t reserved;  /* decode: 1 if a field holds a reserved value, or a
	                      field that reads as a constant does not (5.1.4) */
	uint8_t hdr0, hdr1; /* the header byte(s) as found (decode output) */
	uint8_t truncated; /* decoder: the stream ended inside this packet */
	uint64_t payload;  /* little-endian payload value (5.1.3) */
};

/* Decode the packet at buf[0..len). Returns its size in bytes (> 0), or
 * -AP_ERR_NEED_MORE if len is shorter than the size its header encodes.
 * Every byte value begins a packet of known size (SPE-5.1.1-3), so there is
 * no other failure: undefined encodings come back as AP_PKT_UNKNOWN and
 * defined packets with reserved field values have .reserved set. */
AP_API int ap_pkt_decode(struct ap_packet *pkt, const uint8_t *buf, size_t len);

/* Size in bytes of the packet whose header starts buf (len >= 1), or
 * -AP_ERR_NEED_MORE if a second header byte is needed but missing. */
AP_API int ap_pkt_size(const uint8_t *buf, size_t len);

/* Encode pkt (type, ext, psize, index, payload; hdr bytes are derived, except
 * for AP_PKT_UNKNOWN where hdr0/hdr1 are used as given). Returns the bytes
 * written, -AP_ERR_NOSPACE if cap is too small (nothing written), or
 * -AP_ERR_INVALID for a description no header can carry. */
AP_API int ap_pkt_encode(uint8_t *buf, size_t cap, const struct ap_packet *pkt);

/* Convenience constructors for struct ap_packet. */
AP_API struct ap_packet ap_pkt_address(unsigned index, uint64_t payload);
AP_API struct ap_packet ap_pkt_counter(unsigned index, unsigned count);
AP_API struct ap_packet ap_pkt_events(uint64_t events); /* smallest size that fits */
AP_API struct ap_packet ap_pkt_op_type(unsigned cls, unsigned subclass);
AP_API struct ap_packet ap_pkt_simple(enum ap_pkt_type type); /* PAD, END */

/* Payload helpers (5.3.1) */
static inline uint64_t ap_addr_ip(uint64_t va, unsigned el, unsigned ns)
{
	return (va & AP_ADDR_MASK) | ((uint64_t)(el & 3u) << AP_ADDR_EL_SHIFT) |
	       ((uint64_t)(ns & 1u) << AP_ADDR_NS_BIT);
}
static inline uint64_t ap_addr_pa(uint64_t pa, unsigned ns)
{
	return (pa & AP_ADDR_MASK) | ((uint64_t)(ns & 1u) << AP_ADDR_NS_BIT);
}
/* Smallest Events payload size (bytes) that holds every set bit. */
AP_API unsigned ap_events_min_size(uint64_t events);
/* Alignment in bytes of Alignment command SIZE field s (1..15): 2^(s+1). */
static inline uint32_t ap_align_bytes(unsigned s) { return 1u << (s + 1u); }

/* Whether a packet whose value the 2017 supplement reserves (pkt->reserved)
 * is one later versions define: the previous branch target, Address INDEX
 * 0b00100 (FEAT_SPE_PBT, LATER-PBT-3), and a branch's GCS and CR subclass
 * bits [4:2] (FEAT_SPE_GCS, FEAT_SPE_CRR, LATER-CRR-3). The decoder with
 * spe_later and `decode --packets --spe-later` read these as defined. */
static inline int ap_pkt_later_defined(const struct ap_packet *pkt)
{
	if (pkt->type == AP_PKT_ADDRESS)
		return pkt->index == AP_ADDR_PREV_TARGET && (!pkt->ext || (pkt->hdr0 & 0x1Cu) == 0);
	if (pkt->type == AP_PKT_OP_TYPE)
		return pkt->index == AP_OP_CLASS_BRANCH && (pkt->payload & ~0x1Full) == 0;
	return 0;
}

/* Name of a packet type ("PAD", "END", "TS", ...) */
AP_API const char *ap_pkt_type_name(enum ap_pkt_type t);

/* One-line description of a packet in the style of `perf report -D`,
 * e.g. "PC 0xffff800010a2b3c4 el1 ns=1". Returns the length written
 * (truncated to cap-1 like snprintf). */
AP_API int ap_pkt_describe(char *buf, size_t cap, const struct ap_packet *pkt);

#ifdef __cplusplus
}
#endif
#endif

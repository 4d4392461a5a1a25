/* A sample record (spec/002 5.1.2): the packets of one sampled operation,
 * as fields. Used by the decoder (output) and by the model and tests (input
 * to ap_record_encode). */
#ifndef ARMPROF_RECORD_H
#define ARMPROF_RECORD_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#include "armprof/codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which fields of struct ap_record are present (absent fields stay zero). */
enum ap_record_has {
	AP_HAS_PC = 1u << 0,
	AP_HAS_TARGET = 1u << 1,
	AP_HAS_VADDR = 1u << 2,
	AP_HAS_PADDR = 1u << 3,
	AP_HAS_OP = 1u << 4,
	AP_HAS_EVENTS = 1u << 5,
	AP_HAS_LAT_TOTAL = 1u << 6,
	AP_HAS_LAT_ISSUE = 1u << 7,
	AP_HAS_LAT_XLAT = 1u << 8,
	AP_HAS_TS = 1u << 9,
	AP_HAS_CTX_EL1 = 1u << 10,
	AP_HAS_CTX_EL2 = 1u << 11,
	AP_HAS_DATA_SOURCE = 1u << 12,
	AP_HAS_PREV_TARGET = 1u << 13, /* Address INDEX 0b00100 (FEAT_SPE_PBT) */
};

/* How a record ended (5.1.2). */
enum ap_record_end {
	AP_END_NONE = 0,  /* truncated: the stream ended first */
	AP_END_END = 1,   /* End packet */
	AP_END_TIMESTAMP = 2, /* Timestamp packet */
	AP_END_FORCED = 3, /* the decoder cut a runaway record (see decode.h) */
};

/* Errors found inside a record or between records, with the stream offset
 * of the first byte concerned. */
enum ap_decode_error_kind {
	AP_DERR_UNKNOWN_PACKET = 1, /* undefined header, skipped by size */
	AP_DERR_RESERVED_VALUE,     /* defined packet, reserved field value */
	AP_DERR_TRUNCATED,          /* stream ends inside a packet/record */
	AP_DERR_DUPLICATE,          /* a field given twice; the last one wins */
	AP_DERR_TOO_LONG,           /* record cut at the configured maximum */
};
struct ap_decode_error {
	uint64_t offset;
	uint8_t kind; /* enum ap_decode_error_kind */
	uint8_t hdr0, hdr1; /* header bytes of the packet concerned */
};
AP_API const char *ap_decode_error_name(enum ap_decode_error_kind k);

#define AP_RECORD_MAX_ERRORS 4
#define AP_RECORD_MAX_IMPDEF 4

/* IMPLEMENTATION DEFINED address or counter (SPE-5.3.1-12/13, 5.3.4-7/8). */
struct ap_impdef_value {
	uint8_t is_counter; /* 0 address, 1 counter */
	uint8_t index;
	uint64_t value;
};

/* A new field before `errors` must also be cleared in start_record()
 * (lib/decode/decoder.c), which avoids a memset per record. */
struct ap_record {
	uint64_t offset; /* stream offset of the record's first byte */
	uint32_t size;   /* bytes from the first to the last byte of the record */
	uint32_t has;    /* enum ap_record_has bits */

	uint64_t pc;     /* ADDR[55:0] sign-extended from bit 55 */
	uint8_t el, ns;
	uint64_t target;
	uint8_t target_el, target_ns;
	uint64_t prev_target; /* previous branch target (perf: prev_br_tgt), sign-extended */
	uint8_t prev_target_el, prev_target_ns;
	uint64_t vaddr;  /* the payload: bits [55:0] with the TAG byte in [63:56]
	                    (ap_record_vaddr: the canonical address) */
	uint64_t paddr;
	uint8_t pa_ns;

	uint8_t op_class;    /* enum ap_op_class */
	uint8_t op_subclass; /* raw Operation Type payload */

	uint64_t events;
	uint8_t events_size; /* payload bytes the Events packet used */

	uint16_t lat_total, lat_issue, lat_xlat;
	uint64_t ts;
	uint32_t ctx_el1, ctx_el2;
	uint16_t data_source;
	uint8_t data_source_size; /* 1 or 2 */

	uint8_t end;       /* enum ap_record_end */
	uint8_t n_errors;  /* errors beyond AP_RECORD_MAX_ERRORS are counted ... */
	uint16_t n_errors_total; /* ... here */
	uint8_t n_impdef;
	/* Entries past n_errors / n_impdef are unspecified (the decoder does not
	 * clear them); every field before them is zero when absent. */
	struct ap_decode_error errors[AP_RECORD_MAX_ERRORS];
	struct ap_impdef_value impdef[AP_RECORD_MAX_IMPDEF];
};

/* The data virtual address as software uses it (spec/002 5.3.1, Address
 * packet INDEX 2): "If the applicable TBI bit is set to 1, a data access
 * virtual address includes the top-byte tag. Otherwise this field
 * reads-as-zero" (SPE-5.3.1-17). So byte 7 of the payload is never address:
 * the canonical 64-bit address has bits [63:56] copied from bit 55 (the bit
 * that selects TTBR0 or TTBR1), 0xff.. for a Linux kernel address whose
 * packet holds 0x00ff.., as perf shows it. Reports, shared lines and symbol
 * lookup use this value; rec->vaddr keeps the payload as written. */
static inline uint64_t ap_record_vaddr(const struct ap_record *rec)
{
	uint64_t a = rec->vaddr & 0x00FFFFFFFFFFFFFFull;
	return a & (1ull << 55) ? a | 0xFF00000000000000ull : a;
}
/* The top-byte tag of the data virtual address (TAG, payload byte 7): 0
 * when the address had no TBI. */
static inline unsigned ap_record_vaddr_tag(const struct ap_record *rec)
{
	return (unsigned)(rec->vaddr >> 56);
}

/* Options for ap_record_encode. */
struct ap_record_encode_opts {
	uint8_t events_size;   /* 0: smallest that fits (SPE-5.3.7-4); 2/4/8: at least
	                          that many bytes (more if the events need them) */
	uint8_t counter_ext;   /* 1: extended Counter headers */
	uint8_t address_ext;   /* 1: extended Address headers */
};

/* Encode rec as one record in the packet order real implementations use:
 * PC, Context EL1/EL2, Operation Type, Events, issue and total latency,
 * branch target or data VA, translation latency, PA, Data Source, IMP DEF
 * values, then Timestamp (if AP_HAS_TS) or End. Returns bytes written, or
 * -AP_ERR_NOSPACE (nothing written), or -AP_ERR_INVALID for an IMP DEF INDEX
 * over 31. opts may be NULL. */
AP_API int ap_record_encode(uint8_t *buf, size_t cap, const struct ap_record *rec,
                            const struct ap_record_encode_opts *opts);

/* Worst-case size of an encoded record. */
#define AP_RECORD_MAX_BYTES 160

/* Op type helpers for reports: "LD", "ST", "B", "OTHER" or "RESERVED". */
AP_API const char *ap_record_op_name(const struct ap_record *rec);

#ifdef __cplusplus
}
#endif
#endif

/* Names and one-line descriptions of packets, in the spirit of the
 * `perf report -D` dump that SPE users know. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "armprof/codec.h"

/* Event names, as the jsonl schema uses them, with the version that
 * defines each. E[10:0] but E[11]: spec/002 5.3.7 (SPEv1). The others:
 * Arm ARM DDI 0487 (K.a and later), Events packet, E[11] "Alignment"
 * (FEAT_SPEv1p1), E[16] "Transactional" (FEAT_TME), E[17] "Partial
 * Predicate" and E[18] "Empty Predicate" (FEAT_SPEv1p1, SVE and SME
 * predicates), E[19] "Level 2 data cache access", E[20] "Level 2 data
 * cache miss", E[21] "Cache data modified", E[22] "Recently fetched",
 * E[23] "Data snooped" (FEAT_SPEv1p4), E[24] "Streaming SVE mode" and
 * E[25] "SMCU or external coprocessor operation" (FEAT_SPE_SME; before
 * FEAT_SPEv1p4 these two were IMPLEMENTATION DEFINED). Linux perf's
 * arm-spe decoder knows the same bits. E[15:12], E[31:26] and E[63:48]
 * are IMPLEMENTATION DEFINED: unnamed. */
static const struct {
	const char *name, *feature;
} events[AP_EV_NAMED_COUNT] = {
	{ "exception-gen", "SPEv1" }, { "retired", "SPEv1" }, { "l1d-access", "SPEv1" },
	{ "l1d-refill", "SPEv1" }, { "tlb-access", "SPEv1" }, { "tlb-walk", "SPEv1" },
	{ "not-taken", "SPEv1" }, { "mispredicted", "SPEv1" }, { "llc-access", "SPEv1" },
	{ "llc-miss", "SPEv1" }, { "remote-access", "SPEv1" }, { "alignment", "FEAT_SPEv1p1" },
	[16] = { "transactional", "FEAT_TME" }, { "sve-partial-pred", "FEAT_SPEv1p1" },
	{ "sve-empty-pred", "FEAT_SPEv1p1" }, { "l2d-access", "FEAT_SPEv1p4" },
	{ "l2d-miss", "FEAT_SPEv1p4" }, { "cache-data-modified", "FEAT_SPEv1p4" },
	{ "recently-fetched", "FEAT_SPEv1p4" }, { "data-snooped", "FEAT_SPEv1p4" },
	{ "streaming-sve", "FEAT_SPE_SME" }, { "smcu", "FEAT_SPE_SME" },
};

const char *ap_event_name(unsigned bit)
{
	return bit < AP_EV_NAMED_COUNT ? events[bit].name : NULL;
}

const char *ap_event_feature(unsigned bit)
{
	return bit < AP_EV_NAMED_COUNT ? events[bit].feature : NULL;
}

const char *ap_pkt_type_name(enum ap_pkt_type t)
{
	static const char *const names[AP_PKT_TYPE_COUNT] = {
		[AP_PKT_PAD] = "PAD", [AP_PKT_END] = "END", [AP_PKT_TIMESTAMP] = "TS",
		[AP_PKT_EVENTS] = "EV", [AP_PKT_DATA_SOURCE] = "DATA-SOURCE",
		[AP_PKT_CONTEXT] = "CONTEXT", [AP_PKT_OP_TYPE] = "OP",
		[AP_PKT_ADDRESS] = "ADDR", [AP_PKT_COUNTER] = "LAT",
		[AP_PKT_ALIGN] = "ALIGN", [AP_PKT_UNKNOWN] = "UNKNOWN",
	};
	return (unsigned)t < AP_PKT_TYPE_COUNT ? names[t] : "UNKNOWN";
}

/* snprintf into a cursor that never runs past the end. */
struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = o->len < o->cap ? o->cap - o->len : 0;
	int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void describe_address(struct out *o, const struct ap_packet *p)
{
	uint64_t v = p->payload;
	uint64_t addr = v & AP_ADDR_MASK;
	unsigned el = (unsigned)(v >> AP_ADDR_EL_SHIFT) & 3u;
	unsigned ns = (unsigned)(v >> AP_ADDR_NS_BIT) & 1u;
	switch (p->index) {
	case AP_ADDR_PC:
	case AP_ADDR_TARGET:
		put(o, "%s 0x%" PRIx64 " el%u ns=%u", p->index == AP_ADDR_PC ? "PC" : "TGT",
		    addr, el, ns);
		break;
	case AP_ADDR_DATA_VA:
		put(o, "VA 0x%" PRIx64, v);
		break;
	case AP_ADDR_DATA_PA:
		put(o, "PA 0x%" PRIx64 " ns=%u", addr, ns);
		break;
	case AP_ADDR_PREV_TARGET: /* FEAT_SPE_PBT; RESERVED for a v1 reader (LATER-PBT-3) */
		if (ap_pkt_later_defined(p)) {
			put(o, "PBT 0x%" PRIx64 " el%u ns=%u%s", addr, el, ns, p->reserved ? " RESERVED" : ""); /* as the PC */
			break;
		}
		/* fall through */
	default:
		put(o, "ADDR%s %u 0x%" PRIx64, p->reserved ? " RESERVED" : " IMPDEF",
		    p->index, v);
	}
}

/* FEAT_SPE_CRR's CR [4:3] as perf 7.x names it (LATER-CRR-3). */
static const char *ap_op_br_cr_name(unsigned sub)
{
	switch ((sub & AP_OP_BR_CR_MASK) >> AP_OP_BR_CR_SHIFT) {
	case AP_OP_BR_CR_BL: return " BL";
	case AP_OP_BR_CR_RET: return " RET";
	case AP_OP_BR_CR_NON_BL_RET: return " NON-BL-RET";
	default: return "";
	}
}

static void describe_op(struct out *o, const struct ap_packet *p)
{
	unsigned sub = (unsigned)p->payload;
	switch (p->index) {
	case AP_OP_CLASS_OTHER:
		put(o, "OTHER%s", sub == AP_OP_OTHER_COND ? " COND-SELECT" : "");
		break;
	case AP_OP_CLASS_BRANCH:
		put(o, "B%s%s%s%s", sub & AP_OP_BR_COND ? " COND" : "",
		    sub & AP_OP_BR_INDIRECT ? " IND" : "", sub & AP_OP_BR_GCS ? " GCS" : "",
		    ap_op_br_cr_name(sub));
		break;
	case AP_OP_CLASS_LDST:
		put(o, "%s", sub & AP_OP_ST ? "ST" : "LD");
		if ((sub & 0xFEu) == AP_OP_LDST_SIMD) {
			put(o, " SIMD-FP");
		} else if ((sub & 0xE2u) == AP_OP_LDST_EXT) {
			if (sub & AP_OP_LDST_AT)
				put(o, " AT");
			if (sub & AP_OP_LDST_EXCL)
				put(o, " EXCL");
			if (sub & AP_OP_LDST_AR)
				put(o, " AR");
		}
		break;
	default:
		put(o, "OP CLASS %u", p->index);
		break;
	}
	if (p->reserved)
		put(o, " RESERVED 0x%02x", sub);
}

static void describe_counter(struct out *o, const struct ap_packet *p)
{
	static const char *const names[3] = { "TOT", "ISSUE", "XLAT" };
	unsigned count = (unsigned)p->payload & AP_COUNTER_MAX;
	if (p->index < 3)
		put(o, "LAT %u %s", count, names[p->index]);
	else
		put(o, "LAT %u %s %u", (unsigned)p->payload, p->reserved ? "RESERVED" : "IMPDEF",
		    p->index);
}

int ap_pkt_describe(char *buf, size_t cap, const struct ap_packet *p)
{
	struct out o = { buf, cap, 0 };
	if (cap)
		buf[0] = '\0';
	switch (p->type) {
	case AP_PKT_PAD: put(&o, "PAD"); break;
	case AP_PKT_END: put(&o, "END"); break;
	case AP_PKT_TIMESTAMP: put(&o, "TS %" PRIu64, p->payload); break;
	case AP_PKT_EVENTS:
		put(&o, "EV");
		for (unsigned b = 0; b < 64; b++) {
			if (!(p->payload >> b & 1u))
				continue;
			const char *n = ap_event_name(b);
			if (n)
				put(&o, " %s", n);
			else
				put(&o, " E%u", b);
		}
		break;
	case AP_PKT_DATA_SOURCE:
		put(&o, "DATA-SOURCE %" PRIu64 "%s", p->payload, p->reserved ? " RESERVED" : "");
		break;
	case AP_PKT_CONTEXT:
		put(&o, "CONTEXT 0x%" PRIx32 " %s", (uint32_t)p->payload,
		    p->index == AP_CTX_EL1 ? "el1" : p->index == AP_CTX_EL2 ? "el2" : "RESERVED");
		break;
	case AP_PKT_OP_TYPE: describe_op(&o, p); break;
	case AP_PKT_ADDRESS: describe_address(&o, p); break;
	case AP_PKT_COUNTER: describe_counter(&o, p); break;
	case AP_PKT_ALIGN:
		if (p->reserved)
			put(&o, "ALIGN RESERVED %u", p->index);
		else
			put(&o, "ALIGN %" PRIu32, ap_align_bytes(p->index));
		break;
	default:
		put(&o, "UNKNOWN 0x%02x", p->hdr0);
		if (p->ext)
			put(&o, " 0x%02x", p->hdr1);
		break;
	}
	return (int)(o.len < cap ? o.len : (cap ? cap - 1 : 0));
}

/* Every packet of spec/002 section 5: encode, decode, compare, and the
 * expected description line. Each case names its source. */
#include "armprof/codec.h"
#include "codec/packet_decode.h"
#include "harness.h"

/* Encode p, check the bytes, decode them back, check fields and text. */
static void check_packet(const struct ap_packet *p, const uint8_t *want, size_t want_len,
                         const char *want_desc)
{
	uint8_t buf[16];
	int n = ap_pkt_encode(buf, sizeof(buf), p);
	CHECK_EQ_U64(n, want_len);
	if (n == (int)want_len)
		CHECK(memcmp(buf, want, want_len) == 0);
	struct ap_packet d;
	CHECK_EQ_U64(ap_pkt_decode(&d, want, want_len), want_len);
	CHECK_EQ_U64(ap_pkt_size(want, want_len), want_len);
	CHECK_EQ_U64(d.type, p->type);
	CHECK_EQ_U64(d.index, p->index);
	CHECK_EQ_U64(d.payload, p->payload);
	CHECK_EQ_U64(d.psize, p->psize);
	CHECK_EQ_U64(d.ext, p->ext);
	CHECK_EQ_U64(d.reserved, 0);
	char desc[256];
	ap_pkt_describe(desc, sizeof(desc), &d);
	CHECK_EQ_STR(desc, want_desc);
	/* a failed encode writes nothing: too small a buffer */
	uint8_t small[16];
	memset(small, 0xEE, sizeof(small));
	CHECK_EQ_U64(ap_pkt_encode(small, want_len - 1, p), (uint64_t)-AP_ERR_NOSPACE);
	CHECK_EQ_U64(small[0], 0xEE);
	/* a decode of a cut packet asks for more (SPE-5.1.1-2: size from header) */
	if (want_len > 1)
		CHECK_EQ_U64(ap_pkt_decode(&d, want, want_len - 1), (uint64_t)-AP_ERR_NEED_MORE);
}

/* SPE-F5-row1, SPE-5.3.9-1: Padding 0x00; SPE-F5-row2, SPE-5.3.6-2: End 0x01 */
TEST(padding_and_end)
{
	struct ap_packet pad = ap_pkt_simple(AP_PKT_PAD), end = ap_pkt_simple(AP_PKT_END);
	check_packet(&pad, (const uint8_t[]){ 0x00 }, 1, "PAD");
	check_packet(&end, (const uint8_t[]){ 0x01 }, 1, "END");
}

/* SPE-F5-row3, SPE-5.3.10-3: Timestamp 0x71 with a 64-bit payload, LE (SPE-5.1.3-1) */
TEST(timestamp)
{
	struct ap_packet p = { .type = AP_PKT_TIMESTAMP, .psize = 8, .payload = 0x0102030405060708ull };
	check_packet(&p, (const uint8_t[]){ 0x71, 8, 7, 6, 5, 4, 3, 2, 1 }, 9, "TS 72623859790382856");
}

/* SPE-F5-row4, SPE-5.3.7-1, SPE-5.3.7-2: Events 0x42/0x52/0x62/0x72 with 1/2/4/8-byte
 * payloads; SPE-5.3.7-5 (gap: the SZ 0b00/0b01 figures are blank, layout from the field
 * list), SPE-5.3.7-6, SPE-5.3.7-7: byte 1 = {E[15:12],0,E[10:8]}, byte 3 = E[31:24],
 * bytes 6-7 = E[63:48]; SPE-5.3.7-9: IMPLEMENTATION DEFINED bits pass through */
TEST(events_every_size)
{
	struct ap_packet p = { .type = AP_PKT_EVENTS, .psize = 1, .payload = 0x02 };
	check_packet(&p, (const uint8_t[]){ 0x42, 0x02 }, 2, "EV retired");
	p.psize = 2;
	p.payload = 0x0702;
	check_packet(&p, (const uint8_t[]){ 0x52, 0x02, 0x07 }, 3,
	             "EV retired llc-access llc-miss remote-access");
	p.psize = 4;
	p.payload = 0xAB00F001;
	check_packet(&p, (const uint8_t[]){ 0x62, 0x01, 0xF0, 0x00, 0xAB }, 5,
	             "EV exception-gen E12 E13 E14 E15 streaming-sve smcu E27 E29 E31");
	p.psize = 8;
	p.payload = 0x8001000000000080ull;
	check_packet(&p, (const uint8_t[]){ 0x72, 0x80, 0, 0, 0, 0, 0, 0x01, 0x80 }, 9,
	             "EV mispredicted E48 E63");
}

/* SPE-5.3.7-10, SPE-5.3.7-11, SPE-5.3.7-12, SPE-5.3.7-14, SPE-5.3.7-15, SPE-5.3.7-16,
 * SPE-5.3.7-17, SPE-5.3.7-18, SPE-5.3.7-19, SPE-5.3.7-20, SPE-5.3.7-22: every named
 * event bit has its spec name */
TEST(event_names_every_bit)
{
	static const char *const want[] = { "exception-gen", "retired", "l1d-access", "l1d-refill",
		                                "tlb-access", "tlb-walk", "not-taken", "mispredicted",
		                                "llc-access", "llc-miss", "remote-access" };
	for (unsigned b = 0; b < 11; b++) {
		CHECK_EQ_STR(ap_event_name(b), want[b]);
		CHECK_EQ_STR(ap_event_feature(b), "SPEv1");
	}
	/* The bits later versions define (Arm ARM DDI 0487, Events packet),
	 * with the feature that defines each; E[15:12], E[31:26], E[63:48]
	 * are IMPLEMENTATION DEFINED and unnamed. */
	static const struct {
		unsigned bit;
		const char *name, *feature;
	} later[] = {
		{ 11, "alignment", "FEAT_SPEv1p1" },      { 16, "transactional", "FEAT_TME" },
		{ 17, "sve-partial-pred", "FEAT_SPEv1p1" }, { 18, "sve-empty-pred", "FEAT_SPEv1p1" },
		{ 19, "l2d-access", "FEAT_SPEv1p4" },     { 20, "l2d-miss", "FEAT_SPEv1p4" },
		{ 21, "cache-data-modified", "FEAT_SPEv1p4" }, { 22, "recently-fetched", "FEAT_SPEv1p4" },
		{ 23, "data-snooped", "FEAT_SPEv1p4" },   { 24, "streaming-sve", "FEAT_SPE_SME" },
		{ 25, "smcu", "FEAT_SPE_SME" },
	};
	for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
		CHECK_EQ_STR(ap_event_name(later[i].bit), later[i].name);
		CHECK_EQ_STR(ap_event_feature(later[i].bit), later[i].feature);
	}
	for (unsigned b = 12; b < 64; b++)
		if (b < 16 || b > 25)
			CHECK(ap_event_name(b) == NULL && ap_event_feature(b) == NULL);
	/* SPE-5.3.7-4: the smallest payload that holds all set bits */
	CHECK_EQ_U64(ap_events_min_size(0x80), 1);
	CHECK_EQ_U64(ap_events_min_size(0x100), 2);
	CHECK_EQ_U64(ap_events_min_size(1u << 24), 4);
	CHECK_EQ_U64(ap_events_min_size(1ull << 48), 8);
}

/* SPE-F5-row5, SPE-5.3.5-5: Data Source 0x43 (8-bit) and 0x53 (16-bit); SPE-5.3.5-7: the
 * figures are blank, the layout comes from the field list */
TEST(data_source_sizes)
{
	struct ap_packet p = { .type = AP_PKT_DATA_SOURCE, .psize = 1, .payload = 0x0e };
	check_packet(&p, (const uint8_t[]){ 0x43, 0x0e }, 2, "DATA-SOURCE 14");
	p.psize = 2;
	p.payload = 0x1234;
	check_packet(&p, (const uint8_t[]){ 0x53, 0x34, 0x12 }, 3, "DATA-SOURCE 4660");
	/* SZ 0b10/0b11 are not defined for Data Source: reserved, skipped by size */
	struct ap_packet d;
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x63, 1, 2, 3, 4 }, 5), 5);
	CHECK_EQ_U64(d.type, AP_PKT_DATA_SOURCE);
	CHECK_EQ_U64(d.reserved, 1);
}

/* SPE-F5-row6, SPE-5.3.3-1, SPE-5.3.3-2, SPE-5.3.3-3, SPE-5.3.3-4, SPE-5.3.3-6 (SPE-5.3.3-7:
 * the figures are blank, layout from the field list): Context 0x64 (CONTEXTIDR_EL1), 0x65 (CONTEXTIDR_EL2),
 * 0x66/0x67 reserved */
TEST(context)
{
	struct ap_packet p = { .type = AP_PKT_CONTEXT, .psize = 4, .index = AP_CTX_EL1,
		                   .payload = 0xdeadbeef };
	check_packet(&p, (const uint8_t[]){ 0x64, 0xef, 0xbe, 0xad, 0xde }, 5, "CONTEXT 0xdeadbeef el1");
	p.index = AP_CTX_EL2;
	p.payload = 7;
	check_packet(&p, (const uint8_t[]){ 0x65, 7, 0, 0, 0 }, 5, "CONTEXT 0x7 el2");
	struct ap_packet d;
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x66, 1, 0, 0, 0 }, 5), 5);
	CHECK_EQ_U64(d.reserved, 1); /* SPE-5.3.3-5 */
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x67, 1, 0, 0, 0 }, 5), 5);
	CHECK_EQ_U64(d.reserved, 1);
}

/* SPE-F5-row7, SPE-5.3.8-1, SPE-5.3.8-2, SPE-5.3.8-3, SPE-5.3.8-4, SPE-5.3.8-5: Operation
 * Type 0x48-0x4B, every defined payload (SPE-5.3.8-15: header and Other/Branch figures
 * blank, layout from the field list); load/store layout from DDI 0487 (SPE-5.3.8-14 gap) */
TEST(operation_type_every_subclass)
{
	struct {
		unsigned cls, sub;
		uint8_t hdr;
		const char *desc;
	} cases[] = {
		{ AP_OP_CLASS_OTHER, 0x00, 0x48, "OTHER" },              /* SPE-5.3.8-7 */
		{ AP_OP_CLASS_OTHER, 0x01, 0x48, "OTHER COND-SELECT" },  /* SPE-5.3.8-8 */
		{ AP_OP_CLASS_LDST, 0x00, 0x49, "LD" },
		{ AP_OP_CLASS_LDST, 0x01, 0x49, "ST" },
		{ AP_OP_CLASS_LDST, 0x04, 0x49, "LD SIMD-FP" },
		{ AP_OP_CLASS_LDST, 0x05, 0x49, "ST SIMD-FP" },
		{ AP_OP_CLASS_LDST, 0x06, 0x49, "LD AT" },
		{ AP_OP_CLASS_LDST, 0x07, 0x49, "ST AT" },
		{ AP_OP_CLASS_LDST, 0x0a, 0x49, "LD EXCL" },
		{ AP_OP_CLASS_LDST, 0x0b, 0x49, "ST EXCL" },
		{ AP_OP_CLASS_LDST, 0x12, 0x49, "LD AR" },
		{ AP_OP_CLASS_LDST, 0x13, 0x49, "ST AR" },
		{ AP_OP_CLASS_LDST, 0x1f, 0x49, "ST AT EXCL AR" },
		{ AP_OP_CLASS_BRANCH, 0x00, 0x4a, "B" },                 /* SPE-5.3.8-10, SPE-5.3.8-13 */
		{ AP_OP_CLASS_BRANCH, 0x01, 0x4a, "B COND" },
		{ AP_OP_CLASS_BRANCH, 0x02, 0x4a, "B IND" },             /* SPE-5.3.8-11 */
		{ AP_OP_CLASS_BRANCH, 0x03, 0x4a, "B COND IND" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ap_packet p = ap_pkt_op_type(cases[i].cls, cases[i].sub);
		uint8_t want[2] = { cases[i].hdr, (uint8_t)cases[i].sub };
		check_packet(&p, want, 2, cases[i].desc);
	}
}

/* SPE-5.3.8-6, SPE-5.3.8-9, SPE-5.3.8-12: reserved CLASS and SUBCLASS values decode with
 * .reserved */
TEST(operation_type_reserved)
{
	struct ap_packet d;
	const uint8_t cases[][2] = {
		{ 0x4b, 0x00 }, /* CLASS 0b11 */
		{ 0x48, 0x02 }, /* Other SUBCLASS 0x02 */
		{ 0x4a, 0x04 }, /* Branch SUBCLASS 0b00000100 */
		{ 0x49, 0x20 }, /* Load/store: not GP, SIMD or extended */
		{ 0x49, 0x08 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_EQ_U64(ap_pkt_decode(&d, cases[i], 2), 2);
		CHECK_EQ_U64(d.type, AP_PKT_OP_TYPE);
		CHECK_EQ_U64(d.reserved, 1);
	}
}

/* SPE-F5-row8, SPE-5.3.1-1, SPE-5.3.1-3, SPE-5.3.1-4 (SZ 0b11 only), SPE-5.3.1-5,
 * SPE-5.3.1-6, SPE-5.3.1-8, SPE-5.3.1-9, SPE-5.3.1-18, SPE-5.3.1-19, SPE-5.3.1-21,
 * SPE-5.3.1-23 (SPE-5.3.1-16: the payload figures are blank, layout from the field list):
 * Address, short format 0xB0-0xB7 */
TEST(address_short_every_index)
{
	struct ap_packet p = ap_pkt_address(AP_ADDR_PC, ap_addr_ip(0xffff800010a2b3c4ull, 1, 1));
	check_packet(&p, (const uint8_t[]){ 0xb0, 0xc4, 0xb3, 0xa2, 0x10, 0x00, 0x80, 0xff, 0xa0 }, 9,
	             "PC 0xff800010a2b3c4 el1 ns=1");
	p = ap_pkt_address(AP_ADDR_TARGET, ap_addr_ip(0x400000, 0, 0));
	check_packet(&p, (const uint8_t[]){ 0xb1, 0x00, 0x00, 0x40, 0, 0, 0, 0, 0x00 }, 9,
	             "TGT 0x400000 el0 ns=0");
	p = ap_pkt_address(AP_ADDR_TARGET, ap_addr_ip(0x1000, 3, 0)); /* EL3 = 0b11 */
	check_packet(&p, (const uint8_t[]){ 0xb1, 0x00, 0x10, 0, 0, 0, 0, 0, 0x60 }, 9,
	             "TGT 0x1000 el3 ns=0");
	p = ap_pkt_address(AP_ADDR_PC, ap_addr_ip(0x2000, 2, 1)); /* EL2 = 0b10 */
	check_packet(&p, (const uint8_t[]){ 0xb0, 0x00, 0x20, 0, 0, 0, 0, 0, 0xc0 }, 9,
	             "PC 0x2000 el2 ns=1");
	/* SPE-5.3.1-17: data VA keeps the top-byte TAG */
	p = ap_pkt_address(AP_ADDR_DATA_VA, 0x5a00ffffabcd0123ull);
	check_packet(&p, (const uint8_t[]){ 0xb2, 0x23, 0x01, 0xcd, 0xab, 0xff, 0xff, 0x00, 0x5a }, 9,
	             "VA 0x5a00ffffabcd0123");
	/* SPE-5.3.1-22: PA with NS in byte 7 bit 7 */
	p = ap_pkt_address(AP_ADDR_DATA_PA, ap_addr_pa(0x80001234, 1));
	check_packet(&p, (const uint8_t[]){ 0xb3, 0x34, 0x12, 0x00, 0x80, 0, 0, 0, 0x80 }, 9,
	             "PA 0x80001234 ns=1");
	p = ap_pkt_address(AP_ADDR_DATA_PA, ap_addr_pa(0x80001234, 0));
	check_packet(&p, (const uint8_t[]){ 0xb3, 0x34, 0x12, 0x00, 0x80, 0, 0, 0, 0x00 }, 9,
	             "PA 0x80001234 ns=0");
	/* SPE-5.3.1-12: INDEX 0b0011x IMPLEMENTATION DEFINED */
	p = ap_pkt_address(6, 0x42);
	check_packet(&p, (const uint8_t[]){ 0xb6, 0x42, 0, 0, 0, 0, 0, 0, 0 }, 9, "ADDR IMPDEF 6 0x42");
}

/* SPE-F6-row2, SPE-5.3.1-2, SPE-5.3.1-13 (SPE-5.3.1-14: "0b1xxxxx" read as 0b1xxxx,
 * INDEX 16-31): Address, extended format */
TEST(address_extended)
{
	struct ap_packet p = ap_pkt_address(AP_ADDR_PC, ap_addr_ip(0x400000, 0, 1));
	p.ext = 1;
	check_packet(&p, (const uint8_t[]){ 0x20, 0xb0, 0x00, 0x00, 0x40, 0, 0, 0, 0, 0x80 }, 10,
	             "PC 0x400000 el0 ns=1");
	p = ap_pkt_address(0x13, 0x99); /* INDEX 0b10011: INDEX[4:3]=0b10 in byte 0 */
	check_packet(&p, (const uint8_t[]){ 0x22, 0xb3, 0x99, 0, 0, 0, 0, 0, 0, 0 }, 10,
	             "ADDR IMPDEF 19 0x99");
	p = ap_pkt_address(0x1f, 1);
	check_packet(&p, (const uint8_t[]){ 0x23, 0xb7, 0x01, 0, 0, 0, 0, 0, 0, 0 }, 10,
	             "ADDR IMPDEF 31 0x1");
	/* short format cannot carry INDEX[4:3] != 0 (SPE-5.3.1-3) */
	p.ext = 0;
	uint8_t buf[16];
	CHECK_EQ_U64(ap_pkt_encode(buf, sizeof(buf), &p), (uint64_t)-AP_ERR_INVALID);
}

/* SPE-5.3.1-15: reserved Address INDEX values 0b00100, 0b00101, 0b01xxx */
TEST(address_reserved_index)
{
	struct ap_packet d;
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0xb4, 0, 0, 0, 0, 0, 0, 0, 0 }, 9), 9);
	CHECK_EQ_U64(d.reserved, 1);
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0xb5, 0, 0, 0, 0, 0, 0, 0, 0 }, 9), 9);
	CHECK_EQ_U64(d.reserved, 1);
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x21, 0xb0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10), 10);
	CHECK_EQ_U64(d.index, 8);
	CHECK_EQ_U64(d.reserved, 1);
	/* extended byte 0 bits [4:2] read as zero (SPE-5.3.1-2) */
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x24, 0xb0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10), 10);
	CHECK_EQ_U64(d.reserved, 1);
}

/* SPE-F5-row9, SPE-F6-row3, SPE-5.3.4-1, SPE-5.3.4-2, SPE-5.3.4-4, SPE-5.3.4-5, SPE-5.3.4-6,
 * SPE-5.3.4-18 (SPE-5.3.4-3: the figures are blank, layout from the field list): Counter,
 * short and extended */
TEST(counter_every_index)
{
	struct ap_packet p = ap_pkt_counter(AP_CTR_TOTAL, 212);
	check_packet(&p, (const uint8_t[]){ 0x98, 0xd4, 0x00 }, 3, "LAT 212 TOT");
	p = ap_pkt_counter(AP_CTR_ISSUE, 0xfff);
	check_packet(&p, (const uint8_t[]){ 0x99, 0xff, 0x0f }, 3, "LAT 4095 ISSUE");
	p = ap_pkt_counter(AP_CTR_XLAT, 0);
	check_packet(&p, (const uint8_t[]){ 0x9a, 0x00, 0x00 }, 3, "LAT 0 XLAT");
	p = ap_pkt_counter(AP_CTR_TOTAL, 5);
	p.ext = 1;
	check_packet(&p, (const uint8_t[]){ 0x20, 0x98, 0x05, 0x00 }, 4, "LAT 5 TOT");
	/* SPE-5.3.4-7, SPE-5.3.4-8: IMPLEMENTATION DEFINED indexes */
	p = ap_pkt_counter(7, 3);
	check_packet(&p, (const uint8_t[]){ 0x9f, 0x03, 0x00 }, 3, "LAT 3 IMPDEF 7");
	p = ap_pkt_counter(16, 9);
	check_packet(&p, (const uint8_t[]){ 0x22, 0x98, 0x09, 0x00 }, 4, "LAT 9 IMPDEF 16");
	/* SPE-5.3.4-18: 12-bit saturating: the constructor saturates at 0xFFF */
	p = ap_pkt_counter(AP_CTR_TOTAL, 100000);
	CHECK_EQ_U64(p.payload, 0xfff);
	/* SPE-5.3.4-9: reserved index 3 */
	struct ap_packet d;
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x9b, 1, 0 }, 3), 3);
	CHECK_EQ_U64(d.reserved, 1);
}

/* SPE-F6-row1, SPE-5.3.2-2: Alignment command; SPE-5.3.2-7 (gap: SIZE 0b0100-0b1110 are
 * elided in the text): 2^(SIZE+1) bytes */
TEST(alignment_every_size)
{
	for (unsigned s = 1; s <= 15; s++) {
		struct ap_packet p = { .type = AP_PKT_ALIGN, .ext = 1, .index = (uint8_t)s };
		uint8_t want[2] = { (uint8_t)(0x20 | s), 0x00 };
		char desc[32];
		snprintf(desc, sizeof(desc), "ALIGN %u", 1u << (s + 1));
		check_packet(&p, want, 2, desc);
	}
	CHECK_EQ_U64(ap_align_bytes(1), 4);   /* SPE-5.3.2-3 */
	CHECK_EQ_U64(ap_align_bytes(2), 8);   /* SPE-5.3.2-4 */
	CHECK_EQ_U64(ap_align_bytes(3), 16);  /* SPE-5.3.2-5 */
	CHECK_EQ_U64(ap_align_bytes(15), 65536); /* SPE-5.3.2-6 */
	struct ap_packet d;
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x20, 0x00 }, 2), 2);
	CHECK_EQ_U64(d.type, AP_PKT_ALIGN);
	CHECK_EQ_U64(d.reserved, 1); /* SPE-5.3.2-8: SIZE 0 reserved */
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x31, 0x00 }, 2), 2);
	CHECK_EQ_U64(d.reserved, 1); /* byte 0 bit 4 reads as zero */
}

/* SPE-5.1.1-3 (SPE-5.1.1-4: Figure 1 is blank, the rule is inferred from Figure 2 and the
 * headers), SPE-F2-row1, SPE-F2-row2, SPE-F2-row3, SPE-F2-row4, SPE-F2-row5, SPE-F2-row6
 * (SPE-5.1.1-5: the 64-bit row's "0xB0 - 0xFF" is read as 0xB0-0xBF), SPE-5.1.4-4,
 * SPE-5.1-1: every header byte has a size; undefined ones decode as UNKNOWN of that size */
TEST(size_rule_every_header_byte)
{
	uint8_t buf[16] = { 0 };
	for (unsigned b = 0; b < 256; b++) {
		buf[0] = (uint8_t)b;
		buf[1] = 0x00;
		int want;
		if (b < 0x20)
			want = 1;
		else if (b < 0x40)
			want = 2; /* prefix + 0x00: no payload (SPE-F2-row1) */
		else
			want = 1 + (1 << ((b >> 4) & 3));
		CHECK_EQ_U64(ap_pkt_size(buf, sizeof(buf)), want);
		struct ap_packet d;
		CHECK_EQ_U64(ap_pkt_decode(&d, buf, sizeof(buf)), want);
	}
	/* second byte classes after a prefix (Figure 2) */
	struct {
		uint8_t b1;
		int size;
	} ext[] = { { 0x05, 2 }, { 0x2a, 2 }, { 0x40, 3 }, { 0x8f, 3 }, { 0xc3, 3 }, { 0x50, 4 },
		        { 0x95, 4 }, { 0xdd, 4 }, { 0x60, 6 }, { 0xa1, 6 }, { 0xef, 6 }, { 0x70, 10 },
		        { 0xbf, 10 }, { 0xf0, 10 } };
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		buf[0] = 0x20;
		buf[1] = ext[i].b1;
		CHECK_EQ_U64(ap_pkt_size(buf, sizeof(buf)), ext[i].size);
	}
	/* 0x02-0x1F and 0x41, 0x61 ... are not defined: UNKNOWN */
	struct ap_packet d;
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x05 }, 1), 1);
	CHECK_EQ_U64(d.type, AP_PKT_UNKNOWN);
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x61, 1, 2, 3, 4 }, 5), 5);
	CHECK_EQ_U64(d.type, AP_PKT_UNKNOWN);
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x20, 0x2a }, 2), 2);
	CHECK_EQ_U64(d.type, AP_PKT_UNKNOWN); /* SPE-F2-row2: reserved */
	CHECK_EQ_U64(ap_pkt_size((const uint8_t[]){ 0x20 }, 1), (uint64_t)-AP_ERR_NEED_MORE);
	char desc[64];
	ap_pkt_describe(desc, sizeof(desc), &d);
	CHECK_EQ_STR(desc, "UNKNOWN 0x20 0x2a");
}

/* Fields that read as zero are ignored by the decoder if a producer sets them:
 * SPE-5.3.1-21 (PC byte 7 bits [4:0]), SPE-5.3.1-22 (PA byte 7 bits [6:0]),
 * SPE-5.3.4-17 (Counter byte 1 bits [7:4]); SPE-5.3.7-3: event bits beyond the payload
 * size are zero; SPE-5.3.7-24: E[11] (byte 1 bit 3) is zero in this version (SPEv1);
 * a producer that sets it is a later version, where it is "alignment" (FEAT_SPEv1p1,
 * Arm ARM DDI 0487): the bit passes through, named as that version names it. */
TEST(read_as_zero_fields)
{
	struct ap_packet d;
	char desc[128];
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0xb0, 0x10, 0, 0, 0, 0, 0, 0, 0x9f }, 9), 9);
	ap_pkt_describe(desc, sizeof(desc), &d);
	CHECK_EQ_STR(desc, "PC 0x10 el0 ns=1");
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0xb3, 0x10, 0, 0, 0, 0, 0, 0, 0x7f }, 9), 9);
	ap_pkt_describe(desc, sizeof(desc), &d);
	CHECK_EQ_STR(desc, "PA 0x10 ns=0");
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x98, 0x34, 0xf2 }, 3), 3);
	ap_pkt_describe(desc, sizeof(desc), &d);
	CHECK_EQ_STR(desc, "LAT 564 TOT");
	/* an 8-bit Events payload says nothing of E[15:8]: they read as zero */
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x42, 0x02, 0xff }, 3), 2);
	CHECK_EQ_U64(d.payload, 0x02);
	CHECK_EQ_U64(ap_pkt_decode(&d, (const uint8_t[]){ 0x52, 0x00, 0x08 }, 3), 3);
	ap_pkt_describe(desc, sizeof(desc), &d);
	CHECK_EQ_U64(d.payload, 0x800);
	CHECK_EQ_STR(desc, "EV alignment");
}

/* Descriptions never overrun a small buffer */
TEST(describe_truncates)
{
	struct ap_packet p = ap_pkt_events(0x7ff);
	char small[8];
	int n = ap_pkt_describe(small, sizeof(small), &p);
	CHECK(n <= 7);
	CHECK_EQ_STR(small, "EV exce");
}

/* The decoder's table-driven fast path agrees with the reference decode for
 * every header byte and payload (SPE-5.2.1 Figure 5 classification). */
TEST(fast_path_matches_reference)
{
	uint8_t buf[16];
	for (unsigned b = 0; b < 256; b++) {
		for (unsigned v = 0; v < 4; v++) {
			buf[0] = (uint8_t)b;
			for (unsigned k = 1; k < sizeof(buf); k++)
				buf[k] = (uint8_t)(v * 0x55u + k * 37u);
			if (v == 3)
				buf[1] = 0x00;
			struct ap_packet a, f;
			memset(&f, 0xAA, sizeof(f));
			int na = pd_decode(&a, buf, sizeof(buf));
			int nf = pd_decode_fast(&f, buf, sizeof(buf));
			CHECK_EQ_U64(nf, na);
			CHECK(a.type == f.type && a.ext == f.ext && a.size == f.size && a.psize == f.psize &&
			      a.index == f.index && a.reserved == f.reserved && a.hdr0 == f.hdr0 &&
			      a.hdr1 == f.hdr1 && a.truncated == f.truncated && a.payload == f.payload);
		}
	}
}

TEST_MAIN(CASE(fast_path_matches_reference), CASE(padding_and_end), CASE(timestamp), CASE(events_every_size),
          CASE(event_names_every_bit), CASE(data_source_sizes), CASE(context),
          CASE(operation_type_every_subclass), CASE(operation_type_reserved),
          CASE(address_short_every_index), CASE(address_extended), CASE(address_reserved_index),
          CASE(counter_every_index), CASE(alignment_every_size), CASE(size_rule_every_header_byte),
          CASE(describe_truncates), CASE(read_as_zero_fields))

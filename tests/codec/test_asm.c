/* The SPE text format assembler: statements -> the encoder's bytes, and
 * errors that name the line. */
#include <stdlib.h>

#include "armprof/asm.h"
#include "harness.h"

static void check_asm(const char *text, const uint8_t *want, size_t want_len)
{
	uint8_t *out = NULL;
	size_t n = 0;
	struct ap_error_ctx err;
	int rc = ap_asm_assemble(text, strlen(text), 0, &out, &n, &err);
	CHECK_EQ_U64(rc, 0);
	if (rc)
		fprintf(stderr, "  line %u: %s\n", err.line, err.message);
	CHECK_EQ_U64(n, want_len);
	if (rc == 0 && n == want_len && n)
		CHECK(memcmp(out, want, n) == 0);
	free(out);
}

static void check_error(const char *text, unsigned line, const char *msg_part)
{
	uint8_t *out = NULL;
	size_t n = 0;
	struct ap_error_ctx err;
	CHECK_EQ_U64(ap_asm_assemble(text, strlen(text), 0, &out, &n, &err), (uint64_t)-AP_ERR_FORMAT);
	CHECK_EQ_U64(err.line, line);
	CHECK(strstr(err.message, msg_part) != NULL);
	if (!strstr(err.message, msg_part))
		fprintf(stderr, "  message: %s\n", err.message);
}

TEST(statements)
{
	check_asm("pc 0x1000 el=1 ns=0; end\n",
	          (const uint8_t[]){ 0xb0, 0x00, 0x10, 0, 0, 0, 0, 0, 0x20, 0x01 }, 10);
	check_asm("op st simd\nop ld at excl ar\nop b cond ind\nop other cond\n",
	          (const uint8_t[]){ 0x49, 0x05, 0x49, 0x1e, 0x4a, 0x03, 0x48, 0x01 }, 8);
	check_asm("ev retired llc-miss # comment\n", (const uint8_t[]){ 0x52, 0x02, 0x02 }, 3);
	check_asm("ev retired size=8", (const uint8_t[]){ 0x72, 2, 0, 0, 0, 0, 0, 0, 0 }, 9);
	check_asm("lat total 7; lat 16 1; ctx el2 0x5",
	          (const uint8_t[]){ 0x98, 7, 0, 0x22, 0x98, 1, 0, 0x65, 5, 0, 0, 0 }, 12);
	check_asm("ds 3; ds 0x100; ts 1",
	          (const uint8_t[]){ 0x43, 3, 0x53, 0x00, 0x01, 0x71, 1, 0, 0, 0, 0, 0, 0, 0 }, 14);
	/* align fills to the stream offset (5.3.2) */
	check_asm("end; align 8; end",
	          (const uint8_t[]){ 0x01, 0x22, 0x00, 0, 0, 0, 0, 0, 0x01 }, 9);
	check_asm("pad 2; bytes 0x05 7; align-raw 0",
	          (const uint8_t[]){ 0x00, 0x00, 0x05, 0x07, 0x20, 0x00 }, 6);
	check_asm("", NULL, 0);
	/* Zero bytes of padding first: nothing written, no null-pointer
	 * memset (UBSan, found by fuzz_asm). */
	check_asm("pad 0", NULL, 0);
	check_asm("pad 0; bytes; end", (const uint8_t[]){ 0x01 }, 1);
}

TEST(errors_name_the_line)
{
	check_error("end\npc\n", 2, "usage");
	check_error("end\nend\nfrob 1\n", 3, "unknown statement 'frob'");
	check_error("pc 0x10 el=4", 1, "el=4");
	check_error("lat total zz", 1, "'zz' is not a number");
	check_error("ev retired bogus", 1, "unknown event 'bogus'");
	check_error("ev 0x100 size=1", 1, "do not fit");
	check_error("align 12", 1, "power of two");
	check_error("op ld simd at", 1, "simd cannot combine");
	check_error("bytes 0x100", 1, "not a byte");
	check_error("op raw 4 0", 1, "CLASS 0-3");
	check_error("addr 40 1", 1, "0-31");
}

/* Every value must fit its packet field (issue 32: encode truncated what did
 * not), each field from the packet formats of spec/002 5.3, the line named. */
TEST(values_that_do_not_fit_their_field)
{
	/* Address packet (5.3.1): ADDR is bits [55:0] (SPE-5.3.1-23); byte 7 is
	 * NS and EL of an instruction address (SPE-5.3.1-18, SPE-5.3.1-19,
	 * SPE-5.3.1-21) and NS of a physical one (SPE-5.3.1-22). */
	check_error("end\npc 0x100000000000000\n", 2, "does not fit the Address packet's 56-bit ADDR");
	check_error("tgt 0x0100000000000000", 1, "56-bit ADDR");
	check_error("pbt 0x8000000000000000", 1, "56-bit ADDR");
	check_error("pa 0x100000000000000", 1, "56-bit ADDR");
	check_error("pa 0xffff800000000000", 1, "56-bit ADDR"); /* no sign extension for a PA */
	/* A canonical (sign-extended) VA fits: the kernel's half. */
	check_asm("pc 0xffff800010000000 el=1\n",
	          (const uint8_t[]){ 0xb0, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0xff, 0xa0 }, 9);
	check_asm("pa 0xffffffffffffff ns=0\n",
	          (const uint8_t[]){ 0xb3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 }, 9);
	/* A data VA's byte 7 is its TAG (SPE-5.3.1-17): all 64 bits fit, and it
	 * has no EL or NS field. */
	check_asm("va 0xff00000000001000\n",
	          (const uint8_t[]){ 0xb2, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff }, 9);
	check_error("va 0x1000 el=1", 1, "unexpected 'el=1'");
	check_error("va 0x1000 ns=0", 1, "unexpected 'ns=0'");
	/* Data Source (5.3.5): SOURCE is 8 or 16 bits (SPE-5.3.5-5); a size
	 * given must hold the value. */
	check_error("ds 0x10000 size=1", 1, "does not fit size=1 (8 bits)");
	check_error("ds 0x100 size=1", 1, "does not fit size=1");
	check_error("ds 0x10000 size=2", 1, "does not fit size=2 (16 bits)");
	check_error("ds 0x10000", 1, "16-bit SOURCE");
	check_error("ds 0x100000000 size=4", 1, "does not fit size=4");
	check_asm("ds 0x10000 size=4\n", (const uint8_t[]){ 0x63, 0x00, 0x00, 0x01, 0x00 }, 5);
	check_asm("ds 0x1ff\n", (const uint8_t[]){ 0x53, 0xff, 0x01 }, 3);
	/* Counter (5.3.4): a 16-bit payload (SPE-5.3.4-1); Context (5.3.3): 32
	 * bits (SPE-5.3.3-6); Events: the size given (SPE-5.1.1-2). */
	check_error("lat total 0x10000", 1, "does not fit 16 bits");
	check_error("ctx el1 0x100000000", 1, "does not fit 32 bits");
	check_error("ev e16 size=2", 1, "do not fit");
	/* Options a packet has no field for are refused, not dropped: a
	 * Timestamp is 64 bits (SPE-5.3.10-3), a Counter has no EL. */
	check_error("ts 5 size=1", 1, "unexpected 'size=1'");
	check_error("lat total 5 el=1", 1, "unexpected 'el=1'");
	check_error("ds 5 ns=0", 1, "unexpected 'ns=0'");
	check_error("addr 3 0x10 el=1", 1, "unexpected 'el=1'");
}

TEST_MAIN(CASE(statements), CASE(errors_name_the_line), CASE(values_that_do_not_fit_their_field))

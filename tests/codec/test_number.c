/* ap_parse_u64() and ap_parse_u64_scaled(): the one number syntax of every
 * armprof input (include/armprof/number.h). */
#include "armprof/error.h"
#include "armprof/number.h"
#include "harness.h"

TEST(accepted_forms)
{
	static const struct { const char *text; uint64_t want; } ok[] = {
		{ "0", 0 }, { "4096", 4096 }, { "010", 10 } /* no octal */, { "0x40", 0x40 },
		{ "0XfF", 0xff }, { "0b101", 5 }, { "0B1", 1 }, { "0xffff_0000", 0xffff0000 },
		{ "1_000_000", 1000000 }, { "18446744073709551615", UINT64_MAX },
		{ "0xffffffffffffffff", UINT64_MAX },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t v = 7;
		CHECK(ap_parse_u64(ok[i].text, &v) == 0);
		CHECK_EQ_U64(v, ok[i].want);
	}
}

TEST(refused_forms)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "0x", "0b", "0b2", "12a", "_1", "0x_1", "5_", "1__0", "0x10_", "64_K",
		"18446744073709551616", "0x10000000000000000", "1K",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 7;
		CHECK(ap_parse_u64(bad[i], &v) == -AP_ERR_INVALID);
		CHECK_EQ_U64(v, 7); /* unchanged */
	}
}

TEST(scaled)
{
	uint64_t v = 0;
	CHECK(ap_parse_u64_scaled("64K", &v) == 0 && v == 64u << 10);
	CHECK(ap_parse_u64_scaled("2m", &v) == 0 && v == 2u << 20);
	CHECK(ap_parse_u64_scaled("0x10G", &v) == 0 && v == 16ull << 30);
	CHECK(ap_parse_u64_scaled("123", &v) == 0 && v == 123);
	CHECK(ap_parse_u64_scaled("0x1B", &v) == 0 && v == 0x1B); /* B is a hex digit, no suffix */
	CHECK(ap_parse_u64_scaled("K", &v) == -AP_ERR_INVALID);
	CHECK(ap_parse_u64_scaled("64_K", &v) == -AP_ERR_INVALID); /* issue 32 item 9 */
	CHECK(ap_parse_u64_scaled("1T", &v) == -AP_ERR_INVALID);
	CHECK(ap_parse_u64_scaled("17179869184G", &v) == -AP_ERR_INVALID); /* 2^34 * 2^30 */
}

TEST_MAIN(CASE(accepted_forms), CASE(refused_forms), CASE(scaled))

/* Data Source encodings per CPU (armprof/data_source.h): the payload is
 * IMPLEMENTATION DEFINED (spec/002 5.3.5, SPE-5.3.5-1); the values are
 * those Linux perf decodes, chosen by MIDR_EL1 as perf chooses them. */
#include "armprof/data_source.h"
#include "harness.h"

/* MIDR_EL1 values as CPUs report them (perf.data's CPUID feature):
 * implementer [31:24], variant [23:20], architecture [19:16], part number
 * [15:4], revision [3:0]. */
TEST(encoding_by_midr)
{
	static const struct {
		uint64_t midr;
		enum ap_ds_encoding enc;
	} cpus[] = {
		{ 0x413fd0c1, AP_DS_ENC_NEOVERSE },  /* Neoverse N1 r3p1 */
		{ 0x410fd0c0, AP_DS_ENC_NEOVERSE },  /* Neoverse N1 r0p0 */
		{ 0x410fd490, AP_DS_ENC_NEOVERSE },  /* Neoverse N2 */
		{ 0x411fd401, AP_DS_ENC_NEOVERSE },  /* Neoverse V1 r1p1 */
		{ 0x410fd4f0, AP_DS_ENC_NEOVERSE },  /* Neoverse V2 */
		{ 0xc00fac40, AP_DS_ENC_AMPEREONE }, /* AmpereOne (perf's MIDR_AMPERE1A) */
		{ 0x410fd080, AP_DS_ENC_RAW },       /* Cortex-A72: no known encoding */
		{ 0x430f0af0, AP_DS_ENC_RAW },       /* ThunderX2 */
		{ 0x420fd0c0, AP_DS_ENC_RAW },       /* N1's part number, another implementer */
		{ 0, AP_DS_ENC_RAW },
	};
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
		CHECK_EQ_U64(ap_ds_encoding_of_midr(cpus[i].midr), cpus[i].enc);
	uint64_t midr = 1;
	CHECK_EQ_U64(ap_ds_cpu_model("neoverse-v2", &midr), 0);
	CHECK_EQ_U64(ap_ds_encoding_of_midr(midr), AP_DS_ENC_NEOVERSE);
	CHECK_EQ_U64(ap_ds_cpu_model("ampereone", &midr), 0);
	CHECK_EQ_U64(ap_ds_encoding_of_midr(midr), AP_DS_ENC_AMPEREONE);
	CHECK_EQ_U64(ap_ds_cpu_model("none", &midr), 0);
	CHECK_EQ_U64(ap_ds_encoding_of_midr(midr), AP_DS_ENC_RAW);
	CHECK(ap_ds_cpu_model("cortex-a72", &midr) < 0);
}

/* Every value of each table: its name and the Neoverse class perf maps it
 * onto; values a table does not define have neither. */
TEST(tables_like_perf)
{
	static const struct {
		enum ap_ds_encoding enc;
		unsigned value;
		const char *name;
		int common, peer;
	} rows[] = {
		{ AP_DS_ENC_NEOVERSE, 0x0, "L1D", 0x0, 0 },
		{ AP_DS_ENC_NEOVERSE, 0x8, "L2", 0x8, 0 },
		{ AP_DS_ENC_NEOVERSE, 0x9, "PEER-CORE", 0x9, 1 },
		{ AP_DS_ENC_NEOVERSE, 0xa, "LOCAL-CLUSTER", 0xa, 1 },
		{ AP_DS_ENC_NEOVERSE, 0xb, "SYS-CACHE", 0xb, 0 },
		{ AP_DS_ENC_NEOVERSE, 0xc, "PEER-CLUSTER", 0xc, 1 },
		{ AP_DS_ENC_NEOVERSE, 0xd, "REMOTE", 0xd, 1 },
		{ AP_DS_ENC_NEOVERSE, 0xe, "DRAM", 0xe, 0 },
		{ AP_DS_ENC_AMPEREONE, 0x0, "LOCAL-CHIP", 0x9, 1 },
		{ AP_DS_ENC_AMPEREONE, 0x3, "SLC", 0xb, 0 },
		{ AP_DS_ENC_AMPEREONE, 0x5, "REMOTE-CHIP", 0xd, 1 },
		{ AP_DS_ENC_AMPEREONE, 0x7, "DRAM", 0xe, 0 },
		{ AP_DS_ENC_AMPEREONE, 0x8, "L1D", 0x0, 0 },
		{ AP_DS_ENC_AMPEREONE, 0x9, "L2", 0x8, 0 },
	};
	int defined[3][16] = { { 0 } };
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		CHECK_EQ_STR(ap_ds_name(rows[i].enc, rows[i].value), rows[i].name);
		CHECK_EQ_U64(ap_ds_common(rows[i].enc, rows[i].value), rows[i].common);
		CHECK_EQ_U64(ap_ds_from_another_core(rows[i].enc, rows[i].value), rows[i].peer);
		defined[rows[i].enc][rows[i].value] = 1;
	}
	for (unsigned e = 0; e < 3; e++)
		for (unsigned v = 0; v < 0x110; v++)
			if (v >= 16 || !defined[e][v]) {
				CHECK(ap_ds_name((enum ap_ds_encoding)e, v) == NULL);
				CHECK(ap_ds_common((enum ap_ds_encoding)e, v) == -1);
				CHECK(!ap_ds_from_another_core((enum ap_ds_encoding)e, v));
			}
}

TEST_MAIN(CASE(encoding_by_midr), CASE(tables_like_perf))

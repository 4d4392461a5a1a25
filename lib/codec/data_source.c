/* Data Source encodings per CPU (include/armprof/data_source.h). The values
 * and the CPUs are Linux perf's (tools/perf/util/arm-spe.c: its
 * common_ds_encoding_cpus and ampereone_ds_encoding_cpus tables, and the
 * enums arm_spe_common_data_source and arm_spe_ampereone_data_source of
 * arm-spe-decoder.h), which come from the CPUs' Technical Reference
 * Manuals: the Data Source payload itself is IMPLEMENTATION DEFINED
 * (spec/002 5.3.5, SPE-5.3.5-1). */
#include <string.h>

#include "armprof/data_source.h"

#define MIDR_IMPLEMENTER(m) (((m) >> 24) & 0xffu)
#define MIDR_PARTNUM(m) (((m) >> 4) & 0xfffu)
#define MIDR(impl, part) (((uint64_t)(impl) << 24) | ((uint64_t)(part) << 4))

static const struct {
	const char *name;
	uint64_t midr; /* implementer and part number; variant/revision 0 */
	enum ap_ds_encoding enc;
} cpus[] = {
	{ "neoverse-n1", MIDR(0x41, 0xd0c), AP_DS_ENC_NEOVERSE },
	{ "neoverse-n2", MIDR(0x41, 0xd49), AP_DS_ENC_NEOVERSE },
	{ "neoverse-v1", MIDR(0x41, 0xd40), AP_DS_ENC_NEOVERSE },
	{ "neoverse-v2", MIDR(0x41, 0xd4f), AP_DS_ENC_NEOVERSE },
	{ "ampereone", MIDR(0xc0, 0xac4), AP_DS_ENC_AMPEREONE }, /* perf's MIDR_AMPERE1A */
};
#define N_CPUS (sizeof(cpus) / sizeof(cpus[0]))

enum ap_ds_encoding ap_ds_encoding_of_midr(uint64_t midr)
{
	for (size_t i = 0; i < N_CPUS; i++)
		if (MIDR_IMPLEMENTER(midr) == MIDR_IMPLEMENTER(cpus[i].midr) &&
		    MIDR_PARTNUM(midr) == MIDR_PARTNUM(cpus[i].midr))
			return cpus[i].enc;
	return AP_DS_ENC_RAW;
}

int ap_ds_cpu_model(const char *name, uint64_t *midr)
{
	if (!strcmp(name, "none")) {
		*midr = 0;
		return 0;
	}
	for (size_t i = 0; i < N_CPUS; i++)
		if (!strcmp(name, cpus[i].name)) {
			*midr = cpus[i].midr;
			return 0;
		}
	return -1;
}

const char *ap_ds_cpu_model_names(void)
{
	return "neoverse-n1, neoverse-n2, neoverse-v1, neoverse-v2, ampereone, none";
}

/* One encoding's values: name and the Neoverse class perf maps it onto. */
struct ds_value {
	const char *name;
	int common;
};

/* Neoverse N1/N2/V1/V2 (perf: ARM_SPE_COMMON_DS_*). */
static const struct ds_value neoverse[16] = {
	[0x0] = { "L1D", 0x0 },           [0x8] = { "L2", 0x8 },
	[0x9] = { "PEER-CORE", 0x9 },     [0xa] = { "LOCAL-CLUSTER", 0xa },
	[0xb] = { "SYS-CACHE", 0xb },     [0xc] = { "PEER-CLUSTER", 0xc },
	[0xd] = { "REMOTE", 0xd },        [0xe] = { "DRAM", 0xe },
};
/* AmpereOne (perf: ARM_SPE_AMPEREONE_*, mapped as its
 * arm_spe__synth_data_source_ampereone maps them). */
static const struct ds_value ampereone[16] = {
	[0x0] = { "LOCAL-CHIP", 0x9 }, /* local chip cache or device: a peer core */
	[0x3] = { "SLC", 0xb },        /* system level cache */
	[0x5] = { "REMOTE-CHIP", 0xd }, /* another chip's cache */
	[0x7] = { "DRAM", 0xe },
	[0x8] = { "L1D", 0x0 },
	[0x9] = { "L2", 0x8 },
};

static const struct ds_value *lookup(enum ap_ds_encoding enc, unsigned value)
{
	const struct ds_value *t = enc == AP_DS_ENC_NEOVERSE ? neoverse : enc == AP_DS_ENC_AMPEREONE ? ampereone : NULL;
	return t && value < 16 && t[value].name ? &t[value] : NULL;
}

const char *ap_ds_name(enum ap_ds_encoding enc, unsigned value)
{
	const struct ds_value *v = lookup(enc, value);
	return v ? v->name : NULL;
}

int ap_ds_common(enum ap_ds_encoding enc, unsigned value)
{
	const struct ds_value *v = lookup(enc, value);
	return v ? v->common : -1;
}

int ap_ds_from_another_core(enum ap_ds_encoding enc, unsigned value)
{
	int c = ap_ds_common(enc, value);
	return c == 0x9 || c == 0xa || c == 0xc || c == 0xd;
}

/* `armprof sim` commands of PC Sample-based Profiling (docs/sim.md,
 * docs/pc-sampling-and-snapshots.md):
 *   ext-read TARGET [32|64] [space=pmu|debug] [mm=0|1]
 *   ext-write TARGET 32|64 VALUE [space=..] [mm=..]
 *   expect-ext TARGET [32|64] VALUE|error|res0 [mask=M] [space=..] [mm=..]
 *   expect-pcsr NAME VALUE [mask=M]      stored value, no side-effect
 *   retire PC [seq]                       one retired instruction
 *   run PC COUNT [stride=4] [every=N]     COUNT instructions, a branch target every N
 * TARGET is an offset (0x200) or a register name of the frame (PMPCSR,
 * PMPCSCTL, PMCID2SR, EDPCSR, ...). An external access is made as an
 * external debugger makes it (mm=0: not subject to the Software Lock)
 * unless mm=1 (a memory-mapped access from the system). */
#include <string.h>
#include <strings.h>

#include "armprof/extregs.h"
#include "armprof/pcsr.h"
#include "sim.h"

struct ext_opts {
	enum ap_ext_space space;
	bool mm;
	uint64_t mask;
};

/* Split the trailing key=value options off argv; returns the number of
 * positional arguments left (argv[0] included) or -1 after an error. */
static int parse_opts(struct sim *s, int argc, char **argv, struct ext_opts *o, bool allow_mask)
{
	o->space = ap_pe_ext_default_space(s->pe);
	o->mm = false;
	o->mask = ~0ull;
	int n = argc;
	while (n > 1 && strchr(argv[n - 1], '=')) {
		char *key, *value;
		uint64_t v;
		if (sim_split_kv(s, argv[n - 1], &key, &value))
			return -1;
		if (!strcasecmp(key, "space")) {
			if (!strcasecmp(value, "pmu"))
				o->space = AP_EXT_PMU;
			else if (!strcasecmp(value, "debug"))
				o->space = AP_EXT_DEBUG;
			else {
				sim_error(s, "space=%s: expected pmu or debug", value);
				return -1;
			}
		} else if (!strcasecmp(key, "mm")) {
			if (sim_parse_u64(s, value, &v, "mm") || v > 1) {
				if (v > 1)
					sim_error(s, "mm=%s: expected 0 or 1", value);
				return -1;
			}
			o->mm = v;
		} else if (allow_mask && !strcasecmp(key, "mask")) {
			if (sim_parse_u64(s, value, &o->mask, "mask"))
				return -1;
		} else {
			sim_error(s, "unknown option '%s'", key);
			return -1;
		}
		n--;
	}
	return n;
}

/* An offset, or the name of a register in the frame ("PMPCSR" finds
 * "PMPCSR" or "PMPCSR[31:0]"; aliases are reached by offset). */
static int parse_target(struct sim *s, const char *text, enum ap_ext_space space, uint32_t *off)
{
	if (text[0] >= '0' && text[0] <= '9') {
		uint64_t v;
		if (sim_parse_u64(s, text, &v, "offset"))
			return SIM_EXIT_ERROR;
		if (v > 0xFFF)
			return sim_error(s, "offset %s is outside the 4KB frame", text);
		*off = (uint32_t)v;
		return 0;
	}
	size_t len = strlen(text);
	for (uint32_t o = 0; o < 0x1000; o += 4) {
		const char *name = ap_pe_ext_name(s->pe, space, o);
		if (!name || strstr(name, "(alias)") || strstr(name, "[63:32]"))
			continue;
		if (!strncasecmp(name, text, len) && (name[len] == '\0' || name[len] == '[')) {
			*off = o;
			return 0;
		}
	}
	return sim_error(s, "no register '%s' in the %s frame of this configuration", text,
	                 space == AP_EXT_DEBUG ? "debug" : "PMU");
}

static int parse_size(struct sim *s, const char *text, unsigned *size)
{
	if (!strcmp(text, "32"))
		*size = 4;
	else if (!strcmp(text, "64"))
		*size = 8;
	else
		return sim_error(s, "access size '%s': expected 32 or 64", text);
	return 0;
}

static unsigned default_size(struct sim *s, enum ap_ext_space space, uint32_t off)
{
	unsigned n = ap_pe_ext_natural_size(s->pe, space, off);
	return n ? n : 4;
}

static void print_value(struct sim *s, int outcome, unsigned size, uint64_t v)
{
	if (outcome == AP_EXT_ERROR) {
		fprintf(s->out, "ERROR\n");
		return;
	}
	if (size == 8)
		fprintf(s->out, "0x%016llx", (unsigned long long)v);
	else
		fprintf(s->out, "0x%08llx", (unsigned long long)v);
	fprintf(s->out, "%s\n", outcome == AP_EXT_RES0 ? " RES0" : "");
}

static int cmd_ext_read(struct sim *s, int argc, char **argv)
{
	struct ext_opts o;
	int n = parse_opts(s, argc, argv, &o, false);
	if (n < 0)
		return SIM_EXIT_ERROR;
	if (n < 2 || n > 3)
		return sim_error(s, "usage: ext-read TARGET [32|64] [space=pmu|debug] [mm=0|1]");
	struct ap_ext_access a = { o.space, 0, 0, o.mm };
	if (parse_target(s, argv[1], o.space, &a.offset))
		return SIM_EXIT_ERROR;
	a.size = default_size(s, o.space, a.offset);
	if (n == 3 && parse_size(s, argv[2], &a.size))
		return SIM_EXIT_ERROR;
	uint64_t v;
	int rc = ap_pe_ext_read(s->pe, &a, &v);
	if (rc < 0)
		return sim_error(s, "ext-read %s: offset 0x%x is not aligned to the access size", argv[1], a.offset);
	print_value(s, rc, a.size, v);
	return 0;
}

static int cmd_ext_write(struct sim *s, int argc, char **argv)
{
	struct ext_opts o;
	int n = parse_opts(s, argc, argv, &o, false);
	if (n < 0)
		return SIM_EXIT_ERROR;
	if (n != 4)
		return sim_error(s, "usage: ext-write TARGET 32|64 VALUE [space=pmu|debug] [mm=0|1]");
	struct ap_ext_access a = { o.space, 0, 0, o.mm };
	uint64_t v;
	if (parse_target(s, argv[1], o.space, &a.offset) || parse_size(s, argv[2], &a.size) ||
	    sim_parse_u64(s, argv[3], &v, "value"))
		return SIM_EXIT_ERROR;
	if (a.size == 4 && v > 0xffffffffull)
		return sim_error(s, "ext-write: value %s does not fit a 32-bit access", argv[3]);
	int rc = ap_pe_ext_write(s->pe, &a, v);
	if (rc < 0)
		return sim_error(s, "ext-write %s: offset 0x%x is not aligned to the access size", argv[1], a.offset);
	if (rc == AP_EXT_ERROR)
		fprintf(s->out, "ext-write 0x%03x: ERROR\n", a.offset);
	else if (rc == AP_EXT_RES0)
		fprintf(s->out, "ext-write 0x%03x: RES0 (ignored)\n", a.offset);
	return 0;
}

static int cmd_expect_ext(struct sim *s, int argc, char **argv)
{
	struct ext_opts o;
	int n = parse_opts(s, argc, argv, &o, true);
	if (n < 0)
		return SIM_EXIT_ERROR;
	if (n < 3 || n > 4)
		return sim_error(s, "usage: expect-ext TARGET [32|64] VALUE|error|res0 [mask=M] [space=..] [mm=..]");
	struct ap_ext_access a = { o.space, 0, 0, o.mm };
	if (parse_target(s, argv[1], o.space, &a.offset))
		return SIM_EXIT_ERROR;
	a.size = default_size(s, o.space, a.offset);
	if (n == 4 && parse_size(s, argv[2], &a.size))
		return SIM_EXIT_ERROR;
	const char *want_text = argv[n - 1];
	int want_outcome = AP_EXT_OK;
	uint64_t want = 0;
	if (!strcasecmp(want_text, "error"))
		want_outcome = AP_EXT_ERROR;
	else if (!strcasecmp(want_text, "res0"))
		want_outcome = AP_EXT_RES0;
	else if (sim_parse_u64(s, want_text, &want, "expected value"))
		return SIM_EXIT_ERROR;
	uint64_t got;
	int rc = ap_pe_ext_read(s->pe, &a, &got);
	if (rc < 0)
		return sim_error(s, "expect-ext %s: offset 0x%x is not aligned to the access size", argv[1], a.offset);
	static const char *const outcome_names[] = { "OK", "RES0", "ERROR" };
	if (want_outcome != AP_EXT_OK || rc != AP_EXT_OK) {
		if (rc != want_outcome)
			return sim_fail(s, "ext-read 0x%03x (%u-bit): %s, expected %s", a.offset, a.size * 8,
			                outcome_names[rc], outcome_names[want_outcome]);
		return 0;
	}
	if ((got & o.mask) != (want & o.mask))
		return sim_fail(s, "ext-read 0x%03x (%u-bit) = 0x%llx, expected 0x%llx (mask 0x%llx)", a.offset,
		                a.size * 8, (unsigned long long)got, (unsigned long long)want,
		                (unsigned long long)o.mask);
	return 0;
}

/* Stored values of the PC sample registers, read without side-effects. */
static int peek_pcsr(const struct ap_pe *pe, const char *name, uint64_t *v)
{
	static const char *const names[AP_PCSR_REG_COUNT] = {
		[AP_PCSR_REG_PMPCSR] = "PMPCSR", [AP_PCSR_REG_PMCID1SR] = "PMCID1SR",
		[AP_PCSR_REG_PMCID2SR] = "PMCID2SR", [AP_PCSR_REG_PMVIDSR] = "PMVIDSR",
		[AP_PCSR_REG_PMCCIDSR] = "PMCCIDSR", [AP_PCSR_REG_PMVCIDSR] = "PMVCIDSR",
		[AP_PCSR_REG_PMPCSCTL] = "PMPCSCTL", [AP_PCSR_REG_EDPCSRHI] = "EDPCSRHI",
		[AP_PCSR_REG_EDCIDSR] = "EDCIDSR", [AP_PCSR_REG_EDVIDSR] = "EDVIDSR",
		[AP_PCSR_REG_SLK] = "PMLSR.SLK",
	};
	for (unsigned i = 0; i < AP_PCSR_REG_COUNT; i++)
		if (!strcasecmp(names[i], name))
			return ap_pe_pcsr_peek(pe, (enum ap_pcsr_reg)i, v);
	return -1;
}

static int cmd_expect_pcsr(struct sim *s, int argc, char **argv)
{
	struct ext_opts o;
	int n = parse_opts(s, argc, argv, &o, true);
	if (n < 0)
		return SIM_EXIT_ERROR;
	if (n != 3)
		return sim_error(s, "usage: expect-pcsr NAME VALUE [mask=M]");
	uint64_t want, got;
	if (sim_parse_u64(s, argv[2], &want, "expected value"))
		return SIM_EXIT_ERROR;
	if (peek_pcsr(s->pe, argv[1], &got) < 0)
		return sim_error(s, "expect-pcsr: unknown register '%s' (PMPCSR, PMCID1SR, PMCID2SR, PMVIDSR, "
		                    "PMCCIDSR, PMVCIDSR, PMPCSCTL, EDPCSRHI, EDCIDSR, EDVIDSR, PMLSR.SLK)", argv[1]);
	if ((got & o.mask) != (want & o.mask))
		return sim_fail(s, "%s = 0x%016llx, expected 0x%016llx (mask 0x%016llx)", argv[1],
		                (unsigned long long)got, (unsigned long long)want, (unsigned long long)o.mask);
	return 0;
}

static int cmd_retire(struct sim *s, int argc, char **argv)
{
	uint64_t pc;
	if (sim_parse_u64(s, argv[1], &pc, "pc"))
		return SIM_EXIT_ERROR;
	bool target = true;
	if (argc == 3) {
		if (strcmp(argv[2], "seq"))
			return sim_error(s, "retire: '%s' (expected 'seq' for an instruction that is not a branch target)",
			                 argv[2]);
		target = false;
	}
	ap_pe_retire(s->pe, pc, target);
	return 0;
}

static int cmd_run(struct sim *s, int argc, char **argv)
{
	uint64_t pc, count, stride = 4, every = 0;
	if (sim_parse_u64(s, argv[1], &pc, "pc") || sim_parse_u64(s, argv[2], &count, "count"))
		return SIM_EXIT_ERROR;
	for (int i = 3; i < argc; i++) {
		char *key, *value;
		if (sim_split_kv(s, argv[i], &key, &value))
			return SIM_EXIT_ERROR;
		uint64_t *dst = !strcasecmp(key, "stride") ? &stride : !strcasecmp(key, "every") ? &every : NULL;
		if (!dst)
			return sim_error(s, "run: unknown option '%s' (stride=, every=)", key);
		if (sim_parse_u64(s, value, dst, key))
			return SIM_EXIT_ERROR;
	}
	for (uint64_t i = 0; i < count; i++)
		ap_pe_retire(s->pe, pc + i * stride, i == 0 || (every && i % every == 0));
	return 0;
}

static const struct sim_command pcsr_commands[] = {
	{ "ext-read", "ext-read TARGET [32|64] [space=pmu|debug] [mm=0|1]", 0, 1, 4, cmd_ext_read },
	{ "ext-write", "ext-write TARGET 32|64 VALUE [space=pmu|debug] [mm=0|1]", 0, 3, 5, cmd_ext_write },
	{ "expect-ext", "expect-ext TARGET [32|64] VALUE|error|res0 [mask=M] [space=pmu|debug] [mm=0|1]", 0, 2, 6,
	  cmd_expect_ext },
	{ "expect-pcsr", "expect-pcsr NAME VALUE [mask=M]", 0, 2, 3, cmd_expect_pcsr },
	{ "retire", "retire PC [seq]", 0, 1, 2, cmd_retire },
	{ "run", "run PC COUNT [stride=4] [every=N]", 0, 2, 4, cmd_run },
};

const struct sim_module sim_module_pcsr = {
	"pcsr", pcsr_commands, sizeof(pcsr_commands) / sizeof(pcsr_commands[0]), NULL, NULL, NULL, NULL,
};

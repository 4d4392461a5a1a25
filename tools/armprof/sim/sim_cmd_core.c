/* The core commands of `armprof sim` (docs/sim.md): configuration, PE state,
 * direct register accesses and the expectations on them, and the host
 * callbacks every PE needs (timer, PMBIRQ, CTI). */
#include <string.h>
#include <strings.h>

#include "sim.h"

/* ---- host callbacks ---- */

static uint64_t host_cntpct(void *ctx) { return ((struct sim *)ctx)->cntpct; }
static uint64_t host_cntvct(void *ctx) { return ((struct sim *)ctx)->cntvct; }

static void host_pmbirq(void *ctx, int level)
{
	struct sim *s = ctx;
	if (level != s->pmbirq_level)
		s->pmbirq_changes++;
	s->pmbirq_level = level;
}

static void host_cti(void *ctx, unsigned trigger)
{
	struct sim *s = ctx;
	if (trigger < sizeof(s->cti_triggers) / sizeof(s->cti_triggers[0]))
		s->cti_triggers[trigger]++;
}

static void core_host_setup(struct sim *s, struct ap_host *host)
{
	(void)s;
	host->cntpct = host_cntpct;
	host->cntvct = host_cntvct;
	host->pmbirq = host_pmbirq;
	host->cti_trigger = host_cti;
}

/* ---- config / state ---- */

static int cmd_config(struct sim *s, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *key = NULL, *value = NULL;
		int rc = sim_split_kv(s, argv[i], &key, &value);
		if (rc)
			return rc;
		struct ap_error_ctx err = { 0 };
		if (ap_config_set(&s->cfg, key, value, &err) < 0)
			return sim_error(s, "%s", err.message);
	}
	return 0;
}

static int cmd_state(struct sim *s, int argc, char **argv)
{
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(s->pe, &st);
	for (int i = 1; i < argc; i++) {
		char *key = NULL, *value = NULL;
		uint64_t v = 0;
		int rc = sim_split_kv(s, argv[i], &key, &value);
		if (rc)
			return rc;
		if (!strcasecmp(key, "el") && (value[0] == 'E' || value[0] == 'e') &&
		    (value[1] == 'L' || value[1] == 'l'))
			value += 2; /* el=EL2 */
		rc = sim_parse_u64(s, value, &v, key);
		if (rc)
			return rc;
		uint64_t dummy;
		if (ap_pe_state_get_field(&st, key, &dummy) < 0)
			return sim_error(s, "unknown state field '%s'", key);
		if (ap_pe_state_set_field(&st, key, v) < 0)
			return sim_error(s, "state %s: value %s does not fit the field", key, value);
	}
	if (ap_pe_set_state(s->pe, &st) < 0)
		return sim_error(s, "impossible PE state for this configuration "
		                    "(EL not implemented, AArch32 where not supported, E2H without VHE, "
		                    "or a reserved SCR_EL3.{NSE,NS})");
	return 0;
}

static int cmd_reset(struct sim *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	ap_pe_reset(s->pe);
	return 0;
}

static int cmd_timer(struct sim *s, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *key = NULL, *value = NULL;
		uint64_t v = 0;
		int rc = sim_split_kv(s, argv[i], &key, &value);
		if (!rc)
			rc = sim_parse_u64(s, value, &v, key);
		if (rc)
			return rc;
		if (!strcasecmp(key, "cntpct"))
			s->cntpct = v;
		else if (!strcasecmp(key, "cntvct"))
			s->cntvct = v;
		else
			return sim_error(s, "timer: unknown counter '%s' (cntpct, cntvct)", key);
	}
	return 0;
}

static int cmd_echo(struct sim *s, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		fprintf(s->out, "%s%s", i > 1 ? " " : "", argv[i]);
	fputc('\n', s->out);
	return 0;
}

/* ---- register accesses ---- */

static int cmd_msr(struct sim *s, int argc, char **argv)
{
	(void)argc;
	uint32_t reg = 0;
	uint64_t v = 0;
	int rc = sim_parse_reg(s, argv[1], &reg);
	if (!rc)
		rc = sim_parse_u64(s, argv[2], &v, "msr value");
	if (rc)
		return rc;
	int a = ap_pe_msr(s->pe, reg, v);
	if (a < 0)
		return sim_error(s, "msr %s: %s", argv[1], ap_errstr(-a));
	if (a != AP_ACCESS_OK)
		fprintf(s->out, "msr %s: %s\n", ap_sysreg_name(reg), ap_access_name((enum ap_access)a));
	return 0;
}

static int cmd_mrs(struct sim *s, int argc, char **argv)
{
	(void)argc;
	uint32_t reg = 0;
	uint64_t v = 0;
	int rc = sim_parse_reg(s, argv[1], &reg);
	if (rc)
		return rc;
	int a = ap_pe_mrs(s->pe, reg, &v);
	if (a < 0)
		return sim_error(s, "mrs %s: %s", argv[1], ap_errstr(-a));
	if (a == AP_ACCESS_OK)
		fprintf(s->out, "%s = 0x%016llx\n", ap_sysreg_name(reg), (unsigned long long)v);
	else
		fprintf(s->out, "mrs %s: %s\n", ap_sysreg_name(reg), ap_access_name((enum ap_access)a));
	return 0;
}

/* expect REG VALUE [mask=M]: the register as the hardware holds it (no
 * access check, no side effect), compared under the mask. */
static int cmd_expect(struct sim *s, int argc, char **argv)
{
	uint32_t reg = 0;
	uint64_t want = 0, got = 0, mask = ~0ull;
	int rc = sim_parse_reg(s, argv[1], &reg);
	if (!rc)
		rc = sim_parse_u64(s, argv[2], &want, "expected value");
	if (rc)
		return rc;
	if (argc == 4) {
		char *key = NULL, *value = NULL;
		rc = sim_split_kv(s, argv[3], &key, &value);
		if (rc)
			return rc;
		if (strcasecmp(key, "mask"))
			return sim_error(s, "expect: unknown option '%s' (mask=)", key);
		rc = sim_parse_u64(s, value, &mask, "mask");
		if (rc)
			return rc;
	}
	if (ap_pe_peek(s->pe, reg, &got) < 0)
		return sim_error(s, "expect: cannot read %s", argv[1]);
	if ((got & mask) != (want & mask))
		return sim_fail(s, "%s = 0x%016llx, expected 0x%016llx (mask 0x%016llx)",
		                ap_sysreg_name(reg), (unsigned long long)got,
		                (unsigned long long)want, (unsigned long long)mask);
	return 0;
}

/* dump [REG...]: the registers as the PE holds them (all of them without
 * arguments), one "NAME = 0x..." line each; no access check. */
static int cmd_dump(struct sim *s, int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			uint32_t reg = 0;
			uint64_t v = 0;
			int rc = sim_parse_reg(s, argv[i], &reg);
			if (rc)
				return rc;
			ap_pe_peek(s->pe, reg, &v);
			fprintf(s->out, "%s = 0x%016llx\n", ap_sysreg_name(reg), (unsigned long long)v);
		}
		return 0;
	}
	uint32_t reg = 0;
	for (size_t i = 0; ap_sysreg_enum(i, &reg) == 0; i++) {
		uint64_t v = 0;
		if (ap_pe_peek(s->pe, reg, &v) == 0)
			fprintf(s->out, "%s = 0x%016llx\n", ap_sysreg_name(reg), (unsigned long long)v);
	}
	return 0;
}

static const struct {
	const char *name;
	enum ap_access access;
} access_names[] = {
	{ "ok", AP_ACCESS_OK },
	{ "undefined", AP_ACCESS_UNDEFINED },
	{ "trap-el1", AP_ACCESS_TRAP_EL1 },
	{ "trap-el2", AP_ACCESS_TRAP_EL2 },
	{ "trap-el3", AP_ACCESS_TRAP_EL3 },
};

/* expect-access mrs|msr REG OUTCOME: the check only, nothing is accessed. */
static int cmd_expect_access(struct sim *s, int argc, char **argv)
{
	(void)argc;
	bool write;
	if (!strcasecmp(argv[1], "mrs"))
		write = false;
	else if (!strcasecmp(argv[1], "msr"))
		write = true;
	else
		return sim_error(s, "expect-access: '%s' is not mrs or msr", argv[1]);
	uint32_t reg = 0;
	int rc = sim_parse_reg(s, argv[2], &reg);
	if (rc)
		return rc;
	int want = -1;
	for (size_t i = 0; i < sizeof(access_names) / sizeof(access_names[0]); i++)
		if (!strcasecmp(argv[3], access_names[i].name))
			want = (int)access_names[i].access;
	if (want < 0)
		return sim_error(s, "expect-access: '%s' is not ok, undefined, trap-el1, trap-el2 or trap-el3",
		                 argv[3]);
	int got = ap_pe_check_access(s->pe, reg, write);
	if (got < 0)
		return sim_error(s, "expect-access: %s", ap_errstr(-got));
	if (got != want)
		return sim_fail(s, "%s %s: %s, expected %s", write ? "msr" : "mrs", ap_sysreg_name(reg),
		                ap_access_name((enum ap_access)got), ap_access_name((enum ap_access)want));
	return 0;
}

/* ---- enabling and ownership (3.2.1 Table 3, 3.4.2 Table 5) ---- */

static int parse_bool01(struct sim *s, const char *text, bool *b)
{
	if (!strcmp(text, "0") || !strcmp(text, "1")) {
		*b = text[0] == '1';
		return 0;
	}
	return sim_error(s, "expected 0 or 1, got '%s'", text);
}

static int cmd_expect_profiling(struct sim *s, int argc, char **argv)
{
	(void)argc;
	bool want = false;
	int rc = parse_bool01(s, argv[1], &want);
	if (rc)
		return rc;
	bool got = ap_spe_profiling_enabled(s->pe);
	if (got != want)
		return sim_fail(s, "StatisticalProfilingEnabled() is %d, expected %d", got, want);
	return 0;
}

static int cmd_expect_buffer(struct sim *s, int argc, char **argv)
{
	(void)argc;
	bool want = false;
	int rc = parse_bool01(s, argv[1], &want);
	if (rc)
		return rc;
	bool got = ap_spe_buffer_enabled(s->pe);
	if (got != want)
		return sim_fail(s, "ProfilingBufferEnabled() is %d, expected %d", got, want);
	return 0;
}

static const char *owner_name(struct ap_spe_owner o)
{
	if (o.secure)
		return o.el == AP_EL2 ? "s-el2" : "s-el1";
	return o.el == AP_EL2 ? "ns-el2" : "ns-el1";
}

static int cmd_expect_owner(struct sim *s, int argc, char **argv)
{
	(void)argc;
	const char *got = owner_name(ap_spe_buffer_owner(s->pe));
	if (strcasecmp(argv[1], "ns-el1") && strcasecmp(argv[1], "ns-el2") && strcasecmp(argv[1], "s-el1"))
		return sim_error(s, "expect-owner: '%s' is not ns-el1, ns-el2 or s-el1", argv[1]);
	if (strcasecmp(got, argv[1]))
		return sim_fail(s, "ProfilingBufferOwner() is %s, expected %s", got, argv[1]);
	return 0;
}

static const struct sim_command core_commands[] = {
	{ "config", "config KEY=VALUE...", SIM_CMD_BEFORE_PE, 1, -1, cmd_config },
	{ "state", "state FIELD=VALUE...", 0, 1, -1, cmd_state },
	{ "reset", "reset", 0, 0, 0, cmd_reset },
	{ "timer", "timer cntpct=VALUE cntvct=VALUE", 0, 1, 2, cmd_timer },
	{ "echo", "echo TEXT...", 0, 0, -1, cmd_echo },
	{ "dump", "dump [REG...]", 0, 0, -1, cmd_dump },
	{ "msr", "msr REG VALUE", 0, 2, 2, cmd_msr },
	{ "mrs", "mrs REG", 0, 1, 1, cmd_mrs },
	{ "expect", "expect REG VALUE [mask=MASK]", 0, 2, 3, cmd_expect },
	{ "expect-access", "expect-access mrs|msr REG ok|undefined|trap-el2|trap-el3", 0, 3, 3,
	  cmd_expect_access },
	{ "expect-profiling", "expect-profiling 0|1", 0, 1, 1, cmd_expect_profiling },
	{ "expect-buffer", "expect-buffer 0|1", 0, 1, 1, cmd_expect_buffer },
	{ "expect-owner", "expect-owner ns-el1|ns-el2|s-el1", 0, 1, 1, cmd_expect_owner },
};

const struct sim_module sim_module_core = {
	"core", core_commands, sizeof(core_commands) / sizeof(core_commands[0]),
	NULL, NULL, core_host_setup, NULL,
};

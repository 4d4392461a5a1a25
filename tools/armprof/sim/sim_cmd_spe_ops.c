/* The SPE engine commands of `armprof sim` (docs/sim.md "SPE engine
 * commands"): operations (op, ops, skip), PSB CSYNC, the memory behind the
 * Profiling Buffer (mem map/fault/unfault/save), and expectations on
 * PMBIRQ, the records in the buffer and the engine's counts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "armprof/decode.h"
#include "armprof/spe.h"
#include "sim.h"
#include "sim_spe.h"
#include "sim_spe_mem.h"

struct sim_mem *sim_spe_mem(struct sim *s)
{
	return *sim_data(s, &sim_module_spe_ops);
}

static int spe_init(struct sim *s)
{
	struct sim_mem *m = calloc(1, sizeof(*m));
	if (!m)
		return sim_error(s, "out of memory");
	*sim_data(s, &sim_module_spe_ops) = m;
	return 0;
}

static void spe_fini(struct sim *s)
{
	struct sim_mem *m = sim_spe_mem(s);
	if (m) {
		sim_mem_free(m);
		free(m);
	}
}

/* host->ctx is the struct sim (sim_core.c); the memory is this module's data. */
static int host_buffer_write(void *ctx, uint64_t va, const uint8_t *bytes, size_t len,
                             struct ap_mem_fault *fault)
{
	return sim_mem_buffer_write(sim_spe_mem(ctx), va, bytes, len, fault);
}

static void spe_host_setup(struct sim *s, struct ap_host *host)
{
	(void)s;
	host->buffer_write = host_buffer_write;
}

/* ---- operations ---- */

static int parse_bool01(struct sim *s, const char *key, const char *value, bool *out)
{
	if (!strcmp(value, "0") || !strcmp(value, "1")) {
		*out = value[0] == '1';
		return 0;
	}
	return sim_error(s, "%s: expected 0 or 1, got '%s'", key, value);
}

static const struct {
	const char *key;
	uint32_t flag;
} flag_keys[] = {
	{ "cond", AP_SPE_OPF_COND },         { "indirect", AP_SPE_OPF_INDIRECT },
	{ "eret", AP_SPE_OPF_ERET },         { "exception", AP_SPE_OPF_EXCEPTION },
	{ "misspec", AP_SPE_OPF_MISSPEC },   { "nonarch_exc", AP_SPE_OPF_NONARCH_EXC },
	{ "not_arch", AP_SPE_OPF_NOT_ARCH }, { "simd", AP_SPE_OPF_SIMD },
	{ "excl", AP_SPE_OPF_EXCL },         { "acqrel", AP_SPE_OPF_ACQREL },
	{ "ret", AP_SPE_OPF_ATOMIC_LD },     { "tbi", AP_SPE_OPF_TBI },
	{ "pa_ns", AP_SPE_OPF_PA_NS },
};

/* What an op/ops line says besides the operation itself. */
struct op_line {
	struct ap_spe_op op;
	bool expect_sampled;        /* sampled=N or sampled=LO..HI given */
	uint64_t sampled_lo, sampled_hi;
	bool set_ctx1, set_ctx2;
	uint64_t ctx1, ctx2;
	uint64_t pc_step;
};

static int parse_kind(struct sim *s, const char *name, struct ap_spe_op *op)
{
	static const struct {
		const char *name;
		uint8_t kind;
		uint32_t flags;
	} kinds[] = {
		{ "load", AP_SPE_OP_LOAD, 0 },     { "ld", AP_SPE_OP_LOAD, 0 },
		{ "store", AP_SPE_OP_STORE, 0 },   { "st", AP_SPE_OP_STORE, 0 },
		{ "atomic", AP_SPE_OP_ATOMIC, 0 }, { "branch", AP_SPE_OP_BRANCH, 0 },
		{ "b", AP_SPE_OP_BRANCH, 0 },      { "eret", AP_SPE_OP_BRANCH, AP_SPE_OPF_ERET },
		{ "other", AP_SPE_OP_OTHER, 0 },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcasecmp(name, kinds[i].name)) {
			op->kind = kinds[i].kind;
			op->flags |= kinds[i].flags;
			return 0;
		}
	return sim_error(s, "unknown operation kind '%s' (load, store, atomic, branch, eret, other)", name);
}

static int parse_abort(struct sim *s, const char *v, uint8_t *out)
{
	static const char *const names[] = { "none", "perm", "fault", "external" };
	for (unsigned i = 0; i < 4; i++)
		if (!strcasecmp(v, names[i])) {
			*out = (uint8_t)i;
			return 0;
		}
	if (!strcasecmp(v, "af")) {
		*out = AP_SPE_DABORT_PERM_AF;
		return 0;
	}
	return sim_error(s, "abort: '%s' is not none, perm, af, fault or external", v);
}

static int parse_op_line(struct sim *s, int argc, char **argv, struct op_line *l)
{
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(s->pe, &st);
	memset(l, 0, sizeof(*l));
	l->op.pc = 0x400000;
	l->op.target_el = st.el;
	l->op.target_ns = ap_pe_security(s->pe) != AP_SS_SECURE;
	int rc = parse_kind(s, argv[0], &l->op);
	if (rc)
		return rc;
	if (l->op.flags & AP_SPE_OPF_ERET)
		l->op.target_el = 0;
	bool failed = false, have_failed = false;
	for (int i = 1; i < argc; i++) {
		char *key, *value;
		uint64_t v = 0;
		bool b = false;
		if ((rc = sim_split_kv(s, argv[i], &key, &value)))
			return rc;
		size_t f;
		for (f = 0; f < sizeof(flag_keys) / sizeof(flag_keys[0]); f++)
			if (!strcasecmp(key, flag_keys[f].key))
				break;
		if (f < sizeof(flag_keys) / sizeof(flag_keys[0])) {
			if ((rc = parse_bool01(s, key, value, &b)))
				return rc;
			l->op.flags = b ? l->op.flags | flag_keys[f].flag : l->op.flags & ~flag_keys[f].flag;
			continue;
		}
		if (!strcasecmp(key, "passed") || !strcasecmp(key, "taken") || !strcasecmp(key, "retired")) {
			if ((rc = parse_bool01(s, key, value, &b)))
				return rc;
			if (!strcasecmp(key, "retired")) {
				l->op.flags = b ? l->op.flags & ~AP_SPE_OPF_MISSPEC : l->op.flags | AP_SPE_OPF_MISSPEC;
			} else {
				failed = !b;
				have_failed = true;
			}
			continue;
		}
		if (!strcasecmp(key, "sampled")) { /* N or LO..HI */
			char *dots = strstr(value, "..");
			if (dots)
				*dots = '\0';
			if ((rc = sim_parse_u64(s, value, &l->sampled_lo, key)))
				return rc;
			l->sampled_hi = l->sampled_lo;
			if (dots && (rc = sim_parse_u64(s, dots + 2, &l->sampled_hi, key)))
				return rc;
			l->expect_sampled = true;
			continue;
		}
		if (!strcasecmp(key, "abort")) {
			if ((rc = parse_abort(s, value, &l->op.data_abort)))
				return rc;
			continue;
		}
		static const char *const numeric[] = { "pc", "target", "target_el", "target_ns", "va", "pa",
		                                       "events", "lat", "issue", "xlat", "ds", "inflight",
		                                       "ctx", "ctx2", "pc_step" };
		size_t k;
		for (k = 0; k < sizeof(numeric) / sizeof(numeric[0]); k++)
			if (!strcasecmp(key, numeric[k]))
				break;
		if (k == sizeof(numeric) / sizeof(numeric[0]))
			return sim_error(s, "%s: unknown key '%s' (see docs/sim.md, op)", argv[0], key);
		if ((rc = sim_parse_u64(s, value, &v, key)))
			return rc;
		if (!strcasecmp(key, "pc"))
			l->op.pc = v;
		else if (!strcasecmp(key, "target"))
			l->op.target = v;
		else if (!strcasecmp(key, "target_el") && v <= 3)
			l->op.target_el = (uint8_t)v;
		else if (!strcasecmp(key, "target_ns") && v <= 1)
			l->op.target_ns = (uint8_t)v;
		else if (!strcasecmp(key, "va"))
			l->op.va = v;
		else if (!strcasecmp(key, "pa"))
			l->op.pa = v;
		else if (!strcasecmp(key, "events"))
			l->op.events = v;
		else if (!strcasecmp(key, "lat") && v <= UINT32_MAX)
			l->op.lat_total = (uint32_t)v;
		else if (!strcasecmp(key, "issue") && v <= UINT32_MAX)
			l->op.lat_issue = (uint32_t)v;
		else if (!strcasecmp(key, "xlat") && v <= UINT32_MAX)
			l->op.lat_xlat = (uint32_t)v;
		else if (!strcasecmp(key, "ds") && v <= 0xFFFF)
			l->op.data_source = (uint16_t)v;
		else if (!strcasecmp(key, "inflight") && v <= 0xFFFF)
			l->op.inflight = (uint16_t)v;
		else if (!strcasecmp(key, "ctx")) {
			l->set_ctx1 = true;
			l->ctx1 = v;
		} else if (!strcasecmp(key, "ctx2")) {
			l->set_ctx2 = true;
			l->ctx2 = v;
		} else if (!strcasecmp(key, "pc_step"))
			l->pc_step = v;
		else
			return sim_error(s, "%s: %s=%s is out of range", argv[0], key, value);
	}
	if (have_failed) {
		l->op.flags |= AP_SPE_OPF_COND;
		if (failed)
			l->op.flags |= AP_SPE_OPF_FAILED;
	}
	return 0;
}

static int apply_ctx(struct sim *s, const struct op_line *l)
{
	if (!l->set_ctx1 && !l->set_ctx2)
		return 0;
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(s->pe, &st);
	if (l->set_ctx1)
		st.contextidr_el1 = l->ctx1;
	if (l->set_ctx2)
		st.contextidr_el2 = l->ctx2;
	if (ap_pe_set_state(s->pe, &st) < 0)
		return sim_error(s, "cannot set CONTEXTIDR in this state");
	return 0;
}

static int run_ops(struct sim *s, uint64_t n, int argc, char **argv)
{
	struct op_line l;
	int rc = parse_op_line(s, argc, argv, &l);
	if (!rc)
		rc = apply_ctx(s, &l);
	if (rc)
		return rc;
	uint64_t sampled = 0;
	for (uint64_t i = 0; i < n; i++) {
		sampled += (uint64_t)ap_spe_op(s->pe, &l.op);
		l.op.pc += l.pc_step;
	}
	if (l.expect_sampled && (sampled < l.sampled_lo || sampled > l.sampled_hi))
		return sim_fail(s, "%llu of %llu operations sampled, expected %llu..%llu",
		                (unsigned long long)sampled, (unsigned long long)n,
		                (unsigned long long)l.sampled_lo, (unsigned long long)l.sampled_hi);
	return 0;
}

static int cmd_op(struct sim *s, int argc, char **argv)
{
	return run_ops(s, 1, argc - 1, argv + 1);
}

static int cmd_ops(struct sim *s, int argc, char **argv)
{
	uint64_t n;
	int rc = sim_parse_u64(s, argv[1], &n, "ops count");
	if (rc)
		return rc;
	return run_ops(s, n, argc - 2, argv + 2);
}

static int cmd_skip(struct sim *s, int argc, char **argv)
{
	uint64_t n, want;
	int rc = sim_parse_u64(s, argv[1], &n, "skip count");
	if (rc)
		return rc;
	uint64_t got = ap_spe_skip(s->pe, n);
	if (argc > 2) {
		char *key, *value;
		if ((rc = sim_split_kv(s, argv[2], &key, &value)))
			return rc;
		if (strcasecmp(key, "expect"))
			return sim_error(s, "skip: unknown key '%s' (expect=N)", key);
		if ((rc = sim_parse_u64(s, value, &want, "expect")))
			return rc;
		if (got != want)
			return sim_fail(s, "skip %llu passed %llu operations, expected %llu", (unsigned long long)n,
			                (unsigned long long)got, (unsigned long long)want);
	}
	return 0;
}

static int cmd_expect_until(struct sim *s, int argc, char **argv)
{
	(void)argc;
	uint64_t want = UINT64_MAX;
	if (strcasecmp(argv[1], "none")) {
		int rc = sim_parse_u64(s, argv[1], &want, "expect-until");
		if (rc)
			return rc;
	}
	uint64_t got = ap_spe_until_sample(s->pe);
	if (got != want)
		return sim_fail(s, "operations until the next sample: %llu, expected %s",
		                (unsigned long long)got, argv[1]);
	return 0;
}

static int cmd_psb(struct sim *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	ap_spe_psb_csync(s->pe);
	return 0;
}

static int cmd_expect_irq(struct sim *s, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[1], "0") && strcmp(argv[1], "1"))
		return sim_error(s, "expect-irq: expected 0 or 1, got '%s'", argv[1]);
	int want = argv[1][0] == '1';
	int model = ap_spe_pmbirq(s->pe);
	if (model != want || s->pmbirq_level != want)
		return sim_fail(s, "PMBIRQ = %d (host line %d), expected %d", model, s->pmbirq_level, want);
	return 0;
}

static const struct sim_command spe_commands[] = {
	{ "op", "op KIND [KEY=VALUE]...", 0, 1, -1, cmd_op },
	{ "ops", "ops N KIND [KEY=VALUE]...", 0, 2, -1, cmd_ops },
	{ "skip", "skip N [expect=M]", 0, 1, 2, cmd_skip },
	{ "expect-until", "expect-until N|none", 0, 1, 1, cmd_expect_until },
	{ "psb", "psb", 0, 0, 0, cmd_psb },
	{ "expect-irq", "expect-irq 0|1", 0, 1, 1, cmd_expect_irq },
	{ "mem", "mem map BASE SIZE | mem fault ADDR KIND [level=N] | mem unfault ADDR | "
	         "mem save FILE [FROM [TO]]", 0, 2, 4, sim_spe_cmd_mem },
	{ "expect-records", "expect-records N", 0, 1, 1, sim_spe_cmd_expect_records },
	{ "expect-record", "expect-record INDEX FIELD=VALUE...", 0, 2, -1, sim_spe_cmd_expect_record },
	{ "records", "records", 0, 0, 0, sim_spe_cmd_records },
	{ "expect-count", "expect-count NAME=N...", 0, 1, -1, sim_spe_cmd_expect_count },
};

const struct sim_module sim_module_spe_ops = {
	"spe-ops", spe_commands, sizeof(spe_commands) / sizeof(spe_commands[0]),
	spe_init, spe_fini, spe_host_setup, NULL,
};

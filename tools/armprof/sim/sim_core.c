/* The `armprof sim` interpreter: lines -> commands of the modules. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "armprof/number.h"
#include "sim.h"

#define SIM_MAX_ARGS 64
#define SIM_MAX_LINE 4096

static void vreport(struct sim *s, const char *kind, const char *fmt, va_list ap)
{
	fprintf(s->err, "armprof sim: %s:%u: %s", s->file ? s->file : "-", s->line, kind);
	vfprintf(s->err, fmt, ap);
	fputc('\n', s->err);
}

int sim_error(struct sim *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(s, "", fmt, ap);
	va_end(ap);
	return SIM_EXIT_ERROR;
}

int sim_fail(struct sim *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(s, "expectation failed: ", fmt, ap);
	va_end(ap);
	s->failures++;
	return 0;
}

int sim_parse_u64(struct sim *s, const char *text, uint64_t *v, const char *what)
{
	if (ap_parse_u64(text, v) < 0)
		return sim_error(s, "%s: '%s' is not a number (decimal, 0x hex or 0b binary)", what, text);
	return 0;
}

int sim_parse_reg(struct sim *s, const char *name, uint32_t *reg)
{
	if (ap_sysreg_lookup(name, reg) < 0)
		return sim_error(s, "unknown register '%s'", name);
	if (!ap_sysreg_name(*reg))
		return sim_error(s, "no register of the model has the encoding %s", name);
	/* A register of a feature this configuration lacks (PMSNEVFR_EL1
	 * without spe.fne, ...) is not the model's either. */
	if (s->pe && ap_pe_check_access(s->pe, *reg, false) == -AP_ERR_INVALID &&
	    ap_pe_check_access(s->pe, *reg, true) == -AP_ERR_INVALID)
		return sim_error(s, "no register of the model has the encoding %s in this configuration", name);
	return 0;
}

int sim_split_kv(struct sim *s, char *arg, char **key, char **value)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return sim_error(s, "expected KEY=VALUE, got '%s'", arg);
	*eq = '\0';
	*key = arg;
	*value = eq + 1;
	return 0;
}

void **sim_data(struct sim *s, const struct sim_module *m)
{
	for (size_t i = 0; i < sim_module_count && i < SIM_MAX_MODULES; i++)
		if (sim_modules[i] == m)
			return &s->data[i];
	return NULL;
}

int sim_init(struct sim *s, FILE *out, FILE *err)
{
	memset(s, 0, sizeof(*s));
	s->out = out;
	s->err = err;
	ap_config_init(&s->cfg);
	if (sim_module_count > SIM_MAX_MODULES)
		return sim_error(s, "too many sim modules (%zu > %d)", sim_module_count, SIM_MAX_MODULES);
	for (size_t i = 0; i < sim_module_count; i++)
		if (sim_modules[i]->init) {
			int rc = sim_modules[i]->init(s);
			if (rc)
				return rc;
		}
	return 0;
}

void sim_fini(struct sim *s)
{
	for (size_t i = sim_module_count; i-- > 0;)
		if (sim_modules[i]->fini)
			sim_modules[i]->fini(s);
	ap_pe_destroy(s->pe);
	s->pe = NULL;
}

static int create_pe(struct sim *s)
{
	struct ap_host host;
	memset(&host, 0, sizeof(host));
	host.ctx = s;
	for (size_t i = 0; i < sim_module_count; i++)
		if (sim_modules[i]->host_setup)
			sim_modules[i]->host_setup(s, &host);
	struct ap_error_ctx cerr = { 0 };
	int rc = ap_pe_create(&s->cfg, &host, &s->pe, &cerr);
	if (rc < 0)
		return sim_error(s, "bad configuration: %s", cerr.message[0] ? cerr.message : ap_errstr(-rc));
	return 0;
}

static const struct sim_command *find_command(const char *name)
{
	for (size_t i = 0; i < sim_module_count; i++)
		for (size_t j = 0; j < sim_modules[i]->count; j++)
			if (!strcmp(sim_modules[i]->commands[j].name, name))
				return &sim_modules[i]->commands[j];
	return NULL;
}

/* Split a line into words; '#' at the start of a word begins a comment. */
static int tokenize(struct sim *s, char *line, char **argv, int *argc)
{
	int n = 0;
	char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			break;
		if (n == SIM_MAX_ARGS)
			return sim_error(s, "too many words on one line (max %d)", SIM_MAX_ARGS);
		argv[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p)
			*p++ = '\0';
	}
	*argc = n;
	return 0;
}

static int run_line(struct sim *s, char *line)
{
	char *argv[SIM_MAX_ARGS + 1];
	int argc = 0;
	int rc = tokenize(s, line, argv, &argc);
	if (rc || argc == 0)
		return rc;
	argv[argc] = NULL;
	const struct sim_command *c = find_command(argv[0]);
	if (!c)
		return sim_error(s, "unknown command '%s'", argv[0]);
	int nargs = argc - 1;
	if (nargs < c->min_args || (c->max_args >= 0 && nargs > c->max_args))
		return sim_error(s, "usage: %s", c->usage);
	if (c->flags & SIM_CMD_BEFORE_PE) {
		if (s->pe)
			return sim_error(s, "'%s' must come before every other command", c->name);
	} else if (!s->pe) {
		rc = create_pe(s);
		if (rc)
			return rc;
	}
	return c->run(s, argc, argv);
}

int sim_run_buffer(struct sim *s, const char *name, const char *text, size_t len)
{
	s->file = name;
	s->line = 0;
	char *line = malloc(SIM_MAX_LINE + 1);
	if (!line)
		return sim_error(s, "out of memory");
	size_t pos = 0;
	int rc = 0;
	while (pos < len && rc == 0) {
		s->line++;
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		pos += n + (nl ? 1 : 0);
		if (memchr(start, '\0', n)) {
			rc = sim_error(s, "NUL byte in the script");
			break;
		}
		if (n > SIM_MAX_LINE) {
			rc = sim_error(s, "line longer than %d bytes", SIM_MAX_LINE);
			break;
		}
		memcpy(line, start, n);
		line[n] = '\0';
		rc = run_line(s, line);
	}
	free(line);
	if (rc == 0) {
		/* A script that only configures still checks its configuration. */
		if (!s->pe)
			rc = create_pe(s);
		for (size_t i = 0; rc == 0 && i < sim_module_count; i++)
			if (sim_modules[i]->finish)
				rc = sim_modules[i]->finish(s);
	}
	if (rc)
		return SIM_EXIT_ERROR;
	return s->failures ? SIM_EXIT_FAIL : 0;
}

/* armprof sim SCRIPT: run a register-level test-bench script (docs/sim.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_io.h"
#include "commands.h"
#include "sim.h"

const char cmd_sim_summary[] = "run a model test-bench script (docs/sim.md)";

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: armprof sim [-c KEY=VALUE]... [--config FILE] SCRIPT\n"
	        "  SCRIPT        script file, or - for standard input\n"
	        "  -c KEY=VALUE  set a model configuration key (docs/model-config.md)\n"
	        "  --config FILE read KEY=VALUE lines ('#' comments) before the script\n"
	        "  --list-config print every configuration key, its default and meaning\n"
	        "exit status: 0 ok, 1 an expectation failed, 2 error in the script or usage\n\ncommands:\n");
	for (size_t i = 0; i < sim_module_count; i++)
		for (size_t j = 0; j < sim_modules[i]->count; j++)
			fprintf(out, "  %s\n", sim_modules[i]->commands[j].usage);
}

static void list_config(FILE *out)
{
	struct ap_config cfg;
	ap_config_init(&cfg);
	for (size_t i = 0; ap_config_key_name(i); i++) {
		char value[64];
		if (ap_config_get(&cfg, ap_config_key_name(i), value, sizeof(value)) < 0)
			snprintf(value, sizeof(value), "?");
		fprintf(out, "%s=%s\t%s\n", ap_config_key_name(i), value, ap_config_key_doc(i));
	}
}

static int apply_config(const char *where, struct ap_config *cfg, char *kv)
{
	char *eq = strchr(kv, '=');
	if (!eq || eq == kv) {
		fprintf(stderr, "armprof sim: %s: expected KEY=VALUE, got '%s'\n", where, kv);
		return EXIT_USAGE;
	}
	*eq = '\0';
	struct ap_error_ctx err = { 0 };
	if (ap_config_set(cfg, kv, eq + 1, &err) < 0) {
		fprintf(stderr, "armprof sim: %s: %s\n", where, err.message);
		return EXIT_USAGE;
	}
	return 0;
}

static int apply_config_file(const char *path, struct ap_config *cfg)
{
	size_t len;
	/* cli_read_all: the one whole-file read, which names a directory or
	 * an unreadable file (and prints why). */
	uint8_t *bytes;
	if (cli_read_all("sim", path, &bytes, &len) != 0)
		return EXIT_USAGE;
	char *text = (char *)bytes;
	int rc = 0;
	unsigned line = 0;
	for (char *p = text, *end = text + len; p < end && !rc;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *stop = nl ? nl : end;
		*stop = '\0';
		line++;
		char *hash = strchr(p, '#');
		if (hash)
			*hash = '\0';
		char *word = strtok(p, " \t\r");
		while (word && !rc) {
			char where[512];
			snprintf(where, sizeof(where), "%s:%u", path, line);
			rc = apply_config(where, cfg, word);
			word = strtok(NULL, " \t\r");
		}
		p = stop + 1;
	}
	free(text);
	return rc;
}

int cmd_sim(int argc, char **argv)
{
	struct sim s;
	int rc = sim_init(&s, stdout, stderr);
	if (rc) {
		sim_fini(&s);
		return EXIT_USAGE;
	}
	const char *script = NULL;
	for (int i = 1; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			sim_fini(&s);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--list-config")) {
			list_config(stdout);
			sim_fini(&s);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			rc = apply_config("-c", &s.cfg, argv[++i]);
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			rc = apply_config_file(argv[++i], &s.cfg);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "armprof sim: unknown option '%s'\n", argv[i]);
			rc = EXIT_USAGE;
		} else if (script) {
			fprintf(stderr, "armprof sim: only one SCRIPT\n");
			rc = EXIT_USAGE;
		} else {
			script = argv[i];
		}
	}
	if (!rc && !script) {
		usage(stderr);
		rc = EXIT_USAGE;
	}
	if (rc) {
		sim_fini(&s);
		return rc;
	}
	size_t len;
	uint8_t *bytes;
	if (cli_read_all("sim", script, &bytes, &len) != 0) {
		sim_fini(&s);
		return EXIT_USAGE;
	}
	char *text = (char *)bytes;
	rc = sim_run_buffer(&s, script, text, len);
	free(text);
	fflush(stdout);
	sim_fini(&s);
	return rc;
}

/* `armprof sim`: the register-level test bench of the model (docs/sim.md).
 *
 * A script is read line by line; each line is a command and its arguments,
 * '#' starts a comment. Commands come from modules, one per area, each in
 * its own file:
 *   sim_cmd_core.c       config, state, msr, mrs, expect, expect-access, ...
 *   sim_cmd_spe_ops.c    op, ops, mem, psb, expect-irq, expect-records (SPE engine)
 *   sim_cmd_pcsr*.c      PC sampling; sim_cmd_snapshot*.c PMU snapshots
 * ADDING COMMANDS: define a `const struct sim_module sim_module_<area>` in
 * your file and add one line X(sim_module_<area>) to SIM_MODULES below. */
#ifndef ARMPROF_TOOL_SIM_H
#define ARMPROF_TOOL_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/model.h"

#define SIM_MODULES(X) \
	X(sim_module_core) \
	X(sim_module_spe_ops) \
	X(sim_module_pcsr) \
	X(sim_module_snapshot)

struct sim;

enum sim_command_flags {
	/* Allowed only before the PE exists (the `config` command); every
	 * other command creates the PE from the configuration on first use. */
	SIM_CMD_BEFORE_PE = 1u << 0,
};

struct sim_command {
	const char *name;
	const char *usage;   /* "msr REG VALUE", shown in errors and --help */
	unsigned flags;      /* enum sim_command_flags */
	int min_args, max_args; /* arguments after the name; max -1 = any */
	/* argv[0] is the command name. Return 0, or the value of sim_error(). */
	int (*run)(struct sim *s, int argc, char **argv);
};

struct sim_module {
	const char *name;
	const struct sim_command *commands;
	size_t count;
	/* Optional hooks, called in SIM_MODULES order. */
	int (*init)(struct sim *s);   /* before the first line; allocate data */
	void (*fini)(struct sim *s);  /* after the last line; free data */
	/* Before the PE is created: fill in the callbacks this module serves. */
	void (*host_setup)(struct sim *s, struct ap_host *host);
	/* After the last line, if no error: final checks (0 or sim_error()). */
	int (*finish)(struct sim *s);
};

#define SIM_MAX_MODULES 16

struct sim {
	const char *file;   /* script name for messages */
	unsigned line;      /* current line, 1-based */
	FILE *out, *err;
	struct ap_config cfg;
	struct ap_pe *pe;   /* NULL until the first command after `config` */
	unsigned failures;  /* failed expectations (exit 1) */
	void *data[SIM_MAX_MODULES]; /* per-module data, see sim_data() */

	/* What the host callbacks of the core saw (sim_cmd_core.c). */
	uint64_t cntpct, cntvct;      /* values the timer callbacks return */
	int pmbirq_level;             /* last PMBIRQ level (0 before any change) */
	unsigned pmbirq_changes;      /* number of level changes */
	unsigned cti_triggers[4];     /* pulses per CTI trigger output */
};

/* Exit codes (tools/armprof/commands.h): 1 failed expectation, 2 errors. */
#define SIM_EXIT_FAIL 1
#define SIM_EXIT_ERROR 2

/* Print "armprof sim: FILE:LINE: message" to s->err; returns SIM_EXIT_ERROR
 * so that commands can `return sim_error(s, ...)`. */
int sim_error(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report a failed expectation (same prefix, "expectation failed: ...");
 * counts it and returns 0: the script goes on, the exit code becomes 1. */
int sim_fail(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parsers that report their own FILE:LINE error (return 0 or SIM_EXIT_ERROR). */
int sim_parse_u64(struct sim *s, const char *text, uint64_t *v, const char *what);
int sim_parse_reg(struct sim *s, const char *name, uint32_t *reg);
/* Split "key=value" in place; SIM_EXIT_ERROR if there is no '='. */
int sim_split_kv(struct sim *s, char *arg, char **key, char **value);

/* This module's data slot. */
void **sim_data(struct sim *s, const struct sim_module *m);

/* Run a whole script held in memory (NUL bytes are an error). Returns the
 * exit code: 0, SIM_EXIT_FAIL or SIM_EXIT_ERROR. s must come from
 * sim_init() and goes back through sim_fini(). */
int sim_init(struct sim *s, FILE *out, FILE *err);
int sim_run_buffer(struct sim *s, const char *name, const char *text, size_t len);
void sim_fini(struct sim *s);

/* The modules (sim_modules.c), in order. */
extern const struct sim_module *const sim_modules[];
extern const size_t sim_module_count;

#endif

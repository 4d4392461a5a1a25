/* File helpers shared by the subcommands: input by path or "-" and
 * whole-file reads; output files are cli_output.h's. */
#ifndef ARMPROF_TOOL_CLI_IO_H
#define ARMPROF_TOOL_CLI_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_output.h"

/* Open path for reading ("-" is stdin). On failure prints
 * "armprof CMD: PATH: reason" and returns NULL. Refuses directories. */
FILE *cli_open_input(const char *cmd, const char *path);

/* Read a whole input into a malloc'd buffer. Returns 0 or prints and
 * returns -1. */
int cli_read_all(const char *cmd, const char *path, uint8_t **data, size_t *len);

#endif

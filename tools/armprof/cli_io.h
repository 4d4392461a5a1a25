/* File helpers shared by the subcommands: input by path or "-", whole-file
 * reads, and output files written to a temporary file and renamed. */
#ifndef ARMPROF_TOOL_CLI_IO_H
#define ARMPROF_TOOL_CLI_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Open path for reading ("-" is stdin). On failure prints
 * "armprof CMD: PATH: reason" and returns NULL. Refuses directories. */
FILE *cli_open_input(const char *cmd, const char *path);

/* Read a whole input into a malloc'd buffer. Returns 0 or prints and
 * returns -1. */
int cli_read_all(const char *cmd, const char *path, uint8_t **data, size_t *len);

/* An output file that appears only when complete. */
struct cli_output {
	FILE *f;
	char *path;     /* final path, NULL for stdout */
	char *tmp_path; /* temporary path beside it */
};
int cli_output_open(struct cli_output *out, const char *cmd, const char *path);
/* Flush, close and rename into place (ok != 0), or remove the temporary
 * file (ok == 0). Returns 0, or -1 after printing the error. */
int cli_output_close(struct cli_output *out, const char *cmd, int ok);

#endif

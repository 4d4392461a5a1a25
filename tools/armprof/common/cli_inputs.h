/* The files a command reads, so that no output overwrites one of them
 * (issue 32): `decode -o X X`, `report --html X X`, an output that is a
 * symbolic or hard link to an input, or standard output redirected onto
 * it (`>> X`). Inputs are known by device and inode; cli_output_open
 * refuses an output that is one of them (cli_output_refuse_input) before
 * it creates or writes anything, and the command exits with 2.
 *
 * Every command notes its file inputs once its options are parsed (the
 * input, --binary, a .meta, a --kallsyms file, ...), before it opens an
 * output; cli_open_input and cli_read_all note what they open too. */
#ifndef ARMPROF_TOOL_CLI_INPUTS_H
#define ARMPROF_TOOL_CLI_INPUTS_H

/* path is an input ("-": standard input; NULL or "": none). A path that
 * does not exist (yet) is not noted; nor are more than a fixed number of
 * inputs (64). */
void cli_input_note(const char *path);
/* 0 when the output path (NULL or "-": standard output) is not a regular
 * file noted as an input; else prints "armprof CMD: OUT: is the input IN
 * (the same file); not overwriting it" and returns -1. */
int cli_output_refuse_input(const char *cmd, const char *path);

#endif

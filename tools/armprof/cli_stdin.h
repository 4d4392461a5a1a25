/* Standard input ("-") read by its magic, as a named file is: the first
 * bytes are read to tell a perf.data from raw SPE data.
 * - A perf.data (read whole, and by `report` twice) is first copied to an
 *   unlinked temporary file in $TMPDIR (default /tmp), which then stands in
 *   for standard input: descriptor 0 becomes that seekable file.
 * - Raw SPE data streams: cli_stdin_stream() gives the bytes already read
 *   back first, then the rest of standard input as it comes. */
#ifndef ARMPROF_TOOL_CLI_STDIN_H
#define ARMPROF_TOOL_CLI_STDIN_H

#include <stdio.h>

/* 1: a perf.data (descriptor 0 is now the copy), 0: not, -1: it could not
 * be read or copied (the reason printed as "armprof CMD: -: reason").
 * Reads standard input the first time only. */
int cli_stdin_is_perf(const char *cmd);
/* Standard input as a stream with its first bytes given back (after
 * cli_stdin_is_perf; stdin itself when no byte was held back). Close it
 * with fclose unless it is stdin: descriptor 0 stays open. NULL when out
 * of memory. */
FILE *cli_stdin_stream(void);

#endif

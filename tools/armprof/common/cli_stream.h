/* An input that can be read only once, as it comes: standard input ("-"),
 * a named pipe, a character device. Its format is told by its magic, as a
 * named file's is: its first bytes are read to tell a perf.data from raw
 * SPE data.
 * - A perf.data (read whole, and by `report` twice) is first copied to an
 *   unlinked temporary file in $TMPDIR (default /tmp), which is then read
 *   in its place (cli_stream_perf_path).
 * - Raw SPE data streams: cli_stream_open() gives the bytes already read
 *   back first, then the rest as it comes.
 * One such input per process (the command's input); a second one is read
 * as before this module, by path. */
#ifndef ARMPROF_TOOL_CLI_STREAM_H
#define ARMPROF_TOOL_CLI_STREAM_H

#include <stdio.h>

/* 1 if path ("-" or a file that is not a regular file or a directory)
 * should be read through this module. */
int cli_stream_is_stream(const char *path);
/* 1: a perf.data (copied), 0: not, -1: it could not be opened, read or
 * copied (the reason printed as "armprof CMD: PATH: reason"). Reads the
 * input the first time only. */
int cli_stream_is_perf(const char *cmd, const char *path);
/* The path a perf.data stream was copied to ("/proc/self/fd/N"), or NULL
 * when path is not that stream. */
const char *cli_stream_perf_path(const char *path);
/* The raw stream at path with its first bytes given back, or NULL when
 * path is not the stream this module read (the caller opens it itself).
 * Close it with fclose (for "-", descriptor 0 stays open). */
FILE *cli_stream_open(const char *path);

#endif

/* Where every armprof command writes a file the user named (-o, OUT):
 * never destroy what the path points at, always say why a write failed.
 *
 * - A regular file, a path that does not exist yet, or a symbolic link to
 *   a regular file (resolved: the link stays, its target is replaced) is
 *   written to a temporary file in the target's directory, with the
 *   target's mode (a new file: 0666 less the umask), synced, and renamed
 *   over the target only when complete. On any error, and on SIGINT,
 *   SIGTERM, SIGHUP or SIGPIPE (cli_tmpfiles.h), the temporary file is
 *   removed and the target is left as it was.
 * - Anything else (a character or block device, a FIFO, a socket) and "-"
 *   (standard output) is written directly, as a stream: nothing is
 *   created, renamed or removed. An output that must be seekable
 *   (perf.data: its header is written last) but is not (a pipe, a
 *   terminal) gets an unlinked temporary file in $TMPDIR (default /tmp),
 *   copied to it at the end.
 * - Every write, flush, sync and close is checked; the message is
 *   "armprof CMD: PATH: reason" with strerror's reason, and commands exit
 *   with 2 (an I/O error).
 * - A directory, a dangling symbolic link and a file the user may not
 *   write are refused as the shell would refuse them; a file that is one of
 *   the command's inputs (cli_inputs.h: through links too, or standard
 *   output redirected onto it) is refused before anything is written. */
#ifndef ARMPROF_TOOL_CLI_OUTPUT_H
#define ARMPROF_TOOL_CLI_OUTPUT_H

#include <stdio.h>

struct cli_output {
	FILE *f;          /* where the command writes */
	int fd;           /* f's descriptor, for a writer that seeks (perf.data) */
	const char *cmd;
	char *name;       /* the path as given, for messages */
	char *target;     /* the regular file replaced at close, or NULL */
	char *tmp;        /* the temporary file beside it, or NULL */
	int tmp_slot;     /* its entry in the signal cleanup registry */
	int dest_fd;      /* a spooled output's real destination, or -1 */
	int close_dest;   /* dest_fd is ours to close */
	int err;          /* errno of the first failed write, 0 if none */
};

/* Open path for writing (NULL or "-": standard output). Returns 0, or
 * prints the reason and returns -1. */
int cli_output_open(struct cli_output *out, const char *cmd, const char *path);
/* The same for a writer that seeks back (out->fd is then at offset 0 of a
 * seekable file). */
int cli_output_open_seekable(struct cli_output *out, const char *cmd, const char *path);
/* What cli_output_open would refuse, found before any work is done (for a
 * command that runs a program first: record): a directory, a dangling
 * link, a file the user may not write, a directory that does not exist or
 * refuses new files. Nothing is created or opened (a FIFO would block).
 * Returns 0, or prints the reason and returns -1. *regular (may be NULL):
 * 1 when the output is a regular file or will be one (a new file, a link
 * to one): files may be written beside it; 0 for "-", a device, a FIFO. */
int cli_output_check(const char *cmd, const char *path, int *regular);
/* fwrite that keeps the reason of a failure for cli_output_close: 0 or -1. */
int cli_output_write(struct cli_output *out, const void *data, size_t len);
/* Finish (ok != 0): flush, sync, close and rename into place, or copy a
 * spooled output to its destination; or abandon (ok == 0): remove the
 * temporary file. Any error found is printed with the path and its reason
 * (a write that failed before close included). Returns 0, or -1 when the
 * output was not written (ok == 0 included). */
int cli_output_close(struct cli_output *out, const char *cmd, int ok);

#endif

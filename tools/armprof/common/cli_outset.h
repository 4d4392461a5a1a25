/* A set of files that belong together (decode --format parquet --split's
 * DIR/ldst.parquet, br.parquet and other.parquet) replaced as a whole, so
 * that a reader or a concurrent run never sees one run's file beside
 * another's:
 *
 * - The files are written into a new directory `.NAME.armprof-XXXXXX`
 *   beside DIR (a symbolic link to a directory: beside its target, the
 *   link kept), each through cli_output.h.
 * - When all are complete the new directory takes DIR's place in one
 *   rename: renameat2 RENAME_NOREPLACE where DIR does not exist, else
 *   RENAME_EXCHANGE, after which the old directory (now at the temporary
 *   name) loses the set's files and is removed.
 * - DIR holding anything but the set's own files is refused before
 *   anything is written (replacing it would take those files too).
 * - On an error, or on SIGINT, SIGTERM, SIGHUP, SIGPIPE (cli_tmpfiles.h),
 *   the new directory and what is in it are removed; DIR stays as it was. */
#ifndef ARMPROF_TOOL_CLI_OUTSET_H
#define ARMPROF_TOOL_CLI_OUTSET_H

#include "cli_output.h"

#define CLI_OUTSET_MAX 3

struct cli_outset {
	const char *cmd;
	char *name;    /* the path as given, for messages */
	char *target;  /* the directory replaced (a link's target) */
	char *tmpdir;  /* the new directory beside it */
	int dir_slot;  /* its entry in the signal cleanup registry */
	int n;
	char *path[CLI_OUTSET_MAX]; /* tmpdir/FILE */
	int slot[CLI_OUTSET_MAX];
	const char *const *names;   /* the set's file names */
	int n_names;
};

/* Check dir (it may hold only the files `names` lists) and make the new
 * directory beside it. Returns 0, or prints why and returns -1. */
int cli_outset_open(struct cli_outset *s, const char *cmd, const char *dir, const char *const *names,
                    int n_names);
/* Open the set's file `name` (one of names) as out. 0 or -1 (printed). */
int cli_outset_add(struct cli_outset *s, struct cli_output *out, const char *name);
/* ok: every file was closed complete: swap the new directory in; else
 * (or on a failure, printed) remove it. Returns 0, or -1 when DIR was not
 * replaced. */
int cli_outset_close(struct cli_outset *s, int ok);

#endif

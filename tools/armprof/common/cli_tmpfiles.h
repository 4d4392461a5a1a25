/* Temporary files a signal must not leave behind: a fixed registry of the
 * paths alive now, which a handler for SIGINT, SIGTERM, SIGHUP and SIGPIPE
 * unlinks (then removes those that are directories, emptied first) before it lets the signal end the process as it would have (the
 * default action, re-raised: the exit status still says which signal).
 * The handler only reads the registry and calls unlink() and raise(),
 * which are async-signal-safe. A signal the process inherited as ignored
 * (nohup) stays ignored. */
#ifndef ARMPROF_TOOL_CLI_TMPFILES_H
#define ARMPROF_TOOL_CLI_TMPFILES_H

/* mkstemp(tmpl) and remember the file until cli_tmp_forget, with the
 * signals blocked in between (no moment when it exists unremembered);
 * installs the handlers on first use. Returns the descriptor and sets
 * *slot (-1 when the registry is full or the path too long: the file is
 * then only removed on the ordinary error paths), or -1 with errno set.
 * unlink_now: remove the name at once (a spool file nobody else opens):
 * nothing to remember then. */
int cli_tmp_create(char *tmpl, int unlink_now, int *slot);
/* A spool: an unlinked file in $TMPDIR (default /tmp), made as
 * DIR/armprof-WHAT-XXXXXX and unlinked at once (nothing is left behind,
 * whatever ends the process), for bytes kept aside until they can go where
 * they belong. The descriptor, or -1 after printing "armprof CMD: NAME:
 * cannot create a temporary file in DIR[ for FOR_WHAT]: reason". */
int cli_tmp_spool(const char *cmd, const char *name, const char *what, const char *for_what);
/* mkdtemp(tmpl), remembered the same way: a signal removes it once the
 * files in it (each remembered too) are gone. 0 and *slot, or -1 (errno). */
int cli_tmp_mkdtemp(char *tmpl, int *slot);
/* Remember a path that may come to exist (a file's final name inside a
 * temporary directory): its slot, or -1 when the registry is full. */
int cli_tmp_remember(const char *path);
/* The file was renamed into place or removed: slot -1 is ignored. */
void cli_tmp_forget(int slot);

#endif

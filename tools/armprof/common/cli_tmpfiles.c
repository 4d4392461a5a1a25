/* Temporary files removed on a signal: see cli_tmpfiles.h. */
#include "cli_tmpfiles.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A command has at most a few outputs open at once (report -o, record's
 * output and its .meta; a set of files: its directory, its files'
 * temporary and final names, cli_outset.h). */
#define CLI_TMP_SLOTS 16

static char tmp_path[CLI_TMP_SLOTS][PATH_MAX];
static volatile sig_atomic_t tmp_live[CLI_TMP_SLOTS];
static int handlers_installed;

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void remove_and_reraise(int sig)
{
	for (int i = 0; i < CLI_TMP_SLOTS; i++)
		if (tmp_live[i])
			unlink(tmp_path[i]);
	/* then the directories, now empty (rmdir of a file fails: harmless) */
	for (int i = 0; i < CLI_TMP_SLOTS; i++)
		if (tmp_live[i])
			rmdir(tmp_path[i]);
	/* SA_RESETHAND put the default action back; the signal is blocked
	 * until this returns, then it ends the process as it would have. */
	raise(sig);
}

static void install_handlers(void)
{
	handlers_installed = 1;
	for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++) {
		struct sigaction old, sa;
		if (sigaction(cleanup_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
			continue; /* ignored (nohup), or someone else's handler */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = remove_and_reraise;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		for (size_t k = 0; k < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); k++)
			sigaddset(&sa.sa_mask, cleanup_signals[k]);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

static int remember(const char *path)
{
	size_t len = strlen(path);
	if (len >= PATH_MAX)
		return -1;
	for (int i = 0; i < CLI_TMP_SLOTS; i++)
		if (!tmp_live[i]) {
			memcpy(tmp_path[i], path, len + 1);
			tmp_live[i] = 1; /* after the path is complete: the handler reads it */
			return i;
		}
	return -1;
}

static void block_signals(sigset_t *old)
{
	if (!handlers_installed)
		install_handlers();
	sigset_t block;
	sigemptyset(&block);
	for (size_t k = 0; k < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); k++)
		sigaddset(&block, cleanup_signals[k]);
	sigprocmask(SIG_BLOCK, &block, old);
}

int cli_tmp_create(char *tmpl, int unlink_now, int *slot)
{
	*slot = -1;
	sigset_t old;
	block_signals(&old);
	int fd = mkstemp(tmpl);
	int e = errno;
	if (fd >= 0 && unlink_now)
		unlink(tmpl);
	else if (fd >= 0)
		*slot = remember(tmpl);
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

int cli_tmp_spool(const char *cmd, const char *name, const char *what, const char *for_what)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	size_t n = strlen(dir) + strlen(what) + 32;
	char *tmpl = malloc(n);
	int slot, fd = -1;
	if (tmpl) {
		snprintf(tmpl, n, "%s/armprof-%s-XXXXXX", dir, what);
		fd = cli_tmp_create(tmpl, 1, &slot);
	} else {
		errno = ENOMEM;
	}
	if (fd < 0)
		fprintf(stderr, "armprof %s: %s: cannot create a temporary file in %s%s%s: %s\n", cmd, name, dir,
		        for_what ? " for " : "", for_what ? for_what : "", strerror(errno));
	free(tmpl);
	return fd;
}

int cli_tmp_mkdtemp(char *tmpl, int *slot)
{
	*slot = -1;
	sigset_t old;
	block_signals(&old);
	int rc = mkdtemp(tmpl) ? 0 : -1;
	int e = errno;
	if (rc == 0)
		*slot = remember(tmpl);
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return rc;
}

int cli_tmp_remember(const char *path)
{
	sigset_t old;
	block_signals(&old);
	int slot = remember(path);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return slot;
}

void cli_tmp_forget(int slot)
{
	if (slot >= 0 && slot < CLI_TMP_SLOTS)
		tmp_live[slot] = 0;
}

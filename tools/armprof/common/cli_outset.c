/* A set of files replaced as a whole: see cli_outset.h. */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE, realpath */
#include "cli_outset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_inputs.h"
#include "cli_tmpfiles.h"

static int is_member(const struct cli_outset *s, const char *name)
{
	for (int i = 0; i < s->n_names; i++)
		if (!strcmp(name, s->names[i]))
			return 1;
	return 0;
}

static char *joined(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* An existing directory: its other files would go with it. */
static int check_contents(const struct cli_outset *s)
{
	DIR *d = opendir(s->target);
	if (!d) {
		fprintf(stderr, "armprof %s: %s: %s\n", s->cmd, s->name, strerror(errno));
		return -1;
	}
	int rc = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (is_member(s, e->d_name)) {
			/* one of the set's names that is (a link to) an input: the user
			 * pointed there at the input; refused as a single output is */
			char *p = joined(s->target, e->d_name);
			rc = p ? cli_output_refuse_input(s->cmd, p) : 0;
			free(p);
			continue;
		}
		fprintf(stderr,
		        "armprof %s: %s: holds %s, which is not one of its files: the directory is replaced as a "
		        "whole, so give a new or empty one\n",
		        s->cmd, s->name, e->d_name);
		rc = -1;
	}
	closedir(d);
	return rc;
}

int cli_outset_open(struct cli_outset *s, const char *cmd, const char *dir, const char *const *names,
                    int n_names)
{
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	s->dir_slot = -1;
	s->names = names;
	s->n_names = n_names < CLI_OUTSET_MAX ? n_names : CLI_OUTSET_MAX;
	s->name = strdup(dir);
	struct stat st;
	mode_t mask = umask(0);
	umask(mask);
	mode_t mode = 0777 & ~mask;
	if (!s->name)
		goto nomem;
	if (lstat(dir, &st) != 0) {
		if (errno != ENOENT) {
			fprintf(stderr, "armprof %s: %s: %s\n", cmd, dir, strerror(errno));
			goto fail;
		}
		s->target = strdup(dir);
	} else {
		if (S_ISLNK(st.st_mode) && stat(dir, &st) != 0) {
			fprintf(stderr, "armprof %s: %s: %s%s\n", cmd, dir,
			        errno == ENOENT ? "a symbolic link to a directory that does not exist: " : "",
			        strerror(errno));
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "armprof %s: %s: not a directory (it is written as a directory of %d files)\n",
			        cmd, dir, s->n_names);
			goto fail;
		}
		s->target = realpath(dir, NULL); /* a link's target: the link stays */
		if (s->target && check_contents(s) != 0)
			goto fail;
		mode = st.st_mode & 07777;
	}
	if (!s->target)
		goto nomem;
	/* Hidden, beside the directory it replaces (one rename away). */
	const char *slash = strrchr(s->target, '/');
	size_t dir_len = slash ? (size_t)(slash - s->target) + 1 : 0;
	size_t n = strlen(s->target) + 32;
	s->tmpdir = malloc(n);
	if (!s->tmpdir)
		goto nomem;
	snprintf(s->tmpdir, n, "%.*s.%.200s.armprof-XXXXXX", (int)dir_len, s->target, s->target + dir_len);
	if (cli_tmp_mkdtemp(s->tmpdir, &s->dir_slot) != 0) {
		int e = errno;
		if (e == ENOENT || e == ENOTDIR)
			fprintf(stderr, "armprof %s: %s: %s\n", cmd, dir, strerror(e));
		else
			fprintf(stderr, "armprof %s: %s: cannot create a temporary directory in %.*s: %s\n", cmd, dir,
			        dir_len > 1 ? (int)dir_len - 1 : 1, dir_len ? s->target : ".", strerror(e));
		free(s->tmpdir);
		s->tmpdir = NULL;
		goto fail;
	}
	if (chmod(s->tmpdir, mode) != 0) {
		fprintf(stderr, "armprof %s: %s: cannot set its mode: %s\n", cmd, s->tmpdir, strerror(errno));
		goto fail;
	}
	return 0;
nomem:
	fprintf(stderr, "armprof %s: out of memory\n", cmd);
fail:
	cli_outset_close(s, 0); /* frees, and removes the new directory if made */
	return -1;
}

int cli_outset_add(struct cli_outset *s, struct cli_output *out, const char *name)
{
	if (s->n == CLI_OUTSET_MAX || !is_member(s, name))
		return -1;
	char *path = joined(s->tmpdir, name), *shown = joined(s->name, name);
	if (!path || !shown) {
		free(path);
		free(shown);
		fprintf(stderr, "armprof %s: out of memory\n", s->cmd);
		return -1;
	}
	s->path[s->n] = path;
	s->slot[s->n] = cli_tmp_remember(path); /* once renamed in it, until the swap */
	s->n++;
	if (cli_output_open(out, s->cmd, path) != 0) {
		free(shown);
		return -1;
	}
	/* Messages name the file where the user will look for it. */
	free(out->name);
	out->name = shown;
	return 0;
}

/* Empty dir of the set's files and remove it; 0, or -1 when something
 * else is in it (left there). */
static int remove_set(const struct cli_outset *s, const char *dir)
{
	for (int i = 0; i < s->n_names; i++) {
		char *p = joined(dir, s->names[i]);
		if (p)
			unlink(p);
		free(p);
	}
	return rmdir(dir) == 0 || errno == ENOENT ? 0 : -1;
}

/* The new directory in the old one's place: one rename. */
static int swap_in(struct cli_outset *s)
{
	if (renameat2(AT_FDCWD, s->tmpdir, AT_FDCWD, s->target, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno == EEXIST || errno == ENOTEMPTY) {
		if (renameat2(AT_FDCWD, s->tmpdir, AT_FDCWD, s->target, RENAME_EXCHANGE) != 0) {
			fprintf(stderr, "armprof %s: %s: cannot swap the new directory in: %s\n", s->cmd, s->name,
			        strerror(errno));
			return -1;
		}
		/* tmpdir is now the old directory */
		if (remove_set(s, s->tmpdir) != 0)
			fprintf(stderr, "armprof %s: warning: %s: the old directory holds other files now; left as %s\n",
			        s->cmd, s->name, s->tmpdir);
		return 0;
	}
	if (errno == EINVAL && rename(s->tmpdir, s->target) == 0)
		return 0; /* a file system without renameat2's flags, and no DIR yet */
	fprintf(stderr, "armprof %s: %s: cannot rename the new directory into place: %s\n", s->cmd, s->name,
	        strerror(errno));
	return -1;
}

int cli_outset_close(struct cli_outset *s, int ok)
{
	int rc = -1;
	if (s->tmpdir) {
		if (ok && swap_in(s) == 0)
			rc = 0;
		else
			remove_set(s, s->tmpdir);
		for (int i = 0; i < s->n; i++)
			cli_tmp_forget(s->slot[i]);
		cli_tmp_forget(s->dir_slot);
	}
	for (int i = 0; i < s->n; i++)
		free(s->path[i]);
	free(s->name);
	free(s->target);
	free(s->tmpdir);
	memset(s, 0, sizeof(*s));
	s->dir_slot = -1;
	return rc;
}

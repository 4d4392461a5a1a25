/* Output files of the armprof commands: see cli_output.h. */
#define _GNU_SOURCE /* fopencookie, realpath */
#include "cli_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio_ext.h> /* __fpurge */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_inputs.h"
#include "cli_tmpfiles.h"

static void say(const struct cli_output *out, const char *what, int err)
{
	fprintf(stderr, "armprof %s: %s: %s%s%s\n", out->cmd, out->name, what, what[0] ? ": " : "",
	        strerror(err));
}

/* write() until done: 0, or -1 with errno set. */
static int write_fully(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The stream's writes go straight to out->fd, so that a failure keeps its
 * errno (out->err) for the message, whenever stdio flushes. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct cli_output *out = cookie;
	if (write_fully(out->fd, buf, len) != 0) {
		if (!out->err)
			out->err = errno;
		return -1;
	}
	return (ssize_t)len;
}

static int cookie_close(void *cookie)
{
	struct cli_output *out = cookie;
	int rc = out->fd == STDOUT_FILENO ? 0 : close(out->fd);
	if (rc != 0 && !out->err)
		out->err = errno;
	out->fd = -1;
	return rc;
}

static int attach_stream(struct cli_output *out)
{
	cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	out->f = fopencookie(out, "w", io);
	return out->f ? 0 : -1;
}

/* An unlinked temporary file in $TMPDIR for a seeking writer whose real
 * output is a pipe or a terminal (dest_fd). */
static int open_spool(struct cli_output *out, int dest_fd, int close_dest)
{
	out->fd = cli_tmp_spool(out->cmd, out->name, "spool", NULL);
	if (out->fd < 0)
		return -1;
	out->dest_fd = dest_fd;
	out->close_dest = close_dest;
	return attach_stream(out);
}

static int at_offset_zero(int fd)
{
	return lseek(fd, 0, SEEK_CUR) == 0;
}

/* Not a regular file: written directly (a device, FIFO or socket). */
static int open_direct(struct cli_output *out, const char *path, int seekable)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		say(out, "", errno);
		return -1;
	}
	if (seekable && !at_offset_zero(fd))
		return open_spool(out, fd, 1);
	out->fd = fd;
	return attach_stream(out);
}

/* A regular file (or a new one, existing 0): a temporary file beside it,
 * with the file's mode and, where the user may give them, its owner and
 * group. */
static int open_replacement(struct cli_output *out, const char *target, mode_t mode, const struct stat *existing)
{
	out->target = strdup(target);
	const char *slash = strrchr(target, '/');
	size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
	size_t n = strlen(target) + 32;
	out->tmp = malloc(n);
	if (!out->target || !out->tmp) {
		say(out, "", ENOMEM);
		return -1;
	}
	/* Hidden, and named after the file: ".NAME.armprof-XXXXXX" (NAME cut
	 * to 200 bytes, so that the name fits where NAME did). */
	snprintf(out->tmp, n, "%.*s.%.200s.armprof-XXXXXX", (int)dir_len, target, target + dir_len);
	out->fd = cli_tmp_create(out->tmp, 0, &out->tmp_slot);
	if (out->fd < 0) {
		int e = errno;
		/* No such directory: as the shell says it; else (not writable, a
		 * read-only file system, ...) which directory refused. */
		if (e == ENOENT || e == ENOTDIR)
			say(out, "", e);
		else
			fprintf(stderr, "armprof %s: %s: cannot create a temporary file in %.*s: %s\n", out->cmd,
			        out->name, dir_len > 1 ? (int)dir_len - 1 : 1, dir_len ? target : ".", strerror(e));
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
	/* Its owner and group where the user may give them; else (another
	 * user's file) the new file is the user's, as `cp` leaves it. */
	if (existing && fchown(out->fd, existing->st_uid, existing->st_gid) != 0)
		errno = 0;
	if (fchmod(out->fd, mode) != 0) {
		say(out, "cannot set the mode of its temporary file", errno);
		return -1;
	}
	return attach_stream(out);
}

static int open_path(struct cli_output *out, const char *path, int seekable)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT) {
			say(out, "", errno);
			return -1;
		}
		mode_t mask = umask(0);
		umask(mask);
		return open_replacement(out, path, 0666 & ~mask, NULL);
	}
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) {
		say(out, errno == ENOENT ? "a symbolic link to a file that does not exist" : "", errno);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "armprof %s: %s: is a directory\n", out->cmd, out->name);
		return -1;
	}
	if (!S_ISREG(st.st_mode))
		return open_direct(out, path, seekable);
	/* The shell would not overwrite a file the user may not write. */
	if (access(path, W_OK) != 0) {
		say(out, "", errno);
		return -1;
	}
	char *real = realpath(path, NULL);
	if (!real) {
		say(out, "", errno);
		return -1;
	}
	int rc = open_replacement(out, real, st.st_mode & 07777, &st);
	free(real);
	return rc;
}

int cli_output_check(const char *cmd, const char *path, int *regular)
{
	int dummy;
	if (!regular)
		regular = &dummy;
	*regular = 0;
	if (!path || !strcmp(path, "-"))
		return 0;
	struct cli_output out = { .cmd = cmd, .name = (char *)path };
	struct stat st;
	char *real = NULL;
	const char *file = path;
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) {
			say(&out, errno == ENOENT ? "a symbolic link to a file that does not exist" : "", errno);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "armprof %s: %s: is a directory\n", cmd, path);
			return -1;
		}
		if (!S_ISREG(st.st_mode))
			return 0; /* written in place */
		if (access(path, W_OK) != 0) {
			say(&out, "", errno);
			return -1;
		}
		real = realpath(path, NULL); /* a link's target: its directory gets the temporary file */
		if (real)
			file = real;
	} else if (errno != ENOENT) {
		say(&out, "", errno);
		return -1;
	}
	/* Its directory must take a new file (the temporary one renamed over it). */
	const char *slash = strrchr(file, '/');
	char *dir = slash ? strndup(file, slash == file ? 1 : (size_t)(slash - file)) : strdup(".");
	int rc = 0;
	if (!dir) {
		say(&out, "", ENOMEM);
		rc = -1;
	} else if (stat(dir, &st) != 0) {
		say(&out, "", errno);
		rc = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		say(&out, "", ENOTDIR);
		rc = -1;
	} else if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "armprof %s: %s: cannot create a file in %s: %s\n", cmd, path, dir, strerror(errno));
		rc = -1;
	}
	free(dir);
	free(real);
	*regular = rc == 0;
	return rc;
}

static int output_open(struct cli_output *out, const char *cmd, const char *path, int seekable)
{
	memset(out, 0, sizeof(*out));
	out->cmd = cmd;
	out->fd = -1;
	out->dest_fd = -1;
	out->tmp_slot = -1;
	if (cli_output_refuse_input(cmd, path) != 0)
		return -1; /* before anything is created or written */
	int rc;
	if (!path || !strcmp(path, "-")) {
		out->name = strdup("standard output");
		if (!out->name) {
			fprintf(stderr, "armprof %s: out of memory\n", cmd);
			return -1;
		}
		if (seekable && !at_offset_zero(STDOUT_FILENO)) {
			fflush(stdout);
			rc = open_spool(out, STDOUT_FILENO, 0);
		} else {
			out->f = stdout;
			out->fd = STDOUT_FILENO;
			rc = 0;
		}
	} else {
		out->name = strdup(path);
		if (!out->name) {
			fprintf(stderr, "armprof %s: out of memory\n", cmd);
			return -1;
		}
		rc = open_path(out, path, seekable);
	}
	if (rc != 0 || !out->f) {
		if (rc == 0)
			say(out, "", errno);
		cli_output_close(out, cmd, 0);
		return -1;
	}
	return 0;
}

int cli_output_open(struct cli_output *out, const char *cmd, const char *path)
{
	return output_open(out, cmd, path, 0);
}

int cli_output_open_seekable(struct cli_output *out, const char *cmd, const char *path)
{
	return output_open(out, cmd, path, 1);
}

int cli_output_write(struct cli_output *out, const void *data, size_t len)
{
	errno = 0;
	if (!len || fwrite(data, 1, len, out->f) == len)
		return 0;
	if (!out->err)
		out->err = errno ? errno : EIO;
	return -1;
}

/* The spool file's bytes to their destination. */
static int copy_spool(struct cli_output *out)
{
	static char buf[1 << 16];
	if (lseek(out->fd, 0, SEEK_SET) != 0) {
		say(out, "cannot read back its temporary file", errno);
		return -1;
	}
	for (;;) {
		ssize_t n = read(out->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			say(out, "cannot read back its temporary file", errno);
			return -1;
		}
		if (n == 0)
			return 0;
		if (write_fully(out->dest_fd, buf, (size_t)n) != 0) {
			say(out, "write failed", errno);
			return -1;
		}
	}
}

int cli_output_close(struct cli_output *out, const char *cmd, int ok)
{
	(void)cmd; /* out->cmd, kept for the callers' symmetry with open */
	int failed = !ok;
	if (out->f == stdout) {
		/* Not closed: the process's exit checks it once more (main.c).
		 * A failure is said here, once, with its reason (the first failed
		 * write's, else the flush's); what stdio still holds is dropped
		 * and its error flag cleared, so that the exit's check does not
		 * say it again without one. */
		errno = 0;
		int bad = fflush(stdout) != 0;
		int e = out->err ? out->err : errno;
		if (bad || ferror(stdout)) {
			say(out, "write failed", e ? e : EIO);
			__fpurge(stdout);
			clearerr(stdout);
			failed = 1;
		}
	} else if (out->f) {
		if (fflush(out->f) != 0 || ferror(out->f)) {
			if (!failed || out->err)
				say(out, "write failed", out->err ? out->err : EIO);
			failed = 1;
		}
		if (!failed && out->dest_fd >= 0 && copy_spool(out) != 0)
			failed = 1;
		/* A file that replaces another reaches the disk first: a crash
		 * then leaves the old file or the new one, never a cut one.
		 * (EINVAL: a file system that cannot sync; nothing to wait for.) */
		if (!failed && out->tmp && fsync(out->fd) != 0 && errno != EINVAL) {
			say(out, "write failed", errno);
			failed = 1;
		}
		out->err = 0;
		if (fclose(out->f) != 0 && !failed) {
			say(out, "write failed", out->err ? out->err : errno);
			failed = 1;
		}
	} else if (out->fd >= 0 && out->fd != STDOUT_FILENO) {
		close(out->fd); /* opened, then its stream could not be made */
	}
	if (out->dest_fd >= 0 && out->close_dest && close(out->dest_fd) != 0 && !failed) {
		say(out, "write failed", errno);
		failed = 1;
	}
	if (out->tmp) {
		if (!failed && rename(out->tmp, out->target) != 0) {
			say(out, "cannot rename its temporary file into place", errno);
			failed = 1;
		}
		if (failed)
			unlink(out->tmp);
		cli_tmp_forget(out->tmp_slot);
	}
	free(out->name);
	free(out->target);
	free(out->tmp);
	memset(out, 0, sizeof(*out));
	out->fd = out->dest_fd = out->tmp_slot = -1;
	return failed ? -1 : 0;
}

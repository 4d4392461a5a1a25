/* Inputs read once, by their magic: see cli_stream.h. */
#define _GNU_SOURCE /* fopencookie */
#include "cli_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "cli_tmpfiles.h"

#define MAGIC_LEN 8 /* "PERFILE2" */

static struct {
	char *path;             /* the input read, NULL before */
	int fd;                 /* its descriptor (0 for "-") */
	int spool_fd;           /* a perf.data's copy, or -1 */
	char spool_path[32];    /* "/proc/self/fd/N" */
	uint8_t head[MAGIC_LEN]; /* raw: the bytes read, given back first */
	size_t head_len, head_pos;
} in = { .fd = -1, .spool_fd = -1 };

int cli_stream_is_stream(const char *path)
{
	struct stat st;
	if (!strcmp(path, "-"))
		return 1;
	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static int read_head(void)
{
	while (in.head_len < MAGIC_LEN) {
		ssize_t n = read(in.fd, in.head + in.head_len, MAGIC_LEN - in.head_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		in.head_len += (size_t)n;
	}
	return 0;
}

static int write_fully(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The magic, then the rest of the input, into an unlinked file. */
static int spool(const char *cmd, const char *path)
{
	int fd = cli_tmp_spool(cmd, path, "input", "the perf.data");
	if (fd < 0)
		return -1;
	static uint8_t buf[1 << 16];
	errno = 0;
	int failed = write_fully(fd, in.head, in.head_len) != 0;
	const char *what = "cannot copy it to a temporary file";
	while (!failed) {
		ssize_t n = read(in.fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			what = "read error";
			failed = 1;
		} else if (n == 0) {
			break;
		} else {
			failed = write_fully(fd, buf, (size_t)n) != 0;
		}
	}
	if (failed) {
		fprintf(stderr, "armprof %s: %s: %s: %s\n", cmd, path, what, strerror(errno ? errno : EIO));
		close(fd);
		return -1;
	}
	in.spool_fd = fd;
	snprintf(in.spool_path, sizeof(in.spool_path), "/proc/self/fd/%d", fd);
	in.head_len = 0;
	return 0;
}

int cli_stream_is_perf(const char *cmd, const char *path)
{
	if (in.path)
		return !strcmp(in.path, path) && in.spool_fd >= 0;
	in.path = strdup(path);
	if (!in.path) {
		fprintf(stderr, "armprof %s: %s: out of memory\n", cmd, path);
		return -1;
	}
	in.fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (in.fd < 0 || read_head() != 0) {
		fprintf(stderr, "armprof %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	if (!ap_perf_is_perfdata(in.head, in.head_len))
		return 0;
	return spool(cmd, path) == 0 ? 1 : -1;
}

const char *cli_stream_perf_path(const char *path)
{
	return in.path && in.spool_fd >= 0 && !strcmp(in.path, path) ? in.spool_path : NULL;
}

static ssize_t stream_read(void *cookie, char *buf, size_t len)
{
	(void)cookie;
	if (in.head_pos < in.head_len) {
		size_t n = in.head_len - in.head_pos < len ? in.head_len - in.head_pos : len;
		memcpy(buf, in.head + in.head_pos, n);
		in.head_pos += n;
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t n = read(in.fd, buf, len);
		if (n >= 0 || errno != EINTR)
			return n;
	}
}

static int stream_close(void *cookie)
{
	(void)cookie;
	if (in.fd > STDIN_FILENO)
		close(in.fd);
	in.fd = -1;
	return 0;
}

FILE *cli_stream_open(const char *path)
{
	if (!in.path || strcmp(in.path, path) != 0 || in.spool_fd >= 0 || in.fd < 0)
		return NULL;
	cookie_io_functions_t io = { .read = stream_read, .close = stream_close };
	return fopencookie(NULL, "r", io);
}

/* Standard input by its magic: see cli_stdin.h. */
#define _GNU_SOURCE /* fopencookie */
#include "cli_stdin.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "cli_tmpfiles.h"

#define MAGIC_LEN 8 /* "PERFILE2" */

static int sniffed;             /* 0: not yet, 1: raw, 2: perf.data */
static uint8_t head[MAGIC_LEN]; /* raw: bytes read from descriptor 0 */
static size_t head_len, head_pos;

static int read_head(void)
{
	while (head_len < MAGIC_LEN) {
		ssize_t n = read(STDIN_FILENO, head + head_len, MAGIC_LEN - head_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		head_len += (size_t)n;
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

/* The magic, then the rest of descriptor 0, into an unlinked file that
 * becomes descriptor 0. */
static int spool(const char *cmd)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	char *tmpl = malloc(strlen(dir) + 32);
	if (!tmpl) {
		fprintf(stderr, "armprof %s: -: out of memory\n", cmd);
		return -1;
	}
	sprintf(tmpl, "%s/armprof-stdin-XXXXXX", dir);
	int slot, fd = cli_tmp_create(tmpl, 1, &slot);
	if (fd < 0) {
		fprintf(stderr, "armprof %s: -: cannot create a temporary file in %s for the perf.data: %s\n", cmd, dir,
		        strerror(errno));
		free(tmpl);
		return -1;
	}
	free(tmpl);
	static uint8_t buf[1 << 16];
	int failed = write_fully(fd, head, head_len) != 0;
	const char *what = "cannot copy it to a temporary file";
	while (!failed) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
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
	if (!failed && (lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, STDIN_FILENO) < 0))
		failed = 1;
	if (failed)
		fprintf(stderr, "armprof %s: -: %s: %s\n", cmd, what, strerror(errno ? errno : EIO));
	close(fd);
	return failed ? -1 : 0;
}

int cli_stdin_is_perf(const char *cmd)
{
	if (sniffed)
		return sniffed == 2;
	if (read_head() != 0) {
		fprintf(stderr, "armprof %s: -: read error: %s\n", cmd, strerror(errno));
		return -1;
	}
	sniffed = 1;
	if (!ap_perf_is_perfdata(head, head_len))
		return 0;
	if (spool(cmd) != 0)
		return -1;
	sniffed = 2;
	head_len = 0;
	return 1;
}

static ssize_t stream_read(void *cookie, char *buf, size_t len)
{
	(void)cookie;
	if (head_pos < head_len) {
		size_t n = head_len - head_pos < len ? head_len - head_pos : len;
		memcpy(buf, head + head_pos, n);
		head_pos += n;
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, len);
		if (n >= 0 || errno != EINTR)
			return n;
	}
}

FILE *cli_stdin_stream(void)
{
	if (!head_len)
		return stdin;
	cookie_io_functions_t io = { .read = stream_read };
	return fopencookie(NULL, "r", io);
}

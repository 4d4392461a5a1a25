/* Where the perf.data writer may write (include/armprof/perfdata.h,
 * docs/perfdata.md): by path, a symbolic link to a file stays a link and
 * its target is replaced with the target's mode; a FIFO is refused, never
 * replaced by a regular file; by descriptor, the output must be seekable
 * and at its start, and the caller's descriptor stays open. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "harness.h"

static char dir[64];
static const char *in_dir(const char *name);

/* A scratch directory, made on first use and removed at exit. */
static void cleanup(void);
static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ap-writer-paths.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
	atexit(cleanup);
}

static void cleanup(void)
{
	const char *names[] = { "target.data", "link.data", "out.fifo", "fd.data", "off.data" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(in_dir(names[i]));
	rmdir(dir);
}

static const char *in_dir(const char *name)
{
	if (!dir[0])
		setup();
	static char path[2][128];
	static int k;
	k ^= 1;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

/* A one-buffer perf.data through w: 0 or the error. */
static int write_one(struct ap_perf_writer *w)
{
	static const uint8_t rec[] = { 0xb0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x01 };
	struct ap_error_ctx err;
	int rc = ap_perf_write_aux(w, 0, 1, 1, rec, sizeof(rec), 0, 0);
	if (rc) {
		ap_perf_writer_destroy(w);
		return rc;
	}
	return ap_perf_writer_finish(w, &err);
}

static int is_perfdata(const char *path)
{
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	if (ap_perf_reader_create_file(&r, path, NULL, &err) != 0)
		return 0;
	int ok = ap_perf_info(r)->n_aux_buffers == 1;
	ap_perf_reader_destroy(r);
	return ok;
}

TEST(symlink_kept_target_replaced)
{
	FILE *f = fopen(in_dir("target.data"), "w");
	CHECK(f && fputs("old\n", f) >= 0 && fclose(f) == 0);
	CHECK(chmod(in_dir("target.data"), 0640) == 0);
	CHECK(symlink("target.data", in_dir("link.data")) == 0);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create(&w, in_dir("link.data"), NULL, &err) == 0);
	CHECK(write_one(w) == 0);
	struct stat st;
	CHECK(lstat(in_dir("link.data"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(stat(in_dir("target.data"), &st) == 0 && (st.st_mode & 07777) == 0640);
	CHECK(is_perfdata(in_dir("link.data")));
}

TEST(fifo_refused_not_replaced)
{
	CHECK(mkfifo(in_dir("out.fifo"), 0600) == 0);
	struct ap_perf_writer *w = (struct ap_perf_writer *)1;
	struct ap_error_ctx err;
	CHECK_EQ_U64(ap_perf_writer_create(&w, in_dir("out.fifo"), NULL, &err), (uint64_t)-AP_ERR_INVALID);
	CHECK(w == NULL);
	CHECK(strstr(err.message, "not a regular file") != NULL);
	struct stat st;
	CHECK(lstat(in_dir("out.fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
}

TEST(fd_at_start_written_and_left_open)
{
	int fd = open(in_dir("fd.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create_fd(&w, fd, NULL, &err) == 0);
	CHECK(write_one(w) == 0);
	CHECK(fcntl(fd, F_GETFD) >= 0); /* still the caller's */
	CHECK(close(fd) == 0);
	CHECK(is_perfdata(in_dir("fd.data")));
}

TEST(fd_not_at_start_refused)
{
	int fd = open(in_dir("off.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK_EQ_U64(ap_perf_writer_create_fd(&w, fd, NULL, &err), (uint64_t)-AP_ERR_INVALID);
	int p[2];
	CHECK(pipe(p) == 0);
	CHECK_EQ_U64(ap_perf_writer_create_fd(&w, p[1], NULL, &err), (uint64_t)-AP_ERR_INVALID);
	close(p[0]);
	close(p[1]);
	close(fd);
}

TEST_MAIN(CASE(symlink_kept_target_replaced), CASE(fifo_refused_not_replaced),
          CASE(fd_at_start_written_and_left_open), CASE(fd_not_at_start_refused))

/* A mapped perf.data that shrinks while it is read (issue 32, item 1): the
 * reader maps zeros over the pages gone (map_guard.c), stops iterating and
 * says so (ap_perf_reader_check) instead of dying of SIGBUS; a SIGBUS that
 * is not of its mappings still reaches the handler before it, or kills. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "harness.h"

static char dir[] = "/tmp/ap_shrink_XXXXXX";
static char path[64];

/* A perf.data of n AUX buffers of len bytes each (their bytes: i + k). */
static size_t write_file(int n, size_t len)
{
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	if (ap_perf_writer_create(&w, path, &cfg, &err) != 0)
		return 0;
	uint8_t *buf = malloc(len);
	for (int i = 0; buf && i < n; i++) {
		for (size_t k = 0; k < len; k++)
			buf[k] = (uint8_t)(i + k) | 1;
		ap_perf_write_aux(w, 0, 1, 1, buf, len, 0, 0);
	}
	free(buf);
	struct stat st;
	return ap_perf_writer_finish(w, &err) == 0 && stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

TEST(shrinks_while_buffers_are_read)
{
	size_t size = write_file(8, 1u << 20);
	CHECK(size > (8u << 20));
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK(ap_perf_reader_create_file(&r, path, NULL, &err) == 0);
	if (!r)
		return;
	CHECK(ap_perf_reader_check(r, &err) == 0);
	CHECK(truncate(path, (off_t)(size / 2)) == 0);
	struct ap_perf_aux_iter it;
	ap_perf_aux_iter_init(&it);
	const struct ap_perf_aux_buffer *b;
	size_t n = 0, wrong = 0, last_size = 0;
	while (ap_perf_next_aux_buffer(r, &it, &b)) {
		for (size_t k = 0; k < b->unpadded_size; k++) /* every byte read: no SIGBUS */
			wrong += b->data[k] != ((uint8_t)(n + k) | 1);
		last_size = b->unpadded_size;
		n++;
	}
	/* The buffers wholly before the cut were read whole and right; the
	 * iteration stopped after the one that faulted. */
	CHECK(n >= 3 && n < 8);
	CHECK(wrong > 0 && wrong <= last_size);
	memset(&err, 0, sizeof(err));
	CHECK(ap_perf_reader_check(r, &err) == -AP_ERR_IO);
	CHECK(strstr(err.message, "the file shrank while being read (offset ") != NULL);
	/* the first page wholly past the new end (the one it ends in reads) */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	CHECK(err.offset >= size / 2 && err.offset < size / 2 + page && err.offset % page == 0);
	ap_perf_reader_destroy(r);
}

TEST(short_file_is_not_shrunk)
{
	/* A file already short when opened is malformed, not shrunk (a parse
	 * that faults is shrink_cli.sh's: it needs the truncation between the
	 * map and the parse). */
	size_t size = write_file(4, 1u << 20);
	CHECK(size > (4u << 20));
	CHECK(truncate(path, (off_t)(size / 3)) == 0);
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK(ap_perf_reader_create_file(&r, path, NULL, &err) == -AP_ERR_FORMAT);
	CHECK(strstr(err.message, "shrank") == NULL);
}

static volatile sig_atomic_t earlier_handler_ran;
static void earlier_handler(int sig)
{
	(void)sig;
	earlier_handler_ran = 1;
}

TEST(other_sigbus_passes_on)
{
	/* A SIGBUS not of a perf.data mapping: the process dies of it as
	 * before (in a child)... */
	pid_t pid = fork();
	if (pid == 0) {
		struct ap_perf_reader *r;
		struct ap_error_ctx err;
		if (ap_perf_reader_create_file(&r, path, NULL, &err) == 0 || 1)
			raise(SIGBUS);
		_exit(5);
	}
	int status = 0;
	CHECK(waitpid(pid, &status, 0) == pid);
#ifdef __SANITIZE_ADDRESS__
	/* ASan's handler was there before: it reports the signal and ends the
	 * process its way (abort, or exit 1) */
	CHECK(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 5));
#else
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
#endif
	/* ...or goes to the handler installed before the reader's. */
	pid = fork();
	if (pid == 0) {
		signal(SIGBUS, earlier_handler);
		size_t size = write_file(2, 1u << 16);
		struct ap_perf_reader *r;
		struct ap_error_ctx err;
		if (!size || ap_perf_reader_create_file(&r, path, NULL, &err) != 0)
			_exit(3);
		raise(SIGBUS);
		_exit(earlier_handler_ran ? 0 : 4);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(setup)
{
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/x.data", dir);
}

TEST(teardown)
{
	unlink(path);
	CHECK(rmdir(dir) == 0);
}

TEST_MAIN(CASE(setup), CASE(shrinks_while_buffers_are_read), CASE(short_file_is_not_shrunk),
          CASE(other_sigbus_passes_on), CASE(teardown))

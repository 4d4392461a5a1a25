/* armprof record's reading of the plugin's stacks file
 * (tools/armprof/record/record_stacks.c; written by plugins/qemu/
 * call_stack.c cs_write_samples): a magic, then per sampled operation the
 * 64-bit words tid, time, n and n frames. Also under ASan:
 *   - the stacks are found by thread and time, in order (the cursor) and
 *     out of it (the search), sorted or not;
 *   - a file that cannot be mapped (a FIFO) is read instead, with the
 *     same stacks;
 *   - a mapped file that shrinks after loading is said to have shrunk
 *     (what was read past its end was zeros), never SIGBUS;
 *   - a stack cut short, a last word cut short, no magic: refused, named
 *     by file and offset. */
#define _GNU_SOURCE 1 /* mkfifo with pthread */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "record_stacks.h"

static char path[128]; /* stacks.bin in the scratch directory */

static void use_dir(void)
{
	snprintf(path, sizeof(path), "%s/stacks.bin", harness_scratch_dir("test_record_stacks"));
}

/* A stacks file of n stacks: thread 7 then 9 alternately (two threads
 * interleaved, as a process's vCPUs write them), times rising, stack i
 * of 1 + i % 5 frames, frame k = 0x1000 * i + k. Returns its bytes. */
static size_t make_stacks(uint64_t *w, unsigned n)
{
	size_t k = 0;
	memcpy(&w[k++], RECORD_STACKS_MAGIC, 8);
	for (unsigned i = 0; i < n; i++) {
		w[k++] = i % 2 ? 9 : 7;
		w[k++] = 100 + i;
		w[k++] = 1 + i % 5;
		for (unsigned f = 0; f < 1 + i % 5; f++)
			w[k++] = 0x1000u * i + f;
	}
	return k * 8;
}

static void write_bytes(const void *p, size_t len)
{
	use_dir();
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	CHECK_EQ_U64(fwrite(p, 1, len, f), len);
	CHECK(fclose(f) == 0);
}

/* Every stack i of make_stacks(n) found, with its frames. */
static void check_found(const struct record_stacks *st, unsigned n)
{
	CHECK_EQ_U64(st->n, n);
	size_t next = 0, any = 0;
	for (unsigned i = 0; i < n; i += 2) { /* thread 7's in order: the cursor */
		const struct record_stack *s = record_stacks_find(st, 7, 100 + i, &next);
		CHECK(s != NULL);
		if (s) {
			CHECK_EQ_U64(s->n, 1 + i % 5);
			CHECK_EQ_U64(st->frames[s->frames + s->n - 1], 0x1000u * i + i % 5);
		}
	}
	for (unsigned i = n; i-- > 0;) /* backwards: the search */
		CHECK(record_stacks_find(st, i % 2 ? 9 : 7, 100 + i, &any) != NULL);
	CHECK(record_stacks_find(st, 7, 101, &any) == NULL); /* thread 9's time */
}

TEST(stacks_are_found_by_thread_and_time)
{
	static uint64_t w[4096];
	write_bytes(w, make_stacks(w, 200));
	struct record_stacks st = { 0 };
	char err[256] = "";
	CHECK_EQ_U64(record_stacks_load(&st, path, err, sizeof(err)), 0);
	record_stacks_sort(&st);
	check_found(&st, 200);
	CHECK_EQ_U64(record_stacks_check(&st, err, sizeof(err)), 0);
	record_stacks_free(&st);
	/* One thread's stacks only: already in order, not sorted. */
	uint64_t one[32];
	size_t len = make_stacks(one, 1);
	write_bytes(one, len);
	CHECK_EQ_U64(record_stacks_load(&st, path, err, sizeof(err)), 0);
	record_stacks_sort(&st);
	size_t next = 0;
	CHECK(record_stacks_find(&st, 7, 100, &next) != NULL);
	CHECK_EQ_U64(next, 1);
	record_stacks_free(&st);
}

static uint64_t fifo_words[4096];
static size_t fifo_len;

static void *feed_fifo(void *arg)
{
	(void)arg;
	int fd = open(path, O_WRONLY);
	if (fd >= 0) {
		CHECK_EQ_U64((uint64_t)write(fd, fifo_words, fifo_len), fifo_len);
		close(fd);
	}
	return NULL;
}

TEST(unmappable_file_is_read)
{
	use_dir();
	fifo_len = make_stacks(fifo_words, 200);
	unlink(path);
	CHECK(mkfifo(path, 0600) == 0);
	pthread_t t;
	CHECK(pthread_create(&t, NULL, feed_fifo, NULL) == 0);
	struct record_stacks st = { 0 };
	char err[256] = "";
	CHECK_EQ_U64(record_stacks_load(&st, path, err, sizeof(err)), 0);
	pthread_join(t, NULL);
	record_stacks_sort(&st);
	check_found(&st, 200);
	CHECK_EQ_U64(record_stacks_check(&st, err, sizeof(err)), 0);
	record_stacks_free(&st);
	unlink(path);
}

TEST(shrunk_file_is_said_to_have_shrunk)
{
	/* Several pages, so that pages past the cut are not read yet. */
	static uint64_t w[1 << 16];
	size_t len = make_stacks(w, 8000); /* 48 000 words */
	CHECK(len > 4 * 4096);
	write_bytes(w, len);
	struct record_stacks st = { 0 };
	char err[256] = "";
	CHECK_EQ_U64(record_stacks_load(&st, path, err, sizeof(err)), 0);
	CHECK(truncate(path, 4096) == 0);
	volatile uint64_t sum = 0;
	for (size_t i = 0; i < st.n_frames; i++) /* zeros past the cut, no SIGBUS */
		sum += st.frames[i];
	CHECK_EQ_U64(record_stacks_check(&st, err, sizeof(err)), (uint64_t)-1);
	CHECK(strstr(err, path) != NULL && strstr(err, "shrank") != NULL);
	record_stacks_free(&st);
}

/* A refusal: -1 and a message naming the file and `what`. */
static void check_refused(const void *bytes, size_t len, const char *what)
{
	write_bytes(bytes, len);
	struct record_stacks st = { 0 };
	char err[256] = "";
	CHECK_EQ_U64(record_stacks_load(&st, path, err, sizeof(err)), (uint64_t)-1);
	if (!strstr(err, path) || !strstr(err, what))
		fprintf(stderr, "message: %s (wanted %s)\n", err, what);
	CHECK(strstr(err, path) != NULL && strstr(err, what) != NULL);
	record_stacks_free(&st);
}

TEST(broken_files_are_refused)
{
	uint64_t w[64];
	size_t len = make_stacks(w, 3); /* stacks of 1, 2, 3 frames: 8 + 8 * 15 bytes */
	check_refused(w, len - 8, ":80: a stack cut short"); /* the last one (at 80) without its last frame */
	check_refused(w, len + 3, ":128: a stack cut short");       /* part of a word after them */
	check_refused(w, 8 + 16, ":8: a stack cut short or of 0 frames"); /* tid and time alone */
	w[3] = 0;                                                     /* the first of 0 frames */
	check_refused(w, len, ":8: a stack cut short or of 0 frames");
	check_refused("APSTACK0", 8, "not the plugin's stacks file");
	check_refused("", 0, "not the plugin's stacks file");
	/* A missing file: no stacks, no error (a child that wrote none). */
	unlink(path);
	struct record_stacks st = { 0 };
	char err[256] = "";
	CHECK_EQ_U64(record_stacks_load(&st, path, err, sizeof(err)), 0);
	CHECK_EQ_U64(st.n, 0);
	record_stacks_free(&st);
}

TEST_MAIN(CASE(stacks_are_found_by_thread_and_time), CASE(unmappable_file_is_read),
          CASE(shrunk_file_is_said_to_have_shrunk), CASE(broken_files_are_refused))

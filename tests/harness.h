/* A minimal unit-test harness: CHECK macros that report file:line and keep
 * going, and a main() that returns non-zero if any check failed. Each test
 * file defines its cases with TEST(name) and lists them in TEST_MAIN(...). */
#ifndef ARMPROF_TEST_HARNESS_H
#define ARMPROF_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_failures;
static int harness_checks;

#define CHECK(cond)                                                            \
	do {                                                                       \
		harness_checks++;                                                      \
		if (!(cond)) {                                                         \
			harness_failures++;                                                \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                      \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                     \
	do {                                                                       \
		uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b);                     \
		harness_checks++;                                                      \
		if (va_ != vb_) {                                                      \
			harness_failures++;                                                \
			fprintf(stderr, "%s:%d: %s == %s failed: 0x%" PRIx64 " != 0x%" PRIx64 "\n", \
			        __FILE__, __LINE__, #a, #b, va_, vb_);                     \
		}                                                                      \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                     \
	do {                                                                       \
		const char *sa_ = (a), *sb_ = (b);                                     \
		harness_checks++;                                                      \
		if (strcmp(sa_, sb_) != 0) {                                           \
			harness_failures++;                                                \
			fprintf(stderr, "%s:%d: %s == %s failed:\n  got:  '%s'\n  want: '%s'\n", \
			        __FILE__, __LINE__, #a, #b, sa_, sb_);                     \
		}                                                                      \
	} while (0)

/* A scratch directory for the test's files, /tmp/NAME.XXXXXX, made at the
 * first call (the same one after) and removed at exit with the files left
 * in it. Exits with 1 if it cannot be made. */
#include <dirent.h>
#include <unistd.h>
static char harness_dir[64];
static inline void harness_remove_dir(void)
{
	DIR *d = opendir(harness_dir);
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		char p[sizeof(harness_dir) + 256];
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    (size_t)snprintf(p, sizeof(p), "%s/%s", harness_dir, e->d_name) < sizeof(p))
			unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(harness_dir);
}
static inline const char *harness_scratch_dir(const char *name)
{
	if (harness_dir[0])
		return harness_dir;
	snprintf(harness_dir, sizeof(harness_dir), "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(harness_dir)) {
		perror("mkdtemp");
		exit(1);
	}
	atexit(harness_remove_dir);
	return harness_dir;
}

#define TEST(name) static void test_##name(void)

typedef void (*harness_fn)(void);
struct harness_case { const char *name; harness_fn fn; };
#define CASE(name) { #name, test_##name }

#define TEST_MAIN(...)                                                         \
	int main(int argc, char **argv)                                            \
	{                                                                          \
		static const struct harness_case cases[] = { __VA_ARGS__ };            \
		size_t n = sizeof(cases) / sizeof(cases[0]);                           \
		for (size_t i = 0; i < n; i++) {                                       \
			if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)               \
				continue;                                                      \
			int before = harness_failures;                                     \
			cases[i].fn();                                                     \
			printf("%s %s\n", harness_failures == before ? "ok  " : "FAIL",    \
			       cases[i].name);                                             \
		}                                                                      \
		printf("%d checks, %d failed\n", harness_checks, harness_failures);    \
		return harness_failures ? 1 : 0;                                       \
	}

#endif

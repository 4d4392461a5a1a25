/* LD_PRELOAD shim of the shrinking-input tests (shrink_cli.sh): truncates
 * the file $AP_SHRINK_PATH to $AP_SHRINK_SIZE bytes while armprof has it
 * mapped, deterministically:
 *   AP_SHRINK_WHEN=map   right after the process maps it (the reader's
 *                        parse then finds the end gone)
 *   AP_SHRINK_WHEN=read  when the reader advises the mapping sequential
 *                        (parse done, the AUX data about to be read)
 * It writes "truncated" to $AP_SHRINK_PATH.done when it did, so that a test
 * knows the truncation happened. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static void *mapped; /* the mapping of the file, once seen */

static int is_target(int fd)
{
	const char *path = getenv("AP_SHRINK_PATH");
	struct stat a, b;
	return path && fd >= 0 && fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static void shrink(void)
{
	const char *path = getenv("AP_SHRINK_PATH"), *size = getenv("AP_SHRINK_SIZE");
	if (!path || !size || truncate(path, (off_t)strtoull(size, NULL, 0)) != 0)
		return;
	char done[4096];
	size_t n = strlen(path);
	if (n + 6 > sizeof(done))
		return;
	memcpy(done, path, n);
	memcpy(done + n, ".done", 6);
	int fd = open(done, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		(void)!write(fd, "truncated\n", 10);
		close(fd);
	}
	unsetenv("AP_SHRINK_PATH"); /* once */
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	void *p = real(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && is_target(fd)) {
		const char *when = getenv("AP_SHRINK_WHEN");
		if (when && !strcmp(when, "map"))
			shrink();
		else
			mapped = p;
	}
	return p;
}

int madvise(void *addr, size_t len, int advice)
{
	static int (*real)(void *, size_t, int);
	if (!real)
		real = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "madvise");
	int rc = real(addr, len, advice);
	if (advice == MADV_SEQUENTIAL && mapped && addr == mapped)
		shrink();
	return rc;
}

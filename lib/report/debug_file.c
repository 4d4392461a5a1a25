/* The separate debug file of a stripped ELF file: where distributions
 * install it (Debian's -dbgsym packages, `objcopy --only-keep-debug`), found
 * the way gdb and perf find it:
 *   1. by build ID: DIR/.build-id/xx/yyyy.debug, for each debug directory;
 *   2. by the .gnu_debuglink name: beside the file, in its .debug/
 *      directory, then under each debug directory by the file's directory.
 * A candidate is taken only if report_elf_open takes it (a regular file, an
 * AArch64 ELF file whose sections are inside it) and, when the file
 * has a build ID, has the same one (a debug file of another build would
 * name the wrong functions). libdwelf reads the note and the link. */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_internal.h"

/* Does the file at path look like path_elf's debug file? One that is
 * there but cannot be used says why in warn. */
static int matches(const char *path, unsigned machine, const void *build_id, ssize_t id_len, char *warn,
                   size_t warn_cap)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	int fd;
	Elf *elf;
	char why[400];
	if (report_elf_open(path, machine, &fd, &elf, why, sizeof(why)) < 0) {
		snprintf(warn, warn_cap, "%s: %s; not used as a debug file", path, why);
		return 0;
	}
	int ok = 1;
	if (id_len > 0) {
		const void *id;
		ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
		ok = n == id_len && memcmp(id, build_id, (size_t)id_len) == 0;
	}
	elf_end(elf);
	close(fd);
	return ok;
}

/* out = dir + "/" + rest, unless it does not fit. */
static int join(char *out, size_t cap, const char *dir, const char *rest)
{
	int n = snprintf(out, cap, "%s/%s", dir, rest);
	return n > 0 && (size_t)n < cap;
}

int report_find_debug_file(Elf *elf, const char *path, unsigned machine, const char *const *dirs, size_t n_dirs,
                           char *out, size_t cap, char *warn, size_t warn_cap)
{
	const void *id = NULL;
	ssize_t id_len = dwelf_elf_gnu_build_id(elf, &id);
	if (id_len > 0 && id_len <= 64) {
		const unsigned char *b = id;
		char rel[160];
		size_t k = (size_t)snprintf(rel, sizeof(rel), ".build-id/%02x/", b[0]);
		for (ssize_t i = 1; i < id_len; i++)
			k += (size_t)snprintf(rel + k, sizeof(rel) - k, "%02x", b[i]);
		snprintf(rel + k, sizeof(rel) - k, ".debug");
		for (size_t d = 0; d < n_dirs; d++)
			if (join(out, cap, dirs[d], rel) && matches(out, machine, id, id_len, warn, warn_cap))
				return 1;
	}
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(elf, &crc);
	if (!link || !*link || strchr(link, '/'))
		return 0;
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if ((size_t)(slash - path) < sizeof(dir))
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		return 0;
	char rel[4200];
	/* Beside the file; a link naming the file itself is no debug file. */
	if (join(out, cap, dir, link) && strcmp(out, path) != 0 && matches(out, machine, id, id_len, warn, warn_cap))
		return 1;
	if (snprintf(rel, sizeof(rel), ".debug/%s", link) < (int)sizeof(rel) && join(out, cap, dir, rel) &&
	    matches(out, machine, id, id_len, warn, warn_cap))
		return 1;
	for (size_t d = 0; d < n_dirs; d++) {
		/* The file's directory under the debug directory (it is absolute
		 * for a file armprof record names). */
		if (snprintf(rel, sizeof(rel), "%s/%s", dir[0] == '/' ? dir + 1 : dir, link) < (int)sizeof(rel) &&
		    join(out, cap, dirs[d], rel) && matches(out, machine, id, id_len, warn, warn_cap))
			return 1;
	}
	return 0;
}

/* The files armprof record reads after a run (tools/armprof/record/record_run.c,
 * record_procs.c): the plugin's run summary (key=value lines, vcpu= and
 * map= lines) and its per-PC counts ("0xPC COUNT KIND"), a forked child's
 * as well as the program's. They come from the plugin, but a plugin built
 * apart or a file cut short by a killed process must still give a clear
 * refusal, never a crash. The input is split at the first NUL byte: the
 * summary before it, a counts file after it.
 *   - the summary: every count within its array, every map path and the
 *     failed exec's file a terminated string; the load bias and the libraries worked out from
 *     the maps name only paths the maps hold;
 *   - the counts: merged with themselves, either refused with a message
 *     naming the file and line, or written in rising PC order, each PC once,
 *     with every count doubled. */
#define _GNU_SOURCE 1 /* memfd_create */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "record_procs.h"
#include "record_run.h"

static int memfd_path(const char *name, char *path, size_t n)
{
	int fd = memfd_create(name, 0);
	if (fd >= 0)
		snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

static int put(int fd, const uint8_t *data, size_t size)
{
	return ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == (ssize_t)size ? 0 : -1;
}

static void check_stats(const char *path)
{
	static struct record_stats st;
	if (record_read_stats(path, &st) != 0)
		return;
	if (st.n_vcpus > RECORD_MAX_VCPUS || st.n_maps > RECORD_MAX_MAPS || st.n_threads > RECORD_MAX_THREADS)
		__builtin_trap();
	if (!memchr(st.aarch64_exec_failed_path, 0, sizeof(st.aarch64_exec_failed_path)) ||
	    strchr(st.aarch64_exec_failed_path, '\n'))
		__builtin_trap(); /* one terminated line */
	for (size_t i = 0; i < st.n_maps; i++)
		if (!memchr(st.map[i].path, 0, sizeof(st.map[i].path)) || st.map[i].path[0] != '/')
			__builtin_trap();
	uint64_t bias;
	if (st.n_maps)
		record_file_bias(&st, st.map[0].path, &bias);
	struct record_library libs[RECORD_MAX_MAPS];
	size_t n = record_libraries(&st, "/nonexistent/program", libs, RECORD_MAX_MAPS);
	for (size_t k = 0; k < n; k++) {
		size_t i = 0;
		while (i < st.n_maps && strcmp(st.map[i].path, libs[k].path) != 0)
			i++;
		if (i == st.n_maps)
			__builtin_trap();
	}
}

static void check_counts(const char *in, const char *out)
{
	const char *paths[2] = { in, in };
	char err[8192] = "";
	if (record_merge_counts(paths, 2, out, err, sizeof(err)) != 0) {
		if (!strstr(err, in) && !strstr(err, out) && !strstr(err, "memory"))
			__builtin_trap(); /* a refusal names the file */
		return;
	}
	FILE *f = fopen(out, "r");
	if (!f)
		__builtin_trap();
	char line[256];
	uint64_t last = 0;
	int first = 1;
	while (fgets(line, sizeof(line), f)) {
		uint64_t pc, count;
		if (line[0] == '#')
			continue;
		if (sscanf(line, "0x%" SCNx64 " %" SCNu64, &pc, &count) != 2 || (!first && pc <= last) || count % 2)
			__builtin_trap();
		last = pc;
		first = 0;
	}
	fclose(f);
}

static char out_dir[64], out_path[96];

static void remove_out(void)
{
	remove(out_path);
	rmdir(out_dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int stats_fd = -1, counts_fd = -1;
	static char stats_path[64], counts_path[64];
	if (stats_fd < 0) {
		snprintf(out_dir, sizeof(out_dir), "/tmp/fuzz_record_files.XXXXXX");
		if (!mkdtemp(out_dir))
			return 0;
		snprintf(out_path, sizeof(out_path), "%s/merged", out_dir);
		atexit(remove_out);
		stats_fd = memfd_path("stats", stats_path, sizeof(stats_path));
		counts_fd = memfd_path("counts", counts_path, sizeof(counts_path));
		if (stats_fd < 0 || counts_fd < 0)
			return 0;
	}
	const uint8_t *nul = memchr(data, 0, size);
	size_t stats_len = nul ? (size_t)(nul - data) : size;
	const uint8_t *counts = nul ? nul + 1 : data + size;
	if (put(stats_fd, data, stats_len) != 0 || put(counts_fd, counts, size - (size_t)(counts - data)) != 0)
		return 0;
	check_stats(stats_path);
	check_counts(counts_path, out_path);
	return 0;
}

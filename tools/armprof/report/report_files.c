/* Where the files a perf.data names are on this machine (report_files.h). */
#include "report_files.h"
#include "report_meta.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The recorded build ID of filename, or NULL. */
static const struct ap_perf_build_id *recorded_id(const struct ap_perf_info *info, const char *filename)
{
	for (size_t i = 0; i < info->n_build_ids; i++)
		if (info->build_ids[i].size && !strcmp(info->build_ids[i].filename, filename))
			return &info->build_ids[i];
	return NULL;
}

/* path is a regular file we can read, with the recorded ID if one is known. */
static int acceptable(const char *path, const struct ap_perf_build_id *want)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, R_OK) != 0)
		return 0;
	if (!want)
		return 1;
	uint8_t id[20];
	int n = ap_perf_elf_build_id(path, id, sizeof(id));
	return n == want->size && !memcmp(id, want->id, (size_t)n);
}

/* out = a + b, if it fits and is acceptable. */
static int try_path(char *out, size_t cap, const struct ap_perf_build_id *want, const char *a, const char *b)
{
	int n = snprintf(out, cap, "%s%s", a, b);
	return n > 0 && (size_t)n < cap && acceptable(out, want);
}

int report_locate_file(const struct ap_perf_info *info, const char *filename,
                       const struct report_file_search *how, char *out, size_t cap)
{
	const struct ap_perf_build_id *want = recorded_id(info, filename);
	if (how->symfs && how->symfs[0] && try_path(out, cap, want, how->symfs, filename))
		return 1;
	if (try_path(out, cap, want, "", filename))
		return 1;
	if (!want)
		return 0;
	char hex[2 * 20 + 1], rel[64];
	for (unsigned i = 0; i < want->size; i++)
		snprintf(hex + 2 * i, 3, "%02x", want->id[i]);
	snprintf(rel, sizeof(rel), ".build-id/%.2s/%s", hex, hex + 2);
	if (how->home && how->home[0]) {
		char cache[4200];
		snprintf(cache, sizeof(cache), "%s/.debug/%s", how->home, rel);
		if (try_path(out, cap, want, cache, "/elf") || try_path(out, cap, want, cache, ""))
			return 1;
	}
	return 0;
}

void report_binary_from_mmaps(const struct ap_perf_info *info, const struct report_file_search *how,
                              char *binary, size_t cap, uint64_t *bias, struct meta_libraries *libs)
{
	for (size_t i = 0; i < info->n_mmaps; i++) {
		const struct ap_perf_mmap *m = &info->mmaps[i];
		char path[4096];
		if (!m->filename || m->filename[0] != '/' ||
		    !report_locate_file(info, m->filename, how, path, sizeof(path)) || strlen(path) >= cap ||
		    !strcmp(path, binary))
			continue;
		struct ap_perf_elf_map maps[16];
		struct ap_error_ctx err;
		int n = ap_perf_elf_exec_maps(path, maps, 16, &err);
		for (int k = 0; k < n && k < 16; k++) {
			if (maps[k].pgoff != m->pgoff)
				continue;
			if (!binary[0]) { /* the first is the program */
				memcpy(binary, path, strlen(path) + 1);
				*bias = m->addr - maps[k].addr;
				break;
			}
			report_meta_add_library(libs, path, m->filename, m->addr - maps[k].addr); /* the libraries it ran */
			break;
		}
	}
}

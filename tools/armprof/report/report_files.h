/* Where the files a perf.data names (its MMAP records) are on this machine,
 * which need not be the one that recorded it. */
#ifndef ARMPROF_TOOL_REPORT_FILES_H
#define ARMPROF_TOOL_REPORT_FILES_H

#include <stddef.h>

#include "armprof/perfdata.h"

struct report_file_search {
	const char *symfs; /* --symfs: a copy of the recording machine's files, or NULL */
	const char *home;  /* for the build-ID cache, $HOME/.debug; NULL: none */
};

/* The path of filename (as the recording named it) to read here, into out;
 * 1 if found, else 0. Tried in order, as perf report does:
 *   1. SYMFS/filename (with --symfs);
 *   2. filename itself;
 *   3. by the file's build ID from the BUILD_ID feature: perf's build-ID
 *      cache, HOME/.debug/.build-id/xx/yyyy/elf (or the file that path
 *      names), where `perf archive` output is unpacked.
 * (A stripped file found so gets its debug file as any other does:
 * lib/report debug_file.c.)
 * When the perf.data gives filename's build ID, a candidate with another
 * (a rebuilt program at the same path) is passed over. */
int report_locate_file(const struct ap_perf_info *info, const char *filename,
                       const struct report_file_search *how, char *out, size_t cap);

/* Without --binary or FILE.meta: the first mapping in the perf.data whose
 * file is a readable ELF with an executable segment at that file offset
 * (the MMAP/MMAP2 records perf and `armprof record` write), the file found
 * where how says (report_locate_file), into binary (cap bytes) with its
 * load bias; the later such mappings (the libraries it ran) into libs.
 * Leaves binary empty when there is none. */
struct meta_libraries;
void report_binary_from_mmaps(const struct ap_perf_info *info, const struct report_file_search *how, char *binary,
                              size_t cap, uint64_t *bias, struct meta_libraries *libs);

#endif

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

#endif

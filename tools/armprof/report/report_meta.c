/* FILE.meta (report_meta.h). */
#include "armprof/number.h"
#include "report_meta.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_meta_add_library(struct meta_libraries *libs, const char *path, const char *recorded, uint64_t bias)
{
	size_t len = strlen(path), j = 0;
	while (j < libs->n && strcmp(libs->lib[j].path, path) != 0)
		j++;
	if (j < libs->n || libs->n == REPORT_MAX_LIBRARIES || len >= sizeof(libs->lib[0].path))
		return;
	libs->lib[libs->n].bias = bias;
	memcpy(libs->lib[libs->n].path, path, len + 1);
	const char *slash = strrchr(recorded, '/');
	snprintf(libs->lib[libs->n].name, sizeof(libs->lib[0].name), "%s", slash ? slash + 1 : recorded);
	libs->n++;
}

/* FILE.meta's midr= (the CPU `armprof record` modelled): 1 if there. */
int report_meta_midr(const char *input, uint64_t *midr)
{
	char path[4096], line[256];
	if (!strcmp(input, "-") || snprintf(path, sizeof(path), "%s.meta", input) >= (int)sizeof(path))
		return 0;
	FILE *f = fopen(path, "r");
	int found = 0;
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "midr=%" SCNx64, midr) == 1;
	if (f)
		fclose(f);
	return found;
}

/* FILE.meta from `armprof record`: binary=, load_bias=, library=BIAS PATH,
 * stopped_by_signal=, sysroot= (its usr/lib/debug into sysroot_debug). */
void report_meta_read(const char *input, char *binary, size_t cap, uint64_t *bias, int *have_bias,
                      struct meta_libraries *libs, int *ended_by_signal, char *sysroot_debug,
                      size_t debug_cap)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s.meta", input);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[4200];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "binary=", 7) && !binary[0] && strlen(line + 7) < cap)
			memcpy(binary, line + 7, strlen(line + 7) + 1);
		else if (!strncmp(line, "load_bias=", 10) && !*have_bias) {
			*have_bias = ap_parse_u64(line + 10, bias) == 0;
		} else if (!strncmp(line, "stopped_by_signal=", 18)) {
			uint64_t sig = 0;
			*ended_by_signal = ap_parse_u64(line + 18, &sig) == 0 && sig > 0 && sig < 128 ? (int)sig : 0;
		} else if (!strncmp(line, "library=", 8)) {
			/* "library=BIAS PATH" */
			char *sp = strchr(line + 8, ' ');
			uint64_t b;
			if (sp && sp[1] == '/') {
				*sp = 0;
				if (ap_parse_u64(line + 8, &b) == 0)
					report_meta_add_library(libs, sp + 1, sp + 1, b);
			}
		} else if (!strncmp(line, "sysroot=", 8) && line[8] == '/') {
			int n = snprintf(sysroot_debug, debug_cap, "%s/usr/lib/debug", line + 8);
			if (n < 0 || (size_t)n >= debug_cap)
				sysroot_debug[0] = 0;
		}
	}
	fclose(f);
}

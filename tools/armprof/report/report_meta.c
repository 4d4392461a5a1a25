/* FILE.meta, and the same text inside a perf.data (report_meta.h). */
#include "armprof/number.h"
#include "report_meta.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "armprof/report.h"

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

/* FILE.meta's data_size=: 1 and *size if there. */
static int tagged_size(const char *text, uint64_t *size)
{
	const char *at = strstr(text, "\ndata_size=");
	char num[32];
	if (!at)
		return 0;
	at += 11;
	size_t n = strcspn(at, "\n");
	if (n >= sizeof(num))
		return 0;
	memcpy(num, at, n);
	num[n] = 0;
	return ap_parse_u64(num, size) == 0;
}

/* FILE.meta's text (malloc'd), or NULL when there is none or it is not of
 * input: its data_size= (record/record_meta.h) is not input's size, as
 * when a concurrent `armprof record` replaced one and not yet the other
 * (a copy of the pair keeps it). warn: say so. */
static char *meta_text(const char *input, int warn)
{
	char path[4096];
	if (!strcmp(input, "-") || snprintf(path, sizeof(path), "%s.meta", input) >= (int)sizeof(path))
		return NULL;
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *text = NULL;
	size_t len = 0, cap = 0;
	char buf[4096];
	for (size_t n; (n = fread(buf, 1, sizeof(buf), f)) > 0;) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			char *more = realloc(text, cap);
			if (!more)
				break;
			text = more;
		}
		memcpy(text + len, buf, n);
		len += n;
		text[len] = 0;
	}
	fclose(f);
	uint64_t size;
	struct stat st;
	if (text && tagged_size(text, &size) && stat(input, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size != size) {
		if (warn)
			fprintf(stderr, "armprof report: warning: %s.meta is of another recording than %s (its "
			        "data_size=%" PRIu64 ", the file's %lld bytes): not used\n", input, input, size,
			        (long long)st.st_size);
		free(text);
		return NULL;
	}
	return text;
}

int report_meta_midr(const char *input, uint64_t *midr)
{
	char *text = meta_text(input, 0);
	const char *m = text ? strstr(text, "\nmidr=") : NULL;
	int found = m && sscanf(m + 6, "%" SCNx64, midr) == 1;
	free(text);
	return found;
}

/* The lines of FILE.meta's text (report_meta_read). */
static void parse(char *text, char *binary, size_t cap, uint64_t *bias, int *have_bias, struct meta_libraries *libs,
                  int *ended_by_signal, char *sysroot_debug, size_t debug_cap)
{
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "binary=", 7) && binary && !binary[0] && strlen(line + 7) < cap)
			memcpy(binary, line + 7, strlen(line + 7) + 1);
		else if (!strncmp(line, "load_bias=", 10) && bias && !*have_bias) {
			*have_bias = ap_parse_u64(line + 10, bias) == 0;
		} else if (!strncmp(line, "stopped_by_signal=", 18)) {
			uint64_t sig = 0;
			*ended_by_signal = ap_parse_u64(line + 18, &sig) == 0 && sig > 0 && sig < 128 ? (int)sig : 0;
		} else if (!strncmp(line, "library=", 8) && libs) {
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
}

int report_meta_read(const char *input, char *binary, size_t cap, uint64_t *bias, int *have_bias,
                     struct meta_libraries *libs, int *ended_by_signal, char *sysroot_debug, size_t debug_cap)
{
	char *text = meta_text(input, 1);
	if (!text)
		return 0;
	parse(text, binary, cap, bias, have_bias, libs, ended_by_signal, sysroot_debug, debug_cap);
	free(text);
	return 1;
}

int report_meta_embedded(const char *text, struct ap_report *rep, int *ended_by_signal)
{
	char *copy = strdup(text);
	char debug[4200] = "";
	if (!copy)
		return -1;
	parse(copy, NULL, 0, NULL, NULL, NULL, ended_by_signal, debug, sizeof(debug));
	free(copy);
	return debug[0] ? ap_report_add_debug_dir(rep, debug) : 0;
}

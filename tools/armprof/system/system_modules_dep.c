/* modules.dep and modules.builtin read for a load order
 * (system_modules_dep.h). */
#include "system_modules_dep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct modules_dep_line {
	char *path;  /* relative to the tree, e.g. kernel/fs/9p/9p.ko (NUL-terminated in place) */
	char *deps;  /* the paths after ':', space separated */
	int state;   /* 0 unvisited, 1 in progress, 2 ordered */
};

/* A module's name as the kernel knows it: the file's name before .ko, '-'
 * as '_' (modprobe's rule). */
static void module_name(const char *path, size_t len, char *out, size_t cap)
{
	const char *base = path;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	size_t n = (size_t)(path + len - base);
	const char *ko = NULL;
	for (const char *p = base; p + 3 <= base + n; p++)
		if (!strncmp(p, ".ko", 3))
			ko = p;
	if (ko)
		n = (size_t)(ko - base);
	if (n >= cap)
		n = cap - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = base[i] == '-' ? '_' : base[i];
	out[n] = 0;
}

static int is_builtin(const char *builtin, const char *name)
{
	char got[256];
	for (const char *line = builtin; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		module_name(line, len, got, sizeof(got));
		if (len && !strcmp(got, name))
			return 1;
		line += len + (nl ? 1 : 0);
	}
	return 0;
}

static long find_by_name(const struct modules_dep *d, const char *name)
{
	char got[256];
	for (size_t i = 0; i < d->n; i++) {
		module_name(d->lines[i].path, strlen(d->lines[i].path), got, sizeof(got));
		if (!strcmp(got, name))
			return (long)i;
	}
	return -1;
}

static long find_by_path(const struct modules_dep *d, const char *path, size_t len)
{
	for (size_t i = 0; i < d->n; i++)
		if (strlen(d->lines[i].path) == len && !strncmp(d->lines[i].path, path, len))
			return (long)i;
	return -1;
}

/* Line i after the modules it depends on (each dependency's own line gives
 * its own, so the order holds whatever modules.dep's order of them). depth
 * bounds the recursion: a chain longer than the modules that can be loaded
 * is refused before it could exhaust the stack. */
static int order_module(struct modules_dep *d, const char *dir, size_t i, size_t depth, char *err, size_t errlen)
{
	struct modules_dep_line *l = &d->lines[i];
	if (l->state == 2)
		return 0;
	if (l->state == 1) {
		snprintf(err, errlen, "%s/modules.dep: %s depends on itself", dir, l->path);
		return -1;
	}
	if (depth >= MODULES_DEP_MAX || d->n_order == MODULES_DEP_MAX) {
		snprintf(err, errlen, "%s/modules.dep: more than %d modules to load", dir, MODULES_DEP_MAX);
		return -1;
	}
	l->state = 1;
	for (const char *p = l->deps; *p;) {
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t");
		if (!len)
			break;
		long k = find_by_path(d, p, len);
		if (k < 0) {
			snprintf(err, errlen, "%s/modules.dep: %s depends on %.*s, which has no line of its own", dir,
			         l->path, (int)(len > 200 ? 200 : len), p);
			return -1;
		}
		if (order_module(d, dir, (size_t)k, depth + 1, err, errlen) < 0)
			return -1;
		p += len;
	}
	if (d->n_order == MODULES_DEP_MAX) {
		snprintf(err, errlen, "%s/modules.dep: more than %d modules to load", dir, MODULES_DEP_MAX);
		return -1;
	}
	l->state = 2;
	d->order[d->n_order++] = l->path;
	return 0;
}

/* modules.dep's lines "PATH: DEP DEP", parsed in place. A path is relative
 * and stays inside the tree (no "..": the archive gets it under
 * lib/modules/<release>/). */
static int parse_lines(struct modules_dep *d, const char *dir, char *text, char *err, size_t errlen)
{
	size_t cap = 0, line_no = 0;
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		line_no++;
		char *colon = strchr(line, ':');
		if (*line && *line != '#') {
			if (!colon || colon == line || line[0] == '/' || strstr(line, "..")) {
				snprintf(err, errlen, "%s/modules.dep: line %zu: want \"kernel/...ko: DEPS\" (as depmod writes it)",
				         dir, line_no);
				return -1;
			}
			if (d->n == cap) {
				cap = cap ? 2 * cap : 1024;
				struct modules_dep_line *nw = realloc(d->lines, cap * sizeof(*nw));
				if (!nw) {
					snprintf(err, errlen, "%s/modules.dep: out of memory", dir);
					return -1;
				}
				d->lines = nw;
			}
			*colon = 0;
			d->lines[d->n++] = (struct modules_dep_line){ line, colon + 1, 0 };
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}

int modules_dep_order(struct modules_dep *d, const char *dir, char *dep_text, const char *builtin_text,
                      const char *const *wanted, const int *optional, size_t n_wanted, long *missing,
                      char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	*missing = -1;
	if (parse_lines(d, dir, dep_text, err, errlen) < 0)
		return -1;
	for (size_t w = 0; w < n_wanted; w++) {
		if (is_builtin(builtin_text, wanted[w]))
			continue;
		long i = find_by_name(d, wanted[w]);
		if (i < 0 && !optional[w]) {
			*missing = (long)w;
			snprintf(err, errlen, "%s: this kernel has no %s, neither built in (modules.builtin) nor a module "
			         "(modules.dep)", dir, wanted[w]);
			return -1;
		}
		if (i >= 0 && order_module(d, dir, (size_t)i, 0, err, errlen) < 0)
			return -1;
	}
	return 0;
}

void modules_dep_fini(struct modules_dep *d)
{
	free(d->lines);
	memset(d, 0, sizeof(*d));
}

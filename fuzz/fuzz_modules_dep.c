/* `armprof system --modules`: modules.dep and modules.builtin read for a
 * load order (tools/armprof/system/system_modules_dep.c). Any bytes give an
 * order or a message naming the tree, never a crash, a hang or a stack
 * exhausted by a long chain. The input is modules.dep's text, a NUL, then
 * modules.builtin's. An order must hold together: each module once, at
 * most MODULES_DEP_MAX, every path relative without "..", and each
 * module's dependencies before it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "system_modules_dep.h"

static const char *const wanted[] = { "virtio_mmio", "9pnet_virtio", "9p", "arm_spe_pmu" };
static const int optional[] = { 0, 0, 0, 1 };

static size_t index_of(const struct modules_dep *d, const char *path, size_t len)
{
	for (size_t k = 0; k < d->n_order; k++)
		if (strlen(d->order[k]) == len && !strncmp(d->order[k], path, len))
			return k;
	return (size_t)-1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The texts, NUL-terminated, as the tool reads them. */
	char *text = malloc(size + 2);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	text[size + 1] = 0;
	size_t dep_len = strlen(text);
	const char *builtin = dep_len < size ? text + dep_len + 1 : text + size + 1;
	/* The dependencies as written, for the order's check (the parse cuts
	 * the text in place). */
	char *copy = malloc(dep_len + 1);
	if (!copy)
		abort();
	memcpy(copy, text, dep_len + 1);
	struct modules_dep d;
	char err[512] = "";
	long missing;
	int rc = modules_dep_order(&d, "/tree", text, builtin, wanted, optional, 4, &missing, err, sizeof(err));
	if (rc < 0) {
		if (strncmp(err, "/tree", 5) != 0 || (missing >= 0 && (missing > 2 || !strstr(err, wanted[missing]))))
			abort();
	} else {
		if (d.n_order > MODULES_DEP_MAX)
			abort();
		for (size_t k = 0; k < d.n_order; k++) {
			const char *p = d.order[k];
			if (!*p || p[0] == '/' || strstr(p, "..") || index_of(&d, p, strlen(p)) != k)
				abort();
			/* Its line in the copy: "PATH:" at a line's start. */
			size_t pl = strlen(p);
			for (const char *line = copy; line;) {
				if (!strncmp(line, p, pl) && line[pl] == ':') {
					const char *q = line + pl + 1;
					const char *eol = strchr(q, '\n');
					if (!eol)
						eol = q + strlen(q);
					while (q < eol) {
						q += strspn(q, " \t");
						size_t len = strcspn(q, " \t\n");
						if (len > (size_t)(eol - q))
							len = (size_t)(eol - q);
						if (len && index_of(&d, q, len) >= k)
							abort(); /* a dependency after its module, or absent */
						q += len ? len : 1;
					}
					break; /* the first line of that path is the one the parser keeps */
				}
				const char *nl = strchr(line, '\n');
				line = nl ? nl + 1 : NULL;
			}
		}
	}
	modules_dep_fini(&d);
	free(copy);
	free(text);
	return 0;
}

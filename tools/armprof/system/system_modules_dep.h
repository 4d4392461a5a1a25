/* The load order of a kernel's modules from its modules.dep and
 * modules.builtin texts (as depmod writes them: lines "PATH: DEP DEP",
 * PATH relative to lib/modules/<release>/), for `armprof system --modules`
 * (system_modules.h). Kept apart from the archive's writer so that the
 * parser is fuzzed on its own (fuzz/fuzz_modules_dep.c). */
#ifndef ARMPROF_TOOL_SYSTEM_MODULES_DEP_H
#define ARMPROF_TOOL_SYSTEM_MODULES_DEP_H

#include <stddef.h>

/* At most this many modules are loaded: the wanted ones and what they
 * need (the kit's own need 7). */
enum { MODULES_DEP_MAX = 64 };

struct modules_dep {
	const char *order[MODULES_DEP_MAX]; /* relative paths, dependencies first */
	size_t n_order;
	/* private: the parsed lines */
	struct modules_dep_line *lines;
	size_t n;
};

/* Parses dep_text (modified in place: the paths in order point into it)
 * and orders the modules of wanted[0..n_wanted) with what they depend on,
 * each once, dependencies first. A wanted module that builtin_text lists
 * (modules.builtin's lines, may be "") is left out; one that is neither
 * built in nor in modules.dep is an error unless it is optional[i]
 * (missing_name then names the first missing required one). dir names the
 * tree in messages. Returns 0, or -1 with the message in err (a missing
 * required module: *missing is set to its index, else -1). The result
 * lives until modules_dep_fini and as long as dep_text. */
int modules_dep_order(struct modules_dep *d, const char *dir, char *dep_text, const char *builtin_text,
                      const char *const *wanted, const int *optional, size_t n_wanted, long *missing,
                      char *err, size_t errlen);

/* Frees what modules_dep_order allocated; d may be zeroed or a result. */
void modules_dep_fini(struct modules_dep *d);

#endif

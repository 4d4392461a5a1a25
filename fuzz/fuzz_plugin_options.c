/* The QEMU plugin's options file (plugins/qemu/plugin_options.c): key=value
 * lines that `armprof record` writes, or a user who runs qemu-aarch64 with
 * the plugin by hand. Any input must give 0 or an error message naming the
 * line, never a crash; the accepted options hold terminated strings, and
 * the timing-model lines they carry must parse or be refused the same way. */
#define _GNU_SOURCE 1 /* memfd_create */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "plugin_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("plugin-options", 0);
		if (fd < 0)
			return 0;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	struct plugin_options o;
	char err[1200] = "";
	int rc = plugin_options_load(&o, path, err, sizeof(err));
	if (rc < 0) {
		if (!err[0] || !strstr(err, path))
			__builtin_trap(); /* an error must say where */
		return 0;
	}
	if (memchr(o.out, 0, sizeof(o.out)) == NULL || memchr(o.model_keys, 0, sizeof(o.model_keys)) == NULL ||
	    memchr(o.uarch_keys, 0, sizeof(o.uarch_keys)) == NULL)
		__builtin_trap();
	if (o.buffer_bytes < 4096 || o.buffer_bytes % 4096)
		__builtin_trap(); /* refused above */
	struct ap_uarch_config cfg;
	err[0] = 0;
	if (plugin_uarch_config(&cfg, o.uarch_keys, err, sizeof(err)) < 0 && !err[0])
		__builtin_trap();
	return 0;
}

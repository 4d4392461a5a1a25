/* The program's file mappings in guest addresses (guest_maps.h). */
#include "guest_maps.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>

#include "armprof/perfdata.h"

static _Atomic uint64_t guest_base;
static atomic_int guest_base_known;

void guest_maps_note(uint64_t guest_vaddr, const void *host_addr)
{
	if (!host_addr || atomic_load_explicit(&guest_base_known, memory_order_acquire))
		return;
	/* Every instruction gives the same difference: a race between two
	 * translating threads stores the same value. */
	atomic_store_explicit(&guest_base, (uint64_t)(uintptr_t)host_addr - guest_vaddr, memory_order_relaxed);
	atomic_store_explicit(&guest_base_known, 1, memory_order_release);
}

const void *guest_maps_host(uint64_t guest_addr)
{
	if (!atomic_load_explicit(&guest_base_known, memory_order_acquire))
		return NULL;
	return (const void *)(uintptr_t)(guest_addr + atomic_load_explicit(&guest_base, memory_order_relaxed));
}

void guest_maps_write(FILE *f)
{
	if (!atomic_load_explicit(&guest_base_known, memory_order_acquire))
		return;
	uint64_t base = atomic_load_explicit(&guest_base, memory_order_relaxed);
	FILE *m = fopen("/proc/self/maps", "r");
	if (!m)
		return;
	char line[4096 + 128], last[4096] = "";
	int last_ok = 0;
	while (fgets(line, sizeof(line), m)) {
		uint64_t start, end, offset;
		char perms[8];
		int path_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &start, &end, perms, &offset,
		           &path_at) < 4 ||
		    !path_at || line[path_at] != '/' || start < base)
			continue;
		char *path = line + path_at;
		path[strcspn(path, "\n")] = 0;
		if (strcmp(path, last) != 0) { /* a file's mappings are listed together */
			snprintf(last, sizeof(last), "%s", path);
			last_ok = ap_perf_elf_is_aarch64(path); /* the program's files, not QEMU's */
		}
		if (last_ok)
			fprintf(f, "map=0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " %s\n", start - base, end - base, offset,
			        path);
	}
	fclose(m);
}

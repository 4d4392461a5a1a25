/* The program's file mappings in guest addresses, for symbols beyond the
 * main program (the dynamic loader, shared libraries) and for its load
 * address. QEMU 7.2's plugin API does not report the guest's mappings,
 * but under qemu-user the guest's memory is the QEMU process's own, at
 * guest address + guest_base: the process's /proc/self/maps lists the
 * program's files, and an instruction's host address gives guest_base.
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_GUEST_MAPS_H
#define ARMPROF_PLUGIN_GUEST_MAPS_H

#include <stdint.h>
#include <stdio.h>

/* An instruction at guest_vaddr has its bytes at host_addr (from
 * translation; NULL when QEMU does not say). The first call sets
 * guest_base. */
void guest_maps_note(uint64_t guest_vaddr, const void *host_addr);
/* Where the guest's byte at guest_addr is in QEMU's memory, or NULL
 * before guest_maps_note gave guest_base. */
const void *guest_maps_host(uint64_t guest_addr);
/* One "map=START END OFFSET PATH" line (guest addresses, hex) for each
 * mapping of an aarch64 ELF file in /proc/self/maps. Writes nothing before
 * guest_maps_note gave guest_base, or when the maps cannot be read: the
 * lines are an aid to symbols, never needed for the profile itself. */
void guest_maps_write(FILE *f);

#endif

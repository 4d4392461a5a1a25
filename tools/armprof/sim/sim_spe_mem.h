/* The host memory behind the Profiling Buffer in `armprof sim`: mapped
 * regions, injected faults, and the model's buffer_write callback
 * (docs/sim.md "SPE engine commands": mem map, mem fault, mem save). */
#ifndef ARMPROF_TOOL_SIM_SPE_MEM_H
#define ARMPROF_TOOL_SIM_SPE_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "armprof/model.h"

#define SIM_MEM_MAX_REGIONS 16
#define SIM_MEM_MAX_FAULTS 32
#define SIM_MEM_MAX_BYTES (64ull << 20) /* all regions together */

struct sim_mem_region {
	uint64_t base, size;
	uint8_t *bytes;
};

struct sim_mem_fault {
	uint64_t addr;
	struct ap_mem_fault f; /* kind, stage, level (va is filled at the write) */
};

struct sim_mem {
	struct sim_mem_region region[SIM_MEM_MAX_REGIONS];
	unsigned n_regions;
	uint64_t mapped_bytes;
	struct sim_mem_fault fault[SIM_MEM_MAX_FAULTS];
	unsigned n_faults;
	uint64_t writes; /* buffer_write calls */
};

/* Map [base, base+size) (zero-filled). 0, or a message in err. */
int sim_mem_map(struct sim_mem *m, uint64_t base, uint64_t size, char *err, size_t errlen);
/* Make a write that reaches addr fault with f (replaces a fault at addr). */
int sim_mem_add_fault(struct sim_mem *m, uint64_t addr, const struct ap_mem_fault *f, char *err,
                      size_t errlen);
void sim_mem_remove_fault(struct sim_mem *m, uint64_t addr);
/* The region holding addr, or whose end is addr; NULL if none. */
const struct sim_mem_region *sim_mem_region_of(const struct sim_mem *m, uint64_t addr);
/* Copy [from, to) out; bytes outside every region read as 0. */
void sim_mem_read(const struct sim_mem *m, uint64_t from, uint8_t *out, size_t len);
void sim_mem_free(struct sim_mem *m);

/* The ap_host.buffer_write callback; ctx is the struct sim_mem. Unmapped
 * addresses give a level-3 stage-1 Translation fault. */
int sim_mem_buffer_write(void *ctx, uint64_t va, const uint8_t *bytes, size_t len,
                         struct ap_mem_fault *fault);

/* Parse a fault kind name ("translation", "permission-s2", ...); 0 or -1. */
int sim_mem_parse_fault_kind(const char *name, struct ap_mem_fault *f);
/* "translation, address-size, access-flag, permission, ..." for messages. */
const char *sim_mem_fault_kind_list(void);

#endif

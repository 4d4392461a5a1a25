/* Shared by the SPE engine command files of `armprof sim`:
 * sim_cmd_spe_ops.c (the module, operations) and sim_cmd_spe_buffer.c
 * (memory, records and counts). */
#ifndef ARMPROF_TOOL_SIM_SPE_H
#define ARMPROF_TOOL_SIM_SPE_H

#include "sim.h"
#include "sim_spe_mem.h"

extern const struct sim_module sim_module_spe_ops;

/* The memory behind the Profiling Buffer (this module's data). */
struct sim_mem *sim_spe_mem(struct sim *s);

int sim_spe_cmd_mem(struct sim *s, int argc, char **argv);
int sim_spe_cmd_expect_records(struct sim *s, int argc, char **argv);
int sim_spe_cmd_expect_record(struct sim *s, int argc, char **argv);
int sim_spe_cmd_records(struct sim *s, int argc, char **argv);
int sim_spe_cmd_expect_count(struct sim *s, int argc, char **argv);

#endif

/* The list of `armprof sim` modules (SIM_MODULES in sim.h). */
#include "sim.h"

#define SIM_DECLARE(m) extern const struct sim_module m;
SIM_MODULES(SIM_DECLARE)
#define SIM_REF(m) &m,
const struct sim_module *const sim_modules[] = { SIM_MODULES(SIM_REF) };
const size_t sim_module_count = sizeof(sim_modules) / sizeof(sim_modules[0]);

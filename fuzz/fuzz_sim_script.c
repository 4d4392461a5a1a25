/* Fuzz target: the `armprof sim` script interpreter with the core commands
 * (config, state, msr, mrs, expect*, ...). Any input must end in exit code
 * 0, 1 or 2 without a crash, a leak or undefined behaviour.
 *
 * The interpreter lives in tools/armprof; this target compiles its core
 * files in and lists only the core module (the engine modules can write
 * files, which a fuzzer must not do). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tools/armprof/sim/sim_core.c"
#include "../tools/armprof/sim/sim_cmd_core.c"

const struct sim_module *const sim_modules[] = { &sim_module_core };
const size_t sim_module_count = 1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		return 0;
	struct sim s;
	int rc = sim_init(&s, sink, sink);
	if (rc == 0)
		rc = sim_run_buffer(&s, "fuzz", (const char *)data, size);
	sim_fini(&s);
	if (rc != 0 && rc != SIM_EXIT_FAIL && rc != SIM_EXIT_ERROR)
		abort();
	return 0;
}

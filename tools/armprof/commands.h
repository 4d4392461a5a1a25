/* The armprof subcommands: one file each, tools/armprof/<name>/cmd_<name>.c, found
 * by the build (tools/armprof/CMakeLists.txt generates command_table.inc). */
#ifndef ARMPROF_TOOL_COMMANDS_H
#define ARMPROF_TOOL_COMMANDS_H

/* Exit codes shared by every subcommand. */
enum {
	EXIT_OK = 0,
	EXIT_DATA_ERROR = 1, /* input held errors / an expectation failed */
	EXIT_USAGE = 2,      /* usage, configuration or I/O error (a --binary that cannot be used:
	                      * docs/outputs.md, "Program files") */
};

#define AP_COMMAND(name)                          \
	int cmd_##name(int argc, char **argv);        \
	extern const char cmd_##name##_summary[];
#include "command_table.inc"
#undef AP_COMMAND

#endif

/* `armprof system`: one run of QEMU. Starts it with the given command line
 * (stdin /dev/null, its own process group, killed if armprof dies), streams
 * the guest's console through system_console.h to stdout, forwards QEMU's
 * stderr to stderr, and stops it on a timeout or on SIGINT, SIGTERM, SIGHUP
 * or SIGQUIT: it never outlives the call. */
#ifndef ARMPROF_TOOL_SYSTEM_RUN_H
#define ARMPROF_TOOL_SYSTEM_RUN_H

#include "system_console.h"

enum system_outcome {
	SYSTEM_EXITED,         /* the guest reported the command's status */
	SYSTEM_GUEST_ERROR,    /* the guest reported it could not run it */
	SYSTEM_TIMEOUT,        /* the time ran out; QEMU was killed */
	SYSTEM_SIGNALLED,      /* armprof got a signal; QEMU was killed */
	SYSTEM_QEMU_FAILED,    /* QEMU did not start, or ended without a report */
	SYSTEM_OUTPUT_FAILED,  /* stdout could not be written; QEMU was killed */
};

struct system_result {
	enum system_outcome outcome;
	int signal;            /* SYSTEM_SIGNALLED */
	int qemu_status;       /* QEMU's wait status, -1 when it never ran */
	char why[512];         /* SYSTEM_QEMU_FAILED, SYSTEM_OUTPUT_FAILED */
	double seconds;        /* from QEMU's start to the end */
	double start_seconds;  /* to the guest's start marker, -1 if none */
	struct console console; /* status, kind, message, the boot's log */
};

/* argv: QEMU's command line (argv[0] its path); timeout_s 0: none. */
void system_run(char *const *argv, const char *nonce, unsigned timeout_s, struct system_result *res);

#endif

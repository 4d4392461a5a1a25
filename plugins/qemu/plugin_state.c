/* The plugin's one state (plugin_state.h) and its setup failure: beneath
 * every part of the plugin (plugin.h lists them), so that the parts reach
 * it without calling up into plugin.c, which installs them. */
#include <stdio.h>
#include <unistd.h>

#include "plugin_state.h"

struct plugin_state plugin = {
	.tb_lock = PTHREAD_MUTEX_INITIALIZER,
	.hold_lock = PTHREAD_MUTEX_INITIALIZER,
	.hold_cond = PTHREAD_COND_INITIALIZER,
	.output_lock = PTHREAD_MUTEX_INITIALIZER,
	.exec_failed_lock = PTHREAD_MUTEX_INITIALIZER,
};

void plugin_fail(const char *msg)
{
	/* Setup errors cannot be returned through QEMU once running: report
	 * and stop the program with the usage exit code armprof uses. */
	char line[1200];
	snprintf(line, sizeof(line), "armprof plugin: %s\n", msg);
	qemu_plugin_outs(line);
	fputs(line, stderr);
	_exit(2);
}

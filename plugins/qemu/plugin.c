/* armprof's QEMU TCG plugin: turns the execution of an aarch64 program
 * under qemu-aarch64 (linux-user, QEMU 7.2) into the sample population of
 * the SPE model.
 *
 * - Translation (translate.c): each instruction is classified once
 *   (a64_classify.c).
 * - Execution (event_log.c): one callback per data access, and one per
 *   executed TB that no access announces; under armprof's own QEMU the
 *   same events are logged by inline code (inline_ring.c). Callbacks only
 *   log; the log is replayed through the models in batches (event_ring.h,
 *   replay.c), on a model thread per guest thread unless pipeline=0.
 * - The replay accounts a TB when the next one starts; every access and
 *   branch goes through the timing model, and the SPE model sees every
 *   operation through its batch form, describing only the sampled ones
 *   (replay_spe.c).
 *
 * Options come from a key=value file (plugin_options.c). Outputs, written
 * at exit (or when a signal ends the program, or before an exec:
 * checkpoint.c; a forked child writes its own: process.c): the SPE bytes
 * (raw), exact per-PC operation counts, a summary (plugin_outputs.c).
 * plugin.h lists the parts; this file installs them. */
#define _GNU_SOURCE 1 /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "plugin.h"
#include "replay_hub.h"
#include "stop_signal.h"

AP_QEMU_PLUGIN_VERSION

AP_QEMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                       char **argv)
{
	char err[1200];
	const char *cfg = NULL;
	if (info->system_emulation || strcmp(info->target_name, "aarch64") != 0) {
		qemu_plugin_outs("armprof plugin: needs qemu-aarch64 (linux-user)\n");
		return -1;
	}
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "cfg=", 4))
			cfg = argv[i] + 4;
	if (!cfg) {
		qemu_plugin_outs("armprof plugin: missing cfg=FILE (use `armprof record`)\n");
		return -1;
	}
	plugin.qemu_api = info->version.cur;
	if (plugin_options_load(&plugin.opts, cfg, err, sizeof(err)) < 0 ||
	    plugin_uarch_config(&plugin.uarch_cfg, plugin.opts.uarch_keys, err, sizeof(err)) < 0) {
		qemu_plugin_outs("armprof plugin: ");
		qemu_plugin_outs(err);
		qemu_plugin_outs("\n");
		return -1;
	}
	if (plugin.opts.model && plugin.opts.timing)
		plugin.detail_window = plugin.opts.timing_window;
	plugin.count_execs = plugin.opts.counts[0] != 0;
	plugin.count_paths = plugin.opts.call_graph && plugin.opts.stack_counts[0] != 0;
	if (plugin.opts.pipeline < 0)
		plugin.opts.pipeline = sysconf(_SC_NPROCESSORS_ONLN) > 1;
	/* Without the timing model threads cannot meet (no caches, constant
	 * latencies, a clock of their own each): interleaving would change
	 * no output and cost a model thread for all of them (Debian's sort
	 * with two threads: 2.5 s of models' CPU instead of 1.3 s). */
	plugin.use_hub = plugin.opts.pipeline && plugin.opts.interleave && plugin.opts.timing;
	if (plugin.use_hub) {
		/* Calm windows replay side by side on the host's other CPUs. */
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		replay_hub_init(&plugin.hub, replay_clock, plugin.opts.interleave, plugin.opts.seed,
		                &plugin.stop_requested, cpus > 1 ? (unsigned)(cpus - 1) : 0);
	}
	if (plugin.opts.timing && ap_uarch_system_create(&plugin.uarch_sys, &plugin.uarch_cfg) < 0) {
		qemu_plugin_outs("armprof plugin: inconsistent timing-model configuration\n");
		return -1;
	}
	plugin.first_pid = getpid();
	pthread_atfork(NULL, NULL, after_fork_in_child);
	/* armprof record preloads this into QEMU; run by hand, it is not there. */
	void (*register_fatal)(void (*)(int));
	*(void **)&register_fatal = dlsym(RTLD_DEFAULT, "armprof_qemu_on_fatal_signal");
	if (register_fatal)
		register_fatal(on_fatal_signal);
	stop_signal_note_inherited();
	plugin.inline_ring = inline_ring_setup(id);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_vcpu_exit_cb(id, on_vcpu_exit);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}

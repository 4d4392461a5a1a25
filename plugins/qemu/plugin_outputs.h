/* What the plugin writes: the SPE bytes of every vCPU (raw, one after the
 * other), the exact per-PC operation counts (on request) and the run
 * summary that armprof record reads (tools/armprof/record/record_run.c), each to
 * a temporary file renamed into place, the summary last, so that its
 * presence says the others are complete. Written at exit, at a checkpoint
 * (stop_signal.h) and before a fault ends the program (fatal_preload.c).
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_OUTPUTS_H
#define ARMPROF_PLUGIN_OUTPUTS_H

#include <pthread.h>
#include <stdint.h>

#include "plugin_state.h"
#include "replay_hub.h"

/* The run as struct plugin_state holds it, for the writers (checkpoint.c
 * gathers it). The caller holds it still: every vCPU's replay drained,
 * the TB list under tb_lock. */
struct plugin_run_view {
	const struct plugin_options *opts;
	struct vcpu_state *const *vcpus; /* PLUGIN_MAX_VCPUS */
	struct tb_info *const *all_tbs;
	pthread_mutex_t *tb_lock;
	const uint64_t *n_tbs_translated;
	uint64_t entry_code, detail_window;
	int stopped_by_signal; /* a checkpoint or a fault's outputs: this signal */
	int ended_by_exec;     /* the outputs written as the program enters execve */
	uint64_t aarch64_execs_failed;        /* execs of an aarch64 program that failed (ENOEXEC) */
	const char *aarch64_exec_failed_path; /* the first one's file */
	uint64_t checkpoints;
	const struct replay_hub *hub; /* interleaved replay, or NULL */
	const int64_t *thread_ids;    /* every thread that ran */
	unsigned n_thread_ids;
	int child;             /* a forked child: its pid is added to the names */
	int inline_ring;       /* QEMU logged the events inline (inline_ring.c) */
};

void plugin_write_outputs(const struct plugin_run_view *run);

#endif

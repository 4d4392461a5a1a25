/* When the outputs are written (plugin_outputs.c writes them): at exit,
 * at a checkpoint for a signal that is about to end the program
 * (stop_signal.h), before an execve, and before QEMU ends the program for
 * a fatal signal (fatal_preload.c). A checkpoint holds every vCPU at its
 * next TB start or in its system call, so that each log is complete. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plugin.h"
#include "plugin_outputs.h"
#include "spe_sink.h"
#include "stop_signal.h"

static void write_outputs(void)
{
	/* A thread's failed exec may be noted meanwhile (a checkpoint holds
	 * only the threads that run guest code). */
	char failed_path[sizeof(plugin.aarch64_exec_failed_path)];
	pthread_mutex_lock(&plugin.exec_failed_lock);
	uint64_t execs_failed = plugin.aarch64_execs_failed;
	memcpy(failed_path, plugin.aarch64_exec_failed_path, sizeof(failed_path));
	pthread_mutex_unlock(&plugin.exec_failed_lock);
	struct plugin_run_view run = { .opts = &plugin.opts,
		                       .vcpus = plugin.vcpus,
		                       .all_tbs = &plugin.all_tbs,
		                       .tb_lock = &plugin.tb_lock,
		                       .n_tbs_translated = &plugin.n_tbs_translated,
		                       .entry_code = plugin.entry_code,
		                       .detail_window = plugin.detail_window,
		                       .stopped_by_signal = plugin.stopped_by_signal,
		                       .ended_by_exec = plugin.ended_by_exec,
		                       .aarch64_execs_failed = execs_failed,
		                       .aarch64_exec_failed_path = failed_path,
		                       .checkpoints = plugin.checkpoints,
		                       .hub = plugin.use_hub ? &plugin.hub : NULL,
		                       .thread_ids = plugin.thread_ids,
		                       .n_thread_ids = plugin.n_thread_ids,
		                       .inline_ring = plugin.inline_ring,
		                       .child = getpid() != plugin.first_pid };
	plugin_write_outputs(&run);
}

/* The run is over (sig: the signal that ends it, 0 at exit), with no
 * vCPU running: finish every thread and write the outputs. Under
 * output_lock. */
static void finish_and_write(int sig)
{
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		struct vcpu_state *v = plugin.vcpus[i];
		if (!v)
			continue;
		finish_thread(v);
		if (v->sink)
			spe_sink_finish(v->sink);
	}
	plugin.stopped_by_signal = sig;
	write_outputs();
}

/* QEMU 10.2 (plugin API 2 and later) also calls this when a signal
 * kills the program (dump_core_and_abort's preexit_cleanup), just before
 * its last kill(); QEMU 7.2 does not. Without an exit of the program, the
 * outputs are left to what a death by signal writes on QEMU 7.2: the
 * checkpoint for that signal (stop_signal.h), or on_fatal_signal from
 * that kill() (a fault); written here, they would say the program exited,
 * and overwrite the checkpoint. */
void on_exit_cb(qemu_plugin_id_t id, void *p)
{
	if (plugin.qemu_api >= 2 && !atomic_load(&plugin.exit_called))
		return;
	pthread_mutex_lock(&plugin.output_lock);
	finish_and_write(0);
	pthread_mutex_unlock(&plugin.output_lock);
}

/* Wait until every live vCPU is held at a TB start or in a system call
 * (stop_requested is set). 0 when one is neither within
 * STOP_SIGNAL_HOLD_SECONDS: a thread can wait inside QEMU for the held
 * ones (exclusive execution), which would never end. */
static int hold_all(void)
{
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += STOP_SIGNAL_HOLD_SECONDS;
	pthread_mutex_lock(&plugin.hold_lock);
	atomic_store(&plugin.stop_requested, 1);
	int all = 0;
	for (;;) {
		all = 1;
		for (unsigned i = 0; i < PLUGIN_MAX_VCPUS && all; i++) {
			struct vcpu_state *v = plugin.vcpus[i];
			if (v && v->active && !v->held && !atomic_load(&v->in_syscall))
				all = 0;
		}
		if (all)
			break;
		/* A held vCPU signals the condition; one entering a system
		 * call does not: look again every 10 ms. */
		struct timespec now, step;
		clock_gettime(CLOCK_REALTIME, &now);
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
			break;
		step = now;
		step.tv_nsec += 10 * 1000 * 1000;
		if (step.tv_nsec >= 1000000000) {
			step.tv_sec++;
			step.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&plugin.hold_cond, &plugin.hold_lock, &step);
	}
	pthread_mutex_unlock(&plugin.hold_lock);
	return all;
}

void release_all(void)
{
	pthread_mutex_lock(&plugin.hold_lock);
	atomic_store(&plugin.stop_requested, 0);
	pthread_cond_broadcast(&plugin.hold_cond);
	pthread_mutex_unlock(&plugin.hold_lock);
}

/* Hold every vCPU (hold_all) and replay what each logged so far, for
 * outputs written as they stand; 0 if they could not all be held. Under
 * output_lock. */
static int hold_and_replay_all(void)
{
	if (!hold_all())
		return 0;
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		struct vcpu_state *v = plugin.vcpus[i];
		if (!v || !v->active)
			continue;
		replay_logged(v);
		spe_catch_up(v);
	}
	return 1;
}

/* A signal at its default action is about to end the program
 * (stop_signal.h): write the outputs as they stand, with every vCPU held
 * (they stay held until release_all: stop_signal.h calls it).
 * Nothing is finished: each thread's TB under way stays open, and the run
 * goes on unchanged should the program survive (a blocked signal). Its
 * operations so far are given to the SPE model (none of them is selected,
 * as in finish_tb), so that SAMPLE_POP counts them. */
void checkpoint(int sig)
{
	pthread_mutex_lock(&plugin.output_lock);
	if (hold_and_replay_all()) {
		plugin.stopped_by_signal = sig;
		plugin.checkpoints++;
		plugin.last_checkpoint_signal = sig;
		write_outputs();
		plugin.stopped_by_signal = 0;
	}
	pthread_mutex_unlock(&plugin.output_lock);
}

/* The calling thread is entering execve (it counts as in its system call).
 * A successful exec replaces QEMU's process image, and with it this
 * plugin, without an exit callback: so the outputs are written first, as
 * at a checkpoint, with every other vCPU held (the kernel ends them at the
 * exec). The new program then runs as QEMU's execve makes it (without the
 * plugin: QEMU 7.2 cannot carry it across). Should the exec fail (the file
 * is not there, or an aarch64 program with no binfmt_misc handler), the run
 * goes on unchanged and its exit writes the outputs again. */
void exec_checkpoint(void)
{
	pthread_mutex_lock(&plugin.output_lock);
	if (hold_and_replay_all()) {
		plugin.ended_by_exec = 1;
		write_outputs();
		plugin.ended_by_exec = 0;
	}
	pthread_mutex_unlock(&plugin.output_lock);
	release_all();
}

/* QEMU is about to end the program for a signal that kills it:
 * armprof-qemu-preload.so (fatal_preload.c) calls this from QEMU's last
 * kill(). Only for the signals that dump core (QEMU 7.2's
 * core_dump_signal(): the faults, SIGABRT, SIGQUIT) has QEMU stopped every
 * other vCPU first (stop_all_tasks); the others went through a checkpoint
 * (stop_signal.h) with the vCPUs held, and so did SIGABRT and SIGQUIT when
 * the program raised them: that checkpoint stands. Otherwise the outputs
 * are written as at exit (each thread's TB under way counted whole) and
 * say which signal it was. */
void on_fatal_signal(int sig)
{
	int dumps_core = sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP ||
	                 sig == SIGABRT || sig == SIGQUIT;
	if (!dumps_core)
		return;
	pthread_mutex_lock(&plugin.output_lock);
	if (plugin.checkpoints && plugin.last_checkpoint_signal == sig) {
		pthread_mutex_unlock(&plugin.output_lock);
		return;
	}
	finish_and_write(sig);
	pthread_mutex_unlock(&plugin.output_lock);
}

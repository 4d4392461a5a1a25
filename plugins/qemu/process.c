/* The program's process as the plugin follows it: its threads (a vCPU
 * each, created at the thread's first callback, finished at its exit),
 * its system calls (rt_sigaction for stop_signal.h, execve for the outputs
 * before an exec and its failure), and its forks (the child profiled on
 * its own). */
#define _GNU_SOURCE 1 /* syscall(SYS_gettid) */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "call_stack.h"
#include "guest_maps.h"
#include "plugin.h"
#include "spe_sink.h"
#include "stop_signal.h"
#include "wakeup.h"

/* First callback of a thread: kept out of line (its error buffer would
 * otherwise enlarge the frame of every callback). */
__attribute__((noinline, cold)) struct vcpu_state *vcpu_get(unsigned index)
{
	if (index >= PLUGIN_MAX_VCPUS)
		plugin_fail("more guest threads than the plugin supports (256)");
	pthread_mutex_lock(&plugin.hold_lock);
	struct vcpu_state *v = plugin.vcpus[index];
	if (atomic_load(&plugin.stop_requested)) {
		/* A checkpoint: wait here, at a TB start with the log complete,
		 * until it is written. A thread not yet known waits too, so that
		 * no vCPU comes into being under a checkpoint. */
		int known = v && v->active;
		if (known)
			v->held = 1;
		pthread_cond_broadcast(&plugin.hold_cond);
		while (atomic_load(&plugin.stop_requested))
			pthread_cond_wait(&plugin.hold_cond, &plugin.hold_lock);
		if (known)
			v->held = 0;
	}
	if (v && v->active) {
		pthread_mutex_unlock(&plugin.hold_lock);
		return v;
	}
	if (!v) {
		/* Aligned for the split between the guest and replay sides. */
		v = aligned_alloc(64, (sizeof(*v) + 63) & ~(size_t)63);
		if (v)
			memset(v, 0, sizeof(*v));
		if (!v ||
		    event_ring_init(&v->ring, replay_batch, v, plugin.opts.pipeline && !plugin.use_hub) < 0)
			plugin_fail("out of memory");
		v->log = event_ring_current(&v->ring);
		plugin.vcpus[index] = v;
	}
	char err[256];
	v->index = index;
	v->tid = (int64_t)syscall(SYS_gettid); /* qemu-user: guest tid == host tid */
	if (plugin.n_thread_ids < PLUGIN_MAX_THREADS)
		plugin.thread_ids[plugin.n_thread_ids++] = v->tid;
	v->rs.dep_reg = AP_A64_NO_REG;
	v->rs.detail = 1; /* every TB, unless a timing window says otherwise */
	if (plugin.opts.timing && !v->core && ap_uarch_core_create(&v->core, plugin.uarch_sys, index) < 0)
		plugin_fail("cannot create the timing model of a core");
	/* Should the hub's thread not start, this vCPU replays on the guest
	 * thread (without interleaving). */
	if (plugin.use_hub && !v->ring.hub)
		event_ring_join_hub(&v->ring, &plugin.hub, index, &v->in_syscall,
		                    v->core ? ap_uarch_core_met_others(v->core) : NULL, v->tid);
	/* The shadow call stack: a new thread's starts empty; the thread of
	 * a forked child that forked starts with its parent's. */
	if (plugin.opts.call_graph && !v->cs) {
		v->cs = malloc(sizeof(*v->cs));
		if (!v->cs || cs_init(v->cs, (uint32_t)plugin.opts.call_graph_depth) < 0)
			plugin_fail("out of memory");
	} else if (v->cs) {
		cs_reset(v->cs);
	}
	if (v->cs && plugin.fork_stack_pending && index == plugin.fork_vcpu) {
		cs_copy_frames(v->cs, plugin.fork_stack);
		plugin.fork_stack_pending = 0;
	}
	if (plugin.opts.model && !v->sink &&
	    spe_sink_new(&v->sink, &plugin.opts, index, v->tid, err, sizeof(err)) < 0)
		plugin_fail(err);
	else if (v->sink)
		spe_sink_set_tid(v->sink, v->tid); /* the index of a thread that exited */
	/* Only valid while a vCPU runs (QEMU reads the current CPU's task). */
	if (!plugin.entry_code)
		plugin.entry_code = qemu_plugin_entry_code();
	v->active = 1;
	pthread_mutex_unlock(&plugin.hold_lock);
	return v;
}

/* A thread ends: account its last TB (it ended in the exit system call). */
void on_vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? plugin.vcpus[vcpu_index] : NULL;
	if (!v)
		return;
	pthread_mutex_lock(&plugin.output_lock);
	finish_thread(v);
	v->active = 0; /* a new thread may reuse the index: new tid */
	inline_ring_detach(v); /* a new thread with this index attaches anew */
	pthread_mutex_unlock(&plugin.output_lock);
}

#define AARCH64_NR_RT_SIGACTION 134
#define AARCH64_NR_EXIT 93
#define AARCH64_NR_EXIT_GROUP 94

/* exit on the last live thread ends the process, as exit_group does. */
static int is_last_thread(void)
{
	unsigned live = 0;
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++)
		live += plugin.vcpus[i] && plugin.vcpus[i]->active;
	return live <= 1;
}
#define AARCH64_NR_CLONE 220
#define AARCH64_NR_CLONE3 435
#define LINUX_CLONE_VM 0x100u

/* A fork (clone without CLONE_VM) starts: the forking thread's call stack
 * as it stands, for the child's thread. Its replay catches up first (the
 * log is complete until the call returns): forks are rare. clone3 is
 * taken as a fork unless its flags (the first word of its arguments) say
 * CLONE_VM. */
static void note_fork_stack(struct vcpu_state *v, int64_t num, uint64_t a1)
{
	uint64_t flags = a1;
	if (num == AARCH64_NR_CLONE3) {
		const uint64_t *args = guest_maps_host(a1);
		flags = args ? args[0] : 0;
	}
	if (flags & LINUX_CLONE_VM)
		return;
	if (!plugin.fork_stack) {
		plugin.fork_stack = malloc(sizeof(*plugin.fork_stack));
		if (!plugin.fork_stack || cs_init(plugin.fork_stack, (uint32_t)plugin.opts.call_graph_depth) < 0)
			plugin_fail("out of memory");
	}
	replay_logged(v);
	cs_copy_frames(plugin.fork_stack, v->cs);
	plugin.fork_vcpu = v->index;
}
#define AARCH64_NR_EXECVE 221
#define AARCH64_NR_EXECVEAT 281

/* A system call starts: the thread's log is complete until it returns
 * (a checkpoint need not wait for it). rt_sigaction is followed for
 * stop_signal.h. */
void on_syscall(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2,
                uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	(void)id, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? plugin.vcpus[vcpu_index] : NULL;
	if (!v)
		return;
	if (num == AARCH64_NR_EXIT_GROUP || (num == AARCH64_NR_EXIT && is_last_thread()))
		atomic_store(&plugin.exit_called, 1);
	v->sigaction_act = num == AARCH64_NR_RT_SIGACTION ? a2 : 0;
	v->sigaction_sig = a1;
	/* execveat's file name is relative to its directory descriptor: only
	 * the current directory's (AT_FDCWD) is followed, or an absolute name
	 * (note_failed_exec). */
	v->exec_path = num == AARCH64_NR_EXECVE ? a1 : num == AARCH64_NR_EXECVEAT ? a2 : 0;
	v->exec_relative_ok = num == AARCH64_NR_EXECVE || (int)a1 == AT_FDCWD;
	/* Interleaved replay: what the thread logged so far goes to the hub
	 * now, and the hub need not wait for more until the call returns
	 * (it may block: a futex, a read). */
	log_sync(v);
	if (v->ring.hub && v->log->n) {
		v->log = event_ring_publish(&v->ring);
		log_attach(v);
	}
	wakeup_call_start(v, num, a1, a2, a3);
	atomic_store(&v->in_syscall, 1);
	if (v->ring.hub)
		replay_hub_poke(&plugin.hub);
	if (num == AARCH64_NR_EXECVE || num == AARCH64_NR_EXECVEAT)
		exec_checkpoint();
	if (v->cs && (num == AARCH64_NR_CLONE || num == AARCH64_NR_CLONE3))
		note_fork_stack(v, num, a1);
}

/* An exec failed with ENOEXEC: if its file is an aarch64 program, the
 * host has no binfmt_misc handler to run it under QEMU (QEMU 7.2's execve
 * hands the file to the host kernel), which armprof record's summary says,
 * since the program's own message ("Exec format error") does not. */
static void note_failed_exec(uint64_t guest_name, int relative_ok)
{
	/* The call just read the name from there: it is mapped. */
	const char *name = guest_maps_host(guest_name);
	char path[sizeof(plugin.aarch64_exec_failed_path)];
	size_t n = 0;
	while (name && n + 1 < sizeof(path) && name[n])
		path[n] = name[n], n++;
	path[n] = 0;
	if (!n || (name && name[n]) || (path[0] != '/' && !relative_ok) || !ap_perf_elf_is_aarch64(path))
		return;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)path[i] < 0x20)
			path[i] = '?'; /* one line in the stats file */
	pthread_mutex_lock(&plugin.exec_failed_lock);
	if (!plugin.aarch64_execs_failed++)
		memcpy(plugin.aarch64_exec_failed_path, path, n + 1);
	pthread_mutex_unlock(&plugin.exec_failed_lock);
}

void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, int64_t ret)
{
	(void)id;
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? plugin.vcpus[vcpu_index] : NULL;
	if (!v)
		return;
	if (num == AARCH64_NR_RT_SIGACTION && v->sigaction_act && ret == 0) {
		/* The new action's sa_handler and sa_flags, the first two words
		 * of the program's struct sigaction (Linux arm64: handler, flags,
		 * restorer, mask; it was just read by the call, so it is there). */
		const uint64_t *act = guest_maps_host(v->sigaction_act);
		if (act)
			stop_signal_guest_sigaction((int)v->sigaction_sig, act[0], act[1]);
	}
	if ((num == AARCH64_NR_EXECVE || num == AARCH64_NR_EXECVEAT) && v->exec_path && ret == -ENOEXEC)
		note_failed_exec(v->exec_path, v->exec_relative_ok);
	atomic_store(&v->in_syscall, 0);
	/* After the store: the hub, told of a wait's return, sees the thread
	 * back from its call. */
	wakeup_call_end(v, ret);
	/* After the store: a checkpoint that saw the thread in its call
	 * cannot have finished before this load sees its request. */
	if (atomic_load(&plugin.stop_requested))
		vcpu_get(vcpu_index);
}

/* In a forked child: detach every vCPU from its inline ring (inline_ring.c),
 * so that the thread's next TB calls back first (its vCPU is the child's own). */

/* The program forked (qemu-user forks the host process, plugin and all):
 * the child is a process of the program's to profile on its own, as perf
 * record's inherited events do. It has only the forking thread, and every
 * vCPU state it holds is the parent's, part-way through a replay on model
 * threads that do not exist here. So the child starts afresh: each of its
 * threads gets a new state at its next TB (vcpu_get), with cold private
 * caches and predictor (a new process, often on another core) and the LLC
 * as the parent left it, and a new SPE buffer; at its exit it writes its
 * outputs beside the parent's, with its pid added to their names
 * (armprof record merges them). */
void after_fork_in_child(void)
{
	/* The parent may have been in a checkpoint: its locks and request
	 * are not the child's. */
	pthread_mutex_init(&plugin.hold_lock, NULL);
	pthread_cond_init(&plugin.hold_cond, NULL);
	pthread_mutex_init(&plugin.output_lock, NULL);
	atomic_store(&plugin.stop_requested, 0);
	plugin.stopped_by_signal = 0;
	plugin.checkpoints = 0;
	plugin.n_thread_ids = 0; /* the child's threads are its own */
	pthread_mutex_init(&plugin.exec_failed_lock, NULL);
	plugin.aarch64_execs_failed = 0; /* and so are its execs */
	plugin.fork_stack_pending = plugin.fork_stack != NULL; /* for the forking thread's new vCPU */
	if (plugin.inline_ring)
		inline_ring_forget();
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		struct vcpu_state *v = plugin.vcpus[i];
		if (!v)
			continue;
		ap_uarch_core_destroy(v->core); /* no longer one of the model's cores */
		spe_sink_free(v->sink);
		free(v->rs.execs);
		/* v->cs stays with v (its samples are the parent's) */
		/* v itself is left behind: its ring's lock may be held by a
		 * model thread of the parent's. */
		plugin.vcpus[i] = NULL;
	}
	if (plugin.use_hub)
		replay_hub_after_fork(&plugin.hub);
	stop_signal_after_fork();
}

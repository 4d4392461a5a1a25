/* `armprof record` helpers: finding qemu-aarch64 and the plugin, running
 * the program, reading the plugin's run summary. */
#ifndef ARMPROF_TOOL_RECORD_RUN_H
#define ARMPROF_TOOL_RECORD_RUN_H

#include <stddef.h>
#include <stdint.h>

#define RECORD_MAX_VCPUS 256
#define RECORD_MAX_THREADS 4096 /* = the plugin's PLUGIN_MAX_THREADS */

struct record_vcpu {
	unsigned index;
	int64_t tid;
	uint64_t ops, offset, bytes, sample_pop, records;
};

#define RECORD_MAX_MAPS 256

/* A mapping of one of the program's files (the program, its dynamic
 * loader, a shared library), in guest addresses (plugins/qemu/guest_maps.h). */
struct record_map {
	uint64_t start, end, offset;
	char path[512];
};

/* The plugin's stats file (plugins/qemu/plugin.c emit_stats). */
struct record_stats {
	uint64_t ops, sample_pop, sample_feed, sample_filtrate, sample_collision;
	uint64_t records, records_discarded, spe_bytes, mgmt_events, buffer_drains, lost_bytes;
	uint64_t loads, stores, l1d_misses, l2_misses, llc_misses, peer_hits, tlb_walks;
	uint64_t branches, mispredicts, entry;
	uint64_t timing_window, detailed_ops; /* --timing-window: operations modelled in detail */
	/* CPU time the plugin spent replaying its event logs through the
	 * models; pipeline: on model threads (1) or the program's own (0). */
	uint64_t replay_cpu_ns, pipeline;
	/* Waits on the event rings (plugins/qemu/ring_wait.h), wall time:
	 * the program's threads for room and at drains, the model threads for
	 * a batch; how many and their total in ns. */
	uint64_t ring_full_waits, ring_full_wait_ns, ring_drain_waits, ring_drain_wait_ns;
	uint64_t model_waits, model_wait_ns;
	/* QEMU logged the events inline (plugins/qemu/inline_ring.c) rather
	 * than through the plugin's callbacks. */
	uint64_t inline_ring;
	uint64_t loop_run_ops; /* operations replayed in loop runs (plugin.c replay_run) */
	/* Interleaved replay (plugins/qemu/replay_hub.h): the quantum in
	 * cycles (0: off), hand-overs between threads' logs, and waits for a
	 * thread's log that timed out. */
	uint64_t interleave, interleave_switches, interleave_timeouts;
	uint64_t interleave_windows; /* calm windows replayed side by side */
	uint64_t interleave_wake_holds; /* wakers held until the threads they woke were back */
	/* The outputs are the checkpoint the plugin wrote when this signal
	 * was about to end the program (plugins/qemu/stop_signal.h); 0: at exit. */
	uint64_t stopped_by_signal;
	uint64_t checkpoints; /* such checkpoints written during the run */
	/* The outputs were written as the program entered execve, and the
	 * exec replaced it (a program QEMU ran without the plugin): the
	 * profile ends there. Summed over processes: how many did. */
	uint64_t ended_by_exec;
	/* Execs of an aarch64 program that failed with ENOEXEC: the host has no
	 * binfmt_misc handler to run it under QEMU. The first one's file. */
	uint64_t aarch64_execs_failed;
	char aarch64_exec_failed_path[512];
	/* Call stacks (plugins/qemu/call_stack.h): followed, samples given
	 * one, returns to no frame, signal frames, frames beyond the depth. */
	uint64_t call_graph, stack_samples, stack_unmatched, stack_signals, stack_dropped;
	size_t n_vcpus;
	struct record_vcpu vcpu[RECORD_MAX_VCPUS];
	/* Every thread that ran ("thread=" lines; a vCPU's line names only its
	 * latest): each gets a COMM in perf.data. */
	size_t n_threads;
	int64_t thread_tid[RECORD_MAX_THREADS];
	size_t n_maps;
	struct record_map map[RECORD_MAX_MAPS];
};

/* Where the ELF file path was loaded: the guest address of its executable
 * segments minus their ELF addresses, from the plugin's mappings. Returns
 * 1 and sets *bias, or 0 when the mappings do not show the file. */
int record_file_bias(const struct record_stats *st, const char *path, uint64_t *bias);
/* The files other than the program (abs_prog) that it ran code from, its
 * dynamic loader and shared libraries, each once with its load bias.
 * Returns how many (at most cap); paths point into st. */
struct record_library {
	const char *path;
	uint64_t bias;
};
size_t record_libraries(const struct record_stats *st, const char *abs_prog, struct record_library *out,
                        size_t cap);

/* PROG as given, or found on PATH: an absolute or relative path in out.
 * A name without a slash is looked for on PATH inside root first (the
 * aarch64 root of --sysroot or $QEMU_LD_PREFIX, may be NULL), as in a
 * chroot, then on the host's PATH. Returns 0 or -1 with a message in err.
 * Checks it is an aarch64 ELF. */
int record_resolve_program(const char *prog, const char *root, char *out, size_t cap, char *err,
                           size_t errlen);
/* The root QEMU must find a dynamically linked program's interpreter (and
 * shared libraries) under, for its -L: "" for a static program, or when
 * the interpreter is on the host itself (an aarch64 host); else --sysroot
 * (given), $QEMU_LD_PREFIX, or Debian's cross root /usr/aarch64-linux-gnu,
 * the first that holds the interpreter. -1 with a message naming the
 * interpreter when none does (or given does not). */
int record_choose_sysroot(const char *prog, const char *given, char *out, size_t cap, char *err,
                          size_t errlen);
/* The plugin: --plugin, $ARMPROF_PLUGIN, next to the armprof executable,
 * or ../lib[/<multiarch>]/armprof/ relative to it. */
int record_find_plugin(const char *given, char *out, size_t cap, char *err, size_t errlen);
/* Run argv (argv[0] found on PATH); returns the exit status as a shell
 * reports it (128 + signal), or -1 if it could not be started.
 * preload: a library for LD_PRELOAD in the child alone (NULL: none).
 * stdout_fd: the child's standard output (-1: armprof's own).
 * While it runs, SIGTERM and SIGHUP sent to armprof, and SIGINT sent by a
 * process (kill), go to the child; a ^C from the terminal reaches the
 * child by itself (the same process group) and is not sent twice. */
int record_run_child(char **argv, const char *preload, int stdout_fd, char *err, size_t errlen);
int record_read_stats(const char *path, struct record_stats *st);

#endif

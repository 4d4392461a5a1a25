/* State of the armprof QEMU plugin: what translation learns about each
 * translation block (TB), what each vCPU carries between callbacks, and the
 * run-wide options. Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_STATE_H
#define ARMPROF_PLUGIN_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "a64_tb.h"
#include "event_ring.h"
#include "qemu_plugin_api.h"
#include "replay_hub.h"
#include "armprof/uarch.h"

/* QEMU ends a TB after at most TCG_MAX_INSNS (512) instructions. */
#define PLUGIN_MAX_TB_INSNS 512
/* vCPU indices QEMU linux-user hands out (one per live guest thread). */
#define PLUGIN_MAX_VCPUS 256
/* Threads of a process listed in the outputs (a vCPU index serves many
 * threads one after the other; each needs its COMM in perf.data). */
#define PLUGIN_MAX_THREADS 4096

struct tb_info;

struct insn_info {
	uint64_t pc;
	struct tb_info *tb; /* the TB it belongs to (one load for an announcing access) */
	struct ap_a64_class cls;
	uint16_t index; /* position in its TB */
	uint8_t access; /* enum ap_uarch_access_kind of a load/store */
	/* Load-to-address dependencies (dependency_stall): the register
	 * whose value a load brings (AP_A64_NO_REG: none, not a GP load). */
	uint8_t dep_rt;
};

/* One translated block; lives until the plugin exits (QEMU does not tell a
 * plugin when it drops a TB), so per-PC counts can be summed at the end.
 * What execution needs about the closing branch is worked out once, at
 * translation. */
struct tb_info {
	struct tb_info *next;
	uint64_t vaddr;
	uint32_t n;
	uint8_t ends_in_branch;
	uint8_t br_direct;     /* AP_A64_F_DIRECT_TARGET: br_target is the taken target */
	uint8_t br_uarch;      /* enum ap_uarch_branch_flags of the closing branch (0: none) */
	uint64_t br_pc, br_target;
	uint64_t fallthrough;   /* the PC after its last instruction */
	uint32_t id;            /* translation order: index of its execution counters */
	struct insn_info insn[];
};

/* The data access(es) of one instruction during the current TB execution,
 * kept only when that execution holds the next selected operation
 * (replay.c tb_sampled); valid when seq is that execution's first
 * operation number + 1 (unique per TB execution: operation numbers only
 * grow; + 1 so that a zeroed slot is never valid). Several accesses of one
 * instruction (LDP, structure loads) combine: the lowest address
 * (SPE-2.3.2-16), the union of events and the longest latency. */
struct mem_slot {
	uint64_t seq;
	uint64_t vaddr;
	/* The access's result: the timing model's own (ap_uarch_access: a
	 * pointer kept, not a copy, as most are never read), or own when the
	 * replay changed it (a dependency stall, several accesses). */
	const struct ap_uarch_result *res;
	struct ap_uarch_result own;
};

/* What the replay carries from event to event of one vCPU (replay_batch
 * keeps it in registers for a batch). */
struct replay_state {
	const struct tb_info *cur; /* TB whose execution is under way */
	/* plugin_event.what of the last event replayed: the same again (an
	 * announcing access or a TB start) is the same TB run again straight
	 * after itself, the start of a possible loop run (replay_run). */
	uintptr_t last_what;
	uint64_t ops;              /* population members fed (instructions executed) */
	/* Unsampled operations reach the SPE model in batches (see
	 * spe_account_tb): the next selected operation is number next_sel;
	 * the ones before number spe_given are the model's already. */
	uint64_t next_sel, spe_given;
	/* Load-to-address dependency (the pointer-chasing pattern): the data
	 * register of the last load and when its data arrives, on a virtual
	 * clock of one dispatched operation per cycle plus the stalls so far. */
	uint64_t dep_ready, stall_total;
	/* The same clock at the vCPU's next event, as far as the replay has
	 * seen (replay_clock; replay_hub.h orders the vCPUs by it). */
	uint64_t clock;
	uint8_t dep_reg;
	/* The target of the last taken branch, for previous-branch-target
	 * packets (LATER-PBT-2); 0: none known yet (the thread's start).
	 * Followed only when the model writes them (replay_env.pbt). */
	uint64_t prev_target;
	/* The current TB is replayed in detail: its accesses and closing
	 * branch go through the timing model and its accesses are kept for
	 * the description of a sampled operation. Always, unless a timing
	 * window is set (plugin_options.timing_window); then only TBs within
	 * that many operations before the next selected one. */
	uint8_t detail;
	uint64_t detailed_ops;     /* operations of the TBs replayed in detail */
	uint64_t run_ops;          /* operations replayed in loop runs (replay_run) */
	/* Executions per TB id (only with per-PC counts asked for), counted
	 * by this vCPU alone (threads running the same loop would otherwise
	 * fight over one counter's host cache line). Grown by doubling when a
	 * TB with a larger id first runs here; read at exit, after the drain. */
	uint32_t execs_cap;
	uint64_t *execs;
};

struct plugin_options;
struct spe_sink;
struct call_stack;

/* Callbacks only log what happened (struct plugin_event, in batches of an
 * event_ring); the log is replayed through the timing and SPE models in
 * order, a batch at a time, on the vCPU's model thread or when the thread
 * exits and at the end. Replaying thousands of events in one tight loop
 * keeps the models' code and data hot in the host caches instead of
 * interleaving them with QEMU's generated code on every callback; the
 * results are the same because nothing in them depends on host time. */
/* Low bits of plugin_event.what (insn_info and tb_info are 8-byte aligned). */
enum plugin_event_kind {
	EV_ACCESS = 0,       /* what = insn_info, vaddr: a data access */
	EV_START_ACCESS = 1, /* the same, and it announces its TB's start */
	EV_TB_START = 2,     /* what = tb_info: a TB without an announcing access started */
};

struct vcpu_state {
	/* The guest thread's side: read or written on every callback. */
	int active;
	unsigned index;
	int64_t tid;            /* guest thread id (= host tid under qemu-user) */
	struct event_batch *log; /* the batch being filled */
	/* QEMU appends this thread's events inline to its ring
	 * (inline_ring.c), whose room ends at the batch's end: its left says
	 * how many, and log_sync brings log->n up to date. Else (callbacks,
	 * or not yet attached) log->n counts them. */
	int qring;
	struct event_ring ring;
	/* Holding the vCPUs for a checkpoint (stop_signal.h): held at a TB
	 * start (under hold_lock), or in a system call, where its log is
	 * complete and it cannot log more before its return callback. */
	int held;
	_Atomic int in_syscall;
	/* A wake-up under way (wakeup.h): the call (WAKEUP_*), the most a
	 * wake may have woken (the rest were moved to another word), the
	 * hub's count of resumed threads when it started, its futex word;
	 * and the word of a futex wait under way, else 0 (read by wakers). */
	int wakeup_call;
	uint64_t futex_nr_wake, resumed_before, futex_uaddr;
	_Atomic uint64_t futex_waiting_on;
	uint64_t sigaction_sig, sigaction_act; /* an rt_sigaction under way (act != 0) */
	uint64_t exec_path;   /* the guest address of an exec's file name under way, or 0 */
	int exec_relative_ok; /* a relative name is the current directory's (not execveat's dirfd) */

	/* The replay side, on the model thread (event_ring.h): on host cache
	 * lines of its own, so that the two threads do not pass lines back
	 * and forth on every event. */
	_Alignas(64) struct replay_state rs;
	struct ap_uarch_core *core;
	struct spe_sink *sink;  /* NULL when the model is off */
	struct call_stack *cs;  /* the shadow call stack (call_stack.h), NULL without call graphs */
	uint64_t spe_batch_mismatch; /* a batch that met a selection: never expected */
	struct mem_slot slot[PLUGIN_MAX_TB_INSNS];
};

/* Options, from the key=value file `armprof record` writes (cfg=PATH). */
struct plugin_options {
	char out[1024];        /* raw SPE bytes of every vCPU's buffer */
	char counts[1024];     /* exact executed-operation counts per PC */
	char stats[1024];      /* run summary, key=value lines */
	char stacks[1024];     /* the call stack of each sampled operation (call_stack.h) */
	char stack_counts[1024]; /* exact executed-operation counts per call path and block */
	int call_graph;        /* 1: follow each thread's call stack (call_stack.h) */
	uint64_t call_graph_depth; /* frames kept (CS_DEFAULT_DEPTH, at most CS_MAX_DEPTH) */
	int model;             /* 1: feed the SPE model */
	int timing;            /* 1: run the timing model on every access/branch */
	int pipeline;          /* 1: replay on a model thread per vCPU (event_ring.h); -1: if >1 host CPU */
	int loop_runs;         /* 1: replay runs of a one-TB loop at once where exact (replay_run) */
	int inline_ring;       /* 1: let QEMU log events inline where it can (inline_ring.c) */
	/* Cycles of model clock a vCPU's replay may run ahead of the others'
	 * (replay_hub.h): the threads' replays interleave in model order on
	 * one model thread. 0: a model thread per vCPU, each replaying its
	 * log a batch at a time (threads meet in shared state only where
	 * their batches overlap in host time). Needs pipeline. */
	uint64_t interleave;
	/* 0: every access and branch goes through the full timing model. N:
	 * only those of the TBs within N operations before each selected one
	 * (the SPE model says exactly where that is); the other accesses only
	 * warm the caches and TLBs (ap_uarch_warm), and the predictor and the
	 * dependency clock learn in the windows alone. */
	uint64_t timing_window;
	uint64_t interval;     /* PMSIRR_EL1.INTERVAL in operations (multiple of 256) */
	int jitter;            /* PMSIRR_EL1.RND */
	uint64_t pmsfcr;       /* filter controls */
	uint64_t pmsevfr;
	uint64_t pmslatfr;
	uint64_t pmsnevfr, pmsdsfr; /* SPE after v1 (written only when set) */
	int discard;           /* PMBLIMITR_EL1.FM = 0b10 */
	int ts, pa, ctx;       /* PMSCR_EL1.TS, PA, CX */
	uint64_t buffer_bytes; /* profiling buffer per vCPU */
	uint64_t seed;
	/* key=value lines for ap_config_set and the uarch config, applied in order */
	char model_keys[4096];
	char uarch_keys[2048];
};

/* Everything the plugin's parts share, in one place (the one instance is
 * `plugin`, defined in plugin.c): QEMU's callbacks carry no context of the
 * plugin's, so the state is process-wide. Grouped by who writes it; each
 * group says which lock, if any, guards it. */
struct plugin_state {
	/* Set up at install (plugin.c), read-only afterwards. */
	struct plugin_options opts;
	/* opts.timing_window when windows apply (the SPE model says where
	 * samples are), else 0: every TB in detail. */
	uint64_t detail_window;
	int count_execs; /* per-PC counts were asked for (opts.counts) */
	int count_paths; /* per-path counts were asked for (opts.stack_counts) */
	/* The call stack of the thread that forks, taken as it enters the
	 * call (process.c): a forked child's thread starts with it. */
	struct call_stack *fork_stack;
	unsigned fork_vcpu;
	int fork_stack_pending; /* in the child: not yet given to its vCPU */
	/* The process the plugin was loaded in: a forked child (a process of
	 * the program's own) writes its outputs under names of its own. */
	pid_t first_pid;
	struct ap_uarch_config uarch_cfg;
	struct ap_uarch_system *uarch_sys;
	/* Interleaved replay (replay_hub.h): with opts.interleave and a model
	 * thread to spare, every vCPU's log is replayed on this hub's thread. */
	struct replay_hub hub;
	int use_hub;
	int inline_ring; /* QEMU logs the events (inline_ring.c) */
	int qemu_api;    /* the running QEMU's plugin API version (qemu_info_t) */

	/* The vCPUs (process.c vcpu_get creates them, under hold_lock). */
	struct vcpu_state *vcpus[PLUGIN_MAX_VCPUS];
	/* Every thread that ran, in order (under hold_lock): a vCPU keeps only
	 * its latest thread's id, and the records of the earlier ones carry
	 * theirs. */
	int64_t thread_ids[PLUGIN_MAX_THREADS];
	unsigned n_thread_ids;
	/* The guest's entry point, read while the first vCPU runs (QEMU reads
	 * the current CPU's task). */
	uint64_t entry_code;

	/* Every TB translated (translate.c), newest first, under tb_lock. */
	pthread_mutex_t tb_lock;
	struct tb_info *all_tbs;
	uint64_t n_tbs_translated;

	/* Checkpoints (stop_signal.h, checkpoint.c): set when a signal asks
	 * for one, so that every vCPU stops at its next TB start (vcpu_of
	 * tests it; its own host cache line, read on every TB start and
	 * written only then). */
	_Alignas(64) _Atomic int stop_requested;
	_Alignas(64) pthread_mutex_t hold_lock;
	pthread_cond_t hold_cond;
	atomic_int signals_armed; /* stop_signal_arm called (at the first translation) */
	/* Taken by whatever finishes threads and writes the outputs: the exit
	 * handler, a thread's exit and a checkpoint; it guards the rest of
	 * this group. */
	pthread_mutex_t output_lock;
	int stopped_by_signal; /* the outputs being written are a checkpoint for this signal */
	uint64_t checkpoints;  /* written so far (a program may survive one: a blocked signal) */
	int last_checkpoint_signal;
	/* The program called exit_group, or exit on its last thread: QEMU's
	 * exit callbacks that follow are an exit. Without it, QEMU 10.2 runs
	 * them on the way to a death by signal (dump_core_and_abort's
	 * preexit_cleanup). */
	atomic_int exit_called;
	/* The outputs being written are the ones before an execve: should it
	 * succeed, QEMU (and this plugin) is gone, and they stand. */
	int ended_by_exec;

	/* The program's execs of an aarch64 program that failed with ENOEXEC
	 * (the host runs none without a binfmt_misc handler), and the first
	 * one's file (process.c), under exec_failed_lock. */
	pthread_mutex_t exec_failed_lock;
	uint64_t aarch64_execs_failed;
	char aarch64_exec_failed_path[512];
};

extern struct plugin_state plugin;
/* plugin_state.c: a setup error once QEMU runs (it cannot be returned there):
 * report msg and end the program with armprof's usage exit code. */
__attribute__((noreturn)) void plugin_fail(const char *msg);

/* inline_ring.c's vCPU log (struct vcpu_state.qring), kept by every part that
 * hands the log over. */
struct qemu_plugin_ring *inline_ring_of(unsigned vcpu_index);
/* log->n from the ring's room, before the log is read or handed over. */
static inline void log_sync(struct vcpu_state *v)
{
	if (v->qring)
		v->log->n = EVENT_RING_BATCH - (uint32_t)(inline_ring_of(v->index)->left / sizeof(struct plugin_event));
}
/* Point the ring at the free part of the current batch, after v->log changed. */
static inline void log_attach(struct vcpu_state *v)
{
	if (v->qring) {
		struct qemu_plugin_ring *r = inline_ring_of(v->index);
		r->end = (uintptr_t)&v->log->ev[EVENT_RING_BATCH];
		r->left = (EVENT_RING_BATCH - v->log->n) * sizeof(struct plugin_event);
	}
}

int plugin_options_load(struct plugin_options *o, const char *path, char *err, size_t errlen);
int plugin_uarch_config(struct ap_uarch_config *cfg, const char *keys, char *err, size_t errlen);

#endif

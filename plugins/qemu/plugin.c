/* armprof's QEMU TCG plugin: turns the execution of an aarch64 program
 * under qemu-aarch64 (linux-user, QEMU 7.2) into the sample population of
 * the SPE model.
 *
 * - Translation: each instruction is classified once (a64_classify.c).
 * - Execution: one callback per data access, and one per executed TB that
 *   no access announces. Callbacks only log; the log is replayed through
 *   the models in batches (event_ring.h), on a model thread per guest
 *   thread unless pipeline=0. A TB is accounted when the next one starts
 *   (or the thread exits), so its closing branch knows where it went:
 *   taken / not taken and the target come from the next executed PC.
 * - Every access and branch goes through the timing model (lib/uarch) so
 *   caches, TLBs and predictor see the whole program (with a timing
 *   window, the predictor only the TBs before each sample, the caches
 *   every access still); the SPE model sees every
 *   operation through its batch form (ap_spe_skip), and only the sampled
 *   ones are described (plugin_describe_op -> spe_sink_op).
 *
 * Options come from a key=value file (plugin_options.c). Outputs, written
 * at exit (or when a signal ends the program: stop_signal.h,
 * fatal_preload.c; a forked child writes its own): the SPE bytes (raw),
 * exact per-PC operation counts, a summary. */
#define _GNU_SOURCE 1 /* syscall(SYS_gettid) */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "armprof/error.h"
#include "armprof/perfdata.h"
#include "guest_maps.h"
#include "plugin_outputs.h"
#include "plugin_state.h"
#include "qemu_plugin_api.h"
#include "replay_hub.h"
#include "spe_sink.h"
#include "stop_signal.h"

AP_QEMU_EXPORT int qemu_plugin_version = AP_QEMU_PLUGIN_API_VERSION;

static struct plugin_options opts;
/* opts.timing_window when windows apply (the SPE model says where samples
 * are), else 0: every TB in detail. */
static uint64_t detail_window;
static int count_execs; /* per-PC counts were asked for (opts.counts) */
/* The process the plugin was loaded in: a forked child (a process of
 * the program's own) writes its outputs under names of its own. */
static pid_t first_pid;
static struct ap_uarch_config uarch_cfg;
static struct ap_uarch_system *uarch_sys;
static struct vcpu_state *vcpus[PLUGIN_MAX_VCPUS];
/* Every thread that ran, in order (under hold_lock): a vCPU keeps only its
 * latest thread's id, and the records of the earlier ones carry theirs. */
static int64_t thread_ids[PLUGIN_MAX_THREADS];
static unsigned n_thread_ids;
/* Interleaved replay (replay_hub.h): with opts.interleave and a model
 * thread to spare, every vCPU's log is replayed on this hub's thread. */
static struct replay_hub hub;
static int use_hub;
static pthread_mutex_t tb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tb_info *all_tbs;
static uint64_t n_tbs_translated;
static int setup_failed;
static uint64_t entry_code;

/* Checkpoints (stop_signal.h): set when a signal asks for one, so that
 * every vCPU stops at its next TB start (vcpu_of tests it; its own host
 * cache line, read on every TB start and written only then). */
static _Alignas(64) _Atomic int stop_requested;
static _Alignas(64) pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cond = PTHREAD_COND_INITIALIZER;
/* Taken by whatever finishes threads and writes the outputs: the exit
 * handler, a thread's exit and a checkpoint. */
static pthread_mutex_t output_lock = PTHREAD_MUTEX_INITIALIZER;
static int stopped_by_signal; /* the outputs being written are a checkpoint for this signal */
static uint64_t checkpoints;  /* written so far (a program may survive one: a blocked signal) */
static int last_checkpoint_signal;
static atomic_int signals_armed;
/* The outputs being written are the ones before an execve: should it
 * succeed, QEMU (and this plugin) is gone, and they stand. */
static int ended_by_exec;
/* The program's execs of an aarch64 program that failed with ENOEXEC (the
 * host runs none without a binfmt_misc handler), and the first one's file. */
static pthread_mutex_t exec_failed_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t aarch64_execs_failed;
static char aarch64_exec_failed_path[512];

static void fail(const char *msg)
{
	/* Setup errors cannot be returned through QEMU once running: report
	 * and stop the program with the usage exit code armprof uses. */
	char line[1200];
	snprintf(line, sizeof(line), "armprof plugin: %s\n", msg);
	qemu_plugin_outs(line);
	fputs(line, stderr);
	_exit(2);
}

static void spe_flush(struct vcpu_state *v, uint64_t ops, uint64_t pending);
static uint32_t replay_batch(void *ctx, const struct plugin_event *ev, uint32_t n, uint64_t stop,
                             int until_meeting);

/* First callback of a thread: kept out of line (its error buffer would
 * otherwise enlarge the frame of every callback). */
__attribute__((noinline, cold)) static struct vcpu_state *vcpu_get(unsigned index)
{
	if (index >= PLUGIN_MAX_VCPUS)
		fail("more guest threads than the plugin supports (256)");
	pthread_mutex_lock(&hold_lock);
	struct vcpu_state *v = vcpus[index];
	if (atomic_load(&stop_requested)) {
		/* A checkpoint: wait here, at a TB start with the log complete,
		 * until it is written. A thread not yet known waits too, so that
		 * no vCPU comes into being under a checkpoint. */
		int known = v && v->active;
		if (known)
			v->held = 1;
		pthread_cond_broadcast(&hold_cond);
		while (atomic_load(&stop_requested))
			pthread_cond_wait(&hold_cond, &hold_lock);
		if (known)
			v->held = 0;
	}
	if (v && v->active) {
		pthread_mutex_unlock(&hold_lock);
		return v;
	}
	if (!v) {
		/* Aligned for the split between the guest and replay sides. */
		v = aligned_alloc(64, (sizeof(*v) + 63) & ~(size_t)63);
		if (v)
			memset(v, 0, sizeof(*v));
		if (!v || event_ring_init(&v->ring, replay_batch, v, opts.pipeline && !use_hub) < 0)
			fail("out of memory");
		v->log = event_ring_current(&v->ring);
		vcpus[index] = v;
	}
	char err[256];
	v->index = index;
	v->tid = (int64_t)syscall(SYS_gettid); /* qemu-user: guest tid == host tid */
	if (n_thread_ids < PLUGIN_MAX_THREADS)
		thread_ids[n_thread_ids++] = v->tid;
	v->rs.dep_reg = AP_A64_NO_REG;
	v->rs.detail = 1; /* every TB, unless a timing window says otherwise */
	if (opts.timing && !v->core && ap_uarch_core_create(&v->core, uarch_sys, index) < 0)
		fail("cannot create the timing model of a core");
	/* Should the hub's thread not start, this vCPU replays on the guest
	 * thread (without interleaving). */
	if (use_hub && !v->ring.hub)
		event_ring_join_hub(&v->ring, &hub, index, &v->in_syscall,
		                    v->core ? ap_uarch_core_met_others(v->core) : NULL);
	if (opts.model && !v->sink && spe_sink_new(&v->sink, &opts, index, v->tid, err, sizeof(err)) < 0)
		fail(err);
	else if (v->sink)
		spe_sink_set_tid(v->sink, v->tid); /* the index of a thread that exited */
	/* Only valid while a vCPU runs (QEMU reads the current CPU's task). */
	if (!entry_code)
		entry_code = qemu_plugin_entry_code();
	v->active = 1;
	pthread_mutex_unlock(&hold_lock);
	return v;
}

/* ---- the one hand-off: an executed instruction as an SPE operation ------ */

/* in is an instruction of the TB execution whose first operation is
 * number tb_base (its data access is in v->slot when the slot says so). */
static void plugin_describe_op(const struct vcpu_state *v, uint64_t tb_base, const struct insn_info *in,
                               const struct ap_uarch_result *branch, uint64_t target, int taken,
                               struct ap_spe_op *op)
{
	const struct ap_a64_class *c = &in->cls;
	struct ap_uarch_result other = { 0 };
	const struct ap_uarch_result *res = &other;
	memset(op, 0, sizeof(*op));
	op->pc = in->pc;
	other.lat_issue = uarch_cfg.issue_latency;
	other.lat_total = (uint16_t)(uarch_cfg.issue_latency + uarch_cfg.exec_latency);

	if (c->kind == AP_A64_LDST && !(c->flags & AP_A64_F_PREFETCH)) {
		/* Prefetches are typed Other (SPE-2.3.4-2). */
		op->kind = (c->flags & AP_A64_F_ATOMIC) ? AP_SPE_OP_ATOMIC
		           : (c->flags & AP_A64_F_LOAD) ? AP_SPE_OP_LOAD
		                                     : AP_SPE_OP_STORE;
		if (c->flags & AP_A64_F_SIMD)
			op->flags |= AP_SPE_OPF_SIMD;
		if (c->flags & AP_A64_F_EXCL)
			op->flags |= AP_SPE_OPF_EXCL;
		if (c->flags & AP_A64_F_ACQREL)
			op->flags |= AP_SPE_OPF_ACQREL;
		if ((c->flags & AP_A64_F_ATOMIC) && (c->flags & AP_A64_F_LOAD))
			op->flags |= AP_SPE_OPF_ATOMIC_LD;
		const struct mem_slot *s = &v->slot[in->index];
		if (s->seq == tb_base + 1) {
			op->va = s->vaddr;
			/* qemu-user has no physical addresses: the plugin reports
			 * a flat Non-secure map, PA == VA. */
			op->pa = s->vaddr;
			op->flags |= AP_SPE_OPF_PA_NS;
			if (opts.timing)
				res = &s->res;
		}
		op->data_source = res->has_data_source ? res->data_source : 0;
	} else if (c->kind == AP_A64_BRANCH) {
		op->kind = AP_SPE_OP_BRANCH;
		op->target = target;
		op->target_ns = 1;
		if (c->flags & AP_A64_F_COND) {
			op->flags |= AP_SPE_OPF_COND;
			if (!taken)
				op->flags |= AP_SPE_OPF_FAILED;
		}
		if (c->flags & AP_A64_F_INDIRECT)
			op->flags |= AP_SPE_OPF_INDIRECT;
		if (opts.timing)
			res = branch;
	} else if (c->kind == AP_A64_COND_OTHER) {
		/* The plugin API cannot read the flags, so whether a CSEL/CCMP
		 * passed is unknown: recorded as passed. */
		op->kind = AP_SPE_OP_OTHER;
		op->flags |= AP_SPE_OPF_COND;
	} else {
		op->kind = AP_SPE_OP_OTHER;
	}
	op->events = res->events;
	op->lat_issue = res->lat_issue;
	op->lat_xlat = res->lat_xlat;
	op->lat_total = res->lat_total;
}

/* ---- accounting one executed TB ------------------------------------------ */

/* Feed the n operations of an executed TB to the SPE model, describing
 * only the ones it selects. Out of line: most TBs have none. */
__attribute__((noinline)) static void feed_spe_sampled(struct vcpu_state *v, const struct tb_info *tb,
                                                       uint64_t base, uint32_t i, uint64_t target,
                                                       int taken, int mispredicted)
{
	uint32_t n = tb->n;
	struct ap_uarch_result br = { 0 };
	if (opts.timing && tb->ends_in_branch && mispredicted >= 0)
		ap_uarch_branch_result(v->core, tb->br_uarch, taken, mispredicted, &br);
	while (i < n) {
		struct ap_spe_op op;
		plugin_describe_op(v, base, &tb->insn[i], &br, target, taken, &op);
		spe_sink_op(v->sink, &op, base + i);
		if (++i < n)
			i += (uint32_t)spe_sink_skip(v->sink, n - i, base + i);
	}
}

/* Give the model the pending operations that passed without it, the last
 * of them just before operation number ops. None of them can be selected
 * (next_sel said so), so ap_spe_skip lets them all pass; should one be
 * selected after all, it is described as an anonymous Other operation and
 * counted in spe_batch_mismatch. */
static void spe_flush(struct vcpu_state *v, uint64_t ops, uint64_t pending)
{
	uint64_t now = ops - pending;
	while (pending) {
		uint64_t k = spe_sink_skip(v->sink, pending, now);
		pending -= k;
		now += k;
		if (pending) {
			struct ap_spe_op op;
			memset(&op, 0, sizeof(op));
			v->spe_batch_mismatch++;
			spe_sink_op(v->sink, &op, now);
			pending--;
			now++;
		}
	}
}

/* The SPE part of an executed TB that may hold the next selected operation:
 * flush the batch (pending operations before base), let the TB's
 * operations pass one selection at a time, and return how far the next
 * selection is. */
__attribute__((noinline)) static uint64_t spe_account_tb(struct vcpu_state *v, const struct tb_info *tb,
                                                         uint64_t base, uint64_t pending, uint64_t target,
                                                         int taken, int mispredicted)
{
	uint32_t n = tb->n;
	spe_flush(v, base, pending);
	uint32_t i = (uint32_t)spe_sink_skip(v->sink, n, base);
	if (i < n)
		feed_spe_sampled(v, tb, base, i, target, taken, mispredicted);
	return spe_sink_until_sample(v->sink);
}

/* What the replay of a vCPU reads but never changes, gathered in a local
 * of replay_batch: read through v or from globals, every value would be
 * loaded again after each store the models make (any of which might alias
 * it, as far as the compiler can tell). */
struct replay_env {
	struct ap_uarch_core *core;
	struct mem_slot *slot;
	uint64_t window;        /* detail_window */
	uint16_t issue_latency; /* uarch_cfg.issue_latency */
	uint8_t line_shift;     /* log2 of uarch_cfg.l1d.line_bytes */
	uint8_t timing, sink, count_execs, loop_runs;
};

static inline struct replay_env replay_env_of(struct vcpu_state *v)
{
	return (struct replay_env){ .core = v->core,
		                    .slot = v->slot,
		                    .window = detail_window,
		                    .issue_latency = uarch_cfg.issue_latency,
		                    .line_shift = (uint8_t)__builtin_ctz(uarch_cfg.l1d.line_bytes),
		                    .loop_runs = (uint8_t)opts.loop_runs,
		                    .timing = (uint8_t)opts.timing,
		                    .sink = v->sink != NULL,
		                    .count_execs = (uint8_t)count_execs };
}

/* Account the TB r->cur, whose execution ended; next_pc is where it went
 * (have_next = 0: nowhere, the thread ended). The replay state r is a copy
 * of v->rs held in registers by replay_batch (see there). */
static inline void finish_tb(struct vcpu_state *v, const struct replay_env *env, struct replay_state *r,
                             uint64_t next_pc, int have_next)
{
	const struct tb_info *tb = r->cur;
	uint64_t target = 0;
	int taken = 0;
	int mispredicted = -1; /* -1: not resolved (no next PC), no timing */

	if (tb->ends_in_branch) {
		if (tb->br_direct) {
			target = tb->br_target;
			taken = have_next && next_pc == target;
		} else {
			target = have_next ? next_pc : 0;
			taken = have_next;
		}
		if (have_next && env->timing && r->detail)
			mispredicted = ap_uarch_branch_train(env->core, tb->br_pc, target, tb->br_uarch, taken);
	}

	uint64_t base = r->ops;
	uint32_t n = tb->n;
	r->ops += n;
	if (!env->sink)
		return;
	/* Operations that cannot be selected pass without a call into the
	 * model: that changes nothing it records, because the plugin's
	 * operations complete when sampled (ap_spe_op.inflight = 0), so no
	 * record is completed, and no time read, while unsampled ones pass. */
	if (__builtin_expect(r->ops <= r->next_sel, 1))
		return;
	uint64_t free = spe_account_tb(v, tb, base, base - r->spe_given, target, taken, mispredicted);
	r->spe_given = r->ops;
	r->next_sel = r->ops + free;
}

/* Room for the counter of TB id (amortized: doubling, once per new size).
 * Takes and returns values, so that replay_batch's copy of the replay
 * state never has its address taken. */
struct exec_counts {
	uint64_t *count;
	uint32_t cap;
};

__attribute__((noinline, cold)) static struct exec_counts grow_execs(struct exec_counts c, uint32_t id)
{
	uint32_t cap = c.cap ? c.cap : 1024;
	while (cap <= id)
		cap *= 2;
	uint64_t *n = realloc(c.count, cap * sizeof(*n));
	if (!n)
		fail("out of memory");
	memset(n + c.cap, 0, (cap - c.cap) * sizeof(*n));
	return (struct exec_counts){ n, cap };
}

/* A TB execution starts: account the previous one (its closing branch went
 * to this TB's first instruction). */
static inline void tb_start(struct vcpu_state *v, const struct replay_env *env, struct replay_state *r,
                            const struct tb_info *tb)
{
	if (r->cur)
		finish_tb(v, env, r, tb->vaddr, 1);
	/* Exact counts, per vCPU (see replay_state.execs), when asked for. */
	if (env->count_execs) {
		if (__builtin_expect(tb->id >= r->execs_cap, 0)) {
			struct exec_counts c = grow_execs((struct exec_counts){ r->execs, r->execs_cap }, tb->id);
			r->execs = c.count;
			r->execs_cap = c.cap;
		}
		r->execs[tb->id]++;
	}
	r->cur = tb;
	/* In a timing window when one of the TB's operations lies within
	 * timing_window before the next selected one (operation number
	 * next_sel): operation ops + i is when ops + i + window >= next_sel. */
	if (env->window) {
		r->detail = r->ops + tb->n + env->window > r->next_sel;
		r->detailed_ops += r->detail ? tb->n : 0;
	}
}

/* An access whose base register is the data register of the previous load
 * cannot issue before that load's data arrives: the wait is issue latency
 * (spec/002 5.3.4: dispatched, waiting for its input values). Only direct
 * load-to-address dependencies are seen (the plugin API cannot follow a
 * value through other instructions). */
static inline void add_dependency_stall(const struct replay_env *env, struct replay_state *r,
                                        const struct insn_info *in, struct ap_uarch_result *res)
{
	uint64_t now = r->ops + in->index + r->stall_total;
	if (in->cls.rn == r->dep_reg && r->dep_ready > now) {
		uint64_t stall = r->dep_ready - now;
		uint32_t issue = res->lat_issue + (uint32_t)(stall > 0xFFFF ? 0xFFFF : stall);
		uint32_t total = res->lat_total + (uint32_t)(stall > 0xFFFF ? 0xFFFF : stall);
		res->lat_issue = (uint16_t)(issue > 0xFFFF ? 0xFFFF : issue);
		res->lat_total = (uint16_t)(total > 0xFFFF ? 0xFFFF : total);
		r->stall_total += stall;
		now += stall;
	}
	if (in->dep_rt != AP_A64_NO_REG) {
		r->dep_reg = in->dep_rt;
		/* Data arrives after issue, translation and the access (the
		 * load's own total latency, without the stall just added). */
		r->dep_ready = now + res->lat_total - res->lat_issue + env->issue_latency;
	}
}

static inline void on_access(const struct replay_env *env, struct replay_state *r, uint64_t vaddr,
                             const struct insn_info *in)
{
	enum ap_uarch_access_kind kind = (enum ap_uarch_access_kind)in->access;
	if (!r->detail) {
		/* Outside the timing windows no result is needed, but the caches
		 * and TLBs still follow the program exactly: warming costs only
		 * the line changes, and keeps a working set larger than a cache
		 * from looking smaller than it is. */
		if (env->timing)
			ap_uarch_warm(env->core, vaddr, kind);
		return;
	}
	struct mem_slot *s = &env->slot[in->index];
	/* The access size does not matter to the model: an access that
	 * crosses a line counts as one access of its first line. The kind
	 * comes from the classifier (an atomic is AP_UARCH_ATOMIC whether
	 * QEMU reports its read or its write). */
	if (s->seq != r->ops + 1) {
		/* First access of the instruction in this TB execution: the
		 * model writes the slot directly (no copy of the result). */
		s->seq = r->ops + 1;
		s->vaddr = vaddr;
		if (env->timing) {
			ap_uarch_access(env->core, vaddr, 0, kind, &s->res);
			add_dependency_stall(env, r, in, &s->res);
		}
		return;
	}
	/* A further access of the same instruction (pairs, structures). */
	if (vaddr < s->vaddr)
		s->vaddr = vaddr;
	if (!env->timing)
		return;
	struct ap_uarch_result res;
	ap_uarch_access(env->core, vaddr, 0, kind, &res);
	s->res.events |= res.events;
	if (res.lat_total > s->res.lat_total) {
		s->res.lat_total = res.lat_total;
		s->res.lat_xlat = res.lat_xlat;
		s->res.data_source = res.data_source;
		s->res.has_data_source = res.has_data_source;
	}
}

/* The end of a thread's execution (it exited, or the program did): replay
 * what its log still holds, account its last TB and give the SPE model its
 * pending operations. */
/* Replay what the thread's log holds (its model thread, if any, done
 * with it): afterwards the caller may read and change the replay state. */
static void replay_logged(struct vcpu_state *v)
{
	event_ring_drain(&v->ring);
	v->log = event_ring_current(&v->ring);
}

/* Give the SPE model the operations that passed without it so far (none
 * of them selected, as finish_tb ensures), so that SAMPLE_POP counts them. */
static void spe_catch_up(struct vcpu_state *v)
{
	if (!v->sink)
		return;
	spe_flush(v, v->rs.ops, v->rs.ops - v->rs.spe_given);
	v->rs.spe_given = v->rs.ops;
}

static void finish_thread(struct vcpu_state *v)
{
	replay_logged(v);
	struct replay_state *r = &v->rs;
	struct replay_env env = replay_env_of(v);
	if (r->cur) {
		finish_tb(v, &env, r, 0, 0);
		r->cur = NULL;
	}
	r->last_what = 0; /* a new thread on this vCPU starts no run */
	spe_catch_up(v);
}

/* A loop of one TB, replayed a run at a time. Event e repeats the last
 * one (an announcing access or a TB start): the TB r->cur runs again
 * straight after itself. Each such execution, one by one, would train the
 * predictor with the TB's closing branch, count the TB's operations and
 * make its one access, and nothing else (a TB with more accesses logs more
 * events, so the last event would not be the same). When all of that
 * changes nothing but counts for a run of them, the run is taken at once,
 * with the same results:
 *   - every access is to the line of the previous one, with one core: an
 *     L1D and TLB hit that changes nothing (ap_uarch_access_repeat; the
 *     same test ap_uarch_warm makes before it returns at once);
 *   - no operation of the run is selected for sampling (ops stays at or
 *     below next_sel, as finish_tb's fast case requires), so none needs
 *     its description; the last execution's slot is written as on_access
 *     would write it, for a sample in the execution that follows;
 *   - with timing windows, no execution of the run is in one (tb_start):
 *     then nothing is trained or timed, only counted;
 *   - otherwise (each execution in detail) the predictor is saturated on
 *     the branch (ap_uarch_branch_repeat), and no access waits for a
 *     load's data (add_dependency_stall), not the first and not the later
 *     ones. A store, or a load into another register than its address's,
 *     leaves the wait for that address where it was while the executions
 *     move on: none waits if the first does not. A load whose address is
 *     its own last data (a pointer chase round one line) waits for the
 *     one before unless that data comes within the TB's n operations (the
 *     first of the run waits on the execution before, whose latency may
 *     differ: both are checked).
 * Returns the event after the run, or e (nothing changed) when it cannot
 * be taken: then e is replayed as usual. A run costs a comparison or two
 * per event instead of the models' calls: loops that walk memory a line at
 * a time (copies, fills, sums, string scans) spend most of their events in
 * runs. */
__attribute__((always_inline)) static inline const struct plugin_event *
replay_run(const struct replay_env *env, struct replay_state *r, const struct plugin_event *e,
           const struct plugin_event *end, uint64_t stop)
{
	uintptr_t raw = e->what;
	const struct insn_info *in = NULL;
	const struct tb_info *tb;
	if ((raw & 3) == EV_START_ACCESS) {
		in = (const struct insn_info *)(raw & ~(uintptr_t)3);
		tb = in->tb;
	} else if ((raw & 3) == EV_TB_START) {
		tb = (const struct tb_info *)(raw & ~(uintptr_t)3);
	} else {
		return e;
	}
	if (tb != r->cur)
		return e;
	/* How many executions may start before the run must stop: before
	 * the one that holds the next selected operation, or with timing
	 * windows the first one in a window (tb_start's test). */
	uint64_t n = tb->n, max = (uint64_t)(end - e), room = max;
	if (env->window) {
		/* Execution j of the run starts at ops + j * n and is outside
		 * the windows while ops + (j + 1) * n + window <= next_sel. The
		 * one under way (j = 0) is inside one exactly when room is 0. */
		uint64_t last = r->ops + n + env->window;
		room = r->next_sel >= last ? (r->next_sel - last) / n : 0;
	} else if (env->sink) {
		room = r->next_sel > r->ops ? (r->next_sel - r->ops) / n : 0;
	}
	if (room < max)
		max = room;
	/* Interleaved replay: the run ends about where the clock meets stop
	 * (the last execution may pass it, as a single event may). Not on
	 * its own (stop is then UINT64_MAX, a constant in replay_batch's
	 * fast copy): no division there. */
	if (stop != UINT64_MAX && max >= 2) {
		uint64_t clock = r->ops + r->stall_total, to_stop = stop > clock ? (stop - clock) / n + 1 : 1;
		if (to_stop < max)
			max = to_stop;
	}
	if (max < 2) /* one event: the usual path costs no more */
		return e;
	uint64_t k = 1;
	struct ap_uarch_result res;
	if (in) {
		uint64_t line = e->vaddr >> env->line_shift;
		while (k < max && e[k].what == raw && e[k].vaddr >> env->line_shift == line)
			k++;
		if (!ap_uarch_access_repeat(env->core, e->vaddr, (enum ap_uarch_access_kind)in->access, 0, &res))
			return e;
	} else {
		while (k < max && e[k].what == raw)
			k++;
	}
	if (!env->window) { /* in detail; outside the windows a run is only counted */
		if (in) {
			uint64_t now = r->ops + n + in->index + r->stall_total;
			if (in->cls.rn == r->dep_reg && r->dep_ready > now)
				return e;
			if (in->dep_rt != AP_A64_NO_REG && in->cls.rn == in->dep_rt &&
			    (uint64_t)res.lat_total - res.lat_issue + env->issue_latency > n)
				return e;
		}
		/* What finish_tb works out for a TB followed by itself (the
		 * last check: it counts the branches when it passes). */
		uint64_t target = tb->br_direct ? tb->br_target : tb->vaddr;
		int taken = tb->br_direct ? tb->vaddr == tb->br_target : 1;
		if (tb->ends_in_branch &&
		    !ap_uarch_branch_repeat(env->core, tb->br_pc, target, tb->br_uarch, taken, k))
			return e;
	}
	r->ops += k * n;
	r->run_ops += k * n;
	if (env->count_execs)
		r->execs[tb->id] += k; /* room: the TB has run here before */
	if (in && !env->window) {
		ap_uarch_access_repeat(env->core, e->vaddr, (enum ap_uarch_access_kind)in->access, k, &res);
		struct mem_slot *s = &env->slot[in->index];
		s->seq = r->ops + 1;
		s->vaddr = e[k - 1].vaddr;
		s->res = res;
		if (in->dep_rt != AP_A64_NO_REG) {
			r->dep_reg = in->dep_rt;
			r->dep_ready = r->ops + in->index + r->stall_total + res.lat_total - res.lat_issue +
			               env->issue_latency;
		}
	}
	return e + k;
}

/* When event e's instruction comes on the model clock of add_dependency_stall
 * (one cycle per operation plus the stalls): a TB start first finishes the
 * TB under way. */
static inline uint64_t event_clock(const struct replay_state *r, const struct plugin_event *e)
{
	uintptr_t what = e->what & ~(uintptr_t)3;
	uint64_t at = r->ops + r->stall_total;
	if ((e->what & 3) == EV_ACCESS)
		return at + ((const struct insn_info *)what)->index;
	at += r->cur ? r->cur->n : 0;
	if ((e->what & 3) == EV_START_ACCESS)
		at += ((const struct insn_info *)what)->index;
	return at;
}

/* Replay events [e, end) of the vCPU's log through the models. The replay
 * state is copied into a local for the batch: with its address never
 * leaving this function, the compiler keeps it in registers, where through
 * v it would reload and store it around every store the models make (any
 * of which might alias it). Always inlined, so that replay_batch can
 * compile it again with the options known. */
__attribute__((always_inline)) static inline const struct plugin_event *
replay_events(struct vcpu_state *v, const struct replay_env *env, const struct plugin_event *e,
              const struct plugin_event *end, uint64_t stop, const uint64_t *met)
{
	struct replay_state r = v->rs;
	uint64_t met_before = met ? *met : 0;
	/* Without timing windows every TB is replayed in detail (vcpu_get
	 * set it; only tb_start with a window changes it): saying so lets
	 * the compiler drop the tests. */
	if (!env->window)
		r.detail = 1;
	for (; e < end; e++) {
		/* Interleaved with other vCPUs (replay_hub.h; stop is
		 * UINT64_MAX otherwise): stop at the first event whose
		 * instruction comes at or after stop on the model clock. */
		if (stop != UINT64_MAX) {
			r.clock = event_clock(&r, e);
			if (r.clock >= stop || (met && *met != met_before))
				break;
		}
		if (e->what == r.last_what && env->loop_runs && env->timing) {
			const struct plugin_event *next = replay_run(env, &r, e, end, stop);
			if (next != e) {
				e = next - 1;
				continue;
			}
		}
		r.last_what = e->what;
		uintptr_t what = e->what & ~(uintptr_t)3;
		switch (e->what & 3) {
		case EV_TB_START:
			tb_start(v, env, &r, (const struct tb_info *)what);
			break;
		case EV_START_ACCESS:
			tb_start(v, env, &r, ((const struct insn_info *)what)->tb);
			/* fall through */
		default:
			on_access(env, &r, e->vaddr, (const struct insn_info *)what);
			break;
		}
	}
	v->rs = r;
	return e;
}

/* Replay a batch of the vCPU's event log through the models (event_ring.h).
 * Flattened: the per-event path (TB accounting, the branch predictor, the
 * access fast path) inlines into one loop; the rare paths stay out of line
 * (noinline). The usual recording (full timing, the SPE model, no timing
 * window, no per-PC counts) gets a copy of the loop in which those options
 * are constants, without their tests on every event: two, one for a vCPU
 * replayed on its own and one for the hub's turns, which watch the clock. */
__attribute__((flatten, noinline)) static uint32_t replay_batch(void *ctx, const struct plugin_event *ev,
                                                              uint32_t n, uint64_t stop, int until_meeting)
{
	struct vcpu_state *v = ctx;
	struct replay_env env = replay_env_of(v);
	const struct plugin_event *end;
	/* The hub's turn ends after the first access that meets another
	 * core's write (uarch.h ap_uarch_core_met_others), when asked. */
	const uint64_t *met = until_meeting && env.core ? ap_uarch_core_met_others(env.core) : NULL;
	if (env.timing && env.sink && !env.window && !env.count_execs && env.loop_runs) {
		env.timing = 1;
		env.sink = 1;
		env.window = 0;
		env.count_execs = 0;
		env.loop_runs = 1;
		if (stop == UINT64_MAX) /* a vCPU on its own: no clock to watch */
			end = replay_events(v, &env, ev, ev + n, UINT64_MAX, NULL);
		else /* interleaved (replay_hub.h) */
			end = replay_events(v, &env, ev, ev + n, stop, met);
	} else {
		end = replay_events(v, &env, ev, ev + n, stop, met);
	}
	return (uint32_t)(end - ev);
}

/* The model clock the hub orders vCPUs by: one cycle per operation plus
 * the dependency stalls (as add_dependency_stall counts time). */
static uint64_t replay_clock(void *ctx)
{
	const struct vcpu_state *v = ctx;
	uint64_t done = v->rs.ops + v->rs.stall_total;
	return v->rs.clock > done ? v->rs.clock : done;
}

/* ---- callbacks ------------------------------------------------------------ */

static inline struct vcpu_state *vcpu_of(unsigned int vcpu_index)
{
	struct vcpu_state *v = vcpus[vcpu_index];
	if (__builtin_expect(!v || !v->active || atomic_load_explicit(&stop_requested, memory_order_relaxed), 0))
		v = vcpu_get(vcpu_index);
	return v;
}

static inline void log_event(struct vcpu_state *v, uintptr_t what, uint64_t vaddr)
{
	struct event_batch *b = v->log;
	struct plugin_event *e = &b->ev[b->n++];
	e->what = what;
	e->vaddr = vaddr;
	if (__builtin_expect(b->n == EVENT_RING_BATCH, 0))
		v->log = event_ring_publish(&v->ring);
}

/* Registered only on TBs without a memory instruction that can announce
 * the TB's start (see on_tb_trans). */
static void on_tb_exec(unsigned int vcpu_index, void *udata)
{
	log_event(vcpu_of(vcpu_index), (uintptr_t)udata | EV_TB_START, 0);
}

/* One read/write callback per memory instruction: with separate
 * QEMU_PLUGIN_MEM_R and QEMU_PLUGIN_MEM_W callbacks, QEMU 7.2 calls the W
 * one for loads as well (measured: stream's 4.2M loads and 4.2M stores gave
 * 4.2M R and 8.4M W calls). Whether it is a load or a store is known from
 * the encoding, so QEMU is not asked. A TB's start was logged before any of
 * its accesses, so the vCPU exists. */
static void on_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	(void)info;
	log_event(vcpus[vcpu_index], (uintptr_t)udata | EV_ACCESS, vaddr);
}

/* The first memory instruction of a TB when it makes exactly one access
 * (AP_A64_F_ONE_ACCESS) and nothing before it can leave the TB: its callback
 * fires once on every execution of the TB, so it also announces that the
 * TB started, and the TB needs no execution callback of its own. That
 * halves QEMU's callbacks on loops with a memory access. */
static void on_mem_tb_start(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                            void *udata)
{
	(void)info;
	log_event(vcpu_of(vcpu_index), (uintptr_t)udata | EV_START_ACCESS, vaddr);
}

static void checkpoint(int sig);
static void release_all(void);

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	/* QEMU has set up its signal handling by the first translation. */
	if (__builtin_expect(!atomic_load_explicit(&signals_armed, memory_order_relaxed), 0) &&
	    !atomic_exchange(&signals_armed, 1))
		stop_signal_arm(checkpoint, release_all, &stop_requested);
	size_t n = qemu_plugin_tb_n_insns(tb);
	if (n == 0 || n > PLUGIN_MAX_TB_INSNS)
		fail("unexpected translation block size");
	struct tb_info *t = calloc(1, sizeof(*t) + n * sizeof(t->insn[0]));
	if (!t)
		fail("out of memory");
	t->vaddr = qemu_plugin_tb_vaddr(tb);
	t->n = (uint32_t)n;
	int announced = 0; /* a memory callback announces the TB's start */
	int seen_ldst = 0;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct insn_info *in = &t->insn[i];
		uint32_t word = 0;
		size_t sz = qemu_plugin_insn_size(insn);
		memcpy(&word, qemu_plugin_insn_data(insn), sz < 4 ? sz : 4);
		in->pc = qemu_plugin_insn_vaddr(insn);
		if (i == 0)
			guest_maps_note(in->pc, qemu_plugin_insn_haddr(insn));
		in->tb = t;
		in->index = (uint16_t)i;
		ap_a64_classify(word, &in->cls);
		if (in->cls.kind != AP_A64_LDST)
			continue;
		uint16_t f = in->cls.flags;
		in->dep_rt = (f & AP_A64_F_LOAD) && in->cls.rt != AP_A64_NO_REG && in->cls.rt != 31 ? in->cls.rt
		                                                                              : AP_A64_NO_REG;
		in->access = (uint8_t)((f & AP_A64_F_ATOMIC) ? AP_UARCH_ATOMIC
		                       : (f & AP_A64_F_LOAD) ? AP_UARCH_LOAD
		                                          : AP_UARCH_STORE);
		int announce = a64_announces_tb(&in->cls, !seen_ldst);
		seen_ldst = 1;
		qemu_plugin_register_vcpu_mem_cb(insn, announce ? on_mem_tb_start : on_mem, QEMU_PLUGIN_CB_NO_REGS,
		                                 QEMU_PLUGIN_MEM_RW, in);
		announced |= announce;
	}
	const struct insn_info *last = &t->insn[n - 1];
	if (last->cls.kind == AP_A64_BRANCH) {
		uint16_t f = last->cls.flags;
		t->ends_in_branch = 1;
		t->br_pc = last->pc;
		t->br_direct = (f & AP_A64_F_DIRECT_TARGET) != 0;
		t->br_target = t->br_direct ? last->pc + (uint64_t)last->cls.offset : 0;
		t->br_uarch = (uint8_t)((f & AP_A64_F_COND ? AP_UARCH_BR_COND : 0) |
		                        (f & AP_A64_F_INDIRECT ? AP_UARCH_BR_INDIRECT : 0) |
		                        (f & AP_A64_F_CALL ? AP_UARCH_BR_CALL : 0) |
		                        (f & AP_A64_F_RETURN ? AP_UARCH_BR_RETURN : 0));
	}
	if (!announced)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
	pthread_mutex_lock(&tb_lock);
	t->id = (uint32_t)n_tbs_translated;
	t->next = all_tbs;
	all_tbs = t;
	n_tbs_translated++;
	pthread_mutex_unlock(&tb_lock);
}

/* A thread ends: account its last TB (it ended in the exit system call). */
static void on_vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? vcpus[vcpu_index] : NULL;
	if (!v)
		return;
	pthread_mutex_lock(&output_lock);
	finish_thread(v);
	v->active = 0; /* a new thread may reuse the index: new tid */
	pthread_mutex_unlock(&output_lock);
}

#define AARCH64_NR_RT_SIGACTION 134
#define AARCH64_NR_EXECVE 221
#define AARCH64_NR_EXECVEAT 281

static void exec_checkpoint(void);

/* A system call starts: the thread's log is complete until it returns
 * (a checkpoint need not wait for it). rt_sigaction is followed for
 * stop_signal.h. */
static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2,
                       uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	(void)id, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? vcpus[vcpu_index] : NULL;
	if (!v)
		return;
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
	if (v->ring.hub && v->log->n)
		v->log = event_ring_publish(&v->ring);
	atomic_store(&v->in_syscall, 1);
	if (v->ring.hub)
		replay_hub_poke(&hub);
	if (num == AARCH64_NR_EXECVE || num == AARCH64_NR_EXECVEAT)
		exec_checkpoint();
}

/* An exec failed with ENOEXEC: if its file is an aarch64 program, the
 * host has no binfmt_misc handler to run it under QEMU (QEMU 7.2's execve
 * hands the file to the host kernel), which armprof record's summary says,
 * since the program's own message ("Exec format error") does not. */
static void note_failed_exec(uint64_t guest_name, int relative_ok)
{
	/* The call just read the name from there: it is mapped. */
	const char *name = guest_maps_host(guest_name);
	char path[sizeof(aarch64_exec_failed_path)];
	size_t n = 0;
	while (name && n + 1 < sizeof(path) && name[n])
		path[n] = name[n], n++;
	path[n] = 0;
	if (!n || (name && name[n]) || (path[0] != '/' && !relative_ok) || !ap_perf_elf_is_aarch64(path))
		return;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)path[i] < 0x20)
			path[i] = '?'; /* one line in the stats file */
	pthread_mutex_lock(&exec_failed_lock);
	if (!aarch64_execs_failed++)
		memcpy(aarch64_exec_failed_path, path, n + 1);
	pthread_mutex_unlock(&exec_failed_lock);
}

static void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, int64_t ret)
{
	(void)id;
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? vcpus[vcpu_index] : NULL;
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
	/* After the store: a checkpoint that saw the thread in its call
	 * cannot have finished before this load sees its request. */
	if (atomic_load(&stop_requested))
		vcpu_get(vcpu_index);
}

/* ---- outputs (plugin_outputs.c) --------------------------------------------- */

static void write_outputs(void)
{
	/* A thread's failed exec may be noted meanwhile (a checkpoint holds
	 * only the threads that run guest code). */
	char failed_path[sizeof(aarch64_exec_failed_path)];
	pthread_mutex_lock(&exec_failed_lock);
	uint64_t execs_failed = aarch64_execs_failed;
	memcpy(failed_path, aarch64_exec_failed_path, sizeof(failed_path));
	pthread_mutex_unlock(&exec_failed_lock);
	struct plugin_run_view run = { .opts = &opts,
		                       .vcpus = vcpus,
		                       .all_tbs = &all_tbs,
		                       .tb_lock = &tb_lock,
		                       .n_tbs_translated = &n_tbs_translated,
		                       .entry_code = entry_code,
		                       .detail_window = detail_window,
		                       .stopped_by_signal = stopped_by_signal,
		                       .ended_by_exec = ended_by_exec,
		                       .aarch64_execs_failed = execs_failed,
		                       .aarch64_exec_failed_path = failed_path,
		                       .checkpoints = checkpoints,
		                       .hub = use_hub ? &hub : NULL,
		                       .thread_ids = thread_ids,
		                       .n_thread_ids = n_thread_ids,
		                       .child = getpid() != first_pid };
	plugin_write_outputs(&run);
}

/* The run is over (sig: the signal that ends it, 0 at exit), with no
 * vCPU running: finish every thread and write the outputs. Under
 * output_lock. */
static void finish_and_write(int sig)
{
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		struct vcpu_state *v = vcpus[i];
		if (!v)
			continue;
		finish_thread(v);
		if (v->sink)
			spe_sink_finish(v->sink);
	}
	stopped_by_signal = sig;
	write_outputs();
}

static void on_exit_cb(qemu_plugin_id_t id, void *p)
{
	if (setup_failed)
		return;
	pthread_mutex_lock(&output_lock);
	finish_and_write(0);
	pthread_mutex_unlock(&output_lock);
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
	pthread_mutex_lock(&hold_lock);
	atomic_store(&stop_requested, 1);
	int all = 0;
	for (;;) {
		all = 1;
		for (unsigned i = 0; i < PLUGIN_MAX_VCPUS && all; i++) {
			struct vcpu_state *v = vcpus[i];
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
		pthread_cond_timedwait(&hold_cond, &hold_lock, &step);
	}
	pthread_mutex_unlock(&hold_lock);
	return all;
}

static void release_all(void)
{
	pthread_mutex_lock(&hold_lock);
	atomic_store(&stop_requested, 0);
	pthread_cond_broadcast(&hold_cond);
	pthread_mutex_unlock(&hold_lock);
}

/* A signal at its default action is about to end the program
 * (stop_signal.h): write the outputs as they stand, with every vCPU held
 * (they stay held until release_all).
 * Nothing is finished: each thread's TB under way stays open, and the run
 * goes on unchanged should the program survive (a blocked signal). Its
 * operations so far are given to the SPE model (none of them is selected,
 * as in finish_tb), so that SAMPLE_POP counts them. */
/* Hold every vCPU (hold_all) and replay what each logged so far, for
 * outputs written as they stand; 0 if they could not all be held. Under
 * output_lock. */
static int hold_and_replay_all(void)
{
	if (setup_failed || !hold_all())
		return 0;
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		struct vcpu_state *v = vcpus[i];
		if (!v || !v->active)
			continue;
		replay_logged(v);
		spe_catch_up(v);
	}
	return 1;
}

static void checkpoint(int sig)
{
	pthread_mutex_lock(&output_lock);
	if (hold_and_replay_all()) {
		stopped_by_signal = sig;
		checkpoints++;
		last_checkpoint_signal = sig;
		write_outputs();
		stopped_by_signal = 0;
	}
	pthread_mutex_unlock(&output_lock);
}

/* The calling thread is entering execve (it counts as in its system call).
 * A successful exec replaces QEMU's process image, and with it this
 * plugin, without an exit callback: so the outputs are written first, as
 * at a checkpoint, with every other vCPU held (the kernel ends them at the
 * exec). The new program then runs as QEMU's execve makes it (without the
 * plugin: QEMU 7.2 cannot carry it across). Should the exec fail (the file
 * is not there, or an aarch64 program with no binfmt_misc handler), the run
 * goes on unchanged and its exit writes the outputs again. */
static void exec_checkpoint(void)
{
	pthread_mutex_lock(&output_lock);
	if (hold_and_replay_all()) {
		ended_by_exec = 1;
		write_outputs();
		ended_by_exec = 0;
	}
	pthread_mutex_unlock(&output_lock);
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
static void on_fatal_signal(int sig)
{
	int dumps_core = sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP ||
	                 sig == SIGABRT || sig == SIGQUIT;
	if (setup_failed || !dumps_core)
		return;
	pthread_mutex_lock(&output_lock);
	if (checkpoints && last_checkpoint_signal == sig) {
		pthread_mutex_unlock(&output_lock);
		return;
	}
	finish_and_write(sig);
	pthread_mutex_unlock(&output_lock);
}

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
static void after_fork_in_child(void)
{
	/* The parent may have been in a checkpoint: its locks and request
	 * are not the child's. */
	pthread_mutex_init(&hold_lock, NULL);
	pthread_cond_init(&hold_cond, NULL);
	pthread_mutex_init(&output_lock, NULL);
	atomic_store(&stop_requested, 0);
	stopped_by_signal = 0;
	checkpoints = 0;
	n_thread_ids = 0; /* the child's threads are its own */
	pthread_mutex_init(&exec_failed_lock, NULL);
	aarch64_execs_failed = 0; /* and so are its execs */
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		struct vcpu_state *v = vcpus[i];
		if (!v)
			continue;
		ap_uarch_core_destroy(v->core); /* no longer one of the model's cores */
		spe_sink_free(v->sink);
		free(v->rs.execs);
		/* v itself is left behind: its ring's lock may be held by a
		 * model thread of the parent's. */
		vcpus[i] = NULL;
	}
	if (use_hub)
		replay_hub_after_fork(&hub);
	stop_signal_after_fork();
}

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
	if (plugin_options_load(&opts, cfg, err, sizeof(err)) < 0 ||
	    plugin_uarch_config(&uarch_cfg, opts.uarch_keys, err, sizeof(err)) < 0) {
		qemu_plugin_outs("armprof plugin: ");
		qemu_plugin_outs(err);
		qemu_plugin_outs("\n");
		return -1;
	}
	if (opts.model && opts.timing)
		detail_window = opts.timing_window;
	count_execs = opts.counts[0] != 0;
	if (opts.pipeline < 0)
		opts.pipeline = sysconf(_SC_NPROCESSORS_ONLN) > 1;
	/* Without the timing model threads cannot meet (no caches, constant
	 * latencies, a clock of their own each): interleaving would change
	 * no output and cost a model thread for all of them (Debian's sort
	 * with two threads: 2.5 s of models' CPU instead of 1.3 s). */
	use_hub = opts.pipeline && opts.interleave && opts.timing;
	if (use_hub) {
		/* Calm windows replay side by side on the host's other CPUs. */
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		replay_hub_init(&hub, replay_clock, opts.interleave, opts.seed, &stop_requested,
		                cpus > 1 ? (unsigned)(cpus - 1) : 0);
	}
	if (opts.timing && ap_uarch_system_create(&uarch_sys, &uarch_cfg) < 0) {
		qemu_plugin_outs("armprof plugin: inconsistent timing-model configuration\n");
		return -1;
	}
	first_pid = getpid();
	pthread_atfork(NULL, NULL, after_fork_in_child);
	/* armprof record preloads this into QEMU; run by hand, it is not there. */
	void (*register_fatal)(void (*)(int));
	*(void **)&register_fatal = dlsym(RTLD_DEFAULT, "armprof_qemu_on_fatal_signal");
	if (register_fatal)
		register_fatal(on_fatal_signal);
	stop_signal_note_inherited();
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_vcpu_exit_cb(id, on_vcpu_exit);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}

/* The replay: a vCPU's event log (event_log.c) replayed through the timing
 * model in order, a batch at a time (event_ring.h; interleaved with the
 * other vCPUs' on the hub's thread, replay_hub.h). A TB is accounted when
 * the next one starts (or the thread exits), so its closing branch knows
 * where it went: taken / not taken and the target come from the next
 * executed PC. Every access and branch goes through the timing model
 * (lib/uarch) so caches, TLBs and predictor see the whole program (with a
 * timing window, the predictor only the TBs before each sample, the caches
 * every access still); the SPE model gets the operations in batches
 * (replay_spe.c). Everything on the per-event path is in this file, so
 * that replay_batch compiles it into one loop. */
#include <stdlib.h>
#include <string.h>

#include "call_stack.h"
#include "plugin.h"
#include "spe_sink.h"

/* What the replay of a vCPU reads but never changes, gathered in a local
 * of replay_batch: read through v or from plugin (plugin_state.h), every value would be
 * loaded again after each store the models make (any of which might alias
 * it, as far as the compiler can tell). */
struct replay_env {
	struct ap_uarch_core *core;
	struct call_stack *cs;
	struct mem_slot *slot;
	uint64_t window;        /* plugin.detail_window */
	uint16_t issue_latency; /* plugin.uarch_cfg.issue_latency */
	uint8_t line_shift;     /* log2 of plugin.uarch_cfg.l1d.line_bytes */
	uint8_t timing, sink, count_execs, loop_runs;
	uint8_t stacks, count_paths; /* follow the call stack (call_stack.h); count per path */
	uint8_t pbt;                 /* follow the last taken branch (spe.pbt, LATER-PBT-2) */
};

static inline struct replay_env replay_env_of(struct vcpu_state *v)
{
	return (struct replay_env){ .core = v->core,
		                    .cs = v->cs,
		                    .slot = v->slot,
		                    .window = plugin.detail_window,
		                    .issue_latency = plugin.uarch_cfg.issue_latency,
		                    .line_shift = (uint8_t)__builtin_ctz(plugin.uarch_cfg.l1d.line_bytes),
		                    .loop_runs = (uint8_t)plugin.opts.loop_runs,
		                    .timing = (uint8_t)plugin.opts.timing,
		                    .sink = v->sink != NULL,
		                    .count_execs = (uint8_t)plugin.count_execs,
		                    .stacks = v->cs != NULL,
		                    .count_paths = v->cs != NULL && plugin.count_paths,
		                    .pbt = (uint8_t)(v->sink && spe_sink_pbt(v->sink)) };
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

	/* The TB's operations, its closing branch too, come after the
	 * previous taken branch; its own, when taken, is the next one's. */
	uint64_t prev_target = r->prev_target;
	if (env->pbt && taken)
		r->prev_target = target;

	uint64_t base = r->ops;
	uint32_t n = tb->n;
	r->ops += n;
	/* Operations that cannot be selected pass without a call into the
	 * model: that changes nothing it records, because the plugin's
	 * operations complete when sampled (ap_spe_op.inflight = 0), so no
	 * record is completed, and no time read, while unsampled ones pass.
	 * One of the TB's is when they pass next_sel (tb_sampled). */
	if (__builtin_expect(r->ops <= r->next_sel || !env->sink, 1))
		return;
	uint64_t free = spe_account_tb(v, tb, base, base - r->spe_given, target, taken, mispredicted,
	                               prev_target);
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
		plugin_fail("out of memory");
	memset(n + c.cap, 0, (cap - c.cap) * sizeof(*n));
	return (struct exec_counts){ n, cap };
}

/* A TB execution starts: account the previous one (its closing branch went
 * to this TB's first instruction). */
static inline void tb_start(struct vcpu_state *v, const struct replay_env *env, struct replay_state *r,
                            const struct tb_info *tb)
{
	if (r->cur) {
		finish_tb(v, env, r, tb->vaddr, 1);
		/* After: the samples of the TB that ended had its stack. */
		if (env->stacks)
			cs_after_tb(v->cs, r->cur, tb->vaddr);
	}
	if (env->count_paths)
		cs_count_block(v->cs, tb->vaddr, tb->n);
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

/* The slot's result, to be changed: the model's own is copied first. */
static inline struct ap_uarch_result *own_result(struct mem_slot *s)
{
	if (s->res != &s->own) {
		s->own = *s->res;
		s->res = &s->own;
	}
	return &s->own;
}

/* The TB execution under way (r->cur) holds the next selected operation:
 * its operations pass next_sel (finish_tb's test, made before the
 * execution ends). Only then are its accesses kept in the mem_slots. */
static inline int tb_sampled(const struct replay_env *env, const struct replay_state *r)
{
	return env->sink && r->ops + r->cur->n > r->next_sel;
}

/* A 16-bit latency that waited stall more cycles, saturated. */
static inline uint16_t lat_plus_stall(uint16_t lat, uint64_t stall)
{
	uint32_t v = lat + (uint32_t)(stall > 0xFFFF ? 0xFFFF : stall);
	return (uint16_t)(v > 0xFFFF ? 0xFFFF : v);
}

/* An access whose base register is the data register of the previous load
 * cannot issue before that load's data arrives: the wait is issue latency
 * (spec/002 5.3.4: dispatched, waiting for its input values). Only direct
 * load-to-address dependencies are seen (the plugin API cannot follow a
 * value through other instructions). The first access of instruction in
 * (res: the model's result for it) moves the clock; returns the stall it
 * waited (0: none), which a kept result (keep_access) adds to its
 * latencies. */
static inline uint64_t dependency_stall(const struct replay_env *env, struct replay_state *r,
                                        const struct insn_info *in, const struct ap_uarch_result *res)
{
	uint64_t now = r->ops + in->index + r->stall_total, stall = 0;
	if (in->cls.rn == r->dep_reg && r->dep_ready > now) {
		stall = r->dep_ready - now;
		r->stall_total += stall;
		now += stall;
	}
	if (in->dep_rt != AP_A64_NO_REG) {
		r->dep_reg = in->dep_rt;
		/* Data arrives after issue, translation and the access: the
		 * model's total latency for the load less its issue, without
		 * the stall. */
		r->dep_ready = now + res->lat_total - res->lat_issue + env->issue_latency;
	}
	return stall;
}

/* An access of the TB execution that holds the next selected operation
 * (tb_sampled), kept in its instruction's slot s for the sampled
 * operation's description (replay_spe.c), several accesses of one
 * instruction combined. seq: the execution's first operation number + 1;
 * res: the timing model's result (NULL without timing), which waited
 * stall cycles for a load's data; further: not the instruction's first
 * access in this execution (on_access). Out of line, and given values
 * only: the replay's state stays in replay_events' registers. */
__attribute__((noinline)) static void keep_access(struct mem_slot *s, uint64_t seq, uint64_t vaddr, int further,
                                                  const struct ap_uarch_result *res, uint64_t stall)
{
	if (!further) {
		s->seq = seq;
		s->vaddr = vaddr;
		if (!res)
			return;
		/* The slot keeps the model's own result (no copy) unless a
		 * stall changes it. */
		s->res = res;
		if (stall) {
			struct ap_uarch_result *mine = own_result(s);
			mine->lat_issue = lat_plus_stall(mine->lat_issue, stall);
			mine->lat_total = lat_plus_stall(mine->lat_total, stall);
		}
		return;
	}
	/* A further access of the same instruction (pairs, structures). */
	if (vaddr < s->vaddr)
		s->vaddr = vaddr;
	if (!res)
		return;
	struct ap_uarch_result *mine = own_result(s);
	mine->events |= res->events;
	if (res->lat_total > mine->lat_total) {
		mine->lat_total = res->lat_total;
		mine->lat_xlat = res->lat_xlat;
		mine->data_source = res->data_source;
		mine->has_data_source = res->has_data_source;
	}
}

/* A data access of instruction in. further: not the instruction's first
 * access in this TB execution (a pair, a structure load): its accesses
 * are logged one after the other, with no other event between them (the
 * next execution starts with a TB start or an announcing access, whose
 * event differs), so the event before this one was the same access
 * event (replay_events). */
static inline void on_access(const struct replay_env *env, struct replay_state *r, uint64_t vaddr,
                             const struct insn_info *in, int further)
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
	/* The access size does not matter to the model: an access that
	 * crosses a line counts as one access of its first line. The kind
	 * comes from the classifier (an atomic is AP_UARCH_ATOMIC whether
	 * QEMU reports its read or its write). */
	const struct ap_uarch_result *res = env->timing ? ap_uarch_access(env->core, vaddr, kind) : NULL;
	/* The first access of an instruction moves the dependency clock. */
	uint64_t stall = env->timing && !further ? dependency_stall(env, r, in, res) : 0;
	/* Only the TB execution that holds the next selected operation keeps
	 * its accesses; the others pass with the caches, TLBs and the clock. */
	if (__builtin_expect(tb_sampled(env, r), 0))
		keep_access(&env->slot[in->index], r->ops + 1, vaddr, further, res, stall);
}

/* Replay what the thread's log holds (plugin.h). */
void replay_logged(struct vcpu_state *v)
{
	log_sync(v);
	event_ring_drain(&v->ring);
	v->log = event_ring_current(&v->ring);
	log_attach(v);
}

/* The end of a thread's execution (plugin.h). */
void finish_thread(struct vcpu_state *v)
{
	replay_logged(v);
	struct replay_state *r = &v->rs;
	struct replay_env env = replay_env_of(v);
	if (r->cur) {
		finish_tb(v, &env, r, 0, 0);
		r->cur = NULL;
	}
	r->last_what = 0; /* a new thread on this vCPU starts no run */
	r->prev_target = 0; /* nor knows the last one's branches */
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
 *     load's data (dependency_stall), not the first and not the later
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
	/* A block that calls changes the call stack each time it runs, one
	 * that returns or jumps through a register to its own start when a
	 * frame resumes there: one by one then. */
	if (env->stacks && tb->ends_in_branch &&
	    ((tb->br_uarch & AP_UARCH_BR_CALL) ||
	     ((tb->br_uarch & (AP_UARCH_BR_RETURN | AP_UARCH_BR_INDIRECT)) && cs_resumes_at(env->cs, tb->vaddr))))
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
	/* Every execution of the run but the last one under way ended in
	 * its branch back to the TB's start: the last taken branch's target
	 * (LATER-PBT-2), unless the TB ends in no branch. */
	if (env->pbt && tb->ends_in_branch && (!tb->br_direct || tb->br_target == tb->vaddr))
		r->prev_target = tb->vaddr;
	r->ops += k * n;
	r->run_ops += k * n;
	if (env->count_paths)
		cs_count_block(env->cs, tb->vaddr, (uint32_t)(k * n)); /* the same path each time */
	if (env->stacks && tb->ends_in_branch && (tb->br_uarch & AP_UARCH_BR_RETURN))
		env->cs->unmatched += k; /* as cs_after_tb counts each */
	if (env->count_execs)
		r->execs[tb->id] += k; /* room: the TB has run here before */
	if (in && !env->window) {
		ap_uarch_access_repeat(env->core, e->vaddr, (enum ap_uarch_access_kind)in->access, k, &res);
		struct mem_slot *s = &env->slot[in->index];
		s->seq = r->ops + 1;
		s->vaddr = e[k - 1].vaddr;
		s->own = res;
		s->res = &s->own;
		if (in->dep_rt != AP_A64_NO_REG) {
			r->dep_reg = in->dep_rt;
			r->dep_ready = r->ops + in->index + r->stall_total + res.lat_total - res.lat_issue +
			               env->issue_latency;
		}
	}
	return e + k;
}

/* When event e's instruction comes on the model clock of dependency_stall
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
		uintptr_t prev = r.last_what;
		r.last_what = e->what;
		uintptr_t what = e->what & ~(uintptr_t)3;
		switch (e->what & 3) {
		case EV_TB_START:
			tb_start(v, env, &r, (const struct tb_info *)what);
			break;
		case EV_START_ACCESS:
			tb_start(v, env, &r, ((const struct insn_info *)what)->tb);
			on_access(env, &r, e->vaddr, (const struct insn_info *)what, 0);
			break;
		default: /* the same instruction's access again: a further one */
			on_access(env, &r, e->vaddr, (const struct insn_info *)what, (prev & ~(uintptr_t)3) == what);
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
 * window, no per-PC or per-path counts, no previous branch targets) gets a
 * copy of the loop in which those options are constants, without their tests on every event: two, one for a vCPU
 * replayed on its own and one for the hub's turns, which watch the clock. */
__attribute__((flatten, noinline)) uint32_t replay_batch(void *ctx, const struct plugin_event *ev, uint32_t n,
                                                       uint64_t stop, int until_meeting)
{
	struct vcpu_state *v = ctx;
	struct replay_env env = replay_env_of(v);
	const struct plugin_event *end;
	/* The hub's turn ends after the first access that meets another
	 * core's write (uarch.h ap_uarch_core_met_others), when asked. */
	const uint64_t *met = until_meeting && env.core ? ap_uarch_core_met_others(env.core) : NULL;
	if (env.timing && env.sink && !env.window && !env.count_execs && env.loop_runs && !env.count_paths &&
	    !env.pbt) {
		env.timing = 1;
		env.sink = 1;
		env.window = 0;
		env.count_execs = 0;
		env.loop_runs = 1;
		env.count_paths = 0;
		env.pbt = 0;
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
 * the dependency stalls (as dependency_stall counts time). */
uint64_t replay_clock(void *ctx)
{
	const struct vcpu_state *v = ctx;
	uint64_t done = v->rs.ops + v->rs.stall_total;
	return v->rs.clock > done ? v->rs.clock : done;
}

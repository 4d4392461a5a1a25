/* Execution: the callbacks QEMU makes while the guest runs only append an
 * event to the vCPU's log (struct plugin_event, in batches of an
 * event_ring); replay.c replays the log through the models. They run on
 * every access, so they do no more than that (bench/qemu_callback_floor.c
 * registers the same callbacks doing nothing, for the floor of their
 * cost). */
#include <stdatomic.h>

#include "plugin.h"

/* The vCPU of a callback that may be its thread's first, or the first
 * after a checkpoint was requested: then vcpu_get creates it or holds it. */
static inline struct vcpu_state *vcpu_of(unsigned int vcpu_index)
{
	struct vcpu_state *v = plugin.vcpus[vcpu_index];
	if (__builtin_expect(!v || !v->active ||
	                         atomic_load_explicit(&plugin.stop_requested, memory_order_relaxed),
	                     0))
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
 * the TB's start (see on_tb_trans in translate.c). */
void on_tb_exec(unsigned int vcpu_index, void *udata)
{
	log_event(vcpu_of(vcpu_index), (uintptr_t)udata | EV_TB_START, 0);
}

/* One read/write callback per memory instruction: with separate
 * QEMU_PLUGIN_MEM_R and QEMU_PLUGIN_MEM_W callbacks, QEMU 7.2 calls the W
 * one for loads as well (measured: stream's 4.2M loads and 4.2M stores gave
 * 4.2M R and 8.4M W calls). Whether it is a load or a store is known from
 * the encoding, so QEMU is not asked. A TB's start was logged before any of
 * its accesses, so the vCPU exists. */
void on_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	(void)info;
	log_event(plugin.vcpus[vcpu_index], (uintptr_t)udata | EV_ACCESS, vaddr);
}

/* The first memory instruction of a TB when it makes exactly one access
 * (AP_A64_F_ONE_ACCESS) and nothing before it can leave the TB: its callback
 * fires once on every execution of the TB, so it also announces that the
 * TB started, and the TB needs no execution callback of its own. That
 * halves QEMU's callbacks on loops with a memory access. */
void on_mem_tb_start(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                            void *udata)
{
	(void)info;
	log_event(vcpu_of(vcpu_index), (uintptr_t)udata | EV_START_ACCESS, vaddr);
}

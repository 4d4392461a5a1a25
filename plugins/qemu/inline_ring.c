/* Events logged by inline code: under armprof's own qemu-aarch64 (patch
 * system/qemu/patches/0007), QEMU appends each executed TB's start and
 * each data access to the vCPU's log itself, with a few host instructions
 * generated into the translated code, instead of calling event_log.c's
 * callbacks (about 20-30 ns each under Debian's qemu-user). The entries are
 * the same struct plugin_event, with the same values, in the same order:
 * QEMU writes them straight into the vCPU's current event_batch, and calls
 * on_ring_flush when the batch has no room for the next TB's entries.
 *
 * Found at install with dlsym on the running QEMU: Debian's qemu-aarch64
 * has no such calls, and the plugin then registers the callbacks. */
#define _GNU_SOURCE 1 /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdatomic.h>

#include "plugin.h"

/* patch 0007's calls (include/qemu/qemu-plugin.h there). */
typedef void (*ring_flush_cb_t)(unsigned int vcpu_index, struct qemu_plugin_ring *ring, bool tb_start);
static void (*register_ring_flush_cb)(qemu_plugin_id_t id, ring_flush_cb_t cb);
static void (*register_tb_ring)(struct qemu_plugin_tb *tb, uint64_t what);
static void (*register_mem_ring)(struct qemu_plugin_insn *insn, enum qemu_plugin_mem_rw rw, uint64_t what);

_Static_assert(sizeof(struct plugin_event) == 16 && sizeof(uintptr_t) == 8,
               "QEMU's ring entries are two 64-bit words: plugin_event's layout");

/* QEMU found the vCPU's batch too full for its next TB (tb_start), or for a
 * helper's access inside a TB, or the vCPU has no batch yet (pos == 0: its
 * thread's first TB, or the first after a fork). */
static void on_ring_flush(unsigned int vcpu_index, struct qemu_plugin_ring *ring, bool tb_start)
{
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? plugin.vcpus[vcpu_index] : NULL;
	if (v && v->qring == ring && ring->pos) {
		log_sync(v);
		v->log = event_ring_publish(&v->ring);
		/* Now: a checkpoint may read the log while vcpu_get holds us. */
		log_attach(v);
	}
	/* A TB start is where a callback's vcpu_of would create the vCPU or
	 * hold it for a checkpoint (its log complete: just synced). */
	if (tb_start && (!v || !v->active || atomic_load_explicit(&plugin.stop_requested, memory_order_relaxed)))
		v = vcpu_get(vcpu_index);
	if (!v)
		plugin_fail("an access logged before its thread's first TB");
	v->qring = ring;
	log_attach(v);
}

int inline_ring_setup(qemu_plugin_id_t id)
{
	*(void **)&register_ring_flush_cb = dlsym(RTLD_DEFAULT, "qemu_plugin_register_ring_flush_cb");
	*(void **)&register_tb_ring = dlsym(RTLD_DEFAULT, "qemu_plugin_register_vcpu_tb_exec_ring");
	*(void **)&register_mem_ring = dlsym(RTLD_DEFAULT, "qemu_plugin_register_vcpu_mem_ring");
	if (!plugin.opts.inline_ring || !register_ring_flush_cb || !register_tb_ring || !register_mem_ring)
		return 0;
	register_ring_flush_cb(id, on_ring_flush);
	return 1;
}

void inline_ring_tb(struct qemu_plugin_tb *tb, struct tb_info *t)
{
	register_tb_ring(tb, (uintptr_t)t | EV_TB_START);
}

void inline_ring_mem(struct qemu_plugin_insn *insn, struct insn_info *in, int announce)
{
	register_mem_ring(insn, QEMU_PLUGIN_MEM_RW, (uintptr_t)in | (announce ? EV_START_ACCESS : EV_ACCESS));
}

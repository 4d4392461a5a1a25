/* Events logged by inline code: under armprof's own qemu-aarch64 (QEMU
 * 10.2 with patch system/qemu/patches-10.2/0007), QEMU appends each
 * executed TB's start and each data access to the vCPU's log itself, with
 * a few host instructions generated into the translated code, instead of
 * calling event_log.c's callbacks. The entries are the same struct
 * plugin_event, with the same values, in the same order: QEMU writes them
 * straight into the vCPU's current event_batch.
 *
 * What QEMU 10.2 offers upstream does the rest: the vCPUs' rings live in a
 * scoreboard (one struct qemu_plugin_ring per vCPU), the appends are inline
 * operations on its entry (the patch's QEMU_PLUGIN_INLINE_RING_APPEND,
 * registered with qemu_plugin_register_vcpu_{tb_exec,mem}_inline_per_vcpu),
 * and each TB's start checks the room with a conditional callback
 * (qemu_plugin_register_vcpu_tb_exec_cond_cb: left < the bytes the TB can
 * append inline) that calls on_room only when the batch is full. Accesses
 * made by QEMU's helpers (SVE, MOPS, ...) are appended by QEMU's C code,
 * which calls on_full when fewer than 16 + keep bytes are left.
 *
 * Found at install with dlsym on the running QEMU: the others (Debian's
 * qemu-aarch64 7.2, a QEMU without the patch) lack the ring calls, and the
 * plugin then registers its callbacks. */
#define _GNU_SOURCE 1 /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdatomic.h>

#include "plugin.h"

/* API version 2's calls and the patch's (qemu_plugin_api.h). */
static struct qemu_plugin_scoreboard *(*scoreboard_new)(size_t element_size);
static void *(*scoreboard_find)(struct qemu_plugin_scoreboard *score, unsigned int vcpu_index);
static void (*register_tb_inline)(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, qemu_plugin_u64 entry,
                                  uint64_t imm);
static void (*register_mem_inline)(struct qemu_plugin_insn *insn, enum qemu_plugin_mem_rw rw,
                                   enum qemu_plugin_op op, qemu_plugin_u64 entry, uint64_t imm);
static void (*register_tb_cond_cb)(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                   enum qemu_plugin_cb_flags flags, enum qemu_plugin_cond cond,
                                   qemu_plugin_u64 entry, uint64_t imm, void *userdata);
static void (*register_ring_full_cb)(qemu_plugin_u64 ring, qemu_plugin_vcpu_udata_cb_t cb, void *userdata);

/* The vCPUs' rings: one struct qemu_plugin_ring per vCPU (the append's
 * entry), and their left fields (the room check's). */
static qemu_plugin_u64 rings, rings_left;

/* A TB appends inline at most this many entries (its room check asks for
 * them all); a helper's access leaves them free. A TB that could append
 * more (hundreds of SIMD structure loads) appends from callbacks. */
#define RING_KEEP_ENTRIES 1024u

_Static_assert(sizeof(struct plugin_event) == 16 && sizeof(uintptr_t) == 8,
               "QEMU's ring entries are two 64-bit words: plugin_event's layout");
_Static_assert(EVENT_RING_BATCH > 2 * RING_KEEP_ENTRIES, "a batch holds a TB's entries and a helper's");

struct qemu_plugin_ring *inline_ring_of(unsigned vcpu_index)
{
	return scoreboard_find(rings.score, vcpu_index);
}

/* The vCPU's batch lacks room for its next TB (tb_start), or for an
 * access inside a TB, or the vCPU has no batch yet (left == 0: its
 * thread's first TB, or the first after a fork). */
static void on_ring_flush(unsigned int vcpu_index, int tb_start)
{
	struct vcpu_state *v = vcpu_index < PLUGIN_MAX_VCPUS ? plugin.vcpus[vcpu_index] : NULL;
	if (v && v->qring) {
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
	v->qring = 1;
	inline_ring_of(vcpu_index)->keep = RING_KEEP_ENTRIES * sizeof(struct plugin_event);
	log_attach(v);
}

/* The TB-start room check's conditional callback. */
static void on_room(unsigned int vcpu_index, void *userdata)
{
	(void)userdata;
	on_ring_flush(vcpu_index, 1);
}

/* QEMU's C code, for a helper's access. */
static void on_full(unsigned int vcpu_index, void *userdata)
{
	(void)userdata;
	on_ring_flush(vcpu_index, 0);
}

/* The append QEMU's code makes, made by a callback (an oversized TB's). */
static void append(unsigned int vcpu_index, uint64_t what, uint64_t vaddr, int tb_start)
{
	struct qemu_plugin_ring *r = inline_ring_of(vcpu_index);
	if (r->left < sizeof(struct plugin_event) + r->keep) {
		on_ring_flush(vcpu_index, tb_start);
		r = inline_ring_of(vcpu_index);
	}
	struct plugin_event *e = (struct plugin_event *)(uintptr_t)(r->end - r->left);
	e->what = what;
	e->vaddr = vaddr;
	r->left -= sizeof(struct plugin_event);
}

static void on_tb_exec_appended(unsigned int vcpu_index, void *udata)
{
	append(vcpu_index, (uintptr_t)udata | EV_TB_START, 0, 1);
}

static void on_mem_appended(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	(void)info;
	append(vcpu_index, (uintptr_t)udata, vaddr, (uintptr_t)udata & EV_START_ACCESS);
}

int inline_ring_setup(qemu_plugin_id_t id)
{
	(void)id;
	*(void **)&scoreboard_new = dlsym(RTLD_DEFAULT, "qemu_plugin_scoreboard_new");
	*(void **)&scoreboard_find = dlsym(RTLD_DEFAULT, "qemu_plugin_scoreboard_find");
	*(void **)&register_tb_inline = dlsym(RTLD_DEFAULT, "qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu");
	*(void **)&register_mem_inline = dlsym(RTLD_DEFAULT, "qemu_plugin_register_vcpu_mem_inline_per_vcpu");
	*(void **)&register_tb_cond_cb = dlsym(RTLD_DEFAULT, "qemu_plugin_register_vcpu_tb_exec_cond_cb");
	*(void **)&register_ring_full_cb = dlsym(RTLD_DEFAULT, "qemu_plugin_register_vcpu_ring_full_cb");
	if (!plugin.opts.inline_ring || !scoreboard_new || !scoreboard_find || !register_tb_inline ||
	    !register_mem_inline || !register_tb_cond_cb || !register_ring_full_cb)
		return 0;
	rings.score = scoreboard_new(sizeof(struct qemu_plugin_ring));
	rings.offset = 0;
	if (!rings.score)
		return 0;
	rings_left = rings;
	rings_left.offset = offsetof(struct qemu_plugin_ring, left);
	register_ring_full_cb(rings, on_full, NULL);
	return 1;
}

/* Entries one execution of a memory instruction appends at most: QEMU
 * 10.2 makes one access for a plain one-register load or store, up to two
 * for pairs (four for Q-register pairs split in halves), and up to 64 for
 * SIMD structure loads (4 registers of 16 elements) and SVE/SME fills and
 * spills (2048-bit vectors in 8-byte parts, in a loop). */
static unsigned max_accesses(struct qemu_plugin_insn *insn, const struct insn_info *in)
{
	uint32_t word = ap_qemu_insn_word(insn, plugin.qemu_api);
	uint32_t op0 = (word >> 25) & 0xf;
	if (in->cls.flags & AP_A64_F_ONE_ACCESS)
		return 1;
	if ((in->cls.flags & AP_A64_F_SIMD) || op0 == 2 || (op0 == 0 && (word >> 31)))
		return 64;
	return 4;
}

void inline_ring_tb(struct qemu_plugin_tb *tb, struct tb_info *t, const uint8_t *site, int announced)
{
	uint64_t entries = !announced;
	for (uint32_t i = 0; i < t->n; i++)
		if (site[i] != TB_SITE_NONE)
			entries += max_accesses(qemu_plugin_tb_get_insn(tb, i), &t->insn[i]);
	int inline_ok = entries <= RING_KEEP_ENTRIES;
	if (inline_ok) {
		/* The room check first: QEMU emits a TB's operations in the
		 * order they were registered. */
		register_tb_cond_cb(tb, on_room, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_LT, rings_left,
		                    entries * sizeof(struct plugin_event), NULL);
		if (!announced)
			register_tb_inline(tb, QEMU_PLUGIN_INLINE_RING_APPEND, rings, (uintptr_t)t | EV_TB_START);
	} else if (!announced) {
		/* Appended from callbacks, each with its own room check. */
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec_appended, QEMU_PLUGIN_CB_NO_REGS, t);
	}
	for (uint32_t i = 0; i < t->n; i++) {
		if (site[i] == TB_SITE_NONE)
			continue;
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uintptr_t what = (uintptr_t)&t->insn[i] | (site[i] == TB_SITE_START_ACCESS ? EV_START_ACCESS : EV_ACCESS);
		if (inline_ok)
			register_mem_inline(insn, QEMU_PLUGIN_MEM_RW, QEMU_PLUGIN_INLINE_RING_APPEND, rings, what);
		else
			qemu_plugin_register_vcpu_mem_cb(insn, on_mem_appended, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
			                                 (void *)what);
	}
}

void inline_ring_detach(struct vcpu_state *v)
{
	if (v->qring) {
		struct qemu_plugin_ring *r = inline_ring_of(v->index);
		r->left = 0;
		r->end = 0;
		v->qring = 0;
	}
}

void inline_ring_forget(void)
{
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++)
		if (plugin.vcpus[i])
			inline_ring_detach(plugin.vcpus[i]);
}

/* Translation: each translated block (TB) is classified once, instruction
 * by instruction (a64_classify.c), into the struct tb_info the replay reads,
 * and instrumented: one callback per memory instruction, and one per
 * execution only for a TB that no access announces (a64_tb.h). The
 * callbacks themselves are event_log.c's. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "guest_maps.h"
#include "plugin.h"
#include "stop_signal.h"

void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	/* QEMU has set up its signal handling by the first translation. */
	if (__builtin_expect(!atomic_load_explicit(&plugin.signals_armed, memory_order_relaxed), 0) &&
	    !atomic_exchange(&plugin.signals_armed, 1))
		stop_signal_arm(checkpoint, release_all, &plugin.stop_requested);
	size_t n = qemu_plugin_tb_n_insns(tb);
	if (n == 0 || n > PLUGIN_MAX_TB_INSNS)
		plugin_fail("unexpected translation block size");
	struct tb_info *t = calloc(1, sizeof(*t) + n * sizeof(t->insn[0]));
	if (!t)
		plugin_fail("out of memory");
	t->vaddr = qemu_plugin_tb_vaddr(tb);
	t->n = (uint32_t)n;
	int announced = 0; /* a memory callback announces the TB's start */
	int seen_ldst = 0;
	uint8_t site[PLUGIN_MAX_TB_INSNS]; /* inline ring: each insn's TB_SITE_* */
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct insn_info *in = &t->insn[i];
		uint32_t word = ap_qemu_insn_word(insn, plugin.qemu_api);
		in->pc = qemu_plugin_insn_vaddr(insn);
		if (i == 0)
			guest_maps_note(in->pc, qemu_plugin_insn_haddr(insn));
		in->tb = t;
		in->index = (uint16_t)i;
		ap_a64_classify(word, &in->cls);
		site[i] = TB_SITE_NONE;
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
		if (plugin.inline_ring)
			site[i] = announce ? TB_SITE_START_ACCESS : TB_SITE_ACCESS;
		else
			qemu_plugin_register_vcpu_mem_cb(insn, announce ? on_mem_tb_start : on_mem,
			                                 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, in);
		announced |= announce;
	}
	const struct insn_info *last = &t->insn[n - 1];
	t->fallthrough = last->pc + 4;
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
	if (plugin.inline_ring)
		inline_ring_tb(tb, t, site, announced);
	else if (!announced)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
	pthread_mutex_lock(&plugin.tb_lock);
	t->id = (uint32_t)plugin.n_tbs_translated;
	t->next = plugin.all_tbs;
	plugin.all_tbs = t;
	plugin.n_tbs_translated++;
	pthread_mutex_unlock(&plugin.tb_lock);
}

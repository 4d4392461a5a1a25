/* The floor of armprof record's speed under QEMU 7.2: a TCG plugin that
 * registers exactly the callbacks armprof's plugin registers (one memory
 * callback per load/store instruction, one execution callback per TB that
 * no access announces; see on_tb_trans in plugins/qemu/translate.c) and does
 * nothing in them but add to a per-vCPU counter.
 *
 * QEMU 7.2's plugin API has no other way to learn a data address than a
 * helper call per access, so no plugin that sees every access and every
 * TB can run faster than this one: bench/bench_record.sh runs it beside
 * armprof record and plain QEMU. Not a product: it writes nothing. */
#define _GNU_SOURCE 1 /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "a64_tb.h"
#include "qemu_plugin_api.h"

AP_QEMU_PLUGIN_VERSION

/* One host cache line per vCPU, so that threads do not share counters. */
static struct {
	_Alignas(64) uint64_t events;
} per_vcpu[256];

static void on_tb_exec(unsigned int vcpu_index, void *udata)
{
	(void)udata;
	per_vcpu[vcpu_index & 255].events++;
}

static void on_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	(void)info;
	(void)udata;
	/* Uses the address, as a logging callback does. */
	per_vcpu[vcpu_index & 255].events += vaddr | 1;
}

static int api_cur; /* the running QEMU's plugin API version */

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	int announced = 0, seen_ldst = 0;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t word = ap_qemu_insn_word(insn, api_cur);
		struct ap_a64_class cls;
		ap_a64_classify(word, &cls);
		if (cls.kind != AP_A64_LDST)
			continue;
		announced |= a64_announces_tb(&cls, !seen_ldst);
		seen_ldst = 1;
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
	}
	if (!announced)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
}

AP_QEMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                       char **argv)
{
	(void)argc;
	(void)argv;
	if (info->system_emulation || strcmp(info->target_name, "aarch64") != 0)
		return -1;
	api_cur = info->version.cur;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	return 0;
}

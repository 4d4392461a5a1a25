/* The subset of the QEMU TCG plugin API that the armprof plugin uses.
 *
 * Debian ships qemu-user without qemu-plugin.h, so these declarations are
 * written from the documented plugin API of QEMU 7.2 (docs/devel/tcg-plugins
 * and the API reference): only the calls armprof makes, with the types they
 * take. QEMU checks the plugin's exported qemu_plugin_version against the
 * range it supports; QEMU 7.2 implements API version 1 (minimum 0), so this
 * file pins AP_QEMU_PLUGIN_API_VERSION = 1. Do not use calls added after 7.2
 * (e.g. register reads, scoreboards): Debian 12's qemu-aarch64 lacks them. */
#ifndef ARMPROF_QEMU_PLUGIN_API_H
#define ARMPROF_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AP_QEMU_PLUGIN_API_VERSION 1 /* QEMU 7.2: QEMU_PLUGIN_VERSION == 1 */

#define AP_QEMU_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t; /* opaque: query with qemu_plugin_mem_* */

struct qemu_plugin_tb;   /* opaque translation block handle */
struct qemu_plugin_insn; /* opaque instruction handle */

/* What QEMU tells a plugin at install time (layout of QEMU 7.2). */
typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num,
                                              uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                                              uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
typedef void (*qemu_plugin_vcpu_syscall_ret_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num,
                                                  int64_t ret);

/* Exported by the plugin. */
extern AP_QEMU_EXPORT int qemu_plugin_version;
AP_QEMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                       int argc, char **argv);

/* Provided by QEMU. */
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                      void *userdata);
/* Before and after each system call of the program (linux-user). */
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_ret_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* Where the instruction's bytes are in the host's memory (linux-user: the
 * guest address + guest_base). */
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);

unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

/* armprof's qemu-aarch64 (system/qemu/patches/0007): a vCPU's event ring,
 * which inline code appends to. The calls that register its sites are
 * looked up at run time (inline_ring.c), not linked. */
struct qemu_plugin_ring {
	uint64_t pos;     /* host address of the next 16-byte entry */
	uint64_t end;     /* just past the room */
	uint64_t reserve; /* QEMU's */
};

/* linux-user: guest addresses of the loaded program (0 in system mode). */
uint64_t qemu_plugin_entry_code(void);

bool qemu_plugin_bool_parse(const char *name, const char *val, bool *ret);
void qemu_plugin_outs(const char *string);

#endif

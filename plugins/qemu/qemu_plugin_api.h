/* The subset of the QEMU TCG plugin API that the armprof plugin uses.
 *
 * Debian ships qemu-user without qemu-plugin.h, so these declarations are
 * written from the documented plugin API (docs/devel/tcg-plugins and the
 * API reference of QEMU 7.2 and 10.2): only the calls armprof makes, with
 * the types they take. One plugin serves both:
 *
 * - QEMU checks the plugin's exported qemu_plugin_version against the
 *   range it supports after loading it: QEMU 7.2 takes 0..1, QEMU 9.0 and
 *   later 2..their current (10.2: 2..5; version 2 dropped the inline calls
 *   without scoreboards, which armprof does not use). AP_QEMU_PLUGIN_VERSION
 *   sets the variable to 1, and a constructor raises it to 2 when the QEMU
 *   loading the plugin has scoreboards (an API version 2 call).
 * - Of the calls used, only qemu_plugin_insn_data changed (API version 3,
 *   QEMU 9.1: it copies instead of returning a pointer): ap_qemu_insn_word
 *   calls the form of the running QEMU (qemu_info_t's version.cur).
 * - Calls added after 7.2 (scoreboards, inline operations on their
 *   entries, conditional callbacks, armprof's patch 0007) are looked up at
 *   run time with dlsym (inline_ring.c): Debian 12's qemu-aarch64 lacks them. */
#ifndef ARMPROF_QEMU_PLUGIN_API_H
#define ARMPROF_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define AP_QEMU_PLUGIN_API_VERSION 1 /* QEMU 7.2: QEMU_PLUGIN_VERSION == 1 */
#define AP_QEMU_PLUGIN_API_SCOREBOARDS 2 /* QEMU 9.0 and later accept 2 */
#define AP_QEMU_PLUGIN_API_INSN_DATA_COPIES 3 /* QEMU 9.1 */

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
	QEMU_PLUGIN_INLINE_STORE_U64,   /* API version 2 */
	QEMU_PLUGIN_INLINE_RING_APPEND, /* armprof's patch 0007 */
};

/* API version 2 (QEMU 9.0): per-vCPU scoreboards, and conditions on their
 * entries for conditional callbacks. */
struct qemu_plugin_scoreboard;
typedef struct {
	struct qemu_plugin_scoreboard *score;
	size_t offset;
} qemu_plugin_u64;

enum qemu_plugin_cond {
	QEMU_PLUGIN_COND_NEVER,
	QEMU_PLUGIN_COND_ALWAYS,
	QEMU_PLUGIN_COND_EQ,
	QEMU_PLUGIN_COND_NE,
	QEMU_PLUGIN_COND_LT,
	QEMU_PLUGIN_COND_LE,
	QEMU_PLUGIN_COND_GT,
	QEMU_PLUGIN_COND_GE,
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

/* Exported by the plugin: AP_QEMU_PLUGIN_VERSION defines it (in a file
 * with _GNU_SOURCE and <dlfcn.h>, for RTLD_DEFAULT). */
extern AP_QEMU_EXPORT int qemu_plugin_version;
#define AP_QEMU_PLUGIN_VERSION                                                                  \
	AP_QEMU_EXPORT int qemu_plugin_version = AP_QEMU_PLUGIN_API_VERSION;                    \
	__attribute__((constructor)) static void ap_qemu_plugin_version_pick(void)              \
	{                                                                                       \
		if (dlsym(RTLD_DEFAULT, "qemu_plugin_scoreboard_new"))                          \
			qemu_plugin_version = AP_QEMU_PLUGIN_API_SCOREBOARDS;                    \
	}
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
/* Up to API version 2; from version 3 it is
 * size_t qemu_plugin_insn_data(insn, void *dest, size_t len): use
 * ap_qemu_insn_word. */
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* Where the instruction's bytes are in the host's memory (linux-user: the
 * guest address + guest_base). */
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);

unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

/* armprof's qemu-aarch64 on QEMU 10.2 (patch 0007): a vCPU's event ring
 * in a scoreboard entry, which QEMU_PLUGIN_INLINE_RING_APPEND appends
 * {immediate, vaddr} to at end - left (left -= 16). */
struct qemu_plugin_ring {
	uint64_t end;  /* host address just past the room */
	uint64_t left; /* bytes of room before end */
	uint64_t keep; /* bytes a helper's access leaves free */
};

/* linux-user: guest addresses of the loaded program (0 in system mode). */
uint64_t qemu_plugin_entry_code(void);

bool qemu_plugin_bool_parse(const char *name, const char *val, bool *ret);
void qemu_plugin_outs(const char *string);

/* The instruction's first (up to) 4 bytes, by the running QEMU's form of
 * qemu_plugin_insn_data (api_cur: qemu_info_t's version.cur). */
static inline uint32_t ap_qemu_insn_word(const struct qemu_plugin_insn *insn, int api_cur)
{
	uint32_t word = 0;
	if (api_cur >= AP_QEMU_PLUGIN_API_INSN_DATA_COPIES) {
		size_t (*copy)(const struct qemu_plugin_insn *, void *, size_t);
		*(void **)&copy = (void *)qemu_plugin_insn_data;
		copy(insn, &word, sizeof(word));
	} else {
		size_t sz = qemu_plugin_insn_size(insn);
		memcpy(&word, qemu_plugin_insn_data(insn), sz < 4 ? sz : 4);
	}
	return word;
}

#endif

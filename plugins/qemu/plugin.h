/* The parts of armprof's QEMU plugin and what each offers the others; the
 * state they share is struct plugin_state (plugin_state.h).
 *
 *   plugin.c      install: options, models, QEMU's callbacks
 *   plugin_state.c the state they share (plugin_state.h), plugin_fail
 *   translate.c   translation: each TB's instructions classified once, its
 *                 execution instrumented
 *   event_log.c   execution: the callbacks that only log events
 *   inline_ring.c the same events logged by QEMU's inline code, under
 *                 armprof's own qemu-aarch64 (patch 0007)
 *   replay.c      the log replayed through the timing model, TB by TB
 *   replay_spe.c  the replayed operations given to the SPE model
 *   process.c     the program's threads, system calls, exec and fork
 *   checkpoint.c  outputs: at exit, at a checkpoint, before an exec or a
 *                 fatal signal (written by plugin_outputs.c)
 *
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_H
#define ARMPROF_PLUGIN_H

#include <stdint.h>

#include "plugin_state.h"
#include "qemu_plugin_api.h"

/* translate.c */
void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

/* event_log.c: the execution callbacks translate.c registers. */
void on_tb_exec(unsigned int vcpu_index, void *udata);
void on_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void on_mem_tb_start(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);

/* inline_ring.c: QEMU logs the events itself, where it offers that. */
/* Looks QEMU's ring calls up and registers the flush callback (unless
 * opts.inline_ring is 0): returns 1 when QEMU will log the events. */
int inline_ring_setup(qemu_plugin_id_t id);
/* translate.c's registrations, instead of the callbacks. */
enum { TB_SITE_NONE, TB_SITE_ACCESS, TB_SITE_START_ACCESS };
/* The TB's room check, its start entry unless an access announces it,
 * and its accesses' entries (site[i]: insn i's TB_SITE_*). */
void inline_ring_tb(struct qemu_plugin_tb *tb, struct tb_info *t, const uint8_t *site, int announced);
/* At a thread's exit: the next thread with its vCPU index attaches anew. */
void inline_ring_detach(struct vcpu_state *v);
/* In a forked child: detach every vCPU from its ring, so that the thread's
 * next TB calls back first (its vCPU is the child's own). */
void inline_ring_forget(void);

/* replay.c */
/* event_replay_fn of a vCPU's ring (ctx: its struct vcpu_state). */
uint32_t replay_batch(void *ctx, const struct plugin_event *ev, uint32_t n, uint64_t stop, int until_meeting);
/* hub_clock_fn of a vCPU (ctx: its struct vcpu_state). */
uint64_t replay_clock(void *ctx);
/* Replay what the thread's log holds (its model thread, if any, done
 * with it): afterwards the caller may read and change the replay state. */
void replay_logged(struct vcpu_state *v);
/* The end of a thread's execution (it exited, or the program did): replay
 * what its log still holds, account its last TB and give the SPE model its
 * pending operations. */
void finish_thread(struct vcpu_state *v);

/* replay_spe.c */
/* The SPE part of an executed TB that may hold the next selected operation
 * (its first operation is number base, after pending ones the model has
 * not seen): returns how many operations can pass before the next
 * selection. prev_target: the target of the last taken branch before the
 * TB (FEAT_SPE_PBT), 0 when none is known or followed. */
uint64_t spe_account_tb(struct vcpu_state *v, const struct tb_info *tb, uint64_t base, uint64_t pending,
                        uint64_t target, int taken, int mispredicted, uint64_t prev_target);
/* Give the SPE model the operations that passed without it so far (none
 * of them selected), so that SAMPLE_POP counts them. */
void spe_catch_up(struct vcpu_state *v);

/* process.c */
/* The vCPU's state, created at its thread's first callback; holds the
 * thread while a checkpoint is requested. */
struct vcpu_state *vcpu_get(unsigned index);
void on_vcpu_exit(qemu_plugin_id_t id, unsigned int vcpu_index);
void on_syscall(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1, uint64_t a2,
                uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, int64_t ret);
/* pthread_atfork's child handler. */
void after_fork_in_child(void);

/* checkpoint.c */
/* stop_signal.h's checkpoint and release. */
void checkpoint(int sig);
void release_all(void);
/* The calling thread enters execve: the outputs as they stand. */
void exec_checkpoint(void);
/* armprof-qemu-preload.so's hook (fatal_preload.c). */
void on_fatal_signal(int sig);
void on_exit_cb(qemu_plugin_id_t id, void *p);

#endif

/* A program ended by a signal keeps its profile.
 *
 * QEMU 7.2 runs a plugin's exit handler when the program calls exit or
 * exit_group, but not when a signal kills it (linux-user's
 * dump_core_and_abort re-raises the signal with the default action): a
 * ^C, a `timeout`, a closed pipe or an abort() would lose everything
 * recorded. So for the signals whose default action ends the program and
 * that QEMU passes through its host handler (the asynchronous ones, and
 * SIGABRT/SIGPIPE that the program causes through a system call), the
 * plugin puts its own handler in front of QEMU's:
 *   - while the program leaves the signal at its default action, the
 *     handler only notes the signal and wakes a thread of the plugin's,
 *     which holds every vCPU at its next TB start (or in the system call
 *     it is in), writes the outputs as they stand, lets the vCPUs go, and
 *     sends the signal again, this time straight to QEMU: the program
 *     then meets it exactly as it would have (it dies, or the signal
 *     waits while blocked), a few microseconds later;
 *   - when the program handles or ignores the signal, QEMU's handler gets
 *     it at once, as without the plugin.
 * Whether the program left a signal at its default action is followed
 * through its rt_sigaction calls (stop_signal_guest_sigaction).
 * QEMU 9 and later carry the program's SIGABRT on a host real-time signal
 * (the host's SIGABRT is QEMU's own): that one is wrapped for it.
 *
 * Faults (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP), which QEMU raises
 * inside its own handling of guest code, are not seen here: QEMU's last
 * kill() is, by armprof-qemu-preload.so (fatal_preload.c). SIGKILL is
 * seen by nobody. The checkpoint is abandoned (the signal passes on, nothing is written) when
 * a vCPU cannot be held within STOP_SIGNAL_HOLD_SECONDS, e.g. a thread
 * waiting in QEMU for exclusive execution.
 *
 * Private to plugins/qemu. */
#ifndef ARMPROF_PLUGIN_STOP_SIGNAL_H
#define ARMPROF_PLUGIN_STOP_SIGNAL_H

#include <stdatomic.h>
#include <stdint.h>

#define STOP_SIGNAL_HOLD_SECONDS 5

/* The plugin's side: hold every vCPU and write the outputs (checkpoint),
 * and let the vCPUs go (release). The signal is sent again in between, so
 * that it is pending before any vCPU runs on: a program that goes on after
 * a signal it thinks delivered (abort() raises SIGABRT again, then traps)
 * meets it first. */
typedef void (*stop_signal_checkpoint_fn)(int sig);
typedef void (*stop_signal_release_fn)(void);

/* Put the handlers in front of QEMU's and start the plugin's thread.
 * Call once, after QEMU installed its signal handlers (at the first
 * translation: QEMU sets them up after loading plugins). *requested is
 * set as soon as a signal arrives, so that vCPUs stop at their next TB
 * start without waiting for the thread to wake up; release clears it. */
void stop_signal_arm(stop_signal_checkpoint_fn checkpoint, stop_signal_release_fn release,
                     _Atomic int *requested);
/* Note which signals the program inherits as ignored (a background job
 * of a shell ignores SIGINT and SIGQUIT): call before QEMU sets up its
 * handlers (at plugin install), which then hides that. */
void stop_signal_note_inherited(void);
/* The program's rt_sigaction(sig, act) succeeded with act != NULL:
 * handler and flags are act->sa_handler (0: SIG_DFL, 1: SIG_IGN) and
 * act->sa_flags. */
void stop_signal_guest_sigaction(int sig, uint64_t handler, uint64_t flags);
/* In the child of a fork (a process of the program's, profiled on its
 * own): start its own thread for checkpoints. */
void stop_signal_after_fork(void);

#endif

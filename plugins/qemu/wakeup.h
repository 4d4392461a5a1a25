/* Wake-ups between the program's threads (futex wakes, thread starts),
 * told to the interleaved replay (wakeup.c, replay_hub_woke). Private to
 * plugins/qemu. */
#ifndef ARMPROF_PLUGIN_WAKEUP_H
#define ARMPROF_PLUGIN_WAKEUP_H

#include <stdint.h>

struct vcpu_state;

enum { WAKEUP_NONE, WAKEUP_WAIT, WAKEUP_WAKE, WAKEUP_CLONE };

/* A system call starts on v's thread (num, and its first three
 * arguments: a futex call's uaddr, op and val, clone's flags or clone3's
 * arguments): if it is a futex wait or wake or starts a thread, and v
 * replays on the hub, note it for wakeup_call_end. */
void wakeup_call_start(struct vcpu_state *v, int64_t num, uint64_t uaddr, uint64_t op, uint64_t nr_wake);
/* v's system call returned ret (after v->in_syscall cleared, before the
 * thread logs again). A wait's return is counted; a wake that woke threads
 * (or found threads on their way into a wait on its word) or a clone that
 * started one holds v's replay at this point of its log until they are
 * back (replay_hub_woke); the hub is told of every return. */
void wakeup_call_end(struct vcpu_state *v, int64_t ret);

#endif

/* Wake-ups between the program's threads, for the interleaved replay
 * (replay_hub.h): a thread woken by another (a futex wake: barriers,
 * mutexes, condition variables) or started by it (a clone) goes on where
 * the other woke or started it, as on hardware. The waker says how many it
 * woke, the woken ones say when their wait returned (a new thread: when it
 * joins the hub); the hub holds the waker at its wake-up until they have.
 * How many: those the call says it woke, or, if more, the threads still in
 * a wait on the same futex word. Those were not yet asleep in the kernel
 * when the word changed (a barrier's last thread arrives while the first
 * is on its way in), so their wait returns at once (EAGAIN) without being
 * woken: they, too, go on from the waker's point, not from wherever the
 * waker's replay got to by the time the host ran them. */
#include "wakeup.h"
#include "guest_maps.h"
#include "plugin_state.h"

/* Linux's asm-generic numbers (arm64) and futex operations
 * (include/uapi/linux/futex.h). */
#define AARCH64_NR_CLONE 220
#define AARCH64_NR_CLONE3 435
#define LINUX_CLONE_VM 0x100u
#define AARCH64_NR_FUTEX 98
#define AARCH64_NR_FUTEX_WAITV 449
#define AARCH64_NR_FUTEX_WAKE 454
#define AARCH64_NR_FUTEX_WAIT 455
#define FUTEX_CMD_MASK 127 /* without FUTEX_PRIVATE_FLAG (128), FUTEX_CLOCK_REALTIME (256) */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10

/* clone's flags: its first argument, or clone3's arguments' first word. */
static uint64_t clone_flags(int64_t num, uint64_t a1)
{
	if (num != AARCH64_NR_CLONE3)
		return a1;
	const uint64_t *args = guest_maps_host(a1);
	return args ? args[0] : 0;
}

void wakeup_call_start(struct vcpu_state *v, int64_t num, uint64_t uaddr, uint64_t op, uint64_t nr_wake)
{
	v->wakeup_call = WAKEUP_NONE;
	v->futex_uaddr = uaddr;
	if (!v->ring.hub)
		return;
	if (num == AARCH64_NR_CLONE || num == AARCH64_NR_CLONE3) {
		/* A thread of this process (qemu-user runs a clone with
		 * CLONE_VM as a host thread, a member of this hub); a fork
		 * starts another process with a hub of its own. */
		if (clone_flags(num, uaddr) & LINUX_CLONE_VM)
			v->wakeup_call = WAKEUP_CLONE;
	} else if (num == AARCH64_NR_FUTEX_WAITV || num == AARCH64_NR_FUTEX_WAIT) {
		v->wakeup_call = WAKEUP_WAIT;
	} else if (num == AARCH64_NR_FUTEX_WAKE) {
		v->wakeup_call = WAKEUP_WAKE;
		v->futex_nr_wake = UINT64_MAX; /* futex_wake(2) returns the woken only */
	} else if (num == AARCH64_NR_FUTEX) {
		switch (op & FUTEX_CMD_MASK) {
		case FUTEX_WAIT:
		case FUTEX_WAIT_BITSET:
			v->wakeup_call = WAKEUP_WAIT;
			break;
		case FUTEX_WAKE:
		case FUTEX_WAKE_BITSET:
		case FUTEX_WAKE_OP: /* returns the woken of both futexes */
			v->wakeup_call = WAKEUP_WAKE;
			v->futex_nr_wake = UINT64_MAX;
			break;
		case FUTEX_REQUEUE:
		case FUTEX_CMP_REQUEUE: /* returns the woken plus the moved, who go on waiting */
			v->wakeup_call = WAKEUP_WAKE;
			v->futex_nr_wake = nr_wake;
			break;
		default: /* the PI operations hand a lock over in the kernel: not followed */
			break;
		}
	}
	if (v->wakeup_call == WAKEUP_WAKE || v->wakeup_call == WAKEUP_CLONE)
		v->resumed_before = replay_hub_resumed_count(v->ring.hub);
	/* futex_waitv waits on several words: none is followed. */
	if (v->wakeup_call == WAKEUP_WAIT && num != AARCH64_NR_FUTEX_WAITV)
		atomic_store_explicit(&v->futex_waiting_on, uaddr, memory_order_relaxed);
}

/* The other threads in a wait on the futex word at uaddr now. */
static uint64_t waiting_on(const struct vcpu_state *self, uint64_t uaddr)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < PLUGIN_MAX_VCPUS; i++) {
		const struct vcpu_state *o = plugin.vcpus[i];
		if (o && o != self && atomic_load_explicit(&o->futex_waiting_on, memory_order_relaxed) == uaddr)
			n++;
	}
	return n;
}

void wakeup_call_end(struct vcpu_state *v, int64_t ret)
{
	if (!v->ring.hub)
		return;
	if (v->wakeup_call == WAKEUP_WAIT) {
		atomic_store_explicit(&v->futex_waiting_on, 0, memory_order_relaxed);
		replay_hub_resumed(v->ring.hub);
	} else if (v->wakeup_call == WAKEUP_WAKE && ret >= 0) {
		uint64_t woken = (uint64_t)ret < v->futex_nr_wake ? (uint64_t)ret : v->futex_nr_wake;
		uint64_t late = waiting_on(v, v->futex_uaddr), n = woken > late ? woken : late;
		/* Nobody asleep and nobody seen on the way: one may still be
		 * on the way, not yet in its system call (a wake finds nobody
		 * asleep mostly so: programs wake where a waiter said it
		 * would wait). A guess, so that it is given up on. */
		replay_hub_woke(v->ring.hub, v->index, v->resumed_before, n ? n : 1, !n);
	} else if (v->wakeup_call == WAKEUP_CLONE && ret > 0) {
		replay_hub_woke(v->ring.hub, v->index, v->resumed_before, 1, 0);
	} else {
		/* Back from any other call: the hub waits for this thread's log
		 * from now on, instead of running the others on without it
		 * until its first batch comes. */
		replay_hub_poke(v->ring.hub);
	}
	v->wakeup_call = WAKEUP_NONE;
}

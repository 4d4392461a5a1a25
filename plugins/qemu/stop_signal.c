/* A program ended by a signal keeps its profile (see stop_signal.h). */
#define _GNU_SOURCE 1 /* syscall(), SYS_gettid */
#include "stop_signal.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Signals whose default action ends the program and that reach QEMU's
 * host handler as host signals. The numbers are the host's; an aarch64
 * Linux program uses the same numbers for all of them (asm-generic), so
 * its rt_sigaction calls name them alike. */
static const int stop_signals[] = { SIGHUP,  SIGINT,  SIGQUIT, SIGABRT,   SIGPIPE, SIGALRM, SIGTERM,
	                            SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF, SIGXFSZ };
#define N_STOP (sizeof(stop_signals) / sizeof(stop_signals[0]))
/* One more slot: the host signal that carries the program's SIGABRT when
 * QEMU keeps the host's SIGABRT for its own aborts (QEMU 9 and later remap
 * the guest's to a host real-time signal: linux-user/signal.c,
 * signal_table_init), 0 when QEMU does not (7.2). */
#define GUEST_ABORT_SLOT ((int)N_STOP)
#define N_SLOTS (N_STOP + 1u)
static int guest_abort_host;

static struct sigaction qemu_action[N_SLOTS]; /* QEMU's handler, set once per signal */
static atomic_int have_qemu_action[N_SLOTS];
/* The program leaves the signal at its default action: so it starts,
 * unless it inherited the signal ignored (stop_signal_note_inherited). */
static atomic_int guest_default[N_SLOTS];
static int inherited_ignored[N_SLOTS];
/* The next delivery is the checkpoint's own resend: straight to QEMU. */
static atomic_int pass_next[N_SLOTS];
static atomic_int busy;       /* a checkpoint is pending or under way */
static sem_t wake;
static _Atomic int pending_sig; /* written by the handler before sem_post */
static siginfo_t pending_info;
static pid_t pending_tid;
static stop_signal_checkpoint_fn checkpoint_fn;
static stop_signal_release_fn release_fn;
static _Atomic int *requested_flag;

/* The slot of a host signal. */
static int slot_of(int sig)
{
	if (guest_abort_host && sig == guest_abort_host)
		return GUEST_ABORT_SLOT;
	for (unsigned k = 0; k < N_STOP; k++)
		if (stop_signals[k] == sig)
			return (int)k;
	return -1;
}

/* The slot of the program's signal (asm-generic numbers, the host's). */
static int guest_slot_of(int sig)
{
	return guest_abort_host && sig == SIGABRT ? GUEST_ABORT_SLOT : slot_of(sig);
}

static int host_signal(int k)
{
	return k == GUEST_ABORT_SLOT ? guest_abort_host : stop_signals[k];
}

/* The program's number for the signal of slot k (what the outputs say). */
static int guest_signal(int k)
{
	return k == GUEST_ABORT_SLOT ? SIGABRT : stop_signals[k];
}

static int is_default(const struct sigaction *a)
{
	return a->sa_handler == SIG_DFL;
}

/* QEMU 9 and later leave the host's SIGABRT alone (QEMU's own aborts) and
 * give the program's SIGABRT the second host real-time signal that has
 * QEMU's handler (the first interrupts vCPUs), whatever QEMU_RTSIG_MAP
 * says; QEMU 7.2 has its handler on SIGABRT itself. Called at arming
 * (the program has run no instruction yet, so QEMU's handlers are the
 * only ones): QEMU's handler is the one on SIGSEGV. */
static int find_guest_abort_host(void)
{
	struct sigaction segv, cur;
	if (sigaction(SIGSEGV, NULL, &segv) != 0 || !(segv.sa_flags & SA_SIGINFO) ||
	    sigaction(SIGABRT, NULL, &cur) != 0 ||
	    ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == segv.sa_sigaction))
		return 0;
	int seen = 0;
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		if (sigaction(sig, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_sigaction == segv.sa_sigaction && ++seen == 2)
			return sig;
	return 0;
}

static void to_qemu(int k, int sig, siginfo_t *info, void *uc)
{
	const struct sigaction *a = &qemu_action[k];
	if (is_default(a)) {
		/* QEMU left the host's default action (QEMU 9 and later, for a
		 * signal that dumps no core, while the program leaves it at its
		 * default): that action, on this thread, once this handler
		 * returns (the signal is blocked until then). */
		signal(sig, SIG_DFL);
		syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig);
	} else if (a->sa_flags & SA_SIGINFO) {
		a->sa_sigaction(sig, info, uc);
	} else if (a->sa_handler != SIG_IGN) {
		a->sa_handler(sig);
	}
}

/* Async-signal-safe: atomics, a copy, sem_post. */
static void on_signal(int sig, siginfo_t *info, void *uc)
{
	int k = slot_of(sig), saved_errno = errno;
	if (k < 0)
		return;
	if (!atomic_load(&guest_default[k]) || atomic_exchange(&pass_next[k], 0)) {
		to_qemu(k, sig, info, uc);
	} else if (atomic_exchange(&busy, 1)) {
		/* A checkpoint is under way. The same signal again is dropped:
		 * its resend is coming, and the kernel would have merged the two
		 * had they been pending together (a `timeout` sends SIGTERM to
		 * armprof, which passes it on, and to the process group). Another
		 * goes to QEMU at once. */
		if (sig != pending_sig)
			to_qemu(k, sig, info, uc);
	} else {
		pending_sig = sig;
		pending_info = *info;
		pending_tid = (pid_t)syscall(SYS_gettid);
		atomic_store(requested_flag, 1); /* vCPUs stop at their next TB start */
		sem_post(&wake);
	}
	errno = saved_errno;
}

/* Put on_signal in front of QEMU's action for slot k: its handler (QEMU
 * 7.2 has one for every signal), or the host's default action, which QEMU
 * 9 and later leave for a signal that dumps no core while the program
 * leaves it at its default. */
static void wrap(int k)
{
	int sig = host_signal(k);
	struct sigaction cur;
	if (sigaction(sig, NULL, &cur) != 0 || cur.sa_handler == SIG_IGN ||
	    (!(cur.sa_flags & SA_SIGINFO) && !is_default(&cur)) || cur.sa_sigaction == on_signal)
		return; /* ignored (the program's SIG_IGN), not QEMU's, or ours already */
	if (!atomic_load(&have_qemu_action[k]) || is_default(&cur) || is_default(&qemu_action[k])) {
		qemu_action[k] = cur;
		atomic_store(&have_qemu_action[k], 1);
	} else if (cur.sa_sigaction != qemu_action[k].sa_sigaction) {
		return; /* not QEMU's: leave it alone */
	}
	struct sigaction mine = cur;
	if (is_default(&cur)) {
		/* As QEMU's own handler: every signal blocked while it runs. */
		sigfillset(&mine.sa_mask);
		mine.sa_flags = SA_RESTART;
	}
	mine.sa_flags |= SA_SIGINFO;
	mine.sa_sigaction = on_signal;
	sigaction(sig, &mine, NULL);
}

/* The signal again, as it came: the same thread for one sent to a thread,
 * the same siginfo where the kernel lets a process queue it to itself
 * (si_code < 0), else a kill() from this process. */
static void resend(int sig, const siginfo_t *info, pid_t tid)
{
	siginfo_t copy = *info;
	if (info->si_code == SI_TKILL && syscall(SYS_tgkill, getpid(), tid, sig) == 0)
		return;
	if (info->si_code < 0 && info->si_code != SI_TKILL &&
	    syscall(SYS_rt_sigqueueinfo, getpid(), sig, &copy) == 0)
		return;
	kill(getpid(), sig);
}

static void *stopper(void *arg)
{
	(void)arg;
	for (;;) {
		while (sem_wait(&wake) != 0)
			;
		int sig = pending_sig;
		siginfo_t info = pending_info;
		pid_t tid = pending_tid;
		checkpoint_fn(guest_signal(slot_of(sig)));
		atomic_store(&pass_next[slot_of(sig)], 1);
		resend(sig, &info, tid);
		release_fn();
		atomic_store(&busy, 0);
	}
	return NULL;
}

/* The thread takes no signal: they are the program's (event_ring.c says
 * why), and this one must not run on the thread it wakes. */
static int start_stopper(void)
{
	if (sem_init(&wake, 0, 0) != 0)
		return -1;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_t t;
	int started = pthread_create(&t, NULL, stopper, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started)
		return -1;
	pthread_detach(t);
	return 0;
}

void stop_signal_arm(stop_signal_checkpoint_fn checkpoint, stop_signal_release_fn release,
                     _Atomic int *requested)
{
	requested_flag = requested;
	release_fn = release;
	if (start_stopper() != 0)
		return; /* no checkpoints: QEMU's handlers stay as they are */
	checkpoint_fn = checkpoint;
	guest_abort_host = find_guest_abort_host();
	/* QEMU 9 and later look at the host's SIGABRT for an inherited SIG_IGN. */
	inherited_ignored[GUEST_ABORT_SLOT] = inherited_ignored[slot_of(SIGABRT)];
	for (unsigned k = 0; k < N_SLOTS; k++) {
		if ((int)k == GUEST_ABORT_SLOT && !guest_abort_host)
			continue;
		atomic_store(&guest_default[k], !inherited_ignored[k]);
		wrap((int)k);
	}
}

void stop_signal_note_inherited(void)
{
	for (unsigned k = 0; k < N_STOP; k++) {
		struct sigaction cur;
		inherited_ignored[k] = sigaction(stop_signals[k], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN;
	}
}

#define GUEST_SA_RESETHAND 0x80000000u /* Linux arm64 (asm-generic) */

void stop_signal_guest_sigaction(int sig, uint64_t handler, uint64_t flags)
{
	int k = guest_slot_of(sig);
	if (k < 0 || !checkpoint_fn)
		return;
	/* A one-shot handler (SA_RESETHAND) goes back to the default action
	 * when it runs, inside QEMU, with no call to see: taken as default
	 * at once, so the signal that would kill finds a checkpoint (the
	 * first one then writes one the program outlives, which is harmless). */
	atomic_store(&guest_default[k], handler == 0 /* SIG_DFL */ ||
	                                    (handler != 1 /* SIG_IGN */ && (flags & GUEST_SA_RESETHAND)));
	/* QEMU just set the host action again: its handler for a default or
	 * a handled signal (wrapped again), SIG_IGN for an ignored one. */
	wrap(k);
}

void stop_signal_after_fork(void)
{
	/* The child has the handlers but not the thread: a thread of its
	 * own, and no checkpoint of the parent's under way. */
	atomic_store(&busy, 0);
	for (unsigned k = 0; k < N_SLOTS; k++)
		atomic_store(&pass_next[k], 0);
	if (checkpoint_fn && start_stopper() != 0) {
		/* Without the thread, nobody would answer the handler: QEMU's
		 * handlers take the signals again. */
		for (unsigned k = 0; k < N_SLOTS; k++)
			if (atomic_load(&have_qemu_action[k]))
				sigaction(host_signal((int)k), &qemu_action[k], NULL);
		checkpoint_fn = NULL;
	}
}

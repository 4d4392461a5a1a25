/* armprof-qemu-preload.so: loaded into qemu-aarch64 by `armprof record`
 * (LD_PRELOAD, taken out of the program's environment with -U/-E), so that
 * a program a fault kills keeps its profile.
 *
 * When a signal kills the program (a fault: SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGTRAP; or any signal at its default action), QEMU 7.2's
 * linux-user stops every other vCPU (stop_all_tasks, for a signal that
 * dumps core), sets the signal's host action to SIG_DFL and ends the
 * process with kill(getpid(), sig) (dump_core_and_abort) without running
 * the plugins' exit handlers. This kill() is QEMU's own (the program's
 * kill and tgkill are raw system calls), so the one here sees it: when it
 * targets this process with a signal at SIG_DFL, it first calls the
 * function the plugin registered (the plugin writes its outputs, as at
 * exit), then lets the kill through. Without the plugin, or for any other
 * kill(), it only passes the call on. */
#define _GNU_SOURCE 1 /* RTLD_NEXT */
#include <dlfcn.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

#define AP_PRELOAD_EXPORT __attribute__((visibility("default")))

typedef void (*fatal_fn)(int sig);
static fatal_fn on_fatal;

/* The plugin registers here (found with dlsym(RTLD_DEFAULT, ...)). */
AP_PRELOAD_EXPORT void armprof_qemu_on_fatal_signal(fatal_fn fn);
AP_PRELOAD_EXPORT int kill(pid_t pid, int sig);

void armprof_qemu_on_fatal_signal(fatal_fn fn)
{
	on_fatal = fn;
}

int kill(pid_t pid, int sig)
{
	static int (*real_kill)(pid_t, int);
	if (!real_kill) {
		void *p = dlsym(RTLD_NEXT, "kill");
		*(void **)&real_kill = p;
	}
	struct sigaction cur;
	if (on_fatal && sig > 0 && pid == getpid() && sigaction(sig, NULL, &cur) == 0 &&
	    !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL) {
		fatal_fn fn = on_fatal;
		on_fatal = NULL; /* once */
		fn(sig);
	}
	return real_kill ? real_kill(pid, sig) : -1;
}

/* A program for tests/record/record_ended_by_signal.sh: it ends by a
 * signal, one way or another, after a known amount of work.
 * usage: ended_by_signal MODE
 *   raise SIG  work, then raise(SIG)
 *   abort      work, then abort()
 *   spin [N]   print "ready", then spin in N threads (default 1) until killed
 *   handled    print "ready", spin until SIGINT's handler runs, print
 *              "caught" and exit 0
 *   oneshot    a one-shot SIGTERM handler (SA_RESETHAND): print "ready", spin
 *              until it ran, print "handled once", spin until killed
 *   blocked    block SIGTERM, print "ready", work for a while, print
 *              "waiting", sigwait() for SIGTERM, print "waited" and exit 5
 *   pipe       print lines until stdout is a closed pipe (SIGPIPE)
 *   fault [N]  start N - 1 spinning threads (default 1: none), work, then
 *              store through a null pointer (SIGSEGV)
 *   trap       work, then __builtin_trap() (BRK: SIGTRAP)
 *   env        print LD_PRELOAD as the program sees it ("(unset)" if it is not) */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;
static volatile sig_atomic_t caught;

__attribute__((noinline)) static void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (i >> 3);
}

__attribute__((noinline)) static void *spin_loop(void *arg)
{
	(void)arg;
	while (!caught)
		sink += 1;
	return NULL;
}

static void on_int(int sig)
{
	(void)sig;
	caught = 1;
}

static void ready(void)
{
	puts("ready");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "raise") && argc > 2) {
		work(2000000);
		raise(atoi(argv[2]));
		puts("survived");
		return 0;
	}
	if (!strcmp(mode, "abort")) {
		work(2000000);
		abort();
	}
	if (!strcmp(mode, "spin")) {
		int n = argc > 2 ? atoi(argv[2]) : 1;
		pthread_t t[16];
		for (int i = 1; i < n && i < 16; i++)
			pthread_create(&t[i], NULL, spin_loop, NULL);
		ready();
		spin_loop(NULL);
		return 0;
	}
	if (!strcmp(mode, "handled")) {
		struct sigaction sa = { 0 };
		sa.sa_handler = on_int;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		ready();
		spin_loop(NULL);
		puts("caught");
		return 0;
	}
	if (!strcmp(mode, "oneshot")) {
		struct sigaction sa = { 0 };
		sa.sa_handler = on_int;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGTERM, &sa, NULL);
		ready();
		spin_loop(NULL);
		puts("handled once");
		fflush(stdout);
		caught = 0;
		spin_loop(NULL);
		return 0;
	}
	if (!strcmp(mode, "blocked")) {
		sigset_t term;
		sigemptyset(&term);
		sigaddset(&term, SIGTERM);
		sigprocmask(SIG_BLOCK, &term, NULL);
		ready();
		work(30000000);
		puts("waiting");
		fflush(stdout);
		int sig = 0;
		sigwait(&term, &sig);
		printf("waited %d\n", sig);
		return 5;
	}
	if (!strcmp(mode, "pipe")) {
		for (unsigned long i = 0;; i++) {
			work(1000);
			printf("line %lu\n", i);
			fflush(stdout);
		}
	}
	if (!strcmp(mode, "fault")) {
		int n = argc > 2 ? atoi(argv[2]) : 1;
		pthread_t t[16];
		for (int i = 1; i < n && i < 16; i++)
			pthread_create(&t[i], NULL, spin_loop, NULL);
		work(2000000);
		*(volatile int *)(sink & 0) = 1;
		return 0;
	}
	if (!strcmp(mode, "trap")) {
		work(2000000);
		__builtin_trap();
	}
	if (!strcmp(mode, "env")) {
		const char *p = getenv("LD_PRELOAD");
		printf("LD_PRELOAD=%s\n", p ? p : "(unset)");
		return 0;
	}
	fprintf(stderr, "usage: ended_by_signal raise SIG|abort|spin [N]|handled|oneshot|blocked|pipe|fault [N]|trap|env\n");
	return 2;
}

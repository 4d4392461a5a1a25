/* A program whose call tree is known, for `armprof record`'s call stacks
 * (issue 20; tests/record/record_call_graph.sh):
 *   - leaf() called from caller_a() three times for each time caller_b()
 *     calls it (same work per call: its operations on the two paths are in
 *     the ratio 3:1 exactly);
 *   - recursion: recurse(n) calls itself down to 0, doing work at each level;
 *   - a longjmp out of two frames (jumper -> deep -> deeper -> longjmp back
 *     into jumper), then work in after_jump() called from jumper;
 *   - a signal handler (raise(SIGUSR1)) that calls handler_work();
 *   - a tail call: tail_caller() ends by calling tail_callee();
 *   - a second thread running worker() -> caller_a()/caller_b();
 *   - a forked child calling child_work() from spawn_child(), the function
 *     that forked (its frame was pushed before the fork).
 * Usage: call_tree [ROUNDS] (default 200). */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
static volatile long sink;
static jmp_buf env;

NOINLINE void leaf(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

NOINLINE void caller_a(void)
{
	leaf(200);
	leaf(200);
	leaf(200);
	sink++; /* not a tail call: the third leaf() is under caller_a too */
}

NOINLINE void caller_b(void)
{
	leaf(200);
	sink++; /* not a tail call: caller_b keeps its frame */
}

NOINLINE void recurse(int n)
{
	for (long i = 0; i < 50; i++)
		sink += i;
	if (n > 0)
		recurse(n - 1);
	sink++; /* not a tail call */
}

NOINLINE void deeper(void)
{
	for (long i = 0; i < 100; i++)
		sink += i;
	longjmp(env, 1);
}

NOINLINE void deep(void)
{
	deeper();
	sink++;
}

NOINLINE void after_jump(void)
{
	for (long i = 0; i < 300; i++)
		sink += i;
}

NOINLINE void jumper(void)
{
	if (!setjmp(env))
		deep();
	after_jump();
}

NOINLINE void handler_work(void)
{
	for (long i = 0; i < 400; i++)
		sink += i;
}

static void handler(int sig)
{
	(void)sig;
	handler_work();
}

NOINLINE void tail_callee(long n)
{
	for (long i = 0; i < n; i++)
		sink -= i;
}

NOINLINE void tail_caller(long n)
{
	sink++;
	tail_callee(n); /* compiled as a branch: no frame of tail_caller stays */
}

NOINLINE void child_work(void)
{
	for (long i = 0; i < 5000; i++)
		sink += i;
}

NOINLINE pid_t spawn_child(void)
{
	pid_t child = fork();
	if (child == 0) {
		child_work();
		_exit(0);
	}
	return child;
}

static void *worker(void *arg)
{
	long rounds = (long)arg;
	for (long r = 0; r < rounds; r++) {
		caller_a();
		caller_b();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 200;
	signal(SIGUSR1, handler);
	pid_t child = spawn_child();
	pthread_t t;
	pthread_create(&t, NULL, worker, (void *)(rounds / 2));
	for (long r = 0; r < rounds; r++) {
		caller_a();
		caller_b();
		recurse(4);
		jumper();
		raise(SIGUSR1);
		tail_caller(100);
	}
	pthread_join(t, NULL);
	if (child > 0)
		waitpid(child, NULL, 0);
	printf("call_tree: %ld rounds\n", rounds);
	return 0;
}

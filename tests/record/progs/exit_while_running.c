/* exit() while other threads still run: they spin on loads and stores
 * until the process ends under them (tests/record/record_exit_race.sh).
 * usage: exit_while_running [THREADS] [SPIN] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t cells[8][8]; /* one host and guest cache line per thread */

static _Atomic int started; /* threads that have begun to spin */

static void *spin(void *arg)
{
	volatile uint64_t *p = arg;
	atomic_fetch_add(&started, 1);
	for (;;)
		p[0] += p[1] + 1;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	long work = argc > 2 ? atol(argv[2]) : 2000000;
	if (n < 1 || n > 8 || work < 0) {
		fprintf(stderr, "usage: exit_while_running [THREADS 1..8] [SPIN]\n");
		return 2;
	}
	pthread_t t;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, NULL, spin, cells[i]) != 0)
			return 1;
	/* Every thread runs before the exit, however late the host starts
	 * it: "N threads running" must not depend on host timing (a loaded
	 * host started some after a short SPIN, and the profile then had
	 * fewer threads than the test expects). */
	while (atomic_load(&started) < n)
		;
	for (volatile long i = 0; i < work; i++)
		;
	printf("exit with %d threads running\n", n);
	exit(0);
}

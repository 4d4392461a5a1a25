/* False sharing: two threads increment their own counters. In `shared` the
 * two counters sit in one cache line, so each write takes the line from the
 * other core; in `padded` each counter has a line of its own. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long iters = 1000000; /* argv[1] */

static struct {
	volatile uint64_t a, b; /* same 64-byte line */
} shared __attribute__((aligned(64)));

static struct {
	volatile uint64_t a;
	char pad[56];
	volatile uint64_t b;
} padded __attribute__((aligned(64)));

__attribute__((noinline, noipa)) static void bump_shared(volatile uint64_t *c)
{
	for (long i = 0; i < iters; i++)
		(*c)++;
}

__attribute__((noinline, noipa)) static void bump_padded(volatile uint64_t *c)
{
	for (long i = 0; i < iters; i++)
		(*c)++;
}

static pthread_barrier_t start, middle;

/* Both threads start each phase together so that their loops overlap. */
static void *worker(void *arg)
{
	int second = arg != NULL;
	pthread_barrier_wait(&start);
	bump_shared(second ? &shared.b : &shared.a);
	pthread_barrier_wait(&middle);
	bump_padded(second ? &padded.b : &padded.a);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		iters = atol(argv[1]);
	if (iters < 1) {
		fprintf(stderr, "usage: false_sharing [ITERATIONS]\n");
		return 2;
	}
	pthread_t t;
	pthread_barrier_init(&start, NULL, 2);
	pthread_barrier_init(&middle, NULL, 2);
	if (pthread_create(&t, NULL, worker, (void *)1) != 0)
		return 1;
	worker(NULL);
	pthread_join(t, NULL);
	printf("false_sharing: %llu %llu %llu %llu\n", (unsigned long long)shared.a,
	       (unsigned long long)shared.b, (unsigned long long)padded.a, (unsigned long long)padded.b);
	return 0;
}

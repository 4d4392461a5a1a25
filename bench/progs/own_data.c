/* Threads that keep to their own data (bench/bench_interleave.sh): each
 * fills an array of its own and walks it with a data-dependent branch and
 * a second, scattered load. No line is shared, so interleaved replay
 * (replay_hub.h) finds no meeting and replays the threads side by side.
 * usage: own_data [THREADS] [REPS] */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long n = 1 << 20, reps = 8;

static void *work(void *arg)
{
	uint32_t *a = malloc(n * sizeof(*a));
	if (!a)
		return NULL;
	uint64_t s = 0, x = (uintptr_t)arg + 1;
	for (long i = 0; i < n; i++)
		a[i] = (uint32_t)(x = x * 6364136223846793005ull + 1442695040888963407ull);
	for (long r = 0; r < reps; r++)
		for (long i = 0; i < n; i++)
			if (a[i] & 0x100)
				s += a[i];
			else
				s ^= a[(i * 7) & (n - 1)];
	free(a);
	return (void *)(uintptr_t)s;
}

int main(int argc, char **argv)
{
	int t = argc > 1 ? atoi(argv[1]) : 2;
	if (argc > 2)
		reps = atol(argv[2]);
	if (t < 1 || t > 16 || reps < 1) {
		fprintf(stderr, "usage: own_data [THREADS 1..16] [REPS]\n");
		return 2;
	}
	pthread_t th[16];
	for (int i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, work, (void *)(uintptr_t)i) != 0)
			return 1;
	uint64_t s = 0;
	for (int i = 0; i < t; i++) {
		void *r;
		pthread_join(th[i], &r);
		s += (uintptr_t)r;
	}
	printf("own_data: %llu\n", (unsigned long long)s);
	return 0;
}

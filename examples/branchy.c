/* Branchy code: the same comparison loop over random data (the branch
 * predictor cannot learn it) and over sorted data (it can).
 * usage: branchy [REPETITIONS] (default 1). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000000

static uint32_t rng = 12345;
static uint32_t next_random(void)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) & 0xFFFF;
}

/* Compiled at -O1 with a real branch on the comparison (no CSEL). */
__attribute__((noinline, optimize("no-if-conversion", "no-if-conversion2"))) static long
count_above(const uint16_t *v, size_t n, uint16_t threshold)
{
	long hits = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] >= threshold)
			hits += v[i] & 3;
		else
			hits -= 1;
	}
	return hits;
}

__attribute__((noinline)) static long count_random(const uint16_t *v, size_t n)
{
	return count_above(v, n, 0x8000);
}

/* Counting sort: branch-light, so the comparison loop dominates. */
__attribute__((noinline)) static void sort16(uint16_t *v, size_t n)
{
	static uint32_t histogram[65536];
	memset(histogram, 0, sizeof(histogram));
	for (size_t i = 0; i < n; i++)
		histogram[v[i]]++;
	size_t k = 0;
	for (uint32_t x = 0; x < 65536; x++)
		for (uint32_t c = histogram[x]; c; c--)
			v[k++] = (uint16_t)x;
}

__attribute__((noinline)) static long count_sorted(uint16_t *v, size_t n)
{
	sort16(v, n);
	return count_above(v, n, 0x8000);
}

int main(int argc, char **argv)
{
	static uint16_t v[N];
	int reps = argc > 1 ? atoi(argv[1]) : 1;
	if (reps < 1) {
		fprintf(stderr, "usage: branchy [REPETITIONS]\n");
		return 2;
	}
	long a = 0, b = 0;
	for (int r = 0; r < reps; r++) {
		for (size_t i = 0; i < N; i++)
			v[i] = (uint16_t)next_random();
		a += count_random(v, N);
		b += count_sorted(v, N);
	}
	printf("branchy: random %ld, sorted %ld\n", a, b);
	return 0;
}

/* Streaming: sum a 32 MiB array front to back. Consecutive loads share
 * cache lines and the stream is regular, so few loads miss L1D. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ELEMS ((32u << 20) / sizeof(uint64_t))

__attribute__((noinline)) static void fill(uint64_t *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = i * 3 + 1;
}

__attribute__((noinline)) static uint64_t sum(const uint64_t *a, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i];
	return s;
}

int main(int argc, char **argv)
{
	int passes = argc > 1 ? atoi(argv[1]) : 2;
	uint64_t *a = malloc(ELEMS * sizeof(*a));
	if (!a)
		return 1;
	fill(a, ELEMS);
	uint64_t s = 0;
	for (int p = 0; p < passes; p++) {
		a[p] += 1; /* the array changes: each pass really reads it again */
		s += sum(a, ELEMS);
	}
	printf("stream: %d passes, sum %llu\n", passes, (unsigned long long)s);
	return 0;
}

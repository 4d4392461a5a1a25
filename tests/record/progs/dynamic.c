/* A dynamically linked program (PIE, glibc from the aarch64 sysroot): its
 * own hot function, and time in the C library (memset, memcpy).
 * usage: dynamic [REPETITIONS] (default 20). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static unsigned long sum_bytes(const unsigned char *p, size_t n)
{
	unsigned long s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i] ^ (unsigned char)i;
	return s;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 20;
	size_t n = 1 << 16;
	unsigned char *a = malloc(n), *b = malloc(n);
	if (!a || !b)
		return 1;
	unsigned long s = 0;
	for (int r = 0; r < reps; r++) {
		memset(a, r, n);
		memcpy(b, a, n);
		s += sum_bytes(b, n);
	}
	printf("dynamic: %lu\n", s);
	free(a);
	free(b);
	return 0;
}

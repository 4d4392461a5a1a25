/* Load pairs for record_pairs.sh: each LDP of two Q registers makes more
 * than one access (QEMU 10.2 one per register, 7.2 one per 8 bytes; an LDP
 * of two X registers is one 16-byte access in 10.2), logged one after the
 * other. The pairs start 8 bytes past a multiple of 32 in a 64-byte aligned
 * buffer, so each pair's lowest address is 8 modulo 32 and its later
 * accesses' are not; every other pair crosses a cache line. Prints the
 * buffer's address and size. */
#include <stdint.h>
#include <stdio.h>

#define WORDS 1024
static uint64_t buf[WORDS + 4] __attribute__((aligned(64)));

int main(void)
{
	uint64_t sum = 0;
	for (int i = 0; i < WORDS; i++)
		buf[i] = (uint64_t)i;
	for (int round = 0; round < 400; round++)
		for (int i = 1; i < WORDS; i += 4) {
			uint64_t a;
			__asm__ volatile("ldp q0, q1, [%1]\n\teor v0.16b, v0.16b, v1.16b\n\tumov %0, v0.d[0]"
			                 : "=r"(a)
			                 : "r"(&buf[i])
			                 : "v0", "v1", "memory");
			sum += a;
		}
	printf("%lx %zu %lu\n", (unsigned long)(uintptr_t)buf, sizeof(buf), (unsigned long)sum);
	return 0;
}

/* One loop of every operation type SPE's type filters tell apart, for the
 * filter tests of SPE after v1 (tests/system_spe/system_spe_later_filters.sh):
 * an integer Other, a load, a store, an atomic that returns a value (a
 * load AND a store, SPE-3.2.2-2/3), a scalar floating-point operation (FP,
 * LATER-EFT-3), an Advanced SIMD integer operation (SIMD) and a
 * conditional branch. Written in assembly so that the compiler cannot
 * change the instructions; the test finds each by its mnemonic in
 * `objdump -d` of mix_loop. usage: type_mix [ITERATIONS] (default 200000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t cells[16];

__attribute__((noinline)) static void mix_loop(uint64_t n, uint64_t *p)
{
	__asm__ volatile("   fmov d1, #1.0\n"
	                 "1: add x9, x9, #1\n"
	                 "   ldr x10, [%1]\n"
	                 "   str x9, [%1, #8]\n"
	                 "   ldadd x9, x11, [%1]\n"
	                 "   fadd d0, d0, d1\n"
	                 "   add v2.4s, v2.4s, v3.4s\n"
	                 "   subs %0, %0, #1\n"
	                 "   b.ne 1b\n"
	                 : "+r"(n)
	                 : "r"(p)
	                 : "x9", "x10", "x11", "d0", "d1", "v2", "v3", "memory", "cc");
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 200000;
	if (n == 0) {
		fprintf(stderr, "usage: type_mix [ITERATIONS > 0]\n");
		return 2;
	}
	mix_loop(n, cells);
	printf("%llu\n", (unsigned long long)cells[0]);
	return 0;
}

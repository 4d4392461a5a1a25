/* Blocks whose previous taken branch is known from the code alone, for the
 * previous-branch-target packets of `armprof record` (FEAT_SPE_PBT,
 * LATER-PBT-2; tests/record/pbt_check.py follows the control flow):
 *   - a loop of two blocks, each ended by a taken branch to the other's
 *     start, so every operation of one has the other's start as its
 *     previous branch target, never its own block's;
 *   - a loop of one block (replayed a run at a time by the plugin) entered
 *     through a branch to its own start, then the operations after it.
 * Written in assembly so that the compiler cannot change their shape.
 * usage: branch_blocks [ITERATIONS] (default 100000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static uint64_t branch_blocks(uint64_t n)
{
	uint64_t a = 0, b = 0, k = n;
	__asm__ volatile("1: add %1, %1, #1\n"
	                 "   add %2, %2, #3\n"
	                 "   eor %1, %1, %2\n"
	                 "   b 2f\n"
	                 "3: add %2, %2, #5\n" /* never executed */
	                 "   b 3b\n"
	                 "2: add %1, %1, #2\n"
	                 "   eor %2, %2, %1\n"
	                 "   subs %0, %0, #1\n"
	                 "   b.ne 1b\n"
	                 "   mov %0, #64\n"
	                 "   b 4f\n"
	                 "4: add %1, %1, #7\n"
	                 "   subs %0, %0, #1\n"
	                 "   b.ne 4b\n"
	                 "   add %2, %2, %1\n"
	                 "   add %1, %1, #9\n"
	                 : "+r"(k), "+r"(a), "+r"(b)
	                 :
	                 : "cc");
	return a ^ b;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 100000;
	if (n == 0) {
		fprintf(stderr, "usage: branch_blocks [ITERATIONS > 0]\n");
		return 2;
	}
	uint64_t x = 0;
	for (int i = 0; i < 20; i++)
		x += branch_blocks(n);
	printf("%llu\n", (unsigned long long)x);
	return 0;
}

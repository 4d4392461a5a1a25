/* One-block loops of the shapes armprof record replays a run at a time
 * (plugins/qemu/replay.c replay_run), and of shapes it must not: each loop
 * is one translation block that branches back to itself. Written in
 * assembly so that the compiler cannot change their shape.
 * usage: loop_runs [REPETITIONS] (default 1). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint8_t bytes[1 << 16];
static uint64_t words[1 << 13];
static uint64_t chain[1024]; /* 8 KiB, 128 lines, a ring */

/* A string scan: a byte load per iteration, 64 to a line; the loaded
 * register is not the address register. */
static uint64_t scan(const uint8_t *p)
{
	const uint8_t *start = p;
	uint64_t c;
	__asm__ volatile("1: ldrb %w1, [%0], #1\n"
	                 "   cbnz %w1, 1b\n"
	                 : "+r"(p), "=&r"(c)
	                 :
	                 : "memory");
	return (uint64_t)(p - start);
}

/* A fill: a store per iteration, 8 to a line. */
static void fill(uint64_t *p, uint64_t n, uint64_t v)
{
	__asm__ volatile("1: str %2, [%0], #8\n"
	                 "   subs %1, %1, #1\n"
	                 "   b.ne 1b\n"
	                 : "+r"(p), "+r"(n)
	                 : "r"(v)
	                 : "memory", "cc");
}

/* A sum over a line's words, read again and again: the same line for
 * every access of the loop. */
static uint64_t sum_line(const uint64_t *line, uint64_t n)
{
	uint64_t s = 0, i = 0, x;
	__asm__ volatile("1: and %3, %2, #7\n"
	                 "   ldr %3, [%4, %3, lsl #3]\n"
	                 "   add %0, %0, %3\n"
	                 "   add %2, %2, #1\n"
	                 "   cmp %2, %1\n"
	                 "   b.ne 1b\n"
	                 : "+r"(s), "+r"(n), "+r"(i), "=&r"(x)
	                 : "r"(line)
	                 : "memory", "cc");
	return s;
}

/* A pointer chase along a chain that goes through a line a word at a
 * time (8 hops) before the next line (main sets it up): each load's address is the previous
 * load's data, so each waits for the one before unless the timing model
 * is set up with an L1D faster than the loop. The first hop in a line
 * misses the L1D the first time round. Entered by a branch, so that the
 * loop's first iteration is its block's first execution. */
static uint64_t chase(uint64_t *start, uint64_t n)
{
	uint64_t p = (uint64_t)(uintptr_t)start;
	__asm__ volatile("   b 1f\n"
	                 "1: ldr %0, [%0]\n"
	                 "   subs %1, %1, #1\n"
	                 "   b.ne 1b\n"
	                 : "+r"(p), "+r"(n)
	                 :
	                 : "memory", "cc");
	return p;
}

/* A store loop whose address register a slow load has just written: the
 * first iterations wait for that load's data. */
static void store_after_load(uint64_t **slot, uint64_t n)
{
	uint64_t *p;
	__asm__ volatile("   ldr %0, [%2]\n"
	                 "1: str xzr, [%0]\n"
	                 "   subs %1, %1, #1\n"
	                 "   b.ne 1b\n"
	                 : "=&r"(p), "+r"(n)
	                 : "r"(slot)
	                 : "memory", "cc");
}

/* No memory access: a countdown (runs of TB starts alone). */
static uint64_t countdown(uint64_t n)
{
	uint64_t k = 0;
	__asm__ volatile("1: add %0, %0, #3\n"
	                 "   subs %1, %1, #1\n"
	                 "   b.ne 1b\n"
	                 : "+r"(k), "+r"(n)
	                 :
	                 : "cc");
	return k;
}

/* An indirect branch back to the loop's start until the count runs out. */
static uint64_t indirect_loop(const uint64_t *line, uint64_t n)
{
	uint64_t s = 0, x, t;
	__asm__ volatile("   adr %3, 1f\n"
	                 "1: ldr %2, [%4]\n"
	                 "   add %0, %0, %2\n"
	                 "   subs %1, %1, #1\n"
	                 "   adr %2, 2f\n"
	                 "   csel %2, %3, %2, ne\n"
	                 "   br %2\n"
	                 "2:\n"
	                 : "+r"(s), "+r"(n), "=&r"(x), "=&r"(t)
	                 : "r"(line)
	                 : "memory", "cc");
	return s;
}

/* Atomic adds to one word (an LSE atomic each iteration). */
static uint64_t atomic_adds(uint64_t *w, uint64_t n)
{
	uint64_t old;
	__asm__ volatile("1: ldadd %3, %2, [%0]\n"
	                 "   subs %1, %1, #1\n"
	                 "   b.ne 1b\n"
	                 : "+r"(w), "+r"(n), "=&r"(old)
	                 : "r"((uint64_t)1)
	                 : "memory", "cc");
	return *w + (old & 1);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 1;
	uint64_t total = 0;
	static uint64_t *slot = words;
	/* The chain's lines in an order the prefetcher cannot follow (37
	 * lines on each time), a word at a time within each. By the time a
	 * repetition follows it, the other loops have pushed it out of the
	 * L1D. */
	for (size_t l = 0; l < 128; l++) {
		uint64_t *line = &chain[l * 37 % 128 * 8], *next = &chain[(l + 1) * 37 % 128 * 8];
		for (size_t w = 0; w < 8; w++)
			line[w] = (uint64_t)(uintptr_t)(w < 7 ? &line[w + 1] : next);
	}
	for (int r = 0; r < reps; r++) {
		for (size_t i = 0; i + 1 < sizeof(bytes); i++)
			bytes[i] = (uint8_t)(1 + (i + r) % 251);
		total += scan(bytes);
		fill(words, sizeof(words) / sizeof(words[0]), (uint64_t)r);
		total += sum_line(words + 64, 20000);
		total += chase(chain, 5000) != 0;
		store_after_load(&slot, 3000);
		total += countdown(30000);
		total += indirect_loop(words + 8, 20000);
		total += atomic_adds(words + 16, 5000);
	}
	printf("loop_runs: %d repetitions, total %llu\n", reps, (unsigned long long)total);
	return 0;
}

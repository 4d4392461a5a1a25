/* Code of known timing behaviour, for the full-system timing model
 * (tests/system_spe/system_spe_timing.sh), each part in a function of its
 * own so that a profile tells them apart:
 *   chase_l1      a pointer chase round 16 KiB (fits the 64 KiB L1D): L1D hits
 *   chase_dram    a pointer chase round 64 MiB (eight times the 8 MiB LLC,
 *                 far more pages than the L2 TLB maps): DRAM, table walks
 *   branch_random a conditional branch on random bits: mispredicted about
 *                 half the time
 *   branch_taken  the same loop on the same data with a branch always
 *                 taken: learnt at once
 * usage: timing STEPS (each loop runs STEPS times). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	uint64_t pad[7]; /* one node per 64-byte line */
};

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* n nodes in one random cycle (Sattolo's algorithm). */
static struct node *make_cycle(size_t n)
{
	struct node *nodes = malloc(n * sizeof(*nodes));
	uint32_t *order = malloc(n * sizeof(*order));
	if (!nodes || !order) {
		fprintf(stderr, "timing: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = next_random() % i;
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		nodes[order[i]].next = &nodes[order[(i + 1) % n]];
	free(order);
	return nodes;
}

__attribute__((noinline)) static struct node *chase_l1(struct node *p, long steps)
{
	while (steps--)
		p = p->next;
	return p;
}

__attribute__((noinline)) static struct node *chase_dram(struct node *p, long steps)
{
	while (steps--)
		p = p->next;
	return p;
}

#define BITS (1u << 16)

/* A real branch on each byte (no CSEL: if-conversion off). */
__attribute__((noinline, optimize("no-if-conversion", "no-if-conversion2"))) static long
branch_random(const uint8_t *bits, long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		if (bits[i & (BITS - 1)] & 1)
			s += 3;
		else
			s ^= 5;
	}
	return s;
}

/* The same, with a condition every byte meets (limit is 256, unknown to
 * the compiler). */
__attribute__((noinline, optimize("no-if-conversion", "no-if-conversion2"))) static long
branch_taken(const uint8_t *bits, long n, long limit)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		if (bits[i & (BITS - 1)] < limit)
			s += 3;
		else
			s ^= 5;
	}
	return s;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 0;
	if (steps <= 0) {
		fprintf(stderr, "usage: timing STEPS\n");
		return 2;
	}
	struct node *small = make_cycle((16u << 10) / sizeof(struct node));
	struct node *large = make_cycle((64u << 20) / sizeof(struct node));
	static uint8_t bits[BITS];
	for (unsigned i = 0; i < BITS; i++)
		bits[i] = (uint8_t)next_random();
	struct node *a = chase_l1(small, steps);
	struct node *b = chase_dram(large, steps);
	long r = branch_random(bits, steps);
	long t = branch_taken(bits, steps, 256 + (argc > 2));
	printf("timing: %p %p %ld %ld\n", (void *)a, (void *)b, r, t);
	return 0;
}

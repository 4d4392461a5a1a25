/* Pointer chasing: follow a random cyclic permutation of 64-byte nodes
 * spread over 32 MiB, larger than any modelled cache, so nearly every load
 * in chase() misses L1D and the LLC and waits for DRAM. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	uint64_t pad[7]; /* one node per 64-byte line */
};

#define NODES (32u << 20) / sizeof(struct node)

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Link the nodes in one random cycle (Sattolo's algorithm). */
__attribute__((noinline)) static void build(struct node *nodes, uint32_t *order, size_t n)
{
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
}

__attribute__((noinline)) static struct node *chase(struct node *p, long steps)
{
	while (steps--)
		p = p->next;
	return p;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 2000000;
	if (steps < 0) {
		fprintf(stderr, "usage: pointer_chase [STEPS]\n");
		return 2;
	}
	struct node *nodes = malloc(NODES * sizeof(*nodes));
	uint32_t *order = malloc(NODES * sizeof(*order));
	if (!nodes || !order)
		return 1;
	build(nodes, order, NODES);
	struct node *end = chase(&nodes[0], steps);
	printf("pointer_chase: %ld steps, ended at node %ld\n", steps, (long)(end - nodes));
	return 0;
}

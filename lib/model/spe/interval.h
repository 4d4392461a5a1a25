/* The sample interval counter(s) of SPE: PMSICR_EL1.COUNT and, when
 * PMSIDR_EL1.ERnd == 1, the secondary counter PMSICR_EL1.ECOUNT
 * (spec/002 2.2.1, 3.1.1, 3.1.2, 4.3.10; spec/004 PMSICR_EL1).
 *
 * A pure module on register values: no PE, no allocation. The engine keeps
 * one struct ap_spe_icr per PE, refreshes its reload parameters whenever
 * PMSIRR_EL1 changes, and splits the stream of population operations into
 * runs of plain decrements (ap_spe_icr_fast() operations at a time, applied
 * with ap_spe_icr_consume()) and single boundary operations
 * (ap_spe_icr_step()) that reload a counter or select an operation. This is
 * what lets the per-operation hot path be a decrement and a branch.
 *
 * Model choices (docs/model-config.md, spe.sample_next_op):
 * - sample_next_op = true (default, SPE-2.2.1-4 "the next operation"): the
 *   member that finds COUNT already zero is selected and reloads it, so with
 *   RND == 0 samples are INTERVAL*256+1 operations apart (SPE-3.1.2-3).
 *   sample_next_op = false: the member that decrements COUNT to zero is
 *   selected (interval INTERVAL*256).
 * - ECOUNT (RND == 1, ERnd == 1): the member that decrements ECOUNT to zero
 *   is selected; a random value of 0 selects the member that reloaded COUNT.
 *   ECOUNT != 0 is the whole "armed" state, so PMSICR_EL1 save/restore keeps
 *   it (answers the gap SPE-3.1.2-11). Mean interval INTERVAL*256+1.
 * - A nonzero PMSICR_EL1 with COUNT == 0 at enable is not reloaded
 *   (SPE-3.1.1-1 read literally, gap SPE-3.1.1-6): the next member finds
 *   COUNT zero and behaves as in 3.1.2.
 * - PMSIRR_EL1.INTERVAL == 0 uses spe.unknown_interval (SPE-4.3.12-10). */
#ifndef ARMPROF_MODEL_SPE_INTERVAL_H
#define ARMPROF_MODEL_SPE_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

/* PMSICR_EL1 fields (4.3.10, spec/004). */
#define AP_PMSICR_COUNT_MASK  0x00000000FFFFFFFFull /* COUNT [31:0] */
#define AP_PMSICR_ECOUNT_SHIFT 56                   /* ECOUNT [63:56] */
/* PMSIRR_EL1 fields (4.3.12). */
#define AP_PMSIRR_RND          0x1ull               /* RND [0] */
#define AP_PMSIRR_INTERVAL_SHIFT 8                  /* INTERVAL [31:8] */
#define AP_PMSIRR_INTERVAL_MASK 0xFFFFFFull

/* The PRNG behind "a random or pseudorandom value in the range 0x00 to 0xFF"
 * (SPE-2.2.2-1): splitmix64, seeded from the configuration so the same
 * config, seed and inputs give the same samples. Any seed, 0 included, gives
 * a usable generator (SPE-2.2.2-2). */
struct ap_spe_rng {
	uint64_t s;
};
static inline void ap_spe_rng_seed(struct ap_spe_rng *r, uint64_t seed) { r->s = seed; }
static inline uint64_t ap_spe_rng_next(struct ap_spe_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
static inline uint8_t ap_spe_rng_byte(struct ap_spe_rng *r)
{
	return (uint8_t)(ap_spe_rng_next(r) >> 56);
}

struct ap_spe_icr {
	uint32_t count;   /* PMSICR_EL1.COUNT */
	uint8_t ecount;   /* PMSICR_EL1.ECOUNT (only used when ernd) */
	/* Reload parameters (from PMSIRR_EL1, PMSIDR_EL1.ERnd and the config). */
	uint32_t interval; /* effective PMSIRR_EL1.INTERVAL, never 0 */
	bool rnd;          /* PMSIRR_EL1.RND */
	bool ernd;         /* PMSIDR_EL1.ERnd */
	bool next_op;      /* spe.sample_next_op */
};

/* Load the counters from a PMSICR_EL1 value / give back the value. */
void ap_spe_icr_load(struct ap_spe_icr *c, uint64_t pmsicr);
uint64_t ap_spe_icr_value(const struct ap_spe_icr *c);

/* Refresh the reload parameters. unknown_interval replaces INTERVAL == 0
 * (values of 0 are treated as 1). */
void ap_spe_icr_params(struct ap_spe_icr *c, uint64_t pmsirr, bool ernd, bool next_op,
                       uint32_t unknown_interval);

/* 3.1.1: the PE moves from a state where profiling is disabled to one where
 * it is enabled. Loads the initial value if PMSICR_EL1 is zero. */
void ap_spe_icr_enable(struct ap_spe_icr *c, struct ap_spe_rng *rng);

/* How many population members can pass as plain decrements, without a
 * reload or a selection. */
uint64_t ap_spe_icr_fast(const struct ap_spe_icr *c);
/* Apply n plain decrements, n <= ap_spe_icr_fast(c). */
void ap_spe_icr_consume(struct ap_spe_icr *c, uint64_t n);
/* One population member at a boundary (or anywhere: a member that is a plain
 * decrement is handled too). Returns true if the member is selected for
 * sampling. */
bool ap_spe_icr_step(struct ap_spe_icr *c, struct ap_spe_rng *rng);
/* One member of any kind: consume if possible, else step. */
static inline bool ap_spe_icr_tick(struct ap_spe_icr *c, struct ap_spe_rng *rng)
{
	if (ap_spe_icr_fast(c)) {
		ap_spe_icr_consume(c, 1);
		return false;
	}
	return ap_spe_icr_step(c, rng);
}
/* Members that pass before the next selected one (so the selected one is
 * member number result+1), computed on copies so c and rng are unchanged.
 * Gives up after a few reloads without a selection (returns the members
 * counted so far; only reachable with restored PMSICR_EL1 values). */
uint64_t ap_spe_icr_until_selection(const struct ap_spe_icr *c, const struct ap_spe_rng *rng);

#endif

/* The SPE operation API (include/armprof/spe.h): one call per population
 * member, the batch form, PSB CSYNC, and the counts the host reads. */
#include <string.h>

#include "model/pe.h"
#include "model/spe/buffer.h"
#include "model/spe/engine_internal.h"

/* One member that is not a plain decrement: a counter boundary, or the
 * last member of an in-flight sample. */
static int op_slow(struct ap_pe *pe, const struct ap_spe_op *op)
{
	struct ap_spe_engine *e = &pe->spe;
	ap_spe_account(pe);
	bool selected = false;
	if (e->enabled) {
		e->counts.sample_pop++; /* SPE-2.2.5-5, SPE-T1-row1 */
		selected = ap_spe_icr_step(&e->icr, &e->rng);
	}
	/* Samples in flight during this member collide with a new one, even
	 * those that complete with it (2.2.4). */
	bool collides = e->n_in_flight >= e->in_flight_cap;
	for (unsigned i = 0; i < e->n_in_flight;) {
		if (--e->in_flight[i].remaining == 0)
			ap_spe_complete(pe, i); /* moves the last slot into i */
		else
			i++;
	}
	if (selected)
		ap_spe_take_sample(pe, op, collides);
	ap_spe_refresh_fast(pe);
	return selected;
}

/* On a cache line of its own: a host calls it once per operation, and its
 * cost (a few instructions) otherwise depends on where the linker puts it
 * (bench_model single: 1.0 against 1.2 ns/op between two placements). */
__attribute__((aligned(64))) int ap_spe_op(struct ap_pe *pe, const struct ap_spe_op *op)
{
	struct ap_spe_engine *e = &pe->spe;
	/* SPE-2.2.5-4: outside the population, nothing counts it. */
	if (__builtin_expect((op->flags & e->excluded_flags) != 0, 0))
		return 0;
	if (__builtin_expect(e->fast_left != 0, 1)) {
		e->fast_left--;
		return 0;
	}
	return op_slow(pe, op);
}

/* Would the next member be selected? (On copies: nothing changes.) */
static bool next_is_selected(const struct ap_pe *pe)
{
	const struct ap_spe_engine *e = &pe->spe;
	if (!e->enabled)
		return false;
	struct ap_spe_icr c = e->icr;
	struct ap_spe_rng r = e->rng;
	ap_spe_icr_consume(&c, e->fast_start - e->fast_left);
	if (ap_spe_icr_fast(&c))
		return false;
	return ap_spe_icr_step(&c, &r);
}

uint64_t ap_spe_until_sample(struct ap_pe *pe)
{
	const struct ap_spe_engine *e = &pe->spe;
	if (!e->enabled)
		return UINT64_MAX;
	struct ap_spe_icr c = e->icr;
	ap_spe_icr_consume(&c, e->fast_start - e->fast_left);
	return ap_spe_icr_until_selection(&c, &e->rng);
}

uint64_t ap_spe_skip(struct ap_pe *pe, uint64_t n)
{
	static const struct ap_spe_op anonymous; /* a member nobody will sample */
	struct ap_spe_engine *e = &pe->spe;
	uint64_t done = 0;
	for (;;) {
		uint64_t k = n - done < e->fast_left ? n - done : e->fast_left;
		e->fast_left -= k;
		done += k;
		if (done == n || next_is_selected(pe))
			return done;
		op_slow(pe, &anonymous); /* a reload or a completion, no sample */
		done++;
	}
}

void ap_spe_psb_csync(struct ap_pe *pe)
{
	struct ap_spe_engine *e = &pe->spe;
	ap_spe_account(pe);
	/* 3.6: the profiling operations of every earlier member complete ... */
	while (e->n_in_flight) {
		unsigned first = 0;
		for (unsigned i = 1; i < e->n_in_flight; i++)
			if (e->in_flight[i].remaining < e->in_flight[first].remaining)
				first = i;
		ap_spe_complete(pe, first);
	}
	/* ... and every record the PE holds is written (SPE-3.6-12). */
	ap_spe_drain_held(pe, 0);
	ap_spe_refresh_fast(pe);
}

void ap_spe_get_counts(struct ap_pe *pe, struct ap_spe_counts *out)
{
	ap_spe_account(pe);
	*out = pe->spe.counts;
}

int ap_spe_pmu_event(struct ap_pe *pe, unsigned event, uint64_t *value)
{
	ap_spe_account(pe);
	const struct ap_spe_counts *c = &pe->spe.counts;
	switch (event) { /* 2.6 Table 1 */
	case 0x4000: *value = c->sample_pop; return 0;
	case 0x4001: *value = c->sample_feed; return 0;
	case 0x4002: *value = c->sample_filtrate; return 0;
	case 0x4003: *value = c->sample_collision; return 0;
	default: return -AP_ERR_INVALID;
	}
}

bool ap_spe_pmbirq(const struct ap_pe *pe)
{
	return (pe->spe_regs.pmbsr_el1 & AP_PMBSR_S) != 0; /* SPE-3.5-4 */
}

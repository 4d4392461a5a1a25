/* The sample interval counters (spec/002 3.1.1, 3.1.2; spec/004 PMSICR_EL1).
 * See interval.h for the model's choices where the text leaves one. */
#include "model/spe/interval.h"

/* RND == 1 with ERnd == 1: the random part is counted by ECOUNT after COUNT
 * expires (3.1.2 third case, PMSICR-16). */
static bool secondary_mode(const struct ap_spe_icr *c)
{
	return c->rnd && c->ernd;
}

void ap_spe_icr_load(struct ap_spe_icr *c, uint64_t pmsicr)
{
	c->count = (uint32_t)(pmsicr & AP_PMSICR_COUNT_MASK);
	c->ecount = (uint8_t)(pmsicr >> AP_PMSICR_ECOUNT_SHIFT);
}

uint64_t ap_spe_icr_value(const struct ap_spe_icr *c)
{
	/* ECOUNT is RES0 when ERnd == 0 (PMSICR-9). */
	uint64_t e = c->ernd ? (uint64_t)c->ecount << AP_PMSICR_ECOUNT_SHIFT : 0;
	return e | c->count;
}

void ap_spe_icr_params(struct ap_spe_icr *c, uint64_t pmsirr, bool ernd, bool next_op,
                       uint32_t unknown_interval)
{
	uint32_t interval = (uint32_t)((pmsirr >> AP_PMSIRR_INTERVAL_SHIFT) & AP_PMSIRR_INTERVAL_MASK);
	if (interval == 0) /* SPE-4.3.12-10: an UNKNOWN interval is used */
		interval = unknown_interval ? (unknown_interval & AP_PMSIRR_INTERVAL_MASK) : 1;
	if (interval == 0)
		interval = 1;
	c->interval = interval;
	c->rnd = (pmsirr & AP_PMSIRR_RND) != 0;
	c->ernd = ernd;
	c->next_op = next_op;
}

/* COUNT[31:8] = INTERVAL; COUNT[7:0] = random only for RND == 1, ERnd == 0
 * (3.1.1, 3.1.2 first and second cases; SPE-4.3.10-18). */
static uint32_t reload_value(const struct ap_spe_icr *c, struct ap_spe_rng *rng)
{
	uint32_t low = (c->rnd && !c->ernd) ? ap_spe_rng_byte(rng) : 0;
	return (c->interval << 8) | low;
}

void ap_spe_icr_enable(struct ap_spe_icr *c, struct ap_spe_rng *rng)
{
	/* SPE-3.1.1-1/2: only a zero PMSICR_EL1 (the whole register) is loaded. */
	if (ap_spe_icr_value(c) != 0)
		return;
	c->count = reload_value(c, rng);
	c->ecount = 0; /* SPE-3.1.1-5: with ERnd == 1 the random part comes later */
}

uint64_t ap_spe_icr_fast(const struct ap_spe_icr *c)
{
	uint64_t n;
	if (c->next_op)
		n = c->count; /* members 1..COUNT decrement; member COUNT+1 finds zero */
	else
		n = c->count ? (uint64_t)c->count - 1 : 0; /* member COUNT reaches zero */
	if (secondary_mode(c) && c->ecount) {
		uint64_t e = (uint64_t)c->ecount - 1; /* member ECOUNT reaches zero */
		if (e < n)
			n = e;
	}
	return n;
}

void ap_spe_icr_consume(struct ap_spe_icr *c, uint64_t n)
{
	c->count -= (uint32_t)n;
	if (secondary_mode(c) && c->ecount)
		c->ecount = (uint8_t)(c->ecount - n);
}

bool ap_spe_icr_step(struct ap_spe_icr *c, struct ap_spe_rng *rng)
{
	bool selected = false;
	if (secondary_mode(c) && c->ecount) {
		/* SPE-3.1.2-8/9: ECOUNT decrements with COUNT; reaching zero selects. */
		if (--c->ecount == 0)
			selected = true;
	}
	bool boundary = c->next_op ? c->count == 0 : c->count <= 1;
	if (!boundary) {
		c->count--;
		return selected;
	}
	c->count = reload_value(c, rng);
	if (secondary_mode(c)) {
		/* SPE-3.1.2-7, PMSICR-16: COUNT reloaded, ECOUNT = random. A zero
		 * random value means ECOUNT has already reached zero. */
		uint8_t r = ap_spe_rng_byte(rng);
		c->ecount = r;
		if (r == 0)
			selected = true;
	} else {
		selected = true; /* SPE-3.1.2-2/4, PMSICR-15 */
	}
	return selected;
}

uint64_t ap_spe_icr_until_selection(const struct ap_spe_icr *c, const struct ap_spe_rng *rng)
{
	struct ap_spe_icr t = *c;
	struct ap_spe_rng r = *rng;
	uint64_t passed = 0;
	/* Normal operation needs at most two boundaries (COUNT reload, then
	 * ECOUNT reaching zero); restored odd values may need a third. */
	for (int i = 0; i < 4; i++) {
		uint64_t n = ap_spe_icr_fast(&t);
		ap_spe_icr_consume(&t, n);
		passed += n;
		if (ap_spe_icr_step(&t, &r))
			return passed;
		passed++;
	}
	return passed;
}

/* The branch predictor's entry points (lib/uarch) against each other and
 * against a plain reference, branch by branch. ap_uarch_branch takes a
 * conditional branch inline with results made once per core, and every
 * other branch out of line; ap_uarch_branch_train + _result are the two
 * steps a host uses when it wants few results. On one random stream of
 * conditional, indirect, call and return branches the two must give the
 * same result every time, and a conditional branch's outcome must be a
 * plain gshare's (2-bit counters from weakly taken, global history): the
 * mispredict flag, AP_EV_MISPREDICTED and AP_EV_NOT_TAKEN (spec/002 5.3.7,
 * SPE-5.3.7-18), and its total latency with the misprediction penalty
 * (5.3.4, SPE-5.3.4-4). */
#include <stdlib.h>

#include "armprof/codec.h"
#include "armprof/uarch.h"
#include "harness.h"
#include "random_record.h"
#include "uarch_models.h"

/* The direction predictor written out plainly, without the model's shortcut
 * for an update that changes nothing. */
struct ref_gshare {
	uint8_t *ctr;
	uint64_t hist, mask;
};

static int ref_predict_wrong(struct ref_gshare *g, uint64_t pc, int taken)
{
	uint8_t *c = &g->ctr[((pc >> 2) ^ g->hist) & g->mask];
	int wrong = (*c >= 2) != (taken != 0);
	if (taken && *c < 3)
		(*c)++;
	else if (!taken && *c > 0)
		(*c)--;
	g->hist = ((g->hist << 1) | (taken != 0)) & g->mask;
	return wrong;
}

TEST(branch_paths_match_each_other_and_reference)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	cfg.bp_history_bits = 8; /* a small table: counters collide and saturate */
	struct model one, two;
	model_open_cfg(&one, &cfg, 1);
	model_open_cfg(&two, &cfg, 1);
	struct ref_gshare g = { malloc(256), 0, 255 };
	CHECK(g.ctr != NULL);
	memset(g.ctr, 2, 256);
	uint64_t rng = 0x9E3779B97F4A7C15ull;
	uint64_t cond = 0, wrong = 0;
	for (int i = 0; i < 200000; i++) {
		uint64_t r = rr_next(&rng);
		/* A few loop branches (mostly taken) and some random ones. */
		uint64_t pc = 0x400000 + ((r >> 8) & 0x3C);
		int taken = (r >> 20) % 8 < ((r >> 2) & 1 ? 7u : 4u);
		unsigned flags = AP_UARCH_BR_COND;
		uint64_t target = pc - 64;
		switch ((r >> 32) % 16) {
		case 0:
			flags = AP_UARCH_BR_CALL, taken = 1, target = 0x500000;
			break;
		case 1:
			flags = AP_UARCH_BR_RETURN | AP_UARCH_BR_INDIRECT, taken = 1;
			target = pc + 4 - ((r >> 40) & 1) * 0x40; /* now and then not the stacked one */
			break;
		case 2:
			flags = AP_UARCH_BR_INDIRECT, taken = 1, target = 0x600000 + ((r >> 44) & 3) * 0x100;
			break;
		case 3:
			flags = 0, taken = 1; /* direct unconditional */
			break;
		default:
			break;
		}
		struct ap_uarch_result a, b;
		ap_uarch_branch(one.core[0], pc, target, flags, taken, &a);
		int miss = ap_uarch_branch_train(two.core[0], pc, target, flags, taken);
		ap_uarch_branch_result(two.core[0], flags, taken, miss, &b);
		CHECK_EQ_U64(a.mispredicted, (uint64_t)(miss != 0));
		CHECK_EQ_U64(a.lat_issue, b.lat_issue);
		CHECK_EQ_U64(a.lat_xlat, b.lat_xlat);
		CHECK_EQ_U64(a.lat_total, b.lat_total);
		CHECK_EQ_U64(a.events, b.events);
		CHECK_EQ_U64(a.has_data_source, b.has_data_source);
		CHECK_EQ_U64(a.data_source, b.data_source);
		CHECK_EQ_U64(a.mispredicted, b.mispredicted);
		if (flags == AP_UARCH_BR_COND) {
			int want = ref_predict_wrong(&g, pc, taken);
			cond++;
			wrong += (uint64_t)want;
			CHECK_EQ_U64(a.mispredicted, (uint64_t)want);
			CHECK_EQ_U64(a.events, (want ? AP_EV_MISPREDICTED : 0) | (taken ? 0 : AP_EV_NOT_TAKEN));
			CHECK_EQ_U64(a.lat_total,
			             cfg.issue_latency + cfg.exec_latency + (want ? cfg.mispredict_penalty : 0u));
			CHECK_EQ_U64(a.lat_xlat, 0);
			CHECK_EQ_U64(a.has_data_source, 0);
		}
	}
	const struct ap_uarch_stats *s1 = ap_uarch_core_stats(one.core[0]), *s2 = ap_uarch_core_stats(two.core[0]);
	CHECK_EQ_U64(s1->branches, 200000);
	CHECK_EQ_U64(s2->branches, 200000);
	CHECK_EQ_U64(s1->mispredicts, s2->mispredicts);
	/* Both kinds of outcome were seen many times. */
	CHECK(wrong > cond / 20 && wrong < cond / 2);
	free(g.ctr);
	model_close(&one);
	model_close(&two);
}

TEST_MAIN(CASE(branch_paths_match_each_other_and_reference))

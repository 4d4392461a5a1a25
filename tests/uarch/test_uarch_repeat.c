/* ap_uarch_access_repeat and ap_uarch_branch_repeat (lib/uarch): a run of
 * accesses to one line, or of one branch with one outcome, taken at once
 * gives what the same run made one by one gives, or is refused with
 * nothing changed. Checked by running one trace through two identical
 * models, one making every access and branch one by one, the other trying
 * each run with the repeat calls first: every result either is asked for
 * is the same, and so are the statistics at the end. This is what lets
 * `armprof record` replay a one-block loop a run at a time
 * (plugins/qemu/replay.c replay_run, docs/record-and-report.md).
 * Latencies, events and Data Source are those of spec/002 5.3.4, 5.3.7 and
 * 5.3.5 (SPE-5.3.4-4, SPE-5.3.7-14 mispredicted, SPE-5.3.7-18/-19 L1D
 * refill and access, SPE-5.3.5-1). */
#include "armprof/uarch.h"
#include "harness.h"
#include "random_record.h"
#include "uarch_models.h"

static uint64_t rng = 0x13198A2E03707344ull;
static uint64_t next_random(void)
{
	return rr_next(&rng);
}

static void model_open(struct model *m, unsigned ncores)
{
	struct ap_uarch_config cfg;
	ap_uarch_config_init(&cfg);
	cfg.bp_history_bits = 6; /* short history: loop branches saturate it within a run */
	model_open_cfg(m, &cfg, ncores);
}

static int same_result(const struct ap_uarch_result *a, const struct ap_uarch_result *b)
{
	return a->lat_issue == b->lat_issue && a->lat_xlat == b->lat_xlat && a->lat_total == b->lat_total &&
	       a->events == b->events && a->has_data_source == b->has_data_source &&
	       a->data_source == b->data_source && a->mispredicted == b->mispredicted;
}

static int same_stats(const struct ap_uarch_stats *a, const struct ap_uarch_stats *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Runs of accesses: a line is touched, then (often) touched again 1..40
 * times at addresses within it, as a loop walking the line does; between
 * runs the trace streams, jumps at random, or goes back to an older line. */
static void compare_accesses(unsigned ncores, uint64_t *taken_out)
{
	struct model one, runs;
	model_open(&one, ncores);
	model_open(&runs, ncores);
	uint64_t va[2] = { 0x20000000, 0x30000000 }, old[2] = { 0x20000000, 0x30000000 };
	uint64_t before_va[2] = { 0x20000000, 0x30000000 };
	uint64_t taken = 0, refused = 0, differ = 0;
	for (unsigned i = 0; i < 40000; i++) {
		unsigned c = ncores > 1 ? (i / 5) % ncores : 0;
		uint64_t r = next_random();
		enum ap_uarch_access_kind kind = (enum ap_uarch_access_kind)(1 + (r >> 61) % 3);
		switch ((r >> 8) % 4) {
		case 0:
			va[c] += 64;
			break;
		case 1:
			va[c] = 0x10000000 + ((r >> 20) % (4u << 20));
			break;
		case 2:
			va[c] = old[c];
			break;
		default:
			break; /* the same address again */
		}
		if ((r & 7) == 0)
			old[c] = va[c];
		struct ap_uarch_result a, b;
		a = *ap_uarch_access(one.core[c], va[c], kind);
		b = *ap_uarch_access(runs.core[c], va[c], kind);
		differ += !same_result(&a, &b);
		/* A run: the same kind, addresses within the line; now and then
		 * on the line before (not the previous access's, unless the
		 * trace stayed on it: then the repeat must be refused). */
		unsigned k = (unsigned)((r >> 32) % 41);
		uint64_t line = ((r >> 44) & 3 ? va[c] : before_va[c]) & ~(uint64_t)63;
		before_va[c] = va[c];
		struct ap_uarch_stats before = *ap_uarch_core_stats(runs.core[c]);
		struct ap_uarch_result each[40], rep;
		for (unsigned j = 0; j < k; j++)
			each[j] = *ap_uarch_access(one.core[c], line + ((j * 8 + (r >> 40)) & 63), kind);
		if (ap_uarch_access_repeat(runs.core[c], line + ((r >> 40) & 63), kind, 0, &rep)) {
			/* Asking changed nothing. */
			differ += !same_stats(&before, ap_uarch_core_stats(runs.core[c]));
			CHECK_EQ_U64(ap_uarch_access_repeat(runs.core[c], line, kind, k, &rep), 1);
			for (unsigned j = 0; j < k; j++)
				differ += !same_result(&each[j], &rep);
			taken += k;
		} else {
			differ += !same_stats(&before, ap_uarch_core_stats(runs.core[c]));
			for (unsigned j = 0; j < k; j++) {
				b = *ap_uarch_access(runs.core[c], line + ((j * 8 + (r >> 40)) & 63), kind);
				differ += !same_result(&each[j], &b);
			}
			refused += k > 0;
		}
	}
	CHECK_EQ_U64(differ, 0);
	CHECK(refused > 1000); /* a run on the line before, or with two cores */
	for (unsigned c = 0; c < ncores; c++)
		CHECK(same_stats(ap_uarch_core_stats(one.core[c]), ap_uarch_core_stats(runs.core[c])));
	*taken_out = taken;
	model_close(&one);
	model_close(&runs);
}

TEST(access_runs_one_core)
{
	uint64_t taken;
	compare_accesses(1, &taken);
	CHECK(taken > 100000); /* the runs were taken, not all refused */
}

/* With another core the directory may hold a newer write by it: never a
 * repeat (the model keeps one line's worth of certainty per core). */
TEST(access_runs_two_cores_refused)
{
	uint64_t taken;
	compare_accesses(2, &taken);
	CHECK_EQ_U64(taken, 0);
}

/* Runs of branches: loops (a conditional branch taken k times then not),
 * an indirect branch to one target, calls and returns, a direct jump, with
 * random conditional branches between them that move the history. */
TEST(branch_runs)
{
	struct model one, runs;
	model_open(&one, 1);
	model_open(&runs, 1);
	static const unsigned kinds[] = { AP_UARCH_BR_COND, AP_UARCH_BR_INDIRECT,
		                          AP_UARCH_BR_CALL, AP_UARCH_BR_RETURN,
		                          AP_UARCH_BR_INDIRECT | AP_UARCH_BR_CALL, 0 };
	uint64_t taken = 0, differ = 0, refused_call_or_return = 0;
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t r = next_random();
		unsigned flags = kinds[(r >> 4) % 6];
		uint64_t pc = 0x400000 + ((r >> 12) % 64) * 4;
		uint64_t target = 0x500000 + ((r >> 24) % 3) * 0x40;
		int t = flags & AP_UARCH_BR_COND ? (int)((r >> 30) & 1) : 1;
		unsigned k = (unsigned)((r >> 40) % 50);
		/* Train once, then the run of the same branch and outcome. */
		differ += ap_uarch_branch_train(one.core[0], pc, target, flags, t) !=
		          ap_uarch_branch_train(runs.core[0], pc, target, flags, t);
		unsigned missed = 0;
		for (unsigned j = 0; j < k; j++)
			missed += (unsigned)ap_uarch_branch_train(one.core[0], pc, target, flags, t);
		struct ap_uarch_stats before = *ap_uarch_core_stats(runs.core[0]);
		if (ap_uarch_branch_repeat(runs.core[0], pc, target, flags, t, 0)) {
			differ += !same_stats(&before, ap_uarch_core_stats(runs.core[0]));
			CHECK_EQ_U64(ap_uarch_branch_repeat(runs.core[0], pc, target, flags, t, k), 1);
			differ += missed != 0; /* a run taken at once was predicted right throughout */
			differ += (flags & (AP_UARCH_BR_CALL | AP_UARCH_BR_RETURN)) != 0;
			taken += k;
		} else {
			differ += !same_stats(&before, ap_uarch_core_stats(runs.core[0]));
			unsigned missed_too = 0;
			for (unsigned j = 0; j < k; j++)
				missed_too += (unsigned)ap_uarch_branch_train(runs.core[0], pc, target, flags, t);
			differ += missed != missed_too;
			refused_call_or_return += (flags & (AP_UARCH_BR_CALL | AP_UARCH_BR_RETURN)) != 0;
		}
		/* A conditional branch elsewhere, either way: moves the history. */
		int u = (int)((r >> 50) & 1);
		differ += ap_uarch_branch_train(one.core[0], 0x600000 + ((r >> 52) % 16) * 4, 0x700000,
		                                AP_UARCH_BR_COND, u) !=
		          ap_uarch_branch_train(runs.core[0], 0x600000 + ((r >> 52) % 16) * 4, 0x700000,
		                                AP_UARCH_BR_COND, u);
	}
	CHECK_EQ_U64(differ, 0);
	CHECK(taken > 50000);
	CHECK(refused_call_or_return > 1000);
	CHECK(same_stats(ap_uarch_core_stats(one.core[0]), ap_uarch_core_stats(runs.core[0])));
	model_close(&one);
	model_close(&runs);
}

TEST_MAIN(CASE(access_runs_one_core), CASE(access_runs_two_cores_refused), CASE(branch_runs))

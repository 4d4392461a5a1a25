/* lib/report's compact per-PC statistics (issue 32 item 11, issue 31): a
 * PC's records kept as digests, in blocks that grow and are reused, then a
 * small summary past 4 records (summaries reused too), full statistics
 * past 255, and the one-frame stacks [PC] kept by
 * the PC table rather than stored. Checked against a straightforward
 * recomputation: each PC's statistics counted here record by record as
 * report.h defines them (spec/002 5.3.8 Operation Type, 5.3.7 Events,
 * 5.3.4 latencies, 5.3.5 Data Source), and the stacks against a report
 * given every record's stack [PC] explicitly (stored as any stack). */
#include <stdlib.h>

#include "armprof/codec.h"
#include "armprof/report.h"
#include "harness.h"
#include "random_record.h"

/* The latency histogram's bin, as report.h describes it. */
static unsigned ref_bin(unsigned v)
{
	if (v < AP_REPORT_HIST_EXACT)
		return v;
	if (v > 4095)
		v = 4095;
	unsigned octave = 31u - (unsigned)__builtin_clz(v);
	return AP_REPORT_HIST_EXACT + (octave - 5) * 16 + ((v >> (octave - 4)) & 15u);
}

/* One record into s, directly (Data Source values raw: AP_DS_ENC_RAW). */
static void ref_add(struct ap_report_stats *s, const struct ap_record *r)
{
	s->samples++;
	int branch = (r->has & AP_HAS_OP) && r->op_class == AP_OP_CLASS_BRANCH;
	if (r->has & AP_HAS_OP) {
		if (r->op_class == AP_OP_CLASS_LDST) {
			if ((r->op_subclass & AP_OP_LDST_EXT) && (r->op_subclass & AP_OP_LDST_AT) && !(r->op_subclass & 0xE0))
				s->atomics++;
			else if (r->op_subclass & AP_OP_ST)
				s->stores++;
			else
				s->loads++;
		} else if (branch) {
			s->branches++;
			s->cond_branches += (r->op_subclass & AP_OP_BR_COND) != 0;
		} else {
			s->others++;
		}
	}
	if (r->has & AP_HAS_EVENTS) {
		uint64_t e = r->events;
		int l1d = (e & AP_EV_L1D_ACCESS) != 0, tlb = (e & AP_EV_TLB_ACCESS) != 0;
		s->l1d_access += l1d;
		s->l1d_refill += (e & AP_EV_L1D_REFILL) != 0;
		s->llc_access += (e & AP_EV_LLC_ACCESS) != 0;
		s->llc_miss += (e & AP_EV_LLC_MISS) != 0;
		s->tlb_access += tlb;
		s->tlb_walk += (e & AP_EV_TLB_WALK) != 0;
		s->remote += (e & AP_EV_REMOTE_ACCESS) != 0;
		s->l1d_refill_in_access += l1d && (e & AP_EV_L1D_REFILL);
		s->llc_miss_in_access += l1d && (e & AP_EV_LLC_MISS);
		s->tlb_walk_in_access += tlb && (e & AP_EV_TLB_WALK);
		if (branch) {
			s->mispredicted += (e & AP_EV_MISPREDICTED) != 0;
			s->not_taken += (e & AP_EV_NOT_TAKEN) != 0;
		}
	}
	if (r->has & AP_HAS_LAT_TOTAL) {
		s->n_lat_total++;
		s->lat_total_sum += r->lat_total;
		s->hist[ref_bin(r->lat_total)]++;
	}
	if (r->has & AP_HAS_LAT_ISSUE) {
		s->n_lat_issue++;
		s->lat_issue_sum += r->lat_issue;
	}
	if (r->has & AP_HAS_LAT_XLAT) {
		s->n_lat_xlat++;
		s->lat_xlat_sum += r->lat_xlat;
	}
	if (r->has & AP_HAS_DATA_SOURCE) {
		s->n_data_source++;
		if (r->data_source < AP_REPORT_DS_VALUES)
			s->data_source[r->data_source]++;
		else
			s->data_source_other++;
	}
}

#define N_PCS 3000
#define PC_OF(k) (0x400000u + 4u * (uint64_t)(k))

/* PC k's number of records: 1 for a third, then up to 600 (digests to 4,
 * a small summary to 255, past it the full statistics: every tier, and the
 * first record past each). */
static unsigned records_of(unsigned k)
{
	return k % 3 == 0 ? 1 : 1 + (k * 37u) % 600u;
}

/* Every PC's records, interleaved (the blocks grow and are freed and
 * reused in any order), into each report of reps, and the reference. */
static uint64_t feed(struct ap_report **reps, int n_reps, struct ap_report_stats *ref)
{
	unsigned left[N_PCS];
	uint64_t seed = 42, total = 0;
	for (unsigned k = 0; k < N_PCS; k++)
		total += left[k] = records_of(k);
	for (uint64_t done = 0; done < total;) {
		for (unsigned k = 0; k < N_PCS; k++) {
			if (!left[k])
				continue;
			left[k]--;
			done++;
			struct ap_record r;
			rr_record(&r, &seed, (int)(done & 1));
			r.has |= AP_HAS_PC;
			r.pc = PC_OF(k);
			ref_add(&ref[k], &r);
			for (int i = 0; i < n_reps; i++) {
				/* reps[1], when given, has every stack [PC] given as a stack. */
				int rc = i ? ap_report_add_stack(reps[i], &r, &r.pc, 1) : ap_report_add(reps[i], &r);
				CHECK_EQ_U64(rc, 0);
			}
		}
	}
	return total;
}

static struct ap_report *raw_report(void)
{
	struct ap_report *r;
	if (ap_report_create(&r) != 0)
		abort();
	ap_report_set_data_source_encoding(r, AP_DS_ENC_RAW);
	return r;
}

TEST(pc_statistics_match_a_recomputation)
{
	static struct ap_report_stats ref[N_PCS];
	memset(ref, 0, sizeof(ref));
	struct ap_report *r = raw_report();
	feed(&r, 1, ref);
	/* Before ap_report_finish, and after. */
	for (unsigned k = 0; k < N_PCS; k++) {
		const struct ap_report_stats *s = ap_report_pc_stats(r, PC_OF(k));
		CHECK(s && !memcmp(s, &ref[k], sizeof(*s)));
	}
	CHECK(ap_report_pc_stats(r, PC_OF(N_PCS)) == NULL);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	CHECK_EQ_U64(ap_report_instruction_count(r), N_PCS);
	struct ap_report_stats sum;
	memset(&sum, 0, sizeof(sum));
	for (int key = AP_REPORT_BY_SAMPLES; key <= AP_REPORT_BY_MISPREDICTS; key++) {
		ap_report_sort(r, (enum ap_report_key)key);
		const struct ap_report_row *all;
		CHECK_EQ_U64(ap_report_instructions(r, &all), N_PCS);
		struct ap_report_row prev = { 0 }, row;
		for (size_t i = 0; i < N_PCS; i++) {
			CHECK_EQ_U64(ap_report_instruction(r, i, &row), 0);
			unsigned k = (unsigned)((row.addr - PC_OF(0)) / 4);
			CHECK(k < N_PCS && !memcmp(&row.stats, &ref[k], sizeof(row.stats)));
			CHECK(row.name == NULL && row.offset == 0);
			CHECK(all[i].addr == row.addr && !memcmp(&all[i].stats, &row.stats, sizeof(row.stats)));
			/* Ranked by the key, then samples, then address. */
			if (i) {
				uint64_t a = ap_report_key_count(&prev.stats, (enum ap_report_key)key),
				         b = ap_report_key_count(&row.stats, (enum ap_report_key)key);
				CHECK(a > b || (a == b && (prev.stats.samples > row.stats.samples ||
				                           (prev.stats.samples == row.stats.samples && prev.addr < row.addr))));
			}
			if (key == AP_REPORT_BY_SAMPLES) {
				uint64_t *d = &sum.samples;
				const uint64_t *from = &row.stats.samples;
				for (size_t w = 0; w < (size_t)((uint8_t *)sum.hist - (uint8_t *)&sum.samples) / 8; w++)
					d[w] += from[w];
				for (size_t b = 0; b < AP_REPORT_HIST_BINS; b++)
					sum.hist[b] += row.stats.hist[b];
			}
			prev = row;
		}
		CHECK(ap_report_instruction(r, N_PCS, &row) != 0);
	}
	/* No symbols: one function row, every PC's statistics merged. */
	const struct ap_report_row *fns;
	CHECK_EQ_U64(ap_report_functions(r, &fns), 1);
	CHECK(!memcmp(&fns[0].stats, &sum, sizeof(sum)));
	CHECK(!memcmp(&sum, ap_report_totals(r), sizeof(sum)));
	ap_report_destroy(r);
}

static int same_stack(const struct ap_report_stack *a, const struct ap_report_stack *b)
{
	return a->n_frames == b->n_frames && !memcmp(a->frames, b->frames, a->n_frames * sizeof(*a->frames)) &&
	       !memcmp(a->weight, b->weight, sizeof(a->weight));
}

/* The stacks [PC] the PC table keeps are those a report given each of
 * them as a stack stores: the same rows, folded stacks and inclusive
 * weights, with stacks of several frames beside them. */
TEST(one_frame_stacks_as_if_stored)
{
	static struct ap_report_stats ref[N_PCS];
	memset(ref, 0, sizeof(ref));
	struct ap_report *reps[2] = { raw_report(), raw_report() };
	/* A few stacks of several frames, and one [PC] given, in both. */
	uint64_t seed = 7;
	for (int i = 0; i < 500; i++) {
		struct ap_record r;
		rr_record(&r, &seed, 1);
		r.pc = PC_OF(i % 40);
		uint64_t frames[3] = { r.pc, PC_OF(100 + i % 3), PC_OF(200) };
		for (int k = 0; k < 2; k++)
			CHECK_EQ_U64(ap_report_add_stack(reps[k], &r, frames, i % 4 ? 3 : 1), 0);
	}
	feed(reps, 2, ref);
	for (int k = 0; k < 2; k++)
		CHECK_EQ_U64(ap_report_finish(reps[k]), 0);
	for (int key = AP_REPORT_BY_SAMPLES; key <= AP_REPORT_BY_MISPREDICTS; key++) {
		const struct ap_report_stack *s[2];
		const struct ap_report_folded *f[2];
		const struct ap_report_inclusive *in[2];
		size_t ns[2], nf[2], ni[2];
		for (int k = 0; k < 2; k++) {
			ap_report_sort(reps[k], (enum ap_report_key)key);
			ns[k] = ap_report_stacks(reps[k], &s[k]);
			nf[k] = ap_report_folded_stacks(reps[k], &f[k]);
			ni[k] = ap_report_inclusive(reps[k], &in[k]);
		}
		CHECK_EQ_U64(ns[0], ns[1]);
		CHECK(ns[0] > N_PCS);
		for (size_t i = 0; i < ns[0] && i < ns[1]; i++)
			CHECK(same_stack(&s[0][i], &s[1][i]));
		CHECK_EQ_U64(nf[0], nf[1]);
		for (size_t i = 0; i < nf[0] && i < nf[1]; i++)
			CHECK(!strcmp(f[0][i].stack, f[1][i].stack) && !memcmp(f[0][i].weight, f[1][i].weight, sizeof(f[0][i].weight)));
		CHECK_EQ_U64(ni[0], ni[1]);
		for (size_t i = 0; i < ni[0] && i < ni[1]; i++)
			CHECK(in[0][i].addr == in[1][i].addr && !memcmp(in[0][i].self, in[1][i].self, sizeof(in[0][i].self)) &&
			      !memcmp(in[0][i].children, in[1][i].children, sizeof(in[0][i].children)));
	}
	for (int k = 0; k < 2; k++)
		ap_report_destroy(reps[k]);
}

TEST_MAIN(CASE(pc_statistics_match_a_recomputation), CASE(one_frame_stacks_as_if_stored))

/* Fuzz target: the report accumulator (lib/report) on whatever records the
 * decoder makes of arbitrary bytes. Checks what every report must hold:
 * the instruction rows and the function rows each count every sample with
 * a PC exactly once, the rows are ranked by each key (most first), rates
 * lie in [0, 1], latency shares sum to at most 1, a percentile lies
 * within the 12-bit counter's range, the shared cache lines (after
 * the second pass) are ranked and within the totals, and every Data Source
 * and Context is counted once, whatever the CPU's encoding; the call
 * stacks (ap_report_add_stack, frames made of the record's own fields) add
 * up to the function table for every key, folded or not, are ranked, and
 * each function's inclusive weight holds its own. */
#include <stdint.h>
#include <stdlib.h>

#include "armprof/decode.h"
#include "armprof/report.h"
#include "fuzz.h"

static int on_record(void *ctx, const struct ap_record *r)
{
	/* A record with a PC gets a stack [PC, ...] of 1 to 5 frames from its
	 * own fields (repeated frames too: recursion), or none given (its
	 * stack [PC], which the PC table keeps); one without a PC none. */
	uint64_t frames[5] = { r->pc, r->target, r->vaddr, r->target, r->paddr };
	size_t n = r->has & AP_HAS_PC ? r->offset % 6 : 0;
	if (ap_report_add_stack(ctx, r, frames, n) < 0)
		abort(); /* only out of memory, which these sizes never reach */
	return 0;
}

/* The stacks' weights, summed, for every key (and ranked by key). */
static void check_stacks(const struct ap_report *rep, int key, const uint64_t *want)
{
	const struct ap_report_stack *st;
	const struct ap_report_folded *fo;
	const struct ap_report_inclusive *in;
	size_t ns = ap_report_stacks(rep, &st), nf = ap_report_folded_stacks(rep, &fo), ni = ap_report_inclusive(rep, &in);
	for (int k = 0; k < AP_REPORT_N_KEYS; k++) {
		uint64_t a = 0, b = 0, c = 0;
		for (size_t i = 0; i < ns; i++) {
			a += st[i].weight[k];
			if (!st[i].n_frames || st[i].n_frames > 5 || (k == key && i && st[i].weight[k] > st[i - 1].weight[k]))
				abort();
		}
		for (size_t i = 0; i < nf; i++) {
			b += fo[i].weight[k];
			if (k == key && i && fo[i].weight[k] > fo[i - 1].weight[k])
				abort();
		}
		for (size_t i = 0; i < ni; i++) {
			c += in[i].self[k];
			if (in[i].children[k] < in[i].self[k] || in[i].children[k] > want[k] ||
			    (k == key && i && in[i].children[k] > in[i - 1].children[k]))
				abort();
		}
		if (a != want[k] || b != want[k] || c != want[k])
			abort();
	}
}

static int on_line_record(void *ctx, const struct ap_record *r)
{
	if (ap_report_add_line_sample(ctx, r) < 0)
		abort();
	return 0;
}

/* Shared cache lines: ranked by loads from another core, every line's
 * samples within the totals, its functions' samples within its own. */
static void check_lines(const struct ap_report *rep)
{
	const struct ap_report_line *lines;
	uint64_t dropped, samples = 0;
	size_t n = ap_report_shared_lines(rep, &lines, &dropped);
	for (size_t i = 0; i < n; i++) {
		if (i && lines[i].peer_loads > lines[i - 1].peer_loads)
			abort();
		if (!lines[i].peer_loads || !lines[i].stats.samples || !lines[i].threads ||
		    lines[i].threads > lines[i].stats.samples || lines[i].addr % AP_REPORT_LINE_BYTES ||
		    lines[i].n_functions > AP_REPORT_LINE_FUNCTIONS)
			abort();
		uint64_t fs = 0;
		for (size_t k = 0; k < lines[i].n_functions; k++)
			fs += lines[i].function[k].samples;
		if (fs > lines[i].stats.samples)
			abort();
		/* Every sample in one word; true sharing needs a word of two
		 * threads, false sharing two threads and no such word. */
		uint64_t ws = 0;
		int word_of_two = 0;
		for (size_t k = 0; k < AP_REPORT_LINE_WORDS; k++) {
			ws += lines[i].word[k].samples;
			word_of_two |= lines[i].word[k].threads > 1;
			if (lines[i].word[k].threads > 2 || (lines[i].word[k].threads == 0) != (lines[i].word[k].samples == 0))
				abort();
		}
		enum ap_report_sharing want = lines[i].threads < 2 ? AP_REPORT_SHARING_ONE_THREAD
		                              : word_of_two        ? AP_REPORT_SHARING_TRUE
		                                                   : AP_REPORT_SHARING_FALSE;
		if (ws != lines[i].stats.samples || lines[i].sharing != want)
			abort();
		samples += lines[i].stats.samples;
	}
	if (samples > ap_report_totals(rep)->samples)
		abort();
}

static void check_rows(const struct ap_report_row *rows, size_t n, uint64_t pc_samples,
                       uint64_t lat_sum, enum ap_report_key key)
{
	uint64_t samples = 0, lat = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ap_report_stats *s = &rows[i].stats;
		samples += s->samples;
		lat += s->lat_total_sum;
		if (i && ap_report_key_count(s, key) > ap_report_key_count(&rows[i - 1].stats, key))
			abort();
		struct ap_report_rates q;
		ap_report_rates(s, &q);
		if (q.l1d_miss < 0 || q.l1d_miss > 1 || q.llc_miss < 0 || q.llc_miss > 1 || q.tlb_walk < 0 ||
		    q.tlb_walk > 1 || q.mispredict < 0 || q.mispredict > 1)
			abort();
		if (q.lat_p99 < 0 || q.lat_p99 > 4096 || q.lat_p50 > q.lat_p99 + 1e-9)
			abort();
	}
	if (samples != pc_samples || lat > lat_sum)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ap_report *rep;
	if (ap_report_create(&rep) < 0)
		abort();
	/* Each CPU's Data Source encoding and each Context preference, chosen
	 * by the input's size (the corpus's bytes keep their meaning). */
	ap_report_set_data_source_encoding(rep, (enum ap_ds_encoding)(size % 3));
	ap_report_set_context(rep, (enum ap_report_context)(size / 3 % 3));
	struct ap_decoder_config cfg;
	ap_decoder_config_init(&cfg);
	cfg.on_record = on_record;
	cfg.ctx = rep;
	cfg.max_record_bytes = 256;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &cfg);
	ap_decoder_feed(&dec, data, size);
	ap_decoder_finish(&dec);
	if (ap_report_has_shared_lines(rep)) { /* the second pass, as armprof report makes it */
		cfg.on_record = on_line_record;
		ap_decoder_init(&dec, &cfg);
		ap_decoder_feed(&dec, data, size);
		ap_decoder_finish(&dec);
	}
	if (ap_report_finish(rep) < 0)
		abort();
	check_lines(rep);

	/* Samples with a PC: the totals count the others too. */
	const struct ap_report_row *rows;
	uint64_t pc_samples = 0;
	size_t ni = ap_report_instructions(rep, &rows);
	for (size_t i = 0; i < ni; i++)
		pc_samples += rows[i].stats.samples;
	const struct ap_report_stats *t = ap_report_totals(rep);
	if (pc_samples > t->samples || t->samples != ap_report_records(rep))
		abort();
	/* Every Data Source counted once, by value or as other; every thread
	 * taken from one Context packet. */
	uint64_t ds = t->data_source_other, el1, el2;
	for (unsigned v = 0; v < AP_REPORT_DS_VALUES; v++)
		ds += t->data_source[v];
	ap_report_context_counts(rep, &el1, &el2);
	if (ds != t->n_data_source || el1 + el2 > t->samples)
		abort();
	for (int key = AP_REPORT_BY_SAMPLES; key <= AP_REPORT_BY_MISPREDICTS; key++) {
		ap_report_sort(rep, (enum ap_report_key)key);
		ni = ap_report_instructions(rep, &rows);
		check_rows(rows, ni, pc_samples, t->lat_total_sum, (enum ap_report_key)key);
		size_t nf = ap_report_functions(rep, &rows);
		check_rows(rows, nf, pc_samples, t->lat_total_sum, (enum ap_report_key)key);
		uint64_t want[AP_REPORT_N_KEYS] = { 0 };
		for (size_t i = 0; i < nf; i++)
			for (int k = 0; k < AP_REPORT_N_KEYS; k++)
				want[k] += ap_report_key_count(&rows[i].stats, (enum ap_report_key)k);
		check_stacks(rep, key, want);
	}
	ap_report_destroy(rep);
	return 0;
}

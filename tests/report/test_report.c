/* lib/report: counting records into per-instruction and per-function rows,
 * rates and latency percentiles, symbols from an ELF file.
 *
 * The counted fields are the record's packets: Operation Type CLASS and
 * SUBCLASS (spec/002 5.3.8, SPE-2.3.2-5, SPE-2.3.1-7), Events E[2..9]
 * (5.3.7: SPE-5.3.7-11, -12, -14, -16..-19), total/issue/translation
 * latency (5.3.4: SPE-5.3.4-4, -5, -6) and Data Source (5.3.5,
 * SPE-5.3.5-1). */
#define _GNU_SOURCE 1 /* dladdr */
#include <dlfcn.h>

#include "armprof/codec.h"
#include "armprof/error.h"
#include "armprof/report.h"
#include "harness.h"
#include "report_records.h"

TEST(rates_and_sources)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	uint64_t hit = AP_EV_L1D_ACCESS | AP_EV_TLB_ACCESS;
	uint64_t miss = hit | AP_EV_L1D_REFILL | AP_EV_LLC_ACCESS | AP_EV_LLC_MISS | AP_EV_TLB_WALK;
	for (int i = 0; i < 30; i++) {
		struct ap_record a = load_rec(0x1000, i < 10 ? miss : hit, i < 10 ? 200 : 7, i < 10 ? 0xe : 0x0);
		CHECK_EQ_U64(ap_report_add(r, &a), 0);
	}
	/* a store (ST bit), an atomic (extended, AT), a branch, and no-PC record */
	struct ap_record st = load_rec(0x1004, hit, 5, 0);
	st.op_subclass = AP_OP_ST;
	st.has &= ~(uint32_t)AP_HAS_DATA_SOURCE;
	struct ap_record at = load_rec(0x1008, hit, 9, 0);
	at.op_subclass = AP_OP_LDST_EXT | AP_OP_LDST_AT;
	struct ap_record br;
	memset(&br, 0, sizeof(br));
	br.has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_LAT_TOTAL;
	br.pc = 0x100c;
	br.op_class = AP_OP_CLASS_BRANCH;
	br.op_subclass = AP_OP_BR_COND;
	br.events = AP_EV_RETIRED | AP_EV_MISPREDICTED | AP_EV_NOT_TAKEN;
	br.lat_total = 14;
	struct ap_record nopc = load_rec(0, hit, 3, 0);
	nopc.has &= ~(uint32_t)AP_HAS_PC;
	CHECK_EQ_U64(ap_report_add(r, &st), 0);
	CHECK_EQ_U64(ap_report_add(r, &at), 0);
	CHECK_EQ_U64(ap_report_add(r, &br), 0);
	CHECK_EQ_U64(ap_report_add(r, &nopc), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);

	CHECK_EQ_U64(ap_report_records(r), 34);
	const struct ap_report_stats *t = ap_report_totals(r);
	CHECK_EQ_U64(t->samples, 34);
	CHECK_EQ_U64(t->loads, 31);
	CHECK_EQ_U64(t->stores, 1);
	CHECK_EQ_U64(t->atomics, 1);
	CHECK_EQ_U64(t->branches, 1);
	CHECK_EQ_U64(t->cond_branches, 1);

	const struct ap_report_row *rows;
	size_t n = ap_report_instructions(r, &rows);
	CHECK_EQ_U64(n, 4);
	CHECK_EQ_U64(rows[0].addr, 0x1000);
	CHECK_EQ_U64(rows[0].stats.samples, 30);
	CHECK(rows[0].name == NULL);
	struct ap_report_rates q;
	ap_report_rates(&rows[0].stats, &q);
	CHECK(q.l1d_miss > 0.3333 && q.l1d_miss < 0.3334);
	CHECK(q.llc_miss > 0.3333 && q.llc_miss < 0.3334);
	CHECK(q.tlb_walk > 0.3333 && q.tlb_walk < 0.3334);
	CHECK(q.lat_mean > (10 * 200 + 20 * 7) / 30.0 - 1e-9 && q.lat_mean < (10 * 200 + 20 * 7) / 30.0 + 1e-9);
	CHECK_EQ_U64(rows[0].stats.data_source[0xe], 10);
	CHECK_EQ_U64(rows[0].stats.data_source[0x0], 20);
	CHECK(q.lat_p50 == 7.0);
	CHECK(q.lat_p90 >= 192 && q.lat_p90 <= 208); /* within 1/16 of 200 */

	/* the branch row */
	for (size_t i = 0; i < n; i++)
		if (rows[i].addr == 0x100c) {
			ap_report_rates(&rows[i].stats, &q);
			CHECK(q.mispredict == 1.0);
			CHECK_EQ_U64(rows[i].stats.not_taken, 1);
		}
	/* Without symbols every PC falls in one "[unknown]" function row. */
	CHECK_EQ_U64(ap_report_functions(r, &rows), 1);
	CHECK_EQ_U64(rows[0].stats.samples, 33);
	CHECK_EQ_U64(strcmp(ap_report_data_source_name(0xe), "DRAM"), 0);
	CHECK_EQ_U64(strcmp(ap_report_data_source_name(0x9), "PEER-CORE"), 0);
	CHECK(ap_report_data_source_name(0x3) == NULL);
	ap_report_destroy(r);
}

TEST(percentiles_within_a_sixteenth)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	for (unsigned v = 1; v <= 4000; v++) {
		struct ap_record a = load_rec(0x2000, AP_EV_L1D_ACCESS, (uint16_t)v, 0);
		ap_report_add(r, &a);
	}
	ap_report_finish(r);
	const struct ap_report_stats *t = ap_report_totals(r);
	double qs[] = { 0.01, 0.1, 0.5, 0.9, 0.99 };
	for (size_t i = 0; i < 5; i++) {
		double want = qs[i] * 4000, got = ap_report_percentile(t, qs[i]);
		CHECK(got >= want * (1 - 1.0 / 16) - 1 && got <= want * (1 + 1.0 / 16) + 1);
	}
	ap_report_destroy(r);
}

TEST(many_pcs_grow_the_table)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	for (uint64_t i = 0; i < 20000; i++) {
		struct ap_record a = load_rec(0x400000 + 4 * (i % 5000), AP_EV_L1D_ACCESS, 4, 0);
		CHECK(ap_report_add(r, &a) == 0);
	}
	ap_report_finish(r);
	const struct ap_report_row *rows;
	size_t n = ap_report_instructions(r, &rows);
	CHECK_EQ_U64(n, 5000);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += rows[i].stats.samples;
		CHECK_EQ_U64(rows[i].stats.samples, 4);
	}
	CHECK_EQ_U64(sum, 20000);
	ap_report_destroy(r);
}

__attribute__((noinline)) static int marker_function(int x)
{
	return x * 3 + 1;
}

/* An alias (a weak global, as libc's puts is of _IO_puts): rows keep the
 * name perf would choose, a lookup by either name finds the function. */
int marker_function_alias(int x);
__attribute__((weak, alias("marker_function"))) int marker_function_alias(int x);

/* Symbols of this test's own executable: the PC of marker_function (as an
 * ELF address) is attributed to it. */
TEST(symbols_from_elf)
{
	Dl_info info;
	CHECK(dladdr((void *)marker_function, &info) != 0);
	uint64_t elf_addr = (uint64_t)(uintptr_t)marker_function - (uint64_t)(uintptr_t)info.dli_fbase;
	if (marker_function(1) != 4)
		return;
	struct ap_report *r;
	struct ap_error_ctx msg = { 0 };
	CHECK_EQ_U64(ap_report_create(&r), 0);
	ap_report_set_elf_machine(r, 0); /* the test program's own code, the host's machine */
	CHECK_EQ_U64(ap_report_load_binary(r, "/proc/self/exe", 0x10000, &msg), 0);
	struct ap_record a = load_rec(elf_addr + 0x10000 + 4, AP_EV_L1D_ACCESS, 4, 0);
	ap_report_add(r, &a);
	ap_report_finish(r);
	const struct ap_report_row *rows;
	CHECK_EQ_U64(ap_report_instructions(r, &rows), 1);
	CHECK(rows[0].name && !strcmp(rows[0].name, "marker_function"));
	CHECK_EQ_U64(rows[0].offset, 4);
	CHECK_EQ_U64(ap_report_functions(r, &rows), 1);
	CHECK_EQ_U64(rows[0].addr, elf_addr + 0x10000);
	ap_report_destroy(r);

	CHECK_EQ_U64(ap_report_create(&r), 0);
	CHECK_EQ_U64(ap_report_load_binary(r, "/nonexistent/file", 0, &msg), (uint64_t)-AP_ERR_IO);
	CHECK(strstr(msg.message, "/nonexistent/file") != NULL);
	CHECK_EQ_U64(ap_report_load_binary(r, "/proc/self/cmdline", 0, &msg), (uint64_t)-AP_ERR_FORMAT);
#ifndef __aarch64__
	/* By default only an AArch64 ELF file is taken (issue 32): the host's
	 * own program is refused, naming its machine. */
	CHECK_EQ_U64(ap_report_load_binary(r, "/proc/self/exe", 0, &msg), (uint64_t)-AP_ERR_FORMAT);
	CHECK(strstr(msg.message, "/proc/self/exe: a") && strstr(msg.message, "not AArch64 (183)"));
#endif
	ap_report_destroy(r);
}

/* A function found by name (ap_report_find_function: the binary's, at its
 * runtime address) and the statistics of one of its PCs (ap_report_pc_stats),
 * which --annotate lists instruction by instruction. */
TEST(function_by_name_and_pc_stats)
{
	Dl_info info;
	CHECK(dladdr((void *)marker_function, &info) != 0);
	uint64_t elf_addr = (uint64_t)(uintptr_t)marker_function - (uint64_t)(uintptr_t)info.dli_fbase;
	struct ap_report *r;
	struct ap_error_ctx msg = { 0 };
	CHECK_EQ_U64(ap_report_create(&r), 0);
	ap_report_set_elf_machine(r, 0); /* the test program's own code, the host's machine */
	CHECK_EQ_U64(ap_report_load_binary(r, "/proc/self/exe", 0x10000, &msg), 0);
	struct ap_record a = load_rec(elf_addr + 0x10000 + 4, AP_EV_L1D_ACCESS, 9, 0);
	ap_report_add(r, &a);
	ap_report_add(r, &a);
	ap_report_finish(r);
	uint64_t start = 0, size = 0;
	const char *binary = "x", *found = NULL;
	CHECK_EQ_U64(ap_report_find_function(r, "marker_function", &start, &size, &binary, &found), 0);
	CHECK_EQ_U64(start, elf_addr + 0x10000);
	CHECK(size > 4); /* the sampled PC, start + 4, is in it */
	CHECK(binary == NULL);
	CHECK(found && !strcmp(found, "marker_function"));
	const struct ap_report_stats *s = ap_report_pc_stats(r, start + 4);
	CHECK(s != NULL);
	CHECK_EQ_U64(s ? s->samples : 0, 2);
	CHECK_EQ_U64(s ? s->lat_total_sum : 0, 18);
	CHECK(ap_report_pc_stats(r, start) == NULL);
	uint64_t alias_start = 0;
	CHECK_EQ_U64(ap_report_find_function(r, "marker_function_alias", &alias_start, &size, &binary, &found), 0);
	CHECK_EQ_U64(alias_start, start);
	CHECK(found && !strcmp(found, "marker_function_alias"));
	CHECK_EQ_U64(ap_report_find_function(r, "no_such_function", &start, &size, &binary, &found),
	             (uint64_t)-AP_ERR_INVALID);
	CHECK_EQ_U64(ap_report_find_function(r, "marker", &start, &size, &binary, &found), (uint64_t)-AP_ERR_INVALID);
	ap_report_destroy(r);
}

/* Rows per thread by CONTEXTIDR_EL1 (ap_report_threads), records without
 * a Context packet in a row of their own, ranked like the others; a
 * thread's records need not come together. */
TEST(threads_by_context)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	uint64_t ctx[] = { 7, 7, 9, 7, 0, 9, 7 }; /* 0: no Context packet */
	for (size_t i = 0; i < sizeof(ctx) / sizeof(ctx[0]); i++) {
		struct ap_record a = load_rec(0x1000 + 4 * i, AP_EV_L1D_ACCESS, (uint16_t)(10 * (i + 1)), 0);
		if (ctx[i]) {
			a.has |= AP_HAS_CTX_EL1;
			a.ctx_el1 = (uint32_t)ctx[i];
		}
		CHECK_EQ_U64(ap_report_add(r, &a), 0);
	}
	CHECK_EQ_U64(ap_report_finish(r), 0);
	const struct ap_report_row *rows;
	CHECK_EQ_U64(ap_report_threads(r, &rows), 3);
	CHECK_EQ_U64(rows[0].addr, 7);
	CHECK_EQ_U64(rows[0].stats.samples, 4);
	CHECK_EQ_U64(rows[0].stats.lat_total_sum, 10 + 20 + 40 + 70);
	CHECK_EQ_U64(rows[1].addr, 9);
	CHECK_EQ_U64(rows[1].stats.samples, 2);
	CHECK_EQ_U64(rows[2].addr, AP_REPORT_NO_CONTEXT);
	CHECK_EQ_U64(rows[2].stats.samples, 1);
	ap_report_sort(r, AP_REPORT_BY_LATENCY); /* 9: 30 + 60 = 90; no context: 50 */
	CHECK_EQ_U64(ap_report_threads(r, &rows), 3);
	CHECK_EQ_U64(rows[0].addr, 7);
	CHECK_EQ_U64(rows[1].addr, 9);
	CHECK_EQ_U64(rows[2].addr, AP_REPORT_NO_CONTEXT);
	ap_report_destroy(r);
}

/* Many threads (a stream with a context per record, as a fuzzer makes):
 * each row found through the index, rows moved by a sort and records
 * added after it still land in their own row. */
TEST(many_threads)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	const uint32_t threads = 50000;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < 2 * threads; i++) {
			struct ap_record a = load_rec(0x1000, AP_EV_L1D_ACCESS, 4, 0);
			a.has |= AP_HAS_CTX_EL1;
			a.ctx_el1 = (i * 7919u) % threads; /* every thread twice, scattered */
			CHECK_EQ_U64(ap_report_add(r, &a), 0);
		}
		CHECK_EQ_U64(ap_report_finish(r), 0); /* sorts: the rows move */
	}
	const struct ap_report_row *rows;
	CHECK_EQ_U64(ap_report_threads(r, &rows), threads);
	uint64_t wrong = 0;
	for (uint32_t k = 0; k < threads; k++)
		wrong += rows[k].stats.samples != 4;
	CHECK_EQ_U64(wrong, 0);
	ap_report_destroy(r);
}

/* Libraries beside the binary (a dynamic program's loader and shared
 * libraries, ap_report_load_library): their PCs are named from their own
 * symbols, and their rows say which file (here this test's executable
 * again, as a library loaded elsewhere). */
TEST(symbols_from_libraries)
{
	Dl_info info;
	CHECK(dladdr((void *)marker_function, &info) != 0);
	uint64_t elf_addr = (uint64_t)(uintptr_t)marker_function - (uint64_t)(uintptr_t)info.dli_fbase;
	const uint64_t lib_bias = 0x4000000000ull;
	struct ap_report *r;
	struct ap_error_ctx msg = { 0 };
	CHECK_EQ_U64(ap_report_create(&r), 0);
	ap_report_set_elf_machine(r, 0); /* the test program's own code, the host's machine */
	CHECK_EQ_U64(ap_report_load_binary(r, "/proc/self/exe", 0x10000, &msg), 0);
	CHECK_EQ_U64(ap_report_load_library(r, "/nonexistent/lib.so", 0, &msg), (uint64_t)-AP_ERR_IO);
	CHECK_EQ_U64(ap_report_load_library(r, "/proc/self/exe", lib_bias, &msg), 0);
	struct ap_record in_binary = load_rec(elf_addr + 0x10000, AP_EV_L1D_ACCESS, 4, 0);
	struct ap_record in_library = load_rec(elf_addr + lib_bias + 4, AP_EV_L1D_ACCESS, 4, 0);
	struct ap_record nowhere = load_rec(0x7000000000ull, AP_EV_L1D_ACCESS, 4, 0);
	ap_report_add(r, &in_binary);
	ap_report_add(r, &in_library);
	ap_report_add(r, &in_library);
	ap_report_add(r, &nowhere);
	ap_report_finish(r);
	const struct ap_report_row *rows;
	CHECK_EQ_U64(ap_report_functions(r, &rows), 3);
	CHECK(rows[0].name && !strcmp(rows[0].name, "marker_function")); /* 2 samples: the library's */
	CHECK(rows[0].binary && !strcmp(rows[0].binary, "exe"));
	CHECK_EQ_U64(rows[0].addr, elf_addr + lib_bias);
	size_t named_in_binary = 0, unknown = 0;
	for (size_t i = 1; i < 3; i++) {
		named_in_binary += rows[i].name && !strcmp(rows[i].name, "marker_function") && !rows[i].binary;
		unknown += !rows[i].name && !rows[i].binary;
	}
	CHECK_EQ_U64(named_in_binary, 1);
	CHECK_EQ_U64(unknown, 1);
	ap_report_destroy(r);
}

/* Rows ranked by each key (enum ap_report_key), most first, ties by
 * samples: A has the most samples, B the most total latency (5.3.4,
 * SPE-5.3.4-4) and L1D refills and LLC misses (5.3.7: SPE-5.3.7-18,
 * SPE-5.3.7-11), C the TLB walks (SPE-5.3.7-16) and mispredicted branches
 * (SPE-5.3.7-14). */
TEST(ranked_by_each_key)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	uint64_t hit = AP_EV_L1D_ACCESS | AP_EV_TLB_ACCESS;
	uint64_t miss = hit | AP_EV_L1D_REFILL | AP_EV_LLC_ACCESS | AP_EV_LLC_MISS;
	for (int i = 0; i < 6; i++) {
		struct ap_record a = load_rec(0xA000, hit, 4, 0);
		CHECK_EQ_U64(ap_report_add(r, &a), 0);
	}
	for (int i = 0; i < 2; i++) {
		struct ap_record b = load_rec(0xB000, miss, 300, 0xe);
		CHECK_EQ_U64(ap_report_add(r, &b), 0);
	}
	for (int i = 0; i < 3; i++) {
		struct ap_record c = load_rec(0xC000, hit | AP_EV_TLB_WALK, 40, 0);
		c.op_class = AP_OP_CLASS_BRANCH;
		c.op_subclass = AP_OP_BR_COND;
		c.events |= AP_EV_MISPREDICTED;
		CHECK_EQ_U64(ap_report_add(r, &c), 0);
	}
	/* Before ap_report_finish there are no rows to rank: nothing happens. */
	ap_report_sort(r, AP_REPORT_BY_LATENCY);
	CHECK_EQ_U64(ap_report_finish(r), 0);

	static const struct {
		enum ap_report_key key;
		uint64_t order[3];
	} cases[] = {
		{ AP_REPORT_BY_SAMPLES, { 0xA000, 0xC000, 0xB000 } },
		{ AP_REPORT_BY_LATENCY, { 0xB000, 0xC000, 0xA000 } },     /* 600, 120, 24 */
		{ AP_REPORT_BY_L1D_MISSES, { 0xB000, 0xA000, 0xC000 } },  /* 2, then ties by samples */
		{ AP_REPORT_BY_LLC_MISSES, { 0xB000, 0xA000, 0xC000 } },
		{ AP_REPORT_BY_TLB_WALKS, { 0xC000, 0xA000, 0xB000 } },
		{ AP_REPORT_BY_MISPREDICTS, { 0xC000, 0xA000, 0xB000 } },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ap_report_sort(r, cases[k].key);
		const struct ap_report_row *rows;
		CHECK_EQ_U64(ap_report_instructions(r, &rows), 3);
		for (int i = 0; i < 3; i++)
			CHECK_EQ_U64(rows[i].addr, cases[k].order[i]);
		CHECK_EQ_U64(ap_report_functions(r, &rows), 1); /* no symbols: one [unknown] row */
	}
	const struct ap_report_row *rows;
	ap_report_sort(r, AP_REPORT_BY_LATENCY);
	ap_report_instructions(r, &rows);
	CHECK_EQ_U64(ap_report_key_count(&rows[0].stats, AP_REPORT_BY_LATENCY), 600);
	CHECK_EQ_U64(ap_report_key_count(&rows[0].stats, AP_REPORT_BY_LLC_MISSES), 2);
	CHECK_EQ_U64(ap_report_key_count(&rows[1].stats, AP_REPORT_BY_MISPREDICTS), 3);
	CHECK_EQ_U64(ap_report_key_count(&rows[1].stats, AP_REPORT_BY_TLB_WALKS), 3);
	CHECK_EQ_U64(ap_report_key_count(&rows[2].stats, AP_REPORT_BY_SAMPLES), 6);
	CHECK_EQ_U64(ap_report_totals(r)->lat_total_sum, 600 + 120 + 24);
	ap_report_destroy(r);
}

/* Rates stay fractions when records break the events' implications
 * (spec/002 5.3.7: an L1D refill, SPE-5.3.7-18, or an LLC miss,
 * SPE-5.3.7-11, is of a load/store that accessed L1D, SPE-5.3.7-19; a TLB
 * walk, SPE-5.3.7-16, of one that accessed the TLB, SPE-5.3.7-17): such
 * events count, but not in the rates. Found by fuzz_report. */
TEST(rates_are_fractions_of_odd_records)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_record odd = load_rec(0x1000, 0, 10, 0);
	odd.events = AP_EV_RETIRED | AP_EV_L1D_REFILL | AP_EV_LLC_MISS | AP_EV_TLB_WALK | AP_EV_MISPREDICTED;
	struct ap_record hit = load_rec(0x1000, AP_EV_L1D_ACCESS | AP_EV_TLB_ACCESS, 4, 0);
	struct ap_record miss = load_rec(0x1000, AP_EV_L1D_ACCESS | AP_EV_L1D_REFILL | AP_EV_LLC_ACCESS |
	                                                 AP_EV_LLC_MISS | AP_EV_TLB_ACCESS | AP_EV_TLB_WALK,
	                                 200, 0xe);
	CHECK_EQ_U64(ap_report_add(r, &odd), 0);
	CHECK_EQ_U64(ap_report_add(r, &odd), 0);
	CHECK_EQ_U64(ap_report_add(r, &hit), 0);
	CHECK_EQ_U64(ap_report_add(r, &miss), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	const struct ap_report_stats *t = ap_report_totals(r);
	CHECK_EQ_U64(t->l1d_refill, 3); /* every refill counts ... */
	CHECK_EQ_U64(t->llc_miss, 3);
	CHECK_EQ_U64(t->mispredicted, 0); /* ... a mispredict only of a branch */
	struct ap_report_rates q;
	ap_report_rates(t, &q);
	CHECK(q.l1d_miss == 0.5); /* ... but the rates are of the 2 L1D accesses */
	CHECK(q.llc_miss == 0.5);
	CHECK(q.tlb_walk == 0.5);
	CHECK(q.mispredict == 0.0);
	ap_report_destroy(r);
}

TEST_MAIN(CASE(rates_and_sources), CASE(function_by_name_and_pc_stats), CASE(threads_by_context), CASE(many_threads), CASE(ranked_by_each_key), CASE(rates_are_fractions_of_odd_records), CASE(percentiles_within_a_sixteenth), CASE(many_pcs_grow_the_table),
          CASE(symbols_from_elf), CASE(symbols_from_libraries))

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

static struct ap_record load_rec(uint64_t pc, uint64_t events, uint16_t lat, uint16_t ds)
{
	struct ap_record r;
	memset(&r, 0, sizeof(r));
	r.has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_LAT_TOTAL | AP_HAS_LAT_ISSUE |
	        AP_HAS_LAT_XLAT | AP_HAS_DATA_SOURCE;
	r.pc = pc;
	r.op_class = AP_OP_CLASS_LDST;
	r.op_subclass = AP_OP_LDST_GP;
	r.events = events | AP_EV_RETIRED;
	r.lat_total = lat;
	r.lat_issue = 2;
	r.lat_xlat = 1;
	r.data_source = ds;
	return r;
}

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

/* A data access: a load (ds: its Data Source, or -1 for none) or a store
 * at vaddr, from thread ctx, at pc. */
static struct ap_record access_rec(uint64_t pc, uint64_t vaddr, int store, int ds, uint32_t ctx)
{
	struct ap_record a = load_rec(pc, AP_EV_L1D_ACCESS, 7, ds < 0 ? 0 : (uint16_t)ds);
	if (ds < 0)
		a.has &= ~(uint32_t)AP_HAS_DATA_SOURCE;
	if (store)
		a.op_subclass |= AP_OP_ST;
	a.has |= AP_HAS_VADDR | AP_HAS_CTX_EL1;
	a.vaddr = vaddr;
	a.ctx_el1 = ctx;
	return a;
}

static void add_both_passes(struct ap_report *r, const struct ap_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U64(ap_report_add(r, &recs[i]), 0);
	CHECK(ap_report_has_shared_lines(r));
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U64(ap_report_add_line_sample(r, &recs[i]), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
}

/* Shared cache lines (perf c2c's view): a 64-byte line where loads were
 * served by another core's cache (Data Source PEER-CORE 0x9, LOCAL-CLUSTER
 * 0xa, PEER-CLUSTER 0xc, REMOTE 0xd; SPE-5.3.5-1, the Neoverse values),
 * with every sample whose data address lies in it, whatever its source,
 * from the second pass; lines with no such load are not listed. The top
 * byte of the address is a tag (SPE-5.3.1-17, SPE-2.3.2-3), not part of the line. */
TEST(shared_lines_like_perf_c2c)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	const uint64_t a = 0x4a2100, b = 0x7000, tag = 0x5Aull << 56;
	struct ap_record recs[] = {
		access_rec(0x1000, a + 0x00, 0, 0x9, 11),       /* peer core */
		access_rec(0x1000, (a + 0x08) | tag, 0, 0x0, 12), /* L1D, same line, tagged */
		access_rec(0x1004, a + 0x08, 1, -1, 12),        /* a store to it */
		access_rec(0x2000, a + 0x3f, 0, 0xc, 13),       /* peer cluster, another function's PC */
		access_rec(0x2000, a + 0x40, 0, 0x0, 13),       /* the next line: not shared */
		access_rec(0x3000, b, 0, 0xa, 11),              /* local cluster */
		access_rec(0x3000, b + 8, 0, 0xd, 11),          /* remote */
		access_rec(0x3000, b + 16, 0, 0xe, 11),         /* DRAM: no other core */
		access_rec(0x4000, 0x9000, 0, 0xb, 11),         /* system cache: no other core */
	};
	add_both_passes(r, recs, sizeof(recs) / sizeof(recs[0]));
	const struct ap_report_line *lines;
	uint64_t dropped = 1;
	CHECK_EQ_U64(ap_report_shared_lines(r, &lines, &dropped), 2);
	CHECK_EQ_U64(dropped, 0);
	/* Ranked by such loads: a has 2 (0x9, 0xc), b 2 (0xa, 0xd); a has
	 * more samples. */
	CHECK_EQ_U64(lines[0].addr, a);
	CHECK_EQ_U64(lines[0].peer_loads, 2);
	CHECK_EQ_U64(lines[0].stats.samples, 4);
	CHECK_EQ_U64(lines[0].stats.loads, 3);
	CHECK_EQ_U64(lines[0].stats.stores, 1);
	CHECK_EQ_U64(lines[0].stats.data_source[0x9], 1);
	CHECK_EQ_U64(lines[0].stats.data_source[0xc], 1);
	CHECK_EQ_U64(lines[0].threads, 3);
	/* Words: +0 thread 11, +8 thread 12 (twice), +0x38 thread 13: each
	 * word one thread's, so false sharing. */
	CHECK_EQ_U64(lines[0].word[0].samples, 1);
	CHECK_EQ_U64(lines[0].word[0].threads, 1);
	CHECK_EQ_U64(lines[0].word[1].samples, 2);
	CHECK_EQ_U64(lines[0].word[1].threads, 1);
	CHECK_EQ_U64(lines[0].word[7].samples, 1);
	CHECK_EQ_U64(lines[0].word[2].samples, 0);
	CHECK_EQ_U64(lines[0].sharing, AP_REPORT_SHARING_FALSE);
	CHECK_EQ_STR(ap_report_sharing_name(lines[0].sharing), "false");
	/* No binary: every PC is one unnamed function. */
	CHECK_EQ_U64(lines[0].n_functions, 1);
	CHECK(lines[0].function[0].name == NULL);
	CHECK_EQ_U64(lines[0].function[0].samples, 4);
	CHECK_EQ_U64(lines[1].addr, b);
	CHECK_EQ_U64(lines[1].peer_loads, 2);
	CHECK_EQ_U64(lines[1].stats.samples, 3); /* the DRAM load counts: same line */
	CHECK_EQ_U64(lines[1].threads, 1);
	CHECK_EQ_U64(lines[1].sharing, AP_REPORT_SHARING_ONE_THREAD);
	ap_report_destroy(r);

	/* Two threads on one word: true sharing. */
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_record both[] = { access_rec(0x1000, 0x8000, 0, 0x9, 1), access_rec(0x1000, 0x8004, 1, -1, 2),
		                    access_rec(0x1000, 0x8010, 0, 0x0, 1) };
	add_both_passes(r, both, 3);
	CHECK_EQ_U64(ap_report_shared_lines(r, &lines, NULL), 1);
	CHECK_EQ_U64(lines[0].word[0].threads, 2);
	CHECK_EQ_U64(lines[0].word[2].threads, 1);
	CHECK_EQ_U64(lines[0].sharing, AP_REPORT_SHARING_TRUE);
	CHECK_EQ_STR(ap_report_sharing_name(lines[0].sharing), "true");
	ap_report_destroy(r);

	/* Without the second pass the lines are known but not listed. */
	CHECK_EQ_U64(ap_report_create(&r), 0);
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		CHECK_EQ_U64(ap_report_add(r, &recs[i]), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	CHECK(ap_report_has_shared_lines(r));
	CHECK_EQ_U64(ap_report_shared_lines(r, &lines, NULL), 0);
	ap_report_destroy(r);

	/* No load from another core: nothing to list. */
	CHECK_EQ_U64(ap_report_create(&r), 0);
	CHECK_EQ_U64(ap_report_add(r, &recs[1]), 0);
	CHECK(!ap_report_has_shared_lines(r));
	ap_report_destroy(r);
}

/* One virtual line in two processes (a forked child's copy) is two lines:
 * threads map to processes (ap_report_set_thread_process); a thread of no
 * known process keeps to a line of its own kind. */
TEST(shared_lines_per_process)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	CHECK_EQ_U64(ap_report_set_thread_process(r, 101, 100), 0);
	CHECK_EQ_U64(ap_report_set_thread_process(r, 100, 100), 0);
	CHECK_EQ_U64(ap_report_set_thread_process(r, 201, 200), 0);
	CHECK_EQ_U64(ap_report_set_thread_process(r, 200, 200), 0);
	struct ap_record recs[] = {
		access_rec(0x1000, 0x4000, 0, 0x9, 100), access_rec(0x1000, 0x4008, 1, -1, 101),
		access_rec(0x1000, 0x4000, 0, 0x9, 200), access_rec(0x1000, 0x4008, 0, 0x9, 201),
		access_rec(0x1000, 0x4010, 0, 0x9, 999), /* no COMM for 999 */
	};
	add_both_passes(r, recs, sizeof(recs) / sizeof(recs[0]));
	const struct ap_report_line *lines;
	CHECK_EQ_U64(ap_report_shared_lines(r, &lines, NULL), 3);
	CHECK_EQ_U64(lines[0].pid, 200); /* 2 loads from another core */
	CHECK_EQ_U64(lines[0].threads, 2);
	CHECK_EQ_U64(lines[0].sharing, AP_REPORT_SHARING_FALSE);
	CHECK_EQ_U64(lines[1].pid, 100);
	CHECK_EQ_U64(lines[1].stats.samples, 2);
	CHECK_EQ_U64(lines[1].sharing, AP_REPORT_SHARING_FALSE);
	CHECK_EQ_U64(lines[2].pid, AP_REPORT_NO_PROCESS);
	CHECK_EQ_U64(lines[2].addr, 0x4000);
	ap_report_destroy(r);
}

/* Functions on a shared line come from the binary's symbols, most samples
 * first, at most AP_REPORT_LINE_FUNCTIONS of them; past
 * AP_REPORT_MAX_SHARED_LINES lines, further ones are counted as dropped. */
TEST(shared_lines_functions_and_limits)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	ap_report_set_elf_machine(r, 0); /* the test program's own code, the host's machine */
	Dl_info info;
	CHECK(dladdr((void *)load_rec, &info) != 0);
	uint64_t here = (uint64_t)(uintptr_t)load_rec, there = (uint64_t)(uintptr_t)access_rec;
	size_t n = 0;
	static struct ap_record recs[AP_REPORT_MAX_SHARED_LINES + 16];
	recs[n++] = access_rec(here, 0x10000, 0, 0x9, 1);
	recs[n++] = access_rec(there, 0x10008, 1, -1, 2);
	recs[n++] = access_rec(there + 4, 0x10010, 1, -1, 2);
	for (size_t k = 0; k < AP_REPORT_MAX_SHARED_LINES + 2; k++) /* 4097 more lines, one load each */
		recs[n++] = access_rec(here, 0x100000 + 64 * k, 0, 0x9, 1);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U64(ap_report_add(r, &recs[i]), 0);
	struct ap_error_ctx err = { 0 };
	CHECK_EQ_U64(ap_report_load_binary(r, info.dli_fname, (uint64_t)(uintptr_t)info.dli_fbase, &err), 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U64(ap_report_add_line_sample(r, &recs[i]), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	const struct ap_report_line *lines;
	uint64_t dropped = 0;
	CHECK_EQ_U64(ap_report_shared_lines(r, &lines, &dropped), AP_REPORT_MAX_SHARED_LINES);
	CHECK_EQ_U64(dropped, 3); /* 1 + 4098 lines noted, 4096 kept */
	CHECK_EQ_U64(lines[0].addr, 0x10000);
	CHECK_EQ_U64(lines[0].n_functions, 2);
	CHECK_EQ_STR(lines[0].function[0].name, "access_rec"); /* 2 samples */
	CHECK_EQ_U64(lines[0].function[0].samples, 2);
	CHECK_EQ_STR(lines[0].function[1].name, "load_rec");
	CHECK_EQ_U64(lines[0].threads, 2);
	ap_report_destroy(r);
}

TEST_MAIN(CASE(shared_lines_like_perf_c2c), CASE(shared_lines_per_process), CASE(shared_lines_functions_and_limits), CASE(rates_and_sources), CASE(function_by_name_and_pc_stats), CASE(threads_by_context), CASE(many_threads), CASE(ranked_by_each_key), CASE(rates_are_fractions_of_odd_records), CASE(percentiles_within_a_sixteenth), CASE(many_pcs_grow_the_table),
          CASE(symbols_from_elf), CASE(symbols_from_libraries))

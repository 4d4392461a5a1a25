/* lib/report: shared cache lines (perf c2c's view, ap_report_shared_lines):
 * lines where loads met another core's write (Data Source, spec/002 5.3.5,
 * SPE-5.3.5-1) and the threads (CONTEXTIDR_EL1) that touched them, per
 * process, with the functions from the binary's symbols. */
#define _GNU_SOURCE 1 /* dladdr */
#include <dlfcn.h>

#include "armprof/codec.h"
#include "armprof/error.h"
#include "armprof/report.h"
#include "harness.h"
#include "report_records.h"

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
	CHECK(dladdr((void *)access_rec, &info) != 0);
	uint64_t here = (uint64_t)(uintptr_t)add_both_passes, there = (uint64_t)(uintptr_t)access_rec;
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
	CHECK_EQ_STR(lines[0].function[1].name, "add_both_passes");
	CHECK_EQ_U64(lines[0].threads, 2);
	ap_report_destroy(r);
}

TEST_MAIN(CASE(shared_lines_like_perf_c2c), CASE(shared_lines_per_process), CASE(shared_lines_functions_and_limits))

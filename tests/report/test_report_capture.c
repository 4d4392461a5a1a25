/* lib/report on the shapes captures from real hardware have: kernel data
 * addresses without a tag (spec/002 5.3.1, SPE-5.3.1-17), PIDs in
 * CONTEXTIDR_EL2 on hosts whose kernel runs at EL2 (5.3.3, SPE-5.3.3-4),
 * and each CPU's IMPLEMENTATION DEFINED Data Source values (5.3.5,
 * SPE-5.3.5-1). */
#include "armprof/codec.h"
#include "armprof/error.h"
#include "armprof/report.h"
#include "harness.h"

/* A load at vaddr with Data Source ds from a thread whose PID is in the
 * Context packet of index ctx_index (0: CONTEXTIDR_EL1, 1: _EL2). */
static struct ap_record load_at(uint64_t pc, uint64_t vaddr, uint16_t ds, int ctx_index, uint32_t pid)
{
	struct ap_record r;
	memset(&r, 0, sizeof(r));
	r.has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_VADDR | AP_HAS_DATA_SOURCE;
	r.pc = pc;
	r.op_class = AP_OP_CLASS_LDST;
	r.op_subclass = AP_OP_LDST_GP;
	r.events = AP_EV_RETIRED | AP_EV_L1D_ACCESS;
	r.vaddr = vaddr;
	r.data_source = ds;
	if (ctx_index == 0) {
		r.has |= AP_HAS_CTX_EL1;
		r.ctx_el1 = pid;
	} else if (ctx_index == 1) {
		r.has |= AP_HAS_CTX_EL2;
		r.ctx_el2 = pid;
	}
	return r;
}

static void add_both_passes(struct ap_report *r, const struct ap_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U64(ap_report_add(r, &recs[i]), 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U64(ap_report_add_line_sample(r, &recs[i]), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
}

/* A kernel line (packet VA 0x00ff.., TAG 0 as without TBI) and the same
 * line through a tagged pointer (KASAN tag 0xf3) are one line, shown at
 * its canonical address 0xffff.. (5.3.1: TAG is not address). */
TEST(kernel_lines_are_canonical)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_record recs[] = {
		load_at(0xffff800010000000, 0x00ff000012345600, 0x9, 0, 7),
		load_at(0xffff800010000004, 0xf3ff000012345608, 0x0, 0, 8),
		load_at(0xffff800010000008, 0x00ff000012345640, 0x0, 0, 8), /* the next line */
	};
	add_both_passes(r, recs, sizeof(recs) / sizeof(recs[0]));
	const struct ap_report_line *lines;
	CHECK_EQ_U64(ap_report_shared_lines(r, &lines, NULL), 1);
	CHECK_EQ_U64(lines[0].addr, 0xffff000012345600ull);
	CHECK_EQ_U64(lines[0].stats.samples, 2);
	CHECK_EQ_U64(lines[0].threads, 2);
	ap_report_destroy(r);
}

/* The record's helpers: canonical address and tag. */
TEST(canonical_vaddr_and_tag)
{
	struct ap_record a = load_at(0, 0x00ff000012345678, 0, -1, 0);
	CHECK_EQ_U64(ap_record_vaddr(&a), 0xffff000012345678ull);
	CHECK_EQ_U64(ap_record_vaddr_tag(&a), 0);
	a.vaddr = 0x3c00ffffc0001000;
	CHECK_EQ_U64(ap_record_vaddr(&a), 0x0000ffffc0001000ull);
	CHECK_EQ_U64(ap_record_vaddr_tag(&a), 0x3c);
	a.vaddr = 0xf3ff0000abcd0040;
	CHECK_EQ_U64(ap_record_vaddr(&a), 0xffff0000abcd0040ull);
	CHECK_EQ_U64(ap_record_vaddr_tag(&a), 0xf3);
}

/* A host whose kernel runs at EL2 (VHE) writes the PID to CONTEXTIDR_EL2:
 * its records carry the Context packet of INDEX 1 only (5.3.3,
 * SPE-5.3.3-4). The threads table and the shared lines take the thread
 * from it; a record with both takes CONTEXTIDR_EL2 unless told EL1. */
TEST(threads_from_el2_hosts)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_record recs[] = {
		load_at(0x1000, 0x4a2100, 0x9, 1, 500), /* PEER-CORE: a shared line */
		load_at(0x1004, 0x4a2108, 0x0, 1, 501),
		load_at(0x1008, 0x4a2110, 0x0, 1, 501),
		load_at(0x100c, 0x9000, 0x0, -1, 0),  /* no Context packet */
	};
	struct ap_record both = load_at(0x1010, 0x9008, 0x0, 0, 7); /* ctx_el1 7 ... */
	both.has |= AP_HAS_CTX_EL2;
	both.ctx_el2 = 500; /* ... and ctx_el2 500 */
	CHECK_EQ_U64(ap_report_thread_of(r, &both), 500);
	CHECK_EQ_U64(ap_report_thread_of(r, &recs[3]), AP_REPORT_NO_CONTEXT);
	CHECK_EQ_U64(ap_report_add(r, &both), 0);
	add_both_passes(r, recs, sizeof(recs) / sizeof(recs[0]));
	const struct ap_report_row *rows;
	CHECK_EQ_U64(ap_report_threads(r, &rows), 3);
	CHECK_EQ_U64(rows[0].addr, 500); /* 2 samples: the EL1+EL2 one counts as 500 */
	CHECK_EQ_U64(rows[0].stats.samples, 2);
	CHECK_EQ_U64(rows[1].addr, 501);
	CHECK_EQ_U64(rows[2].addr, AP_REPORT_NO_CONTEXT);
	uint64_t el1 = 9, el2 = 9;
	ap_report_context_counts(r, &el1, &el2);
	CHECK_EQ_U64(el1, 0);
	CHECK_EQ_U64(el2, 4);
	const struct ap_report_line *lines;
	CHECK_EQ_U64(ap_report_shared_lines(r, &lines, NULL), 1);
	CHECK_EQ_U64(lines[0].threads, 2); /* 500 and 501, from CONTEXTIDR_EL2 */
	CHECK(lines[0].sharing == AP_REPORT_SHARING_FALSE);
	ap_report_destroy(r);

	/* Told EL1: the record with both counts as thread 7. */
	CHECK_EQ_U64(ap_report_create(&r), 0);
	ap_report_set_context(r, AP_REPORT_CONTEXT_EL1);
	CHECK_EQ_U64(ap_report_thread_of(r, &both), 7);
	CHECK_EQ_U64(ap_report_thread_of(r, &recs[0]), 500); /* only EL2: that one */
	CHECK_EQ_U64(ap_report_add(r, &both), 0);
	CHECK_EQ_U64(ap_report_add(r, &recs[0]), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	ap_report_context_counts(r, &el1, &el2);
	CHECK_EQ_U64(el1, 1);
	CHECK_EQ_U64(el2, 1);
	ap_report_destroy(r);
}

/* Each CPU's Data Source values (5.3.5, SPE-5.3.5-1: IMPLEMENTATION
 * DEFINED): AmpereOne's 0x0 (local chip cache: another core's) makes a
 * shared line where Neoverse's 0x0 (L1D) does not; counted as the
 * Neoverse class perf maps it onto. Of a CPU of no known encoding the raw
 * values are counted and no line is known to be shared. */
TEST(data_source_per_cpu)
{
	struct ap_record recs[] = {
		load_at(0x1000, 0x4a2100, 0x0, 0, 11),
		load_at(0x1004, 0x4a2108, 0x0, 0, 12),
		load_at(0x1008, 0x4a2110, 0x5, 0, 11),
		load_at(0x100c, 0x9000, 0x7, 0, 11),
	};
	static const struct {
		enum ap_ds_encoding enc;
		size_t lines;
		uint64_t peer_loads;
		unsigned counted[4]; /* where each record's value is counted */
	} cases[] = {
		{ AP_DS_ENC_AMPEREONE, 1, 3, { 0x9, 0x9, 0xd, 0xe } },
		{ AP_DS_ENC_NEOVERSE, 0, 0, { 0x0, 0x0, 16, 16 } }, /* 5, 7: undefined -> other */
		{ AP_DS_ENC_RAW, 0, 0, { 0x0, 0x0, 0x5, 0x7 } },
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct ap_report *r;
		CHECK_EQ_U64(ap_report_create(&r), 0);
		CHECK_EQ_U64(ap_report_data_source_encoding(r), AP_DS_ENC_NEOVERSE); /* the default */
		ap_report_set_data_source_encoding(r, cases[c].enc);
		add_both_passes(r, recs, sizeof(recs) / sizeof(recs[0]));
		const struct ap_report_line *lines;
		CHECK_EQ_U64(ap_report_shared_lines(r, &lines, NULL), cases[c].lines);
		if (cases[c].lines)
			CHECK_EQ_U64(lines[0].peer_loads, cases[c].peer_loads);
		uint64_t want[AP_REPORT_DS_VALUES + 1] = { 0 };
		for (size_t i = 0; i < 4; i++)
			want[cases[c].counted[i]]++;
		const struct ap_report_stats *t = ap_report_totals(r);
		for (unsigned v = 0; v < AP_REPORT_DS_VALUES; v++)
			CHECK_EQ_U64(t->data_source[v], want[v]);
		CHECK_EQ_U64(t->data_source_other, want[AP_REPORT_DS_VALUES]);
		if (cases[c].enc == AP_DS_ENC_RAW)
			CHECK(ap_report_source_label(r, 0x9) == NULL);
		else
			CHECK_EQ_STR(ap_report_source_label(r, 0x9), "PEER-CORE");
		ap_report_destroy(r);
	}
}

TEST_MAIN(CASE(kernel_lines_are_canonical), CASE(canonical_vaddr_and_tag), CASE(threads_from_el2_hosts),
          CASE(data_source_per_cpu))

/* lib/report: the call stack store (ap_report_add_stack), folded stacks and
 * the functions' inclusive weights, on known stacks with known weights.
 * Symbols come from a kallsyms text (ap_report_load_kallsyms), which names
 * functions at chosen addresses without an ELF file. The weights are the
 * record's total latency (spec/002 5.3.4, SPE-5.3.4-4) and its events
 * (5.3.7: L1D refill E[3] SPE-5.3.7-18, LLC miss E[9] SPE-5.3.7-11, TLB walk
 * E[5] SPE-5.3.7-16, mispredicted E[7] SPE-5.3.7-14). */
#include <stdlib.h>
#include <unistd.h>

#include "armprof/error.h"
#include "armprof/report.h"
#include "harness.h"

#define K 0xffff800008000000ull /* a kernel-half address: looked up in kallsyms */
#define MAIN (K + 0x000)
#define A (K + 0x100)
#define B (K + 0x200)
#define LEAF (K + 0x300)
#define REC (K + 0x400)
#define END (K + 0x500)

static char syms_path[256];

static void write_syms(void)
{
	char text[512];
	int len = snprintf(text, sizeof(text),
	                   "%llx T main\n%llx T a\n%llx T b\n%llx T leaf\n%llx T rec;ursive\n%llx D data_end\n",
	                   (unsigned long long)MAIN, (unsigned long long)A, (unsigned long long)B,
	                   (unsigned long long)LEAF, (unsigned long long)REC, (unsigned long long)END);
	const char *dir = getenv("TMPDIR");
	snprintf(syms_path, sizeof(syms_path), "%s/test_stacks.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(syms_path);
	CHECK(fd >= 0);
	CHECK_EQ_U64(write(fd, text, (size_t)len), (uint64_t)len);
	close(fd);
}

static struct ap_record rec_at(uint64_t pc, uint64_t events, uint16_t lat)
{
	struct ap_record r;
	memset(&r, 0, sizeof(r));
	r.has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS | AP_HAS_LAT_TOTAL;
	r.pc = pc;
	r.op_class = AP_OP_CLASS_LDST;
	r.op_subclass = AP_OP_LDST_GP;
	r.events = events | AP_EV_RETIRED;
	r.lat_total = lat;
	return r;
}

static struct ap_report *new_report(void)
{
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_error_ctx err = { 0 };
	write_syms();
	CHECK_EQ_U64(ap_report_load_kallsyms(r, syms_path, &err), 0);
	unlink(syms_path);
	return r;
}

static const struct ap_report_folded *folded_of(const struct ap_report *r, const char *stack)
{
	const struct ap_report_folded *f;
	size_t n = ap_report_folded_stacks(r, &f);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].stack, stack))
			return &f[i];
	return NULL;
}

static const struct ap_report_inclusive *incl_of(const struct ap_report *r, const char *name)
{
	const struct ap_report_inclusive *v;
	size_t n = ap_report_inclusive(r, &v);
	for (size_t i = 0; i < n; i++)
		if (name ? v[i].name && !strcmp(v[i].name, name) : !v[i].name)
			return &v[i];
	return NULL;
}

/* leaf called from a (3 samples) and from b (1 sample), main above both;
 * the distinct PC stacks within one function path merge into one folded
 * stack; every weight adds up. */
TEST(known_stacks)
{
	struct ap_report *r = new_report();
	uint64_t via_a[] = { LEAF + 8, A + 0x14, MAIN + 0x20 };
	uint64_t via_a2[] = { LEAF + 12, A + 0x14, MAIN + 0x20 }; /* another PC, same path */
	uint64_t via_b[] = { LEAF + 8, B + 0x30, MAIN + 0x40 };
	struct ap_record miss = rec_at(LEAF + 8, AP_EV_L1D_ACCESS | AP_EV_L1D_REFILL | AP_EV_LLC_MISS | AP_EV_TLB_WALK, 100);
	struct ap_record hit = rec_at(LEAF + 8, AP_EV_L1D_ACCESS, 5);
	struct ap_record hit2 = rec_at(LEAF + 12, AP_EV_L1D_ACCESS, 7);
	CHECK_EQ_U64(ap_report_add_stack(r, &miss, via_a, 3), 0);
	CHECK_EQ_U64(ap_report_add_stack(r, &hit, via_a, 3), 0);
	CHECK_EQ_U64(ap_report_add_stack(r, &hit2, via_a2, 3), 0);
	CHECK_EQ_U64(ap_report_add_stack(r, &hit, via_b, 3), 0);
	/* A mispredicted branch in main with no stack given: the stack [PC]. */
	struct ap_record br = rec_at(MAIN + 4, AP_EV_MISPREDICTED, 3);
	br.op_class = AP_OP_CLASS_BRANCH;
	br.op_subclass = AP_OP_BR_COND;
	CHECK_EQ_U64(ap_report_add(r, &br), 0);
	/* A PC no symbol covers, called from b. */
	uint64_t unknown[] = { K + 0x100000, B + 0x30, MAIN + 0x40 };
	struct ap_record far = rec_at(K + 0x100000, 0, 1);
	CHECK_EQ_U64(ap_report_add_stack(r, &far, unknown, 3), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);

	/* The text report counts every record as ap_report_add does. */
	CHECK_EQ_U64(ap_report_records(r), 6);
	CHECK_EQ_U64(ap_report_totals(r)->samples, 6);
	CHECK_EQ_U64(ap_report_totals(r)->lat_total_sum, 100 + 5 + 7 + 5 + 3 + 1);

	const struct ap_report_stack *st;
	CHECK_EQ_U64(ap_report_stacks(r, &st), 5); /* via_a, via_a2, via_b, [main+4], unknown */
	CHECK_EQ_U64(st[0].weight[AP_REPORT_BY_SAMPLES], 2); /* via_a first: most samples */
	CHECK_EQ_U64(st[0].n_frames, 3);
	CHECK_EQ_U64(st[0].frames[0], LEAF + 8);
	CHECK_EQ_U64(st[0].frames[2], MAIN + 0x20);
	CHECK_EQ_U64(st[0].weight[AP_REPORT_BY_LATENCY], 105);

	const struct ap_report_folded *f;
	CHECK_EQ_U64(ap_report_folded_stacks(r, &f), 4);
	CHECK_EQ_STR(f[0].stack, "main;a;leaf");
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_SAMPLES], 3);
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_LATENCY], 112);
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_L1D_MISSES], 1);
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_LLC_MISSES], 1);
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_TLB_WALKS], 1);
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_MISPREDICTS], 0);
	const struct ap_report_folded *x = folded_of(r, "main;b;leaf");
	CHECK(x && x->weight[AP_REPORT_BY_SAMPLES] == 1 && x->weight[AP_REPORT_BY_LATENCY] == 5);
	x = folded_of(r, "main");
	CHECK(x && x->weight[AP_REPORT_BY_MISPREDICTS] == 1 && x->weight[AP_REPORT_BY_SAMPLES] == 1);
	x = folded_of(r, "main;b;[unknown]");
	CHECK(x && x->weight[AP_REPORT_BY_SAMPLES] == 1);

	/* Ranked by latency: main;a;leaf (112), main;b;leaf (5), main (3). */
	ap_report_sort(r, AP_REPORT_BY_LATENCY);
	ap_report_folded_stacks(r, &f);
	CHECK_EQ_STR(f[1].stack, "main;b;leaf");
	CHECK_EQ_STR(f[2].stack, "main");
	ap_report_sort(r, AP_REPORT_BY_MISPREDICTS);
	ap_report_folded_stacks(r, &f);
	CHECK_EQ_STR(f[0].stack, "main");

	/* Inclusive: main holds all 6, a 3, b 2, leaf 4 (self 4). */
	const struct ap_report_inclusive *in = incl_of(r, "main");
	CHECK(in && in->children[AP_REPORT_BY_SAMPLES] == 6 && in->self[AP_REPORT_BY_SAMPLES] == 1);
	CHECK(in && in->children[AP_REPORT_BY_LATENCY] == 121);
	in = incl_of(r, "a");
	CHECK(in && in->children[AP_REPORT_BY_SAMPLES] == 3 && in->self[AP_REPORT_BY_SAMPLES] == 0);
	in = incl_of(r, "b");
	CHECK(in && in->children[AP_REPORT_BY_SAMPLES] == 2);
	in = incl_of(r, "leaf");
	CHECK(in && in->children[AP_REPORT_BY_SAMPLES] == 4 && in->self[AP_REPORT_BY_SAMPLES] == 4);
	in = incl_of(r, NULL);
	CHECK(in && in->children[AP_REPORT_BY_SAMPLES] == 1 && in->self[AP_REPORT_BY_SAMPLES] == 1);
	/* Self adds up to the function table's samples. */
	const struct ap_report_row *fn;
	size_t nf = ap_report_functions(r, &fn);
	for (size_t i = 0; i < nf; i++) {
		const struct ap_report_inclusive *s = incl_of(r, fn[i].name);
		CHECK(s && s->self[AP_REPORT_BY_SAMPLES] == fn[i].stats.samples);
		CHECK(s && s->self[AP_REPORT_BY_LATENCY] == fn[i].stats.lat_total_sum);
	}
	ap_report_destroy(r);
}

/* Recursion: every frame is kept in the folded stack, and the function is
 * counted once per sample in its inclusive weight. A name's ';' is
 * written '_'. A return address is looked up at address - 1: a call that
 * ends its function (rec + 0x100 is b's start) names the caller. */
TEST(recursion_once)
{
	struct ap_report *r = new_report();
	uint64_t deep[] = { REC + 4, REC + 0x10, REC + 0x10, REC + 0x10, MAIN + 0x8 };
	uint64_t tail[] = { A + 4, REC + 0x100, MAIN + 0x8 };
	struct ap_record x = rec_at(REC + 4, 0, 10);
	struct ap_record y = rec_at(A + 4, 0, 20);
	for (int i = 0; i < 5; i++)
		CHECK_EQ_U64(ap_report_add_stack(r, &x, deep, 5), 0);
	CHECK_EQ_U64(ap_report_add_stack(r, &y, tail, 3), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	const struct ap_report_folded *f;
	CHECK_EQ_U64(ap_report_folded_stacks(r, &f), 2);
	CHECK_EQ_STR(f[0].stack, "main;rec_ursive;rec_ursive;rec_ursive;rec_ursive");
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_SAMPLES], 5);
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_LATENCY], 50);
	CHECK_EQ_STR(f[1].stack, "main;rec_ursive;a");
	const struct ap_report_inclusive *in = incl_of(r, "rec;ursive");
	CHECK(in && in->children[AP_REPORT_BY_SAMPLES] == 6 && in->self[AP_REPORT_BY_SAMPLES] == 5);
	CHECK(in && in->children[AP_REPORT_BY_LATENCY] == 70);
	in = incl_of(r, "main");
	CHECK(in && in->children[AP_REPORT_BY_SAMPLES] == 6 && in->self[AP_REPORT_BY_SAMPLES] == 0);
	CHECK(incl_of(r, "b") == NULL);
	ap_report_destroy(r);
}

/* Many distinct stacks: the store grows and keeps each apart; a record
 * without PC or frames is in the totals but in no stack; overlong stacks
 * keep their innermost AP_REPORT_MAX_FRAMES frames. */
TEST(many_and_long)
{
	struct ap_report *r = new_report();
	static uint64_t fr[AP_REPORT_MAX_FRAMES + 10];
	for (unsigned i = 0; i < 5000; i++) {
		uint64_t s[3] = { LEAF + 4, MAIN + 4, K + 0x200000 + 4 * (i % 1000) };
		struct ap_record x = rec_at(LEAF + 4, 0, (uint16_t)(i % 7));
		CHECK_EQ_U64(ap_report_add_stack(r, &x, s, 3), 0);
	}
	struct ap_record nopc = rec_at(0, 0, 1);
	nopc.has &= ~(uint32_t)AP_HAS_PC;
	CHECK_EQ_U64(ap_report_add_stack(r, &nopc, NULL, 0), 0);
	for (size_t i = 0; i < AP_REPORT_MAX_FRAMES + 10; i++)
		fr[i] = i < AP_REPORT_MAX_FRAMES ? REC + 0x10 : MAIN + 4;
	fr[0] = REC + 4;
	struct ap_record x = rec_at(REC + 4, 0, 1);
	CHECK_EQ_U64(ap_report_add_stack(r, &x, fr, AP_REPORT_MAX_FRAMES + 10), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	const struct ap_report_stack *st;
	size_t n = ap_report_stacks(r, &st);
	CHECK_EQ_U64(n, 1001);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += st[i].weight[AP_REPORT_BY_SAMPLES];
		if (st[i].frames[0] == LEAF + 4)
			CHECK_EQ_U64(st[i].weight[AP_REPORT_BY_SAMPLES], 5);
		else
			CHECK_EQ_U64(st[i].n_frames, AP_REPORT_MAX_FRAMES);
	}
	CHECK_EQ_U64(sum, 5001);
	CHECK_EQ_U64(ap_report_records(r), 5002);
	const struct ap_report_folded *f;
	CHECK_EQ_U64(ap_report_folded_stacks(r, &f), 2);
	CHECK_EQ_STR(f[0].stack, "[unknown];main;leaf");
	CHECK_EQ_U64(f[0].weight[AP_REPORT_BY_SAMPLES], 5000);
	/* Adding after finish hides the views until the next finish. */
	CHECK_EQ_U64(ap_report_add(r, &x), 0);
	CHECK_EQ_U64(ap_report_folded_stacks(r, &f), 0);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	CHECK_EQ_U64(ap_report_folded_stacks(r, &f), 3); /* [rec+4] alone is a third */
	ap_report_destroy(r);
}

TEST_MAIN(CASE(known_stacks), CASE(recursion_once), CASE(many_and_long))

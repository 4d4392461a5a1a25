/* lib/report: the kernel's functions from a /proc/kallsyms text
 * (ap_report_load_kallsyms), on records with kernel PCs encoded as SPE
 * writes them and decoded: the PC is the Address packet of INDEX 0
 * (spec/002 5.3.1, SPE-5.3.1-5), its payload's bytes 6:0 the address bits
 * [55:0] (SPE-5.3.1-23) and byte 7 the EL (SPE-5.3.1-19); the decoder makes
 * the address canonical by copying bit 55 into [63:56], and the report
 * looks up those canonical addresses. */
#include <stdlib.h>
#include <unistd.h>

#include "armprof/decode.h"
#include "armprof/error.h"
#include "armprof/report.h"
#include "harness.h"

/* path gets a new temporary file holding len bytes of text. */
static void write_temp(char *path, size_t cap, const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, cap, "%s/test_kallsyms.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ_U64(write(fd, text, len), len);
	close(fd);
}

static int on_record(void *ctx, const struct ap_record *rec)
{
	CHECK_EQ_U64(ap_report_add(ctx, rec), 0);
	return 0;
}

/* A load at pc (canonical), at EL el, encoded and decoded into r. */
static void add_sample(struct ap_report *r, uint64_t pc, unsigned el)
{
	struct ap_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.has = AP_HAS_PC | AP_HAS_OP | AP_HAS_EVENTS;
	rec.pc = pc;
	rec.el = (uint8_t)el;
	rec.op_class = AP_OP_CLASS_LDST;
	rec.op_subclass = AP_OP_LDST_GP;
	rec.events = AP_EV_RETIRED;
	uint8_t buf[256];
	int n = ap_record_encode(buf, sizeof(buf), &rec, NULL);
	CHECK(n > 0);
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = on_record;
	dc.ctx = r;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	CHECK_EQ_U64(ap_decoder_feed(&dec, buf, (size_t)n), 0);
	ap_decoder_finish(&dec);
}

/* The instruction row of pc. */
static const struct ap_report_row *row_of(const struct ap_report *r, uint64_t pc)
{
	const struct ap_report_row *rows;
	size_t n = ap_report_instructions(r, &rows);
	for (size_t i = 0; i < n; i++)
		if (rows[i].addr == pc)
			return &rows[i];
	return NULL;
}

static const char kallsyms[] =
	"0000000000000000 A __per_cpu_start\n"
	"ffff800008010000 t _head\n"
	"ffff800008010000 T _text\n"
	"ffff800008011000 W do_el0_svc_alias\n"
	"ffff800008011000 T do_el0_svc\n"
	"ffff800008011400 t el0_svc_common\n"
	"ffff800008011800 D not_a_function\n" /* data: ends el0_svc_common */
	"ffff800008011c00 T clear_page\n"
	"ffff800008011c00 T __pi_clear_page\n" /* the last at an address, as perf */
	"ffff800008012000 T _etext\n"
	"0000000000000000 t hidden_by_kptr_restrict\n"
	"\n"
	"ffff800000a00000 t arm_spe_pmu_irq_handler\t[arm_spe_pmu]\n"
	"ffff800000a00200 t arm_spe_pmu_start\t[arm_spe_pmu]\n"
	"ffff800000b00000 T other_module_fn\t[other]\n";

TEST(kernel_functions_and_modules)
{
	char path[4096];
	write_temp(path, sizeof(path), kallsyms, strlen(kallsyms));
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_error_ctx err = { 0 };
	CHECK_EQ_U64(ap_report_load_kallsyms(r, path, &err), 0);
	const uint64_t k = 0xffff800008000000ull, m = 0xffff800000a00000ull;
	add_sample(r, k + 0x11008, 1);  /* do_el0_svc+8 */
	for (int i = 0; i < 4; i++)
		add_sample(r, k + 0x117fc, 1); /* el0_svc_common, past the data symbol */
	add_sample(r, k + 0x10004, 1);  /* _text, the last at its address */
	add_sample(r, k + 0x11804, 1);  /* in the data symbol: no function */
	add_sample(r, k + 0x11c10, 1);  /* __pi_clear_page */
	add_sample(r, m + 0x210, 1);    /* arm_spe_pmu_start, the module's last */
	add_sample(r, m + 0x1ffc, 1);   /* still it: to the end of the next page */
	add_sample(r, m + 0x2000, 1);   /* beyond: no function */
	add_sample(r, k + 0x13000, 1);  /* past _etext's page: no function */
	add_sample(r, 0x400000, 0);     /* a user PC: not the kernel's */
	CHECK_EQ_U64(ap_report_finish(r), 0);

	const struct ap_report_row *row = row_of(r, k + 0x11008);
	CHECK(row && row->name && !strcmp(row->name, "do_el0_svc") && row->offset == 8 && row->binary &&
	      !strcmp(row->binary, "[kernel.kallsyms]"));
	row = row_of(r, k + 0x117fc);
	CHECK(row && row->name && !strcmp(row->name, "el0_svc_common") && row->offset == 0x3fc);
	row = row_of(r, k + 0x10004);
	CHECK(row && row->name && !strcmp(row->name, "_text"));
	row = row_of(r, k + 0x11804);
	CHECK(row && !row->name && row->binary && !strcmp(row->binary, "[kernel.kallsyms]"));
	row = row_of(r, k + 0x11c10);
	CHECK(row && row->name && !strcmp(row->name, "__pi_clear_page") && row->offset == 0x10);
	row = row_of(r, m + 0x210);
	CHECK(row && row->name && !strcmp(row->name, "arm_spe_pmu_start") && row->binary &&
	      !strcmp(row->binary, "[arm_spe_pmu]"));
	row = row_of(r, m + 0x1ffc);
	CHECK(row && row->name && !strcmp(row->name, "arm_spe_pmu_start"));
	row = row_of(r, m + 0x2000);
	CHECK(row && !row->name && row->binary && !strcmp(row->binary, "[kernel.kallsyms]"));
	row = row_of(r, k + 0x13000);
	CHECK(row && !row->name);
	row = row_of(r, 0x400000);
	CHECK(row && !row->name && !row->binary);

	/* Function rows: el0_svc_common first (4 samples); the three unnamed
	 * kernel PCs one row, the user PC another. */
	const struct ap_report_row *fns;
	size_t nf = ap_report_functions(r, &fns);
	CHECK_EQ_U64(nf, 7);
	CHECK(nf && fns[0].name && !strcmp(fns[0].name, "el0_svc_common") && fns[0].stats.samples == 4 &&
	      fns[0].addr == k + 0x11400);
	uint64_t unnamed_kernel = 0;
	for (size_t i = 0; i < nf; i++)
		if (!fns[i].name && fns[i].binary)
			unnamed_kernel += fns[i].stats.samples;
	CHECK_EQ_U64(unnamed_kernel, 3);

	/* By name (--annotate): the kernel's function, its extent and binary. */
	uint64_t start = 0, size = 0;
	const char *binary = NULL, *found = NULL;
	CHECK_EQ_U64(ap_report_find_function(r, "el0_svc_common", &start, &size, &binary, &found), 0);
	CHECK(start == k + 0x11400 && size == 0x400 && binary && !strcmp(binary, "[kernel.kallsyms]") && found &&
	      !strcmp(found, "el0_svc_common"));
	CHECK_EQ_U64(ap_report_find_function(r, "arm_spe_pmu_start", &start, &size, &binary, &found), 0);
	CHECK(start == m + 0x200 && size == 0x1e00 && binary && !strcmp(binary, "[arm_spe_pmu]"));
	CHECK_EQ_U64(ap_report_find_function(r, "not_a_function", &start, &size, &binary, &found), -AP_ERR_INVALID);
	ap_report_destroy(r);
	unlink(path);
}

/* A second file replaces the first. */
TEST(second_file_replaces_the_first)
{
	char a[4096], b[4096];
	write_temp(a, sizeof(a), kallsyms, strlen(kallsyms));
	const char other[] = "ffff800008011000 T renamed\n";
	write_temp(b, sizeof(b), other, strlen(other));
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	CHECK_EQ_U64(ap_report_load_kallsyms(r, a, NULL), 0);
	CHECK_EQ_U64(ap_report_load_kallsyms(r, b, NULL), 0);
	add_sample(r, 0xffff800008011008ull, 1);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	const struct ap_report_row *row = row_of(r, 0xffff800008011008ull);
	CHECK(row && row->name && !strcmp(row->name, "renamed"));
	ap_report_destroy(r);
	unlink(a);
	unlink(b);
}

/* Bad input: -AP_ERR_FORMAT, the message naming the file and the line;
 * the report is left without kernel symbols. */
static void check_bad(const char *text, size_t len, int want, const char *want_in_msg)
{
	char path[4096];
	write_temp(path, sizeof(path), text, len);
	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_error_ctx err = { 0 };
	CHECK_EQ_U64(ap_report_load_kallsyms(r, path, &err), want);
	char where[4200];
	snprintf(where, sizeof(where), "%s%s", path, want_in_msg);
	if (!strstr(err.message, where))
		fprintf(stderr, "message '%s' lacks '%s'\n", err.message, where);
	CHECK(strstr(err.message, where) != NULL);
	add_sample(r, 0xffff800008011008ull, 1);
	CHECK_EQ_U64(ap_report_finish(r), 0);
	const struct ap_report_row *row = row_of(r, 0xffff800008011008ull);
	CHECK(row && !row->name && !row->binary);
	ap_report_destroy(r);
	unlink(path);
}

TEST(bad_input_named_by_line)
{
	const int F = -AP_ERR_FORMAT;
	const char ok[] = "ffff800008011000 T do_el0_svc\n";
	char buf[256];
#define BAD(second_line, msg)                                                  \
	do {                                                                       \
		snprintf(buf, sizeof(buf), "%s%s", ok, second_line);                   \
		check_bad(buf, strlen(buf), F, msg);                                   \
	} while (0)
	BAD("zzzz T foo\n", ":2: the address is not 1 to 16 hexadecimal digits: 'zzzz'");
	BAD("1ffff800008011000 T foo\n", ":2: the address is not");
	BAD("ffff800008011000\n", ":2: no type");
	BAD("ffff800008011000 TT foo\n", ":2: the type is not one letter: 'TT'");
	BAD("ffff800008011000 1 foo\n", ":2: the type is not one letter");
	BAD("ffff800008011000 T\n", ":2: no name");
	BAD("ffff800008011000 t foo arm_spe_pmu\n", ":2: the module is not a name in brackets: 'arm_spe_pmu'");
	BAD("ffff800008011000 t foo [m] x\n", ":2: more than four fields: 'x'");
#undef BAD
	const char nul[] = "ffff800008011000 T do_el0_svc\nffff8000\0 T x\n";
	check_bad(nul, sizeof(nul) - 1, F, ":2: a NUL byte");
	const char hidden[] = "0000000000000000 T do_el0_svc\n0000000000000000 t el0_svc_common\n";
	check_bad(hidden, strlen(hidden), F, ": every function's address is 0: kptr_restrict");
	const char data_only[] = "ffff800008011000 D jiffies\n";
	check_bad(data_only, strlen(data_only), F, ": no function");
	check_bad("", 0, F, ": no function");
	/* One symbol per address, the file's last (perf's choice): a function
	 * whose address a later data symbol takes leaves no function (found by
	 * fuzz_kallsyms). */
	const char shadowed[] = "ffff800008011000 T do_el0_svc\nffff800008011000 D do_el0_svc\n";
	check_bad(shadowed, strlen(shadowed), F, ": no function");

	struct ap_report *r;
	CHECK_EQ_U64(ap_report_create(&r), 0);
	struct ap_error_ctx err = { 0 };
	CHECK_EQ_U64(ap_report_load_kallsyms(r, "/nonexistent/kallsyms", &err), -AP_ERR_IO);
	CHECK(strstr(err.message, "/nonexistent/kallsyms: cannot open") != NULL);
	ap_report_destroy(r);
}

TEST_MAIN(CASE(kernel_functions_and_modules), CASE(second_file_replaces_the_first), CASE(bad_input_named_by_line))

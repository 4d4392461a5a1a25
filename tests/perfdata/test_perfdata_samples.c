/* PERF_RECORD_SAMPLE (issue 20 item 2): what ap_perf_write_sample writes,
 * the reader lists with every field (file mode; pipe mode; inside zstd
 * COMPRESSED records; from memory that is not 8-byte aligned); fields the
 * writer does not write (READ, RAW, BRANCH_STACK with hw_idx, REGS_USER,
 * STACK_USER, TRANSACTION, REGS_INTR, CGROUP, page sizes, AUX) are skipped by
 * the sizes perf_event.h gives them, so the fields after them are right;
 * hostile samples (cut inside a field, a call chain longer than its record,
 * an id no attr has, a sample before any attr) are refused with
 * -AP_ERR_FORMAT naming the record's offset and what is wrong; every prefix
 * of a file with samples is refused or read without crashing (ASan). */
#include <unistd.h>

#include "armprof/perfdata.h"
#include "harness.h"
#include "perf_bytes.h"

#define ST_ALL                                                                                  \
	(AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME | AP_PERF_SAMPLE_ADDR |        \
	 AP_PERF_SAMPLE_ID | AP_PERF_SAMPLE_CPU | AP_PERF_SAMPLE_PERIOD | AP_PERF_SAMPLE_CALLCHAIN |  \
	 AP_PERF_SAMPLE_WEIGHT | AP_PERF_SAMPLE_DATA_SRC | AP_PERF_SAMPLE_PHYS_ADDR)
#define N 25

static uint8_t *one;    /* one event, every field the writer writes */
static size_t one_len;
static uint8_t *two;    /* SPE attr + two events */
static size_t two_len;

static void sample_of(int i, struct ap_perf_sample *s, uint64_t *chain)
{
	memset(s, 0, sizeof(*s));
	s->misc = (i % 3) ? AP_PERF_MISC_USER : AP_PERF_MISC_KERNEL;
	s->ip = 0x400000 + 4 * (uint64_t)i;
	s->pid = 7;
	s->tid = 7 + i % 2;
	s->time = 1000 + (uint64_t)i;
	s->addr = 0xffff0000 + (uint64_t)i;
	s->cpu = i % 4;
	s->period = 10 + (uint64_t)i;
	s->weight = 100 + (uint64_t)i;
	s->data_src = 0x1234500 + (uint64_t)i;
	s->phys_addr = 0x80000000 + (uint64_t)i;
	chain[0] = AP_PERF_CONTEXT_USER;
	for (int k = 0; k < i % 5; k++)
		chain[1 + k] = s->ip + 0x100 * (uint64_t)k;
	s->n_callchain = i % 5 ? 1 + (uint32_t)(i % 5) : 0;
	s->callchain = chain;
}

static uint8_t *write_file(int spe, size_t n_events, size_t *len)
{
	const struct ap_perf_write_event ev[2] = {
		{ .type = 1, .config = 0, .sample_period = 3, .sample_type = ST_ALL, .name = "ev-all" },
		{ .type = 4, .config = 9, .sample_type = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID, .name = "ev-ip" },
	};
	char path[64];
	snprintf(path, sizeof(path), "perfdata_samples_%d.data", (int)getpid());
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.spe = (uint8_t)spe;
	cfg.events = ev;
	cfg.n_events = n_events;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create(&w, path, &cfg, &err) == 0);
	ap_perf_write_comm(w, 7, 7, "prog", 0);
	for (int i = 0; i < N; i++) {
		struct ap_perf_sample s;
		uint64_t chain[8];
		sample_of(i, &s, chain);
		s.event = (uint32_t)(i % n_events);
		CHECK(ap_perf_write_sample(w, &s) == 0);
	}
	struct ap_perf_sample bad;
	uint64_t chain[8];
	sample_of(0, &bad, chain);
	bad.event = (uint32_t)n_events; /* no such event */
	CHECK_EQ_U64(-ap_perf_write_sample(w, &bad), AP_ERR_INVALID);
	bad.event = 0;
	bad.n_callchain = 9000; /* the record would pass 65535 bytes */
	CHECK_EQ_U64(-ap_perf_write_sample(w, &bad), AP_ERR_INVALID);
	CHECK(ap_perf_writer_finish(w, &err) == 0);
	uint8_t *f = pb_slurp(path, len);
	unlink(path);
	return f;
}

/* The samples of the file at p equal those written (attr index base: 1 with SPE). */
static void check_samples(const uint8_t *p, size_t len, size_t n_events, size_t base)
{
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	int rc = ap_perf_reader_create_mem(&r, p, len, NULL, &err);
	CHECK(rc == 0);
	if (rc) {
		fprintf(stderr, "  0x%llx %s: %s\n", (unsigned long long)err.offset, err.where, err.message);
		return;
	}
	const struct ap_perf_info *in = ap_perf_info(r);
	CHECK_EQ_U64(in->n_samples, N);
	CHECK_EQ_U64(in->n_records[AP_PERF_RECORD_SAMPLE], N);
	struct ap_perf_sample_iter it;
	ap_perf_sample_iter_init(&it);
	struct ap_perf_sample got;
	int i = 0;
	while (ap_perf_next_sample(r, &it, &got)) {
		struct ap_perf_sample want;
		uint64_t chain[8];
		sample_of(i, &want, chain);
		size_t e = (size_t)i % n_events;
		CHECK_EQ_U64(got.event, base + e);
		CHECK_EQ_U64(got.misc, want.misc);
		CHECK_EQ_U64(got.ip, want.ip);
		CHECK_EQ_U64(got.tid, want.tid);
		CHECK_EQ_U64(got.pid, want.pid);
		CHECK_EQ_U64(got.id, in->attrs[got.event].ids[0]);
		if (e == 0) {
			CHECK_EQ_U64(got.present & ST_ALL, ST_ALL);
			CHECK_EQ_U64(got.time, want.time);
			CHECK_EQ_U64(got.addr, want.addr);
			CHECK_EQ_U64(got.cpu, want.cpu);
			CHECK_EQ_U64(got.period, want.period);
			CHECK_EQ_U64(got.weight, want.weight);
			CHECK_EQ_U64(got.data_src, want.data_src);
			CHECK_EQ_U64(got.phys_addr, want.phys_addr);
			CHECK_EQ_U64(got.n_callchain, want.n_callchain);
			for (uint32_t k = 0; k < got.n_callchain && k < want.n_callchain; k++)
				CHECK_EQ_U64(got.callchain[k], want.callchain[k]);
		} else {
			CHECK(!(got.present & AP_PERF_SAMPLE_TIME));
			CHECK_EQ_U64(got.cpu, (uint64_t)-1);
			CHECK_EQ_U64(got.n_callchain, 0);
		}
		i++;
	}
	CHECK_EQ_U64(i, N);
	ap_perf_reader_destroy(r);
}

TEST(written_samples_read_back)
{
	one = write_file(0, 1, &one_len);
	two = write_file(1, 2, &two_len);
	check_samples(one, one_len, 1, 0);
	check_samples(two, two_len, 2, 1);
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK(ap_perf_reader_create_mem(&r, two, two_len, NULL, &err) == 0);
	CHECK_EQ_U64(ap_perf_info(r)->n_attrs, 3);
	CHECK_EQ_STR(ap_perf_info(r)->attrs[2].name, "ev-ip");
	CHECK(ap_perf_info(r)->has_auxtrace_info);
	ap_perf_reader_destroy(r);
	CHECK(ap_perf_reader_create_mem(&r, one, one_len, NULL, &err) == 0);
	CHECK(!ap_perf_info(r)->has_auxtrace_info);
	ap_perf_reader_destroy(r);
}

TEST(pipe_compressed_and_misaligned_read_back)
{
	size_t n;
	uint8_t *pipe = pb_rewrap_pipe(one, 0, &n);
	check_samples(pipe, n, 1, 0);
	free(pipe);
	pipe = pb_rewrap_pipe(one, 1, &n);
	check_samples(pipe, n, 1, 0);
	free(pipe);
	uint8_t *odd = malloc(one_len + 4); /* call chains 4 bytes off alignment: copied */
	memcpy(odd + 4, one, one_len);
	check_samples(odd + 4, one_len, 1, 0);
	free(odd);
}

TEST(writer_refuses_what_it_cannot_write)
{
	struct ap_perf_write_event ev = { .type = 1, .sample_type = AP_PERF_SAMPLE_RAW, .name = "x" };
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.events = &ev;
	cfg.n_events = 1;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK_EQ_U64(-ap_perf_writer_create(&w, "never.data", &cfg, &err), AP_ERR_INVALID);
	ev.sample_type = AP_PERF_SAMPLE_IP;
	ev.name = NULL;
	CHECK_EQ_U64(-ap_perf_writer_create(&w, "never.data", &cfg, &err), AP_ERR_INVALID);
	cfg.spe = 0;
	cfg.n_events = 0;
	CHECK_EQ_U64(-ap_perf_writer_create(&w, "never.data", &cfg, &err), AP_ERR_INVALID);
	CHECK(access("never.data", F_OK) != 0);
	/* without the SPE attr there is no AUX data */
	ev.name = "x";
	cfg.n_events = 1;
	CHECK(ap_perf_writer_create(&w, "never.data", &cfg, &err) == 0);
	CHECK_EQ_U64(-ap_perf_write_aux(w, 0, 1, 1, (const uint8_t *)"\0\0\0\0", 4, 0, 0), AP_ERR_INVALID);
	ap_perf_writer_destroy(w);
	CHECK(access("never.data", F_OK) != 0);
}

/* A copy of one with its first sample record changed by edit(rec). */
static void expect_refused(void (*edit)(uint8_t *rec), const char *msg)
{
	uint8_t *f = malloc(one_len);
	memcpy(f, one, one_len);
	uint64_t off = pb_find_record(f, one_len, AP_PERF_RECORD_SAMPLE, 1); /* has a chain */
	CHECK(off != 0);
	edit(f + off);
	struct ap_perf_reader *r = NULL;
	struct ap_error_ctx err;
	int rc = ap_perf_reader_create_mem(&r, f, one_len, NULL, &err);
	printf("  %s @0x%llx: %s\n", err.where, (unsigned long long)err.offset, err.message);
	CHECK_EQ_U64(-rc, AP_ERR_FORMAT);
	CHECK(r == NULL);
	CHECK_EQ_U64(err.offset, off);
	CHECK_EQ_U64(err.record_type, AP_PERF_RECORD_SAMPLE);
	CHECK(strstr(err.message, msg) != NULL);
	free(f);
}
static void cut_in_time(uint8_t *rec) { uint16_t s = 8 + 8 + 8 + 4; memcpy(rec + 6, &s, 2); }
static void huge_chain(uint8_t *rec) { uint64_t n = ~0ull >> 3; memcpy(rec + 8 + 8 * 7, &n, 8); }
static void chain_past_end(uint8_t *rec) { uint64_t n = 9; memcpy(rec + 8 + 8 * 7, &n, 8); }

TEST(hostile_samples_are_refused_with_offset)
{
	/* one's sample: IP TID TIME ADDR ID CPU PERIOD CALLCHAIN(nr at word 7) ... */
	expect_refused(cut_in_time, "ends inside its TIME field");
	expect_refused(huge_chain, "ends inside its CALLCHAIN entries field");
	expect_refused(chain_past_end, "ends inside its");
}

static void wrong_id(uint8_t *rec) { uint64_t id = 999; memcpy(rec + 8, &id, 8); }
TEST(sample_id_of_no_attr_is_refused)
{
	/* two: IDENTIFIER first */
	uint8_t *f = malloc(two_len);
	memcpy(f, two, two_len);
	uint64_t off = pb_find_record(f, two_len, AP_PERF_RECORD_SAMPLE, 0);
	wrong_id(f + off);
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	CHECK_EQ_U64(-ap_perf_reader_create_mem(&r, f, two_len, NULL, &err), AP_ERR_FORMAT);
	CHECK_EQ_U64(err.offset, off);
	CHECK(strstr(err.message, "sample id 999 is no attr's") != NULL);
	free(f);
	/* pipe mode, a sample before the HEADER_ATTR record */
	struct pb_buf o = { 0 };
	uint64_t sixteen = 16, ip = 1;
	pb_put(&o, "PERFILE2", 8);
	pb_put(&o, &sixteen, 8);
	pb_put_hdr(&o, AP_PERF_RECORD_SAMPLE, 16);
	pb_put(&o, &ip, 8);
	CHECK_EQ_U64(-ap_perf_reader_create_mem(&r, o.p, o.n, NULL, &err), AP_ERR_FORMAT);
	CHECK_EQ_U64(err.offset, 16);
	CHECK(strstr(err.message, "before any attr") != NULL);
	free(o.p);
}

static void put64(struct pb_buf *o, uint64_t v) { pb_put(o, &v, 8); }

/* One sample with every variable-size field perf_event.h defines; abi and
 * stack flags say whether the optional parts are there. */
static void put_rich_sample(struct pb_buf *o, int full)
{
	struct pb_buf s = { malloc(1024), 0, 1024 }; /* preallocated: gcc sees no NULL */
	put64(&s, 0x1234);                          /* IP */
	put64(&s, 2);                               /* READ (GROUP|ID|ENABLED): nr */
	put64(&s, 55);                              /* time_enabled */
	put64(&s, 1); put64(&s, 11); put64(&s, 2); put64(&s, 12); /* value, id x2 */
	put64(&s, 3);                               /* CALLCHAIN nr */
	put64(&s, AP_PERF_CONTEXT_USER); put64(&s, 0x1234); put64(&s, 0x5678);
	uint32_t raw = 12;                          /* RAW: u32 size + 12 bytes */
	pb_put(&s, &raw, 4);
	pb_put(&s, "rawrawrawraw", 12);
	put64(&s, 1); put64(&s, 9);                 /* BRANCH_STACK nr, hw_idx */
	put64(&s, 0xa); put64(&s, 0xb); put64(&s, 0xc);
	put64(&s, full ? 2 : 0);                    /* REGS_USER abi */
	if (full) { put64(&s, 1); put64(&s, 2); put64(&s, 3); } /* 3 bits in the mask */
	put64(&s, full ? 16 : 0);                   /* STACK_USER size */
	if (full) { put64(&s, 0); put64(&s, 0); put64(&s, 16); } /* data, dyn_size */
	put64(&s, 0x0005000400000063ull);           /* WEIGHT_STRUCT */
	put64(&s, 0x42);                            /* DATA_SRC */
	put64(&s, 7);                               /* TRANSACTION */
	put64(&s, full ? 1 : 0);                    /* REGS_INTR abi */
	if (full) { put64(&s, 4); put64(&s, 5); }   /* 2 bits */
	put64(&s, 0x8000);                          /* PHYS_ADDR */
	put64(&s, 1); put64(&s, 4096); put64(&s, 4096); /* CGROUP, page sizes */
	put64(&s, 8); put64(&s, 0);                 /* AUX size, data */
	pb_put_hdr(o, AP_PERF_RECORD_SAMPLE, 8 + s.n);
	pb_put(o, s.p, s.n);
	free(s.p);
}

TEST(fields_the_writer_does_not_write_are_skipped_by_size)
{
	uint8_t attr[128] = { 0 };
	uint32_t size = 128;
	uint64_t st = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_READ | AP_PERF_SAMPLE_CALLCHAIN |
	              AP_PERF_SAMPLE_RAW | AP_PERF_SAMPLE_BRANCH_STACK | AP_PERF_SAMPLE_REGS_USER |
	              AP_PERF_SAMPLE_STACK_USER | AP_PERF_SAMPLE_WEIGHT_STRUCT | AP_PERF_SAMPLE_DATA_SRC |
	              AP_PERF_SAMPLE_TRANSACTION | AP_PERF_SAMPLE_REGS_INTR | AP_PERF_SAMPLE_PHYS_ADDR |
	              AP_PERF_SAMPLE_CGROUP | AP_PERF_SAMPLE_DATA_PAGE_SIZE |
	              AP_PERF_SAMPLE_CODE_PAGE_SIZE | AP_PERF_SAMPLE_AUX;
	uint64_t rf = 8 | 4 | 1, bst = 1ull << 17, regs_user = 0xb, regs_intr = 0x3;
	memcpy(attr + 4, &size, 4);
	memcpy(attr + 24, &st, 8);
	memcpy(attr + 32, &rf, 8);
	memcpy(attr + 72, &bst, 8);
	memcpy(attr + 80, &regs_user, 8);
	memcpy(attr + 96, &regs_intr, 8);
	struct pb_buf o = { malloc(1024), 0, 1024 };
	uint64_t sixteen = 16;
	pb_put(&o, "PERFILE2", 8);
	pb_put(&o, &sixteen, 8);
	pb_put_hdr(&o, AP_PERF_RECORD_HEADER_ATTR, 8 + 128 + 8);
	pb_put(&o, attr, 128);
	put64(&o, 77);
	put_rich_sample(&o, 1);
	put_rich_sample(&o, 0);
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	int rc = ap_perf_reader_create_mem(&r, o.p, o.n, NULL, &err);
	CHECK(rc == 0);
	if (rc == 0) {
		struct ap_perf_sample_iter it;
		ap_perf_sample_iter_init(&it);
		struct ap_perf_sample s;
		int n = 0;
		while (ap_perf_next_sample(r, &it, &s)) {
			CHECK_EQ_U64(s.ip, 0x1234);
			CHECK_EQ_U64(s.n_callchain, 3);
			CHECK_EQ_U64(s.callchain[2], 0x5678);
			CHECK_EQ_U64(s.weight, 0x0005000400000063ull);
			CHECK_EQ_U64(s.data_src, 0x42);
			CHECK_EQ_U64(s.phys_addr, 0x8000);
			n++;
		}
		CHECK_EQ_U64(n, 2);
		ap_perf_reader_destroy(r);
	}
	/* the same cut one byte short of its AUX data: refused */
	uint16_t cut;
	memcpy(&cut, o.p + 16 + 144 + 6, 2);
	cut = (uint16_t)(cut - 8);
	memcpy(o.p + 16 + 144 + 6, &cut, 2);
	rc = ap_perf_reader_create_mem(&r, o.p, o.n, NULL, &err);
	CHECK_EQ_U64(-rc, AP_ERR_FORMAT);
	CHECK_EQ_U64(err.offset, 16 + 144);
	CHECK(strstr(err.message, "ends inside its AUX field") != NULL);
	free(o.p);
}

TEST(every_prefix_is_refused_or_read)
{
	size_t n;
	uint8_t *pipe = pb_rewrap_pipe(one, 0, &n);
	for (size_t len = 0; len < n; len++) {
		uint8_t *copy = malloc(len + 1);
		memcpy(copy, pipe, len);
		struct ap_perf_reader *r;
		struct ap_error_ctx err;
		int rc = ap_perf_reader_create_mem(&r, copy, len, NULL, &err);
		CHECK(rc == 0 || rc == -AP_ERR_FORMAT);
		if (!rc) {
			struct ap_perf_sample_iter it;
			ap_perf_sample_iter_init(&it);
			struct ap_perf_sample s;
			uint64_t sum = 0;
			while (ap_perf_next_sample(r, &it, &s))
				for (uint32_t k = 0; k < s.n_callchain; k++)
					sum += s.callchain[k];
			(void)sum;
			ap_perf_reader_destroy(r);
		}
		free(copy);
	}
	free(pipe);
}

TEST(cleanup)
{
	free(one);
	free(two);
}

TEST_MAIN(CASE(written_samples_read_back), CASE(pipe_compressed_and_misaligned_read_back),
          CASE(writer_refuses_what_it_cannot_write), CASE(hostile_samples_are_refused_with_offset),
          CASE(sample_id_of_no_attr_is_refused),
          CASE(fields_the_writer_does_not_write_are_skipped_by_size),
          CASE(every_prefix_is_refused_or_read), CASE(cleanup))

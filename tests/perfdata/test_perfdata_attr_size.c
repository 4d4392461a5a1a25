/* The SPE attr's config words and the attr size the writer gives them:
 * config, config1, config2 in every attr of PERF_ATTR_SIZE_VER7 (128
 * bytes, what perf 6.1 reads: it refuses a larger attr), config3 only in
 * one of VER8 (136) and config4 only in VER9 (144), the smallest size that
 * holds the words set (Linux include/uapi/linux/perf_event.h: config3 at
 * 128, config4 at 136; arm_spe_pmu's inv_event_filter is config3 and
 * inv_data_src_filter config4). Every attr of a file has the one size
 * (the header's attr_size, EVENT_DESC's), and the reader reads the words
 * back (LATER-OUT-3, docs/requirements-later.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "harness.h"

static char path[64];

static void cleanup(void)
{
	if (path[0])
		unlink(path);
}

/* Write a one-buffer file with these config words (and a sample event
 * beside SPE's attr), read it back: the attrs' size (both the same). */
static uint32_t round_trip(uint64_t c3, uint64_t c4, uint64_t *got3, uint64_t *got4)
{
	static const uint8_t rec[] = { 0xb0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x01 };
	static const struct ap_perf_write_event ev = { .type = 1, .sample_type = AP_PERF_SAMPLE_IP, .name = "cpu-clock" };
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/armprof-attrsize-%d.data", (int)getpid());
		atexit(cleanup);
	}
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.spe_config = 0x5;
	cfg.spe_config1 = 0x2;
	cfg.spe_config2 = 20;
	cfg.spe_config3 = c3;
	cfg.spe_config4 = c4;
	cfg.events = &ev;
	cfg.n_events = 1;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	CHECK(ap_perf_writer_create(&w, path, &cfg, &err) == 0);
	CHECK(ap_perf_write_aux(w, 0, 1, 1, rec, sizeof(rec), 0, 0) == 0);
	CHECK(ap_perf_writer_finish(w, &err) == 0);

	FILE *f = fopen(path, "rb");
	uint8_t h[24];
	CHECK(f && fread(h, 1, sizeof(h), f) == sizeof(h));
	fclose(f);
	uint64_t header_attr_size;
	memcpy(&header_attr_size, h + 16, 8);

	struct ap_perf_reader *r;
	CHECK(ap_perf_reader_create_file(&r, path, NULL, &err) == 0);
	const struct ap_perf_info *in = ap_perf_info(r);
	CHECK_EQ_U64(in->n_attrs, 2);
	const struct ap_perf_attr *a = &in->attrs[0];
	CHECK_EQ_U64(a->config, 0x5);
	CHECK_EQ_U64(a->config1, 0x2);
	CHECK_EQ_U64(a->config2, 20);
	CHECK_EQ_U64(in->attrs[1].size, a->size);
	CHECK_EQ_U64(header_attr_size, a->size + 16u); /* attr + its ids section */
	CHECK(a->name && !strcmp(a->name, "arm_spe_0//"));
	CHECK(in->attrs[1].name && !strcmp(in->attrs[1].name, "cpu-clock"));
	CHECK_EQ_U64(in->n_aux_buffers, 1);
	*got3 = a->config3;
	*got4 = a->config4;
	uint32_t size = a->size;
	ap_perf_reader_destroy(r);
	return size;
}

TEST(v1_words_keep_perf_61_size)
{
	uint64_t c3, c4;
	CHECK_EQ_U64(round_trip(0, 0, &c3, &c4), 128);
	CHECK_EQ_U64(c3, 0);
	CHECK_EQ_U64(c4, 0);
}

TEST(config3_needs_ver8)
{
	uint64_t c3, c4;
	CHECK_EQ_U64(round_trip(0x48, 0, &c3, &c4), 136);
	CHECK_EQ_U64(c3, 0x48);
	CHECK_EQ_U64(c4, 0);
}

TEST(config4_needs_ver9)
{
	uint64_t c3, c4;
	CHECK_EQ_U64(round_trip(0, 0xFFFFFFFFFFFFFFFAull, &c3, &c4), 144);
	CHECK_EQ_U64(c3, 0);
	CHECK_EQ_U64(c4, 0xFFFFFFFFFFFFFFFAull);
	CHECK_EQ_U64(round_trip(0x2, 0x5, &c3, &c4), 144);
	CHECK_EQ_U64(c3, 0x2);
	CHECK_EQ_U64(c4, 0x5);
}

TEST_MAIN(CASE(v1_words_keep_perf_61_size), CASE(config3_needs_ver8), CASE(config4_needs_ver9))

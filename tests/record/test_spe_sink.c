/* The plugin's SPE driver (plugins/qemu/spe_sink.c) without QEMU: options
 * file parsing, programming a PE for an EL0 session, the batch form
 * (ap_spe_skip) with ap_spe_op for the selected members, and draining the
 * profiling buffer on every buffer-full management event (spec/002 3.5.1,
 * SPE-3.5-1 PMBIRQ; 3.4.2 ProfilingBufferEnabled) so that no operation is
 * lost: SAMPLE_POP equals the operations fed (2.6 Table 1) and every record
 * the model wrote is in the drained bytes. */
#include <stdio.h>
#include <unistd.h>

#include "armprof/decode.h"
#include "harness.h"
#include "plugin_state.h"
#include "spe_sink.h"

static int count_record(void *ctx, const struct ap_record *rec)
{
	uint64_t *n = ctx;
	if (!rec->n_errors_total && rec->end != AP_END_NONE)
		(*n)++;
	return 0;
}

static int write_cfg(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

TEST(options_file)
{
	struct plugin_options o;
	char err[256];
	char path[] = "/tmp/armprof-test-sink-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ_U64(write_cfg(path, "# c\nout=/x/y\ninterval=2048\njitter=1\nset=seed=7\nuarch=l1d.size=32K\n"), 0);
	CHECK_EQ_U64(plugin_options_load(&o, path, err, sizeof(err)), 0);
	CHECK_EQ_U64(o.interval, 2048);
	CHECK_EQ_U64(o.jitter, 1);
	CHECK_EQ_STR(o.out, "/x/y");
	CHECK_EQ_STR(o.model_keys, "seed=7\n");
	struct ap_uarch_config ucfg;
	CHECK_EQ_U64(plugin_uarch_config(&ucfg, o.uarch_keys, err, sizeof(err)), 0);
	CHECK_EQ_U64(ucfg.l1d.size_bytes, 32 * 1024);
	CHECK_EQ_U64(write_cfg(path, "interval=12x\n"), 0);
	CHECK(plugin_options_load(&o, path, err, sizeof(err)) < 0);
	CHECK(strstr(err, ":1: interval: not a number") != NULL);
	CHECK_EQ_U64(write_cfg(path, "model=1\nwhat=2\n"), 0);
	CHECK(plugin_options_load(&o, path, err, sizeof(err)) < 0);
	CHECK(strstr(err, ":2: unknown key 'what'") != NULL);
	CHECK_EQ_U64(write_cfg(path, "buffer=5000\n"), 0);
	CHECK(plugin_options_load(&o, path, err, sizeof(err)) < 0);
	remove(path);
	CHECK(plugin_options_load(&o, path, err, sizeof(err)) < 0);
}

/* A 4 KiB buffer with a 256-operation interval fills every ~100 records:
 * the sink drains it each time and keeps every operation counted. */
TEST(drains_keep_every_record)
{
	struct plugin_options o;
	memset(&o, 0, sizeof(o));
	o.model = 1;
	o.interval = 256;
	o.ts = 1;
	o.ctx = 1;
	o.buffer_bytes = 4096;
	struct spe_sink *s;
	char err[256];
	CHECK_EQ_U64(spe_sink_new(&s, &o, 0, 1234, err, sizeof(err)), 0);
	if (!s) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	uint64_t fed = 0, selected = 0;
	const uint64_t total = 1000000;
	while (fed < total) {
		uint64_t chunk = total - fed < 37 ? total - fed : 37; /* a TB of 37 operations */
		uint64_t i = 0;
		while (i < chunk) {
			i += spe_sink_skip(s, chunk - i, fed + i);
			if (i >= chunk)
				break;
			struct ap_spe_op op;
			memset(&op, 0, sizeof(op));
			op.pc = 0x400000 + 4 * ((fed + i) % 37);
			op.kind = (fed + i) % 3 == 0 ? AP_SPE_OP_LOAD : AP_SPE_OP_OTHER;
			op.va = 0x10000 + (fed + i);
			op.events = AP_EV_L1D_ACCESS | AP_EV_TLB_ACCESS;
			op.lat_total = 7;
			op.lat_issue = 2;
			op.lat_xlat = 1;
			spe_sink_op(s, &op, fed + i);
			selected++;
			i++;
		}
		fed += chunk;
	}
	/* A checkpoint's view before the finish (stop_signal.h): the drained
	 * bytes and what the buffer holds are the bytes the finish gives. */
	size_t seen_len, held_len;
	const uint8_t *seen = spe_sink_bytes(s, &seen_len);
	const uint8_t *held = spe_sink_buffered(s, &held_len);
	CHECK(held_len > 0 && held_len < o.buffer_bytes);
	uint8_t *checkpoint = malloc(seen_len + held_len);
	CHECK(checkpoint != NULL);
	if (checkpoint) {
		memcpy(checkpoint, seen, seen_len);
		memcpy(checkpoint + seen_len, held, held_len);
	}
	spe_sink_finish(s);
	size_t after_held;
	spe_sink_buffered(s, &after_held);
	CHECK_EQ_U64(after_held, 0);
	size_t final_len;
	const uint8_t *final_bytes = spe_sink_bytes(s, &final_len);
	CHECK_EQ_U64(final_len, seen_len + held_len);
	CHECK(checkpoint && memcmp(final_bytes, checkpoint, final_len) == 0);
	free(checkpoint);
	struct ap_spe_counts c;
	uint64_t drains, lost;
	spe_sink_counts(s, &c, &drains, &lost);
	CHECK_EQ_U64(c.sample_pop, total);
	CHECK_EQ_U64(c.sample_feed, selected);
	CHECK(selected > total / 300 && selected < total / 200);
	CHECK(drains > 10);
	CHECK_EQ_U64(lost, 0);

	size_t len;
	const uint8_t *bytes = spe_sink_bytes(s, &len);
	uint64_t records = 0;
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = count_record;
	dc.ctx = &records;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	ap_decoder_feed(&dec, bytes, len);
	ap_decoder_finish(&dec);
	CHECK_EQ_U64(records, c.records_written);
	CHECK_EQ_U64(records, selected);
	spe_sink_free(s);
}

TEST_MAIN(CASE(options_file), CASE(drains_keep_every_record))

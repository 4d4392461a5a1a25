/* Fuzz target: the perf.data reader on arbitrary bytes (file and pipe mode,
 * features, every record type, zstd COMPRESSED records with a small
 * decompression bound). An accepted file must describe only bytes that exist:
 * every AUX buffer lies inside the input or the decompressed data, every
 * string is terminated; each buffer is then decoded as SPE. A refused file
 * must say where (offset inside the input) and why. Every sample listed is
 * read, its call chain to the last entry (ASan checks they are real). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"
#include "fuzz.h"

static volatile uint64_t sink;

static int on_record(void *ctx, const struct ap_record *r)
{
	*(uint64_t *)ctx += r->pc + r->size;
	return 0;
}

static void check_str(const char *s)
{
	if (s && strlen(s) > (1u << 20))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ap_perf_read_config cfg;
	ap_perf_read_config_init(&cfg);
	cfg.max_decompressed = 16u << 20;
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	int rc = ap_perf_reader_create_mem(&r, data, size, &cfg, &err);
	if (rc) {
		if (rc >= 0 || (!err.in_compressed && err.offset > size) || !err.message[0])
			abort();
		return 0;
	}
	const struct ap_perf_info *in = ap_perf_info(r);
	check_str(in->cpuid);
	check_str(in->arch);
	uint64_t sum = 0;
	for (size_t i = 0; i < in->n_attrs; i++) {
		check_str(in->attrs[i].name);
		for (uint32_t k = 0; k < in->attrs[i].n_ids; k++)
			sum += in->attrs[i].ids[k]; /* ASan checks the ids are real */
	}
	for (size_t i = 0; i < in->n_mmaps; i++)
		check_str(in->mmaps[i].filename);
	for (size_t i = 0; i < in->n_comms; i++)
		if (memchr(in->comms[i].comm, 0, sizeof(in->comms[i].comm)) == NULL)
			abort();
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = on_record;
	dc.ctx = &sum;
	struct ap_perf_aux_iter it;
	ap_perf_aux_iter_init(&it);
	it.order = AP_PERF_ORDER_QUEUE;
	const struct ap_perf_aux_buffer *b;
	size_t seen = 0;
	while (ap_perf_next_aux_buffer(r, &it, &b)) {
		seen++;
		if (b->unpadded_size > b->size)
			abort();
		if (b->data_offset && (b->data_offset > size || b->size > size - b->data_offset ||
		                       b->data != data + b->data_offset))
			abort();
		struct ap_decoder dec;
		ap_decoder_init(&dec, &dc);
		ap_decoder_feed(&dec, b->data, (size_t)b->size); /* ASan checks every byte is real */
		ap_decoder_finish(&dec);
	}
	if (seen != in->n_aux_buffers)
		abort();
	struct ap_perf_sample_iter si;
	ap_perf_sample_iter_init(&si);
	struct ap_perf_sample smp;
	size_t n_samples = 0;
	while (ap_perf_next_sample(r, &si, &smp)) {
		if (smp.event >= in->n_attrs)
			abort();
		for (uint32_t k = 0; k < smp.n_callchain; k++)
			sum += smp.callchain[k];
		sum += smp.ip + smp.weight + smp.data_src;
		n_samples++;
	}
	if (n_samples != in->n_samples ||
	    n_samples + in->n_samples_unknown != in->n_records[AP_PERF_RECORD_SAMPLE])
		abort();
	ap_perf_reader_destroy(r);
	sink = sum;
	return 0;
}

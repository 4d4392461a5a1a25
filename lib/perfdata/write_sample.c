/* ap_perf writer: PERF_RECORD_SAMPLE, the fields its event's sample_type
 * names in perf_event.h's order (the order perf's evsel__parse_sample reads
 * them in). */
#include "perfdata/writer_internal.h"

/* The record's size; 0 when it does not fit perf's 16-bit size field. */
static size_t sample_size(uint64_t st, uint32_t n_callchain)
{
	static const uint64_t words = AP_PERF_SAMPLE_IDENTIFIER | AP_PERF_SAMPLE_IP |
	                              AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME |
	                              AP_PERF_SAMPLE_ADDR | AP_PERF_SAMPLE_ID | AP_PERF_SAMPLE_CPU |
	                              AP_PERF_SAMPLE_PERIOD | AP_PERF_SAMPLE_WEIGHT |
	                              AP_PERF_SAMPLE_DATA_SRC | AP_PERF_SAMPLE_PHYS_ADDR;
	size_t n = PD_EVENT_HEADER_SIZE + 8 * (size_t)__builtin_popcountll(st & words);
	if (st & AP_PERF_SAMPLE_CALLCHAIN) {
		if (n_callchain > 0xFFFF / 8)
			return 0;
		n += 8 + 8 * (size_t)n_callchain;
	}
	return n <= 0xFFFF ? n : 0;
}

int ap_perf_write_sample(struct ap_perf_writer *w, const struct ap_perf_sample *s)
{
	if (s->event >= w->n_attrs - w->first_event)
		return -AP_ERR_INVALID;
	const struct w_attr *a = &w->attrs[w->first_event + s->event];
	const uint64_t st = a->sample_type;
	size_t size = sample_size(st, s->n_callchain);
	if (!size || ((st & AP_PERF_SAMPLE_CALLCHAIN) && s->n_callchain && !s->callchain))
		return -AP_ERR_INVALID;
	pd_w_header(w, AP_PERF_RECORD_SAMPLE, s->misc, size);
	if (st & AP_PERF_SAMPLE_IDENTIFIER)
		pd_w_u64(w, a->id);
	if (st & AP_PERF_SAMPLE_IP)
		pd_w_u64(w, s->ip);
	if (st & AP_PERF_SAMPLE_TID) {
		pd_w_u32(w, (uint32_t)s->pid);
		pd_w_u32(w, (uint32_t)s->tid);
	}
	if (st & AP_PERF_SAMPLE_TIME)
		pd_w_u64(w, s->time);
	if (st & AP_PERF_SAMPLE_ADDR)
		pd_w_u64(w, s->addr);
	if (st & AP_PERF_SAMPLE_ID)
		pd_w_u64(w, a->id);
	if (st & AP_PERF_SAMPLE_CPU) {
		pd_w_u32(w, (uint32_t)s->cpu);
		pd_w_u32(w, 0);
	}
	if (st & AP_PERF_SAMPLE_PERIOD)
		pd_w_u64(w, s->period);
	if (st & AP_PERF_SAMPLE_CALLCHAIN) {
		pd_w_u64(w, s->n_callchain);
		pd_w_bytes(w, s->callchain, 8 * (size_t)s->n_callchain);
	}
	if (st & AP_PERF_SAMPLE_WEIGHT)
		pd_w_u64(w, s->weight);
	if (st & AP_PERF_SAMPLE_DATA_SRC)
		pd_w_u64(w, s->data_src);
	if (st & AP_PERF_SAMPLE_PHYS_ADDR)
		pd_w_u64(w, s->phys_addr);
	return w->failed ? -AP_ERR_IO : 0;
}

/* armprof report: call stacks from perf.data samples (report_callchains.h). */
#include "report_callchains.h"

#include <stdlib.h>
#include <string.h>

#include "record_stacks.h"

static int by_tid_time(const void *a, const void *b)
{
	const struct report_chain *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

int report_callchains_load(struct report_callchains *cc, const struct ap_perf_reader *r)
{
	memset(cc, 0, sizeof(*cc));
	const struct ap_perf_info *info = ap_perf_info(r);
	const uint64_t need = AP_PERF_SAMPLE_CALLCHAIN | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME;
	if (!info->n_samples)
		return 0;
	cc->c = malloc(info->n_samples * sizeof(*cc->c));
	if (!cc->c)
		return -1;
	struct ap_perf_sample_iter it;
	ap_perf_sample_iter_init(&it);
	struct ap_perf_sample s;
	while (ap_perf_next_sample(r, &it, &s)) {
		const char *name = info->attrs[s.event].name;
		if ((s.present & need) != need || !name || strcmp(name, record_stack_event.name) != 0)
			continue;
		cc->c[cc->n++] = (struct report_chain){ s.tid, s.time, s.callchain, s.n_callchain };
	}
	qsort(cc->c, cc->n, sizeof(*cc->c), by_tid_time);
	return 0;
}

size_t report_callchains_find(const struct report_callchains *cc, int32_t tid, uint64_t ts, uint64_t pc,
                              uint64_t *frames, size_t cap)
{
	size_t lo = 0, hi = cc->n;
	const struct report_chain key = { .tid = tid, .time = ts };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = by_tid_time(&cc->c[mid], &key);
		if (c < 0) {
			lo = mid + 1;
		} else if (c > 0) {
			hi = mid;
		} else {
			const struct report_chain *ch = &cc->c[mid];
			size_t n = 0;
			for (uint32_t i = 0; i < ch->n && n < cap; i++) {
				uint64_t a = ch->chain[i];
				if (a >= (uint64_t)-4095) /* a context marker (>= PERF_CONTEXT_MAX) */
					continue;
				frames[n] = n ? a + 4 : a; /* the calls back to return addresses */
				n++;
			}
			return n && frames[0] == pc ? n : 0;
		}
	}
	return 0;
}

void report_callchains_free(struct report_callchains *cc)
{
	free(cc->c);
	memset(cc, 0, sizeof(*cc));
}

/* armprof report: a perf.data's samples as records (report_samples.h). */
#include "report_samples.h"

#include <stdio.h>
#include <string.h>

#include "armprof/codec.h"
#include "commands.h"

uint64_t report_feed_samples(const struct ap_perf_reader *r, int32_t cpu, int32_t tid,
                             int (*on)(void *ctx, const struct ap_record *rec), void *ctx)
{
	struct ap_perf_sample_iter it;
	struct ap_perf_sample s;
	uint64_t fed = 0;
	ap_perf_sample_iter_init(&it);
	while (ap_perf_next_sample(r, &it, &s) == 1) {
		if (!(s.present & AP_PERF_SAMPLE_IP))
			continue;
		if (cpu != AP_PERF_ANY && (!(s.present & AP_PERF_SAMPLE_CPU) || s.cpu != cpu))
			continue;
		if (tid != AP_PERF_ANY && (!(s.present & AP_PERF_SAMPLE_TID) || s.tid != tid))
			continue;
		struct ap_record rec;
		memset(&rec, 0, sizeof(rec));
		rec.offset = s.file_offset;
		rec.has = AP_HAS_PC | AP_HAS_OP;
		rec.pc = s.ip;
		rec.el = (s.misc & 7) == AP_PERF_MISC_USER ? 0 : 1;
		rec.ns = 1;
		rec.op_class = AP_OP_CLASS_OTHER;
		rec.end = AP_END_END;
		if ((s.present & AP_PERF_SAMPLE_TID) && s.tid >= 0) {
			rec.has |= AP_HAS_CTX_EL1;
			rec.ctx_el1 = (uint32_t)s.tid;
		}
		if (s.present & AP_PERF_SAMPLE_TIME) {
			rec.has |= AP_HAS_TS;
			rec.ts = s.time;
		}
		fed++;
		if (on(ctx, &rec))
			break;
	}
	return fed;
}

int report_samples(const struct ap_perf_reader *r, const char *path, int32_t cpu, int32_t tid,
                   int (*on)(void *ctx, const struct ap_record *rec), void *ctx)
{
	if (report_feed_samples(r, cpu, tid, on, ctx) || (cpu == AP_PERF_ANY && tid == AP_PERF_ANY))
		return 0;
	fprintf(stderr, "armprof report: %s: the selection (--cpu/--tid) matches none of its samples\n", path);
	return EXIT_DATA_ERROR;
}

/* lib/perfdata helpers: growable arrays, owned strings, error filling and
 * record names. */
#include <stdio.h>
#include <stdlib.h>

#include "perfdata/perf_internal.h"

void pd_vec_init(struct pd_vec *v, size_t elem)
{
	v->data = NULL;
	v->n = v->cap = 0;
	v->elem = elem;
}

void *pd_vec_push(struct pd_vec *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		void *p = realloc(v->data, cap * v->elem);
		if (!p)
			return NULL;
		v->data = p;
		v->cap = cap;
	}
	void *slot = (uint8_t *)v->data + v->n * v->elem;
	memset(slot, 0, v->elem);
	v->n++;
	return slot;
}

void pd_vec_free(struct pd_vec *v)
{
	free(v->data);
	pd_vec_init(v, v->elem);
}

const char *pd_strdup_n(struct pd_strings *s, const char *src, size_t max)
{
	size_t len = strnlen(src, max);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		char **p = realloc(s->items, cap * sizeof(*p));
		if (!p)
			return NULL;
		s->items = p;
		s->cap = cap;
	}
	char *copy = malloc(len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, src, len);
	copy[len] = '\0';
	s->items[s->n++] = copy;
	return copy;
}

void pd_strings_free(struct pd_strings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->items[i]);
	free(s->items);
	s->items = NULL;
	s->n = s->cap = 0;
}

int pd_fail(struct ap_error_ctx *err, int code, uint64_t offset, uint32_t record_type,
            const char *where, const char *fmt, ...)
{
	if (err) {
		/* Keep the first failure: callers up the stack may add nothing. */
		err->offset = offset;
		err->record_type = record_type;
		snprintf(err->where, sizeof(err->where), "%s", where ? where : "");
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -code;
}

static const char *const record_names[] = {
	[1] = "PERF_RECORD_MMAP",
	[2] = "PERF_RECORD_LOST",
	[3] = "PERF_RECORD_COMM",
	[4] = "PERF_RECORD_EXIT",
	[5] = "PERF_RECORD_THROTTLE",
	[6] = "PERF_RECORD_UNTHROTTLE",
	[7] = "PERF_RECORD_FORK",
	[8] = "PERF_RECORD_READ",
	[9] = "PERF_RECORD_SAMPLE",
	[10] = "PERF_RECORD_MMAP2",
	[11] = "PERF_RECORD_AUX",
	[12] = "PERF_RECORD_ITRACE_START",
	[13] = "PERF_RECORD_LOST_SAMPLES",
	[14] = "PERF_RECORD_SWITCH",
	[15] = "PERF_RECORD_SWITCH_CPU_WIDE",
	[16] = "PERF_RECORD_NAMESPACES",
	[17] = "PERF_RECORD_KSYMBOL",
	[18] = "PERF_RECORD_BPF_EVENT",
	[19] = "PERF_RECORD_CGROUP",
	[20] = "PERF_RECORD_TEXT_POKE",
	[21] = "PERF_RECORD_AUX_OUTPUT_HW_ID",
	[64] = "PERF_RECORD_HEADER_ATTR",
	[65] = "PERF_RECORD_HEADER_EVENT_TYPE",
	[66] = "PERF_RECORD_HEADER_TRACING_DATA",
	[67] = "PERF_RECORD_HEADER_BUILD_ID",
	[68] = "PERF_RECORD_FINISHED_ROUND",
	[69] = "PERF_RECORD_ID_INDEX",
	[70] = "PERF_RECORD_AUXTRACE_INFO",
	[71] = "PERF_RECORD_AUXTRACE",
	[72] = "PERF_RECORD_AUXTRACE_ERROR",
	[73] = "PERF_RECORD_THREAD_MAP",
	[74] = "PERF_RECORD_CPU_MAP",
	[75] = "PERF_RECORD_STAT_CONFIG",
	[76] = "PERF_RECORD_STAT",
	[77] = "PERF_RECORD_STAT_ROUND",
	[78] = "PERF_RECORD_EVENT_UPDATE",
	[79] = "PERF_RECORD_TIME_CONV",
	[80] = "PERF_RECORD_HEADER_FEATURE",
	[81] = "PERF_RECORD_COMPRESSED",
	[82] = "PERF_RECORD_FINISHED_INIT",
};

const char *ap_perf_record_name(uint32_t type, char *buf, size_t cap)
{
	if (type < sizeof(record_names) / sizeof(record_names[0]) && record_names[type])
		return record_names[type];
	if (buf && cap) {
		snprintf(buf, cap, "PERF_RECORD_%u", type);
		return buf;
	}
	return "PERF_RECORD_?";
}

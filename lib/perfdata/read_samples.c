/* PERF_RECORD_SAMPLE: each record is parsed at open by its attr's
 * sample_type, field by field in perf_event.h's order, every length
 * checked against what is left of the record; the valid ones are listed
 * (where they are) and parsed again, without failure, by the iterator. */
#include "perfdata/perf_internal.h"

/* read_format bits (perf_event.h enum perf_event_read_format). */
#define RF_TOTAL_TIME_ENABLED 1u
#define RF_TOTAL_TIME_RUNNING 2u
#define RF_ID 4u
#define RF_GROUP 8u
#define RF_LOST 16u
#define BRANCH_HW_INDEX (1ull << 17) /* PERF_SAMPLE_BRANCH_HW_INDEX */
#define KNOWN_SAMPLE_TYPES ((AP_PERF_SAMPLE_WEIGHT_STRUCT << 1) - 1)

struct cursor {
	const uint8_t *rec;
	size_t size, pos;
	const char *field; /* the field that did not fit */
};

/* Take n bytes (n may come from the file: compared, never added). */
static int take(struct cursor *c, uint64_t n, const char *field)
{
	if (n > c->size - c->pos) {
		c->field = field;
		return -1;
	}
	c->pos += (size_t)n;
	return 0;
}
static int take_u64(struct cursor *c, const char *field, uint64_t *v)
{
	if (take(c, 8, field))
		return -1;
	*v = pd_u64(c->rec + c->pos - 8);
	return 0;
}

/* READ: the counter values read_format describes. */
static int skip_read(struct cursor *c, uint64_t rf)
{
	if (rf & RF_GROUP) {
		uint64_t nr;
		if (take_u64(c, "READ nr", &nr))
			return -1;
		size_t times = 8u * (!!(rf & RF_TOTAL_TIME_ENABLED) + !!(rf & RF_TOTAL_TIME_RUNNING));
		if (take(c, times, "READ times"))
			return -1;
		uint64_t per = 8u * (1u + !!(rf & RF_ID) + !!(rf & RF_LOST));
		if (nr > (c->size - c->pos) / per) {
			c->field = "READ values";
			return -1;
		}
		return take(c, nr * per, "READ values");
	}
	size_t n = 8u * (1u + !!(rf & RF_TOTAL_TIME_ENABLED) + !!(rf & RF_TOTAL_TIME_RUNNING) +
	                 !!(rf & RF_ID) + !!(rf & RF_LOST));
	return take(c, n, "READ");
}

/* abi word, then one u64 per bit of mask when abi is not 0 (NONE). */
static int skip_regs(struct cursor *c, uint64_t mask, const char *field)
{
	uint64_t abi;
	if (take_u64(c, field, &abi))
		return -1;
	return abi ? take(c, 8u * (uint64_t)__builtin_popcountll(mask), field) : 0;
}

/* u64 size then size bytes (STACK_USER adds dyn_size when size != 0). */
static int skip_sized(struct cursor *c, const char *field, int dyn)
{
	uint64_t n;
	if (take_u64(c, field, &n) || take(c, n, field))
		return -1;
	return dyn && n ? take(c, 8, field) : 0;
}

const char *pd_parse_sample(const struct ap_perf_attr *a, const uint8_t *rec, size_t size,
                            struct ap_perf_sample *s, size_t *chain_off)
{
	const uint64_t st = a->sample_type;
	struct cursor c = { rec, size, PD_EVENT_HEADER_SIZE, NULL };
	uint64_t v;
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = s->cpu = -1;
	s->misc = pd_u16(rec + 4);
	s->present = st;
	*chain_off = 0;
	if ((st & AP_PERF_SAMPLE_IDENTIFIER) && take_u64(&c, "IDENTIFIER", &s->id))
		return c.field;
	if ((st & AP_PERF_SAMPLE_IP) && take_u64(&c, "IP", &s->ip))
		return c.field;
	if (st & AP_PERF_SAMPLE_TID) {
		if (take_u64(&c, "TID", &v))
			return c.field;
		s->pid = (int32_t)(uint32_t)v;
		s->tid = (int32_t)(uint32_t)(v >> 32);
	}
	if ((st & AP_PERF_SAMPLE_TIME) && take_u64(&c, "TIME", &s->time))
		return c.field;
	if ((st & AP_PERF_SAMPLE_ADDR) && take_u64(&c, "ADDR", &s->addr))
		return c.field;
	if ((st & AP_PERF_SAMPLE_ID) && take_u64(&c, "ID", &s->id))
		return c.field;
	if ((st & AP_PERF_SAMPLE_STREAM_ID) && take_u64(&c, "STREAM_ID", &v))
		return c.field;
	if (st & AP_PERF_SAMPLE_CPU) {
		if (take_u64(&c, "CPU", &v))
			return c.field;
		s->cpu = (int32_t)(uint32_t)v;
	}
	if ((st & AP_PERF_SAMPLE_PERIOD) && take_u64(&c, "PERIOD", &s->period))
		return c.field;
	if ((st & AP_PERF_SAMPLE_READ) && skip_read(&c, a->read_format))
		return c.field;
	if (st & AP_PERF_SAMPLE_CALLCHAIN) {
		if (take_u64(&c, "CALLCHAIN nr", &v))
			return c.field;
		if (v > (c.size - c.pos) / 8)
			return "CALLCHAIN entries";
		*chain_off = c.pos;
		s->n_callchain = (uint32_t)v;
		c.pos += 8 * (size_t)v;
	}
	if (st & AP_PERF_SAMPLE_RAW) {
		/* u32 size, then the data (its producer pads the pair to 8) */
		if (take(&c, 4, "RAW size"))
			return c.field;
		if (take(&c, pd_u32(rec + c.pos - 4), "RAW data"))
			return c.field;
	}
	if (st & AP_PERF_SAMPLE_BRANCH_STACK) {
		if (take_u64(&c, "BRANCH_STACK nr", &v))
			return c.field;
		if ((a->branch_sample_type & BRANCH_HW_INDEX) && take(&c, 8, "BRANCH_STACK hw_idx"))
			return c.field;
		if (v > (c.size - c.pos) / 24 || take(&c, 24 * v, "BRANCH_STACK entries"))
			return "BRANCH_STACK entries";
	}
	if ((st & AP_PERF_SAMPLE_REGS_USER) && skip_regs(&c, a->sample_regs_user, "REGS_USER"))
		return c.field;
	if ((st & AP_PERF_SAMPLE_STACK_USER) && skip_sized(&c, "STACK_USER", 1))
		return c.field;
	if ((st & (AP_PERF_SAMPLE_WEIGHT | AP_PERF_SAMPLE_WEIGHT_STRUCT)) &&
	    take_u64(&c, "WEIGHT", &s->weight))
		return c.field;
	if ((st & AP_PERF_SAMPLE_DATA_SRC) && take_u64(&c, "DATA_SRC", &s->data_src))
		return c.field;
	if ((st & AP_PERF_SAMPLE_TRANSACTION) && take_u64(&c, "TRANSACTION", &v))
		return c.field;
	if ((st & AP_PERF_SAMPLE_REGS_INTR) && skip_regs(&c, a->sample_regs_intr, "REGS_INTR"))
		return c.field;
	if ((st & AP_PERF_SAMPLE_PHYS_ADDR) && take_u64(&c, "PHYS_ADDR", &s->phys_addr))
		return c.field;
	if ((st & AP_PERF_SAMPLE_CGROUP) && take_u64(&c, "CGROUP", &v))
		return c.field;
	if ((st & AP_PERF_SAMPLE_DATA_PAGE_SIZE) && take_u64(&c, "DATA_PAGE_SIZE", &v))
		return c.field;
	if ((st & AP_PERF_SAMPLE_CODE_PAGE_SIZE) && take_u64(&c, "CODE_PAGE_SIZE", &v))
		return c.field;
	if ((st & AP_PERF_SAMPLE_AUX) && skip_sized(&c, "AUX", 0))
		return c.field;
	return NULL; /* bytes after the last field are allowed, as perf allows them */
}

int pd_sample_attr(const struct ap_perf_reader *r, const uint8_t *rec, size_t size, size_t *attr,
                   uint64_t *id)
{
	const struct ap_perf_attr *a = r->attrs.data;
	*attr = 0;
	*id = 0;
	if (r->attrs.n == 0)
		return -1;
	if (r->attrs.n == 1)
		return 0;
	/* perf finds the attr by the id at the first attr's id position */
	uint64_t st = a[0].sample_type;
	size_t at;
	if (st & AP_PERF_SAMPLE_IDENTIFIER)
		at = PD_EVENT_HEADER_SIZE;
	else if (st & AP_PERF_SAMPLE_ID)
		at = PD_EVENT_HEADER_SIZE +
		     8u * (!!(st & AP_PERF_SAMPLE_IP) + !!(st & AP_PERF_SAMPLE_TID) +
		           !!(st & AP_PERF_SAMPLE_TIME) + !!(st & AP_PERF_SAMPLE_ADDR));
	else
		return 0;
	if (size < at + 8)
		return -2;
	*id = pd_u64(rec + at);
	if (!*id)
		return 0; /* synthesized by perf: the first attr's */
	const uint64_t *ids = r->ids.data;
	const size_t *off = r->attr_ids_off.data;
	for (size_t i = 0; i < r->attrs.n; i++)
		for (uint32_t k = 0; k < a[i].n_ids; k++)
			if (ids[off[i] + k] == *id) {
				*attr = i;
				return 0;
			}
	return -3;
}

int pd_sample_type_known(uint64_t sample_type)
{
	return !(sample_type & ~(uint64_t)KNOWN_SAMPLE_TYPES);
}

void ap_perf_sample_iter_init(struct ap_perf_sample_iter *it)
{
	memset(it, 0, sizeof(*it));
	it->size = sizeof(*it);
}

int ap_perf_next_sample(const struct ap_perf_reader *r, struct ap_perf_sample_iter *it,
                        struct ap_perf_sample *out)
{
	if (it->pos_ >= r->samples.n)
		return 0;
	const struct pd_sample_slot *slot = (const struct pd_sample_slot *)r->samples.data + it->pos_++;
	const uint8_t *rec = (slot->in_arena ? r->arena : r->file) + slot->offset;
	const struct ap_perf_attr *a = (const struct ap_perf_attr *)r->attrs.data + slot->attr;
	size_t chain_off;
	pd_parse_sample(a, rec, pd_u16(rec + 6), out, &chain_off); /* checked at open */
	if (pd_guard_fault(r->guard, NULL))
		return 0; /* the file shrank: zeros were read (ap_perf_reader_check) */
	out->event = slot->attr;
	out->file_offset = slot->file_offset;
	if (out->n_callchain)
		out->callchain = slot->chain_copy ? (const uint64_t *)r->chains.data + slot->chain_copy - 1
		                                  : (const uint64_t *)(const void *)(rec + chain_off);
	return 1;
}

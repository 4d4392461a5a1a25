/* The perf.data event stream: every record is bounds-checked against the
 * bytes left, known records fill the reader's side-band lists, AUXTRACE
 * payloads become AUX buffers, COMPRESSED payloads are decompressed and
 * parsed in turn, and record types not defined here are skipped by size. */
#include <stdio.h>

#include "perfdata/perf_internal.h"

struct stream {
	struct ap_perf_reader *r;
	const uint8_t *p;
	size_t len;
	uint64_t base;   /* file offset of p[0], or arena offset of p[0] */
	int in_arena;    /* parsing decompressed data */
	struct ap_error_ctx *err;
};

static int ev_fail(const struct stream *s, int code, size_t pos, uint32_t type, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int ev_fail(const struct stream *s, int code, size_t pos, uint32_t type, const char *fmt, ...)
{
	struct ap_error_ctx *err = s->err;
	if (err) {
		char nbuf[32];
		const char *name = type ? ap_perf_record_name(type, nbuf, sizeof(nbuf)) : "data";
		memset(err, 0, sizeof(*err));
		err->record_type = type;
		snprintf(err->where, sizeof(err->where), "%s", name);
		if (s->in_arena) {
			err->in_compressed = 1;
			err->offset = s->r->compressed_offset;
			err->inner_offset = s->base + pos;
		} else {
			err->offset = s->base + pos;
		}
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -code;
}

/* Which sample_type describes the sample_id trailer of rec (0: none). */
static uint64_t trailer_type(const struct ap_perf_reader *r, const uint8_t *rec, size_t size)
{
	const struct ap_perf_attr *a = r->attrs.data;
	if (!r->attrs.n || !(a[0].flags & AP_PERF_ATTR_SAMPLE_ID_ALL))
		return 0;
	int same = 1;
	for (size_t i = 1; i < r->attrs.n; i++)
		same &= a[i].sample_type == a[0].sample_type;
	if (same || !(a[0].sample_type & AP_PERF_SAMPLE_IDENTIFIER) || size < 16)
		return a[0].sample_type;
	/* IDENTIFIER is the trailer's last word whatever the attr: find its attr */
	uint64_t id = pd_u64(rec + size - 8);
	const uint64_t *ids = r->ids.data;
	const size_t *off = r->attr_ids_off.data;
	for (size_t i = 0; i < r->attrs.n; i++)
		for (uint32_t k = 0; k < a[i].n_ids; k++)
			if (ids[off[i] + k] == id)
				return a[i].sample_type;
	return a[0].sample_type;
}

/* Parse the sample_id trailer; returns its size (0 if none or it does not
 * fit after the fixed body of body bytes). */
static size_t parse_sid(const struct ap_perf_reader *r, const uint8_t *rec, size_t size, size_t body,
                        struct ap_perf_sample_id *sid)
{
	sid->pid = sid->tid = sid->cpu = -1;
	uint64_t st = trailer_type(r, rec, size);
	size_t n = 0;
	n += (st & AP_PERF_SAMPLE_TID) ? 8 : 0;
	n += (st & AP_PERF_SAMPLE_TIME) ? 8 : 0;
	n += (st & AP_PERF_SAMPLE_ID) ? 8 : 0;
	n += (st & AP_PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (st & AP_PERF_SAMPLE_CPU) ? 8 : 0;
	n += (st & AP_PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	if (!n || size < body || size - body < n)
		return 0;
	const uint8_t *p = rec + size - n;
	if (st & AP_PERF_SAMPLE_TID) {
		sid->pid = (int32_t)pd_u32(p);
		sid->tid = (int32_t)pd_u32(p + 4);
		sid->has_tid = 1;
		p += 8;
	}
	if (st & AP_PERF_SAMPLE_TIME) {
		sid->time = pd_u64(p);
		sid->has_time = 1;
		p += 8;
	}
	if (st & AP_PERF_SAMPLE_ID) {
		sid->id = pd_u64(p);
		sid->has_id = 1;
		p += 8;
	}
	if (st & AP_PERF_SAMPLE_STREAM_ID)
		p += 8;
	if (st & AP_PERF_SAMPLE_CPU) {
		sid->cpu = (int32_t)pd_u32(p);
		sid->has_cpu = 1;
		p += 8;
	}
	if (st & AP_PERF_SAMPLE_IDENTIFIER) {
		sid->id = pd_u64(p);
		sid->has_id = 1;
	}
	return n;
}

static int need(const struct stream *s, size_t pos, uint32_t type, size_t size, size_t min)
{
	if (size < min)
		return ev_fail(s, AP_ERR_FORMAT, pos, type,
		               "record of %zu bytes is shorter than the %zu its type needs", size, min);
	return 0;
}

static int on_comm(const struct stream *s, size_t pos, const uint8_t *rec, size_t size, uint16_t misc)
{
	int rc = need(s, pos, AP_PERF_RECORD_COMM, size, 16);
	if (rc)
		return rc;
	struct ap_perf_comm *c = pd_vec_push(&s->r->comms);
	if (!c)
		return ev_fail(s, AP_ERR_NOMEM, pos, AP_PERF_RECORD_COMM, "out of memory");
	c->pid = (int32_t)pd_u32(rec + 8);
	c->tid = (int32_t)pd_u32(rec + 12);
	c->exec = (misc & PD_MISC_COMM_EXEC) != 0;
	size_t slen = strnlen((const char *)rec + 16, size - 16);
	size_t body = 16 + ((slen + 8) & ~(size_t)7); /* NUL-terminated, padded to 8 */
	size_t keep = slen < sizeof(c->comm) - 1 ? slen : sizeof(c->comm) - 1;
	memcpy(c->comm, rec + 16, keep);
	c->comm[keep] = '\0';
	parse_sid(s->r, rec, size, body, &c->sid);
	return 0;
}

static int on_mmap(const struct stream *s, size_t pos, const uint8_t *rec, size_t size, uint32_t type,
                   uint16_t misc)
{
	size_t fixed = type == AP_PERF_RECORD_MMAP2 ? 72 : 40;
	int rc = need(s, pos, type, size, fixed);
	if (rc)
		return rc;
	struct ap_perf_mmap *m = pd_vec_push(&s->r->mmaps);
	if (!m)
		return ev_fail(s, AP_ERR_NOMEM, pos, type, "out of memory");
	m->pid = (int32_t)pd_u32(rec + 8);
	m->tid = (int32_t)pd_u32(rec + 12);
	m->addr = pd_u64(rec + 16);
	m->len = pd_u64(rec + 24);
	m->pgoff = pd_u64(rec + 32);
	m->misc = misc;
	if (type == AP_PERF_RECORD_MMAP2) {
		m->is_mmap2 = 1;
		m->prot = pd_u32(rec + 64);
		m->flags = pd_u32(rec + 68);
	}
	size_t slen = strnlen((const char *)rec + fixed, size - fixed);
	m->filename = pd_strdup_n(&s->r->strings, (const char *)rec + fixed, slen);
	if (!m->filename)
		return ev_fail(s, AP_ERR_NOMEM, pos, type, "out of memory");
	parse_sid(s->r, rec, size, fixed + ((slen + 8) & ~(size_t)7), &m->sid);
	return 0;
}

static int on_auxtrace(const struct stream *s, size_t pos, const uint8_t *rec, size_t hsize,
                       size_t *advance)
{
	const uint32_t T = AP_PERF_RECORD_AUXTRACE;
	int rc = need(s, pos, T, hsize, PD_AUXTRACE_SIZE);
	if (rc)
		return rc;
	uint64_t psize = pd_u64(rec + 8);
	size_t left = s->len - pos - hsize;
	if (psize > left)
		return ev_fail(s, AP_ERR_FORMAT, pos, T,
		               "payload of %llu bytes cut short: %zu bytes left in the data",
		               (unsigned long long)psize, left);
	uint32_t idx = pd_u32(rec + 32);
	if (idx >= 65536)
		return ev_fail(s, AP_ERR_FORMAT, pos, T, "idx %u is not a plausible mmap index", idx);
	struct ap_perf_reader *r = s->r;
	struct pd_aux_slot *slot = pd_vec_push(&r->aux_slots);
	if (!slot)
		return ev_fail(s, AP_ERR_NOMEM, pos, T, "out of memory");
	struct ap_perf_aux_buffer *b = &slot->buf;
	b->size = psize;
	b->aux_offset = pd_u64(rec + 16);
	b->reference = pd_u64(rec + 24);
	b->idx = idx;
	b->tid = (int32_t)pd_u32(rec + 36);
	b->cpu = (int32_t)pd_u32(rec + 40);
	b->seq = (uint32_t)(r->aux_slots.n - 1);
	while (r->queue_counts.n <= idx)
		if (!pd_vec_push(&r->queue_counts))
			return ev_fail(s, AP_ERR_NOMEM, pos, T, "out of memory");
	b->seq_in_queue = ((uint32_t *)r->queue_counts.data)[idx]++;
	if (s->in_arena) {
		slot->in_arena = 1;
		slot->arena_offset = s->base + pos + hsize;
		b->record_offset = r->compressed_offset;
	} else {
		b->record_offset = s->base + pos;
		b->data_offset = s->base + pos + hsize;
	}
	*advance = hsize + (size_t)psize;
	return 0;
}

static int on_auxtrace_info(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	const uint32_t T = AP_PERF_RECORD_AUXTRACE_INFO;
	int rc = need(s, pos, T, size, PD_AUXTRACE_INFO_SIZE);
	if (rc)
		return rc;
	struct ap_perf_reader *r = s->r;
	if (r->info.has_auxtrace_info)
		return 0; /* perf uses the first one too */
	r->info.has_auxtrace_info = 1;
	r->info.auxtrace_type = pd_u32(rec + 8);
	for (size_t off = PD_AUXTRACE_INFO_SIZE; off + 8 <= size; off += 8) {
		uint64_t *v = pd_vec_push(&r->auxtrace_priv);
		if (!v)
			return ev_fail(s, AP_ERR_NOMEM, pos, T, "out of memory");
		*v = pd_u64(rec + off);
	}
	return 0;
}

static int on_aux(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	int rc = need(s, pos, AP_PERF_RECORD_AUX, size, PD_AUX_SIZE);
	if (rc)
		return rc;
	struct ap_perf_aux_record *a = pd_vec_push(&s->r->aux_records);
	if (!a)
		return ev_fail(s, AP_ERR_NOMEM, pos, AP_PERF_RECORD_AUX, "out of memory");
	a->file_offset = s->in_arena ? s->r->compressed_offset : s->base + pos;
	a->aux_offset = pd_u64(rec + 8);
	a->aux_size = pd_u64(rec + 16);
	a->flags = pd_u64(rec + 24);
	parse_sid(s->r, rec, size, PD_AUX_SIZE, &a->sid);
	return 0;
}

static int on_itrace_start(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	int rc = need(s, pos, AP_PERF_RECORD_ITRACE_START, size, 16);
	if (rc)
		return rc;
	struct ap_perf_itrace_start *it = pd_vec_push(&s->r->itrace_starts);
	if (!it)
		return ev_fail(s, AP_ERR_NOMEM, pos, AP_PERF_RECORD_ITRACE_START, "out of memory");
	it->pid = (int32_t)pd_u32(rec + 8);
	it->tid = (int32_t)pd_u32(rec + 12);
	parse_sid(s->r, rec, size, 16, &it->sid);
	return 0;
}

static int on_sample(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	const uint32_t T = AP_PERF_RECORD_SAMPLE;
	struct ap_perf_reader *r = s->r;
	size_t attr;
	uint64_t id;
	switch (pd_sample_attr(r, rec, size, &attr, &id)) {
	case -1: return ev_fail(s, AP_ERR_FORMAT, pos, T, "a sample before any attr");
	case -2: return ev_fail(s, AP_ERR_FORMAT, pos, T, "record of %zu bytes ends before its id", size);
	case -3:
		return ev_fail(s, AP_ERR_FORMAT, pos, T, "sample id %llu is no attr's",
		               (unsigned long long)id);
	default: break;
	}
	const struct ap_perf_attr *a = (const struct ap_perf_attr *)r->attrs.data + attr;
	if (!pd_sample_type_known(a->sample_type)) {
		r->info.n_samples_unknown++;
		return 0;
	}
	struct ap_perf_sample smp;
	size_t chain_off;
	const char *bad = pd_parse_sample(a, rec, size, &smp, &chain_off);
	if (bad)
		return ev_fail(s, AP_ERR_FORMAT, pos, T,
		               "record of %zu bytes ends inside its %s field (attr %zu, sample_type 0x%llx)",
		               size, bad, attr, (unsigned long long)a->sample_type);
	struct pd_sample_slot *slot = pd_vec_push(&r->samples);
	if (!slot)
		return ev_fail(s, AP_ERR_NOMEM, pos, T, "out of memory");
	slot->offset = s->base + pos;
	slot->in_arena = (uint8_t)s->in_arena;
	slot->file_offset = s->in_arena ? r->compressed_offset : s->base + pos;
	slot->attr = attr;
	/* The iterator gives the callchain as uint64_t: one whose record is
	 * not 8-byte aligned in memory is copied (perf's records always are). */
	if (smp.n_callchain && ((uintptr_t)(rec + chain_off) & 7)) {
		slot->chain_copy = r->chains.n + 1;
		for (uint32_t i = 0; i < smp.n_callchain; i++) {
			uint64_t *e = pd_vec_push(&r->chains);
			if (!e)
				return ev_fail(s, AP_ERR_NOMEM, pos, T, "out of memory");
			*e = pd_u64(rec + chain_off + 8 * (size_t)i);
		}
	}
	return 0;
}

static int on_time_conv(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	int rc = need(s, pos, AP_PERF_RECORD_TIME_CONV, size, PD_TIME_CONV_V1_SIZE);
	if (rc)
		return rc;
	struct ap_perf_time_conv *tc = &s->r->info.time_conv;
	s->r->info.has_time_conv = 1;
	tc->time_shift = pd_u64(rec + 8);
	tc->time_mult = pd_u64(rec + 16);
	tc->time_zero = pd_u64(rec + 24);
	if (size >= PD_TIME_CONV_V2_SIZE) {
		tc->has_cycles = 1;
		tc->time_cycles = pd_u64(rec + 32);
		tc->time_mask = pd_u64(rec + 40);
		tc->cap_user_time_zero = rec[48];
		tc->cap_user_time_short = rec[49];
	}
	return 0;
}

static int on_header_attr(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	const uint32_t T = AP_PERF_RECORD_HEADER_ATTR;
	int rc = need(s, pos, T, size, 8 + PD_ATTR_SIZE_VER0);
	if (rc)
		return rc;
	uint32_t asz = pd_u32(rec + 8 + 4);
	if (asz == 0)
		asz = PD_ATTR_SIZE_VER0;
	if (asz < PD_ATTR_SIZE_VER0 || asz > size - 8)
		return ev_fail(s, AP_ERR_FORMAT, pos, T,
		               "attr size mismatch: attr.size %u in a record of %zu bytes", asz, size);
	size_t n_ids = (size - 8 - asz) / 8;
	return pd_add_attr(s->r, rec + 8, asz, rec + 8 + asz, n_ids, s->base + pos, T, s->err);
}

static int on_feature(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	int rc = need(s, pos, AP_PERF_RECORD_HEADER_FEATURE, size, 16);
	if (rc)
		return rc;
	uint64_t feat = pd_u64(rec + 8);
	if (feat >= 256)
		return 0; /* a feature this format has no bit for: skip */
	rc = pd_read_feature(s->r, (unsigned)feat, rec + 16, size - 16, s->base + pos + 16, s->err);
	if (rc && s->err)
		s->err->record_type = AP_PERF_RECORD_HEADER_FEATURE;
	return rc;
}

static int is_defined_type(uint32_t t)
{
	return (t >= 1 && t <= 21) || (t >= 64 && t <= 82);
}

static int read_stream(struct stream *s, size_t *consumed);

static int on_compressed(const struct stream *s, size_t pos, const uint8_t *rec, size_t size)
{
	const uint32_t T = AP_PERF_RECORD_COMPRESSED;
	struct ap_perf_reader *r = s->r;
	if (s->in_arena)
		return ev_fail(s, AP_ERR_FORMAT, pos, T, "a COMPRESSED record inside compressed data");
	r->compressed_offset = s->base + pos;
	r->info.n_compressed++;
	int rc = pd_decompress(r, rec + 8, size - 8, s->base + pos, s->err);
	if (rc)
		return rc;
	/* Parse every complete event decompressed so far; an event may continue
	 * in the next COMPRESSED record (perf splits large frames). */
	size_t consumed = 0;
	struct stream in = { r, r->arena + r->arena_parsed, r->arena_len - r->arena_parsed,
	                     r->arena_parsed, 1, s->err };
	rc = read_stream(&in, &consumed);
	r->arena_parsed += consumed;
	return rc;
}

static int read_stream(struct stream *s, size_t *consumed)
{
	struct ap_perf_reader *r = s->r;
	size_t pos = 0;
	*consumed = 0;
	while (pos < s->len) {
		size_t left = s->len - pos;
		if (left < PD_EVENT_HEADER_SIZE) {
			if (s->in_arena)
				break; /* the rest comes with the next COMPRESSED record */
			return ev_fail(s, AP_ERR_FORMAT, pos, 0,
			               "record header cut short: %zu bytes left in the data", left);
		}
		const uint8_t *rec = s->p + pos;
		uint32_t type = pd_u32(rec);
		uint16_t misc = pd_u16(rec + 4);
		size_t size = pd_u16(rec + 6);
		if (size < PD_EVENT_HEADER_SIZE)
			return ev_fail(s, AP_ERR_FORMAT, pos, type,
			               "record size %zu is smaller than its 8-byte header", size);
		if (size > left) {
			if (s->in_arena)
				break;
			return ev_fail(s, AP_ERR_FORMAT, pos, type,
			               "record size %zu runs past the end of the data (%zu bytes left)", size, left);
		}
		if (type < AP_PERF_RECORD_TYPE_LIMIT)
			r->info.n_records[type]++;
		if (!is_defined_type(type))
			r->info.n_unknown_records++;
		size_t advance = size;
		int rc = 0;
		switch (type) {
		case AP_PERF_RECORD_COMM: rc = on_comm(s, pos, rec, size, misc); break;
		case AP_PERF_RECORD_MMAP:
		case AP_PERF_RECORD_MMAP2: rc = on_mmap(s, pos, rec, size, type, misc); break;
		case AP_PERF_RECORD_AUX: rc = on_aux(s, pos, rec, size); break;
		case AP_PERF_RECORD_SAMPLE: rc = on_sample(s, pos, rec, size); break;
		case AP_PERF_RECORD_ITRACE_START: rc = on_itrace_start(s, pos, rec, size); break;
		case AP_PERF_RECORD_AUXTRACE_INFO: rc = on_auxtrace_info(s, pos, rec, size); break;
		case AP_PERF_RECORD_TIME_CONV: rc = on_time_conv(s, pos, rec, size); break;
		case AP_PERF_RECORD_HEADER_ATTR: rc = on_header_attr(s, pos, rec, size); break;
		case AP_PERF_RECORD_HEADER_FEATURE: rc = on_feature(s, pos, rec, size); break;
		case AP_PERF_RECORD_COMPRESSED: rc = on_compressed(s, pos, rec, size); break;
		case AP_PERF_RECORD_AUXTRACE:
			if (s->in_arena && size <= left && size >= PD_AUXTRACE_SIZE &&
			    pd_u64(rec + 8) > left - size) {
				r->info.n_records[type]--; /* counted again when complete */
				goto out; /* payload continues in the next COMPRESSED record */
			}
			rc = on_auxtrace(s, pos, rec, size, &advance);
			break;
		case AP_PERF_RECORD_HEADER_TRACING_DATA: {
			/* pipe mode: u32 size, then that much tracing data padded to 8 */
			rc = need(s, pos, type, size, 12);
			if (rc)
				break;
			uint64_t tsize = ((uint64_t)pd_u32(rec + 8) + 7) & ~7ull;
			if (tsize > left - size)
				rc = ev_fail(s, AP_ERR_FORMAT, pos, type,
				             "tracing data of %llu bytes runs past the end of the data",
				             (unsigned long long)tsize);
			advance = size + (size_t)tsize;
			break;
		}
		default:
			break; /* FINISHED_ROUND, ...: nothing to keep */
		}
		if (rc)
			return rc;
		pos += advance;
		*consumed = pos;
		if (!s->in_arena)
			pd_release_parsed(r, s->p + pos);
	}
out:
	return 0;
}

int pd_read_events(struct ap_perf_reader *r, const uint8_t *p, size_t len, uint64_t base_offset,
                   struct ap_error_ctx *err)
{
	struct stream s = { r, p, len, base_offset, 0, err };
	size_t consumed;
	int rc = read_stream(&s, &consumed);
	if (rc)
		return rc;
	if (r->zstd_in_frame) {
		struct ap_error_ctx *e = err;
		return pd_fail(e, AP_ERR_FORMAT, r->compressed_offset, AP_PERF_RECORD_COMPRESSED,
		               "PERF_RECORD_COMPRESSED", "the data ends inside a zstd block");
	}
	if (r->arena_parsed < r->arena_len) {
		struct stream in = { r, r->arena + r->arena_parsed, r->arena_len - r->arena_parsed,
		                     r->arena_parsed, 1, err };
		return ev_fail(&in, AP_ERR_FORMAT, 0, 0,
		               "compressed data ends inside a record (%zu bytes left over)",
		               r->arena_len - r->arena_parsed);
	}
	return 0;
}

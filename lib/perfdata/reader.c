/* ap_perf reader: open (map or read the file), parse everything, resolve the
 * AUX buffers and their AUX-record flags, iterate. */
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfdata/perf_internal.h"

void ap_perf_read_config_init(struct ap_perf_read_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->max_decompressed = 4ull << 30;
}

int ap_perf_is_perfdata(const uint8_t *buf, size_t len)
{
	return len >= 8 && (!memcmp(buf, PD_MAGIC, 8) || !memcmp(buf, PD_MAGIC_SWAPPED, 8));
}

static struct ap_perf_reader *reader_new(const struct ap_perf_read_config *cfg)
{
	struct ap_perf_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->guard = -1;
	ap_perf_read_config_init(&r->cfg);
	if (cfg) {
		/* accept older, smaller config structs */
		size_t n = cfg->size < sizeof(r->cfg) ? cfg->size : sizeof(r->cfg);
		memcpy(&r->cfg, cfg, n);
		r->cfg.size = sizeof(r->cfg);
		if (!r->cfg.max_decompressed)
			r->cfg.max_decompressed = 4ull << 30;
	}
	pd_vec_init(&r->attrs, sizeof(struct ap_perf_attr));
	pd_vec_init(&r->ids, sizeof(uint64_t));
	pd_vec_init(&r->attr_ids_off, sizeof(size_t));
	pd_vec_init(&r->comms, sizeof(struct ap_perf_comm));
	pd_vec_init(&r->build_ids, sizeof(struct ap_perf_build_id));
	pd_vec_init(&r->mmaps, sizeof(struct ap_perf_mmap));
	pd_vec_init(&r->aux_records, sizeof(struct ap_perf_aux_record));
	pd_vec_init(&r->itrace_starts, sizeof(struct ap_perf_itrace_start));
	pd_vec_init(&r->aux_slots, sizeof(struct pd_aux_slot));
	pd_vec_init(&r->aux_buffers, sizeof(struct ap_perf_aux_buffer));
	pd_vec_init(&r->queue_counts, sizeof(uint32_t));
	pd_vec_init(&r->auxtrace_priv, sizeof(uint64_t));
	pd_vec_init(&r->event_descs, sizeof(struct pd_event_desc));
	pd_vec_init(&r->samples, sizeof(struct pd_sample_slot));
	pd_vec_init(&r->chains, sizeof(uint64_t));
	return r;
}

void ap_perf_reader_destroy(struct ap_perf_reader *r)
{
	if (!r)
		return;
	pd_guard_remove(r->guard);
	if (r->map)
		munmap(r->map, r->map_len);
	free(r->owned);
	pd_vec_free(&r->attrs);
	pd_vec_free(&r->ids);
	pd_vec_free(&r->attr_ids_off);
	pd_vec_free(&r->comms);
	pd_vec_free(&r->build_ids);
	pd_vec_free(&r->mmaps);
	pd_vec_free(&r->aux_records);
	pd_vec_free(&r->itrace_starts);
	pd_vec_free(&r->aux_slots);
	pd_vec_free(&r->aux_buffers);
	pd_vec_free(&r->queue_counts);
	pd_vec_free(&r->auxtrace_priv);
	pd_vec_free(&r->event_descs);
	pd_vec_free(&r->samples);
	pd_vec_free(&r->chains);
	pd_strings_free(&r->strings);
	free(r->arena);
	pd_zstd_free(r);
	free(r);
}

static int finalize(struct ap_perf_reader *r, struct ap_error_ctx *err)
{
	struct ap_perf_info *in = &r->info;
	pd_name_attrs(r);
	in->n_attrs = r->attrs.n;
	in->attrs = r->attrs.data;
	in->n_auxtrace_priv = r->auxtrace_priv.n;
	in->auxtrace_priv = r->auxtrace_priv.data;
	in->n_comms = r->comms.n;
	in->comms = r->comms.data;
	in->n_build_ids = r->build_ids.n;
	in->build_ids = r->build_ids.data;
	in->n_mmaps = r->mmaps.n;
	in->mmaps = r->mmaps.data;
	in->n_aux_records = r->aux_records.n;
	in->aux_records = r->aux_records.data;
	in->n_itrace_starts = r->itrace_starts.n;
	in->n_samples = r->samples.n;
	in->itrace_starts = r->itrace_starts.data;
	in->n_queues = (uint32_t)r->queue_counts.n;

	const struct pd_aux_slot *slots = r->aux_slots.data;
	for (size_t i = 0; i < r->aux_slots.n; i++) {
		struct ap_perf_aux_buffer *b = pd_vec_push(&r->aux_buffers);
		if (!b)
			return pd_fail(err, AP_ERR_NOMEM, 0, 0, "data", "out of memory");
		*b = slots[i].buf;
		b->data = slots[i].in_arena ? r->arena + slots[i].arena_offset : r->file + b->data_offset;
		in->aux_bytes += b->size;
	}
	if (pd_match_aux_flags(r->aux_records.data, r->aux_records.n, r->aux_buffers.data, r->aux_buffers.n, r))
		return pd_fail(err, AP_ERR_NOMEM, 0, 0, "data", "out of memory");
	in->n_aux_buffers = r->aux_buffers.n;
	in->aux_buffers = r->aux_buffers.data;
	return 0;
}

static int parse(struct ap_perf_reader *r, struct ap_error_ctx *err)
{
	int rc = pd_read_file_header(r, err);
	if (rc)
		return rc;
	rc = pd_read_events(r, r->file + r->info.data_offset, (size_t)r->info.data_size,
	                    r->info.data_offset, err);
	if (rc)
		return rc;
	return finalize(r, err);
}

/* A reader of data; map: data is that file mapping, the reader's from now
 * on (unmapped by destroy, on failure too). */
static int create(struct ap_perf_reader **out, const uint8_t *data, size_t len,
                  const struct ap_perf_read_config *cfg, struct ap_error_ctx *err, void *map, int guard)
{
	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!data && len)
		return pd_fail(err, AP_ERR_INVALID, 0, 0, "", "no data");
	struct ap_perf_reader *r = reader_new(cfg);
	if (!r) {
		pd_guard_remove(guard);
		if (map)
			munmap(map, len);
		return pd_fail(err, AP_ERR_NOMEM, 0, 0, "", "out of memory");
	}
	r->file = data;
	r->file_len = len;
	r->map = map;
	r->map_len = map ? len : 0;
	r->guard = guard;
	int rc = parse(r, err);
	if (rc && guard >= 0)
		rc = ap_perf_reader_check(r, err) ? -AP_ERR_IO : rc; /* the cause: the file shrank */
	if (rc) {
		ap_perf_reader_destroy(r);
		return rc;
	}
	*out = r;
	return 0;
}

int ap_perf_reader_create_mem(struct ap_perf_reader **out, const uint8_t *data, size_t len,
                     const struct ap_perf_read_config *cfg, struct ap_error_ctx *err)
{
	return create(out, data, len, cfg, err, NULL, -1);
}

void pd_release_parsed(struct ap_perf_reader *r, const uint8_t *upto)
{
	/* The event stream walked so far, less the 64 KiB before upto (the
	 * fault-around of the next header's page may reach back that far). */
	const uint8_t *map = r->map;
	if (!map || upto < map + r->map_released + (4u << 20) || upto > map + r->map_len)
		return;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t to = ((size_t)(upto - map) - (64u << 10)) & ~(page - 1);
	if (to > r->map_released)
		madvise((uint8_t *)map + r->map_released, to - r->map_released, MADV_DONTNEED);
	r->map_released = to;
}

void pd_release_around(const struct ap_perf_reader *r, const uint8_t *p)
{
	const uint8_t *map = r ? r->map : NULL;
	if (!map || p < map || p >= map + r->map_len)
		return;
	size_t at = (size_t)(p - map) & ~(size_t)0xFFFF;
	size_t from = at >= (64u << 10) ? at - (64u << 10) : 0;
	size_t to = at + (128u << 10) < r->map_len ? at + (128u << 10) : r->map_len & ~((size_t)sysconf(_SC_PAGESIZE) - 1);
	if (to > from)
		madvise((uint8_t *)map + from, to - from, MADV_DONTNEED);
}

/* Read fd to its end into a malloc'ed buffer. */
static int read_all(int fd, uint8_t **buf, size_t *len, struct ap_error_ctx *err)
{
	size_t cap = 1u << 20, n = 0;
	uint8_t *p = malloc(cap);
	if (!p)
		return pd_fail(err, AP_ERR_NOMEM, 0, 0, "", "out of memory");
	for (;;) {
		if (n == cap) {
			uint8_t *q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				return pd_fail(err, AP_ERR_NOMEM, n, 0, "", "out of memory");
			}
			p = q;
			cap *= 2;
		}
		ssize_t got = read(fd, p + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			free(p);
			return pd_fail(err, AP_ERR_IO, n, 0, "", "read failed: %s", strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	*buf = p;
	*len = n;
	return 0;
}

int ap_perf_reader_create_fd(struct ap_perf_reader **out, int fd, const struct ap_perf_read_config *cfg,
                    struct ap_error_ctx *err)
{
	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = read_all(fd, &buf, &len, err);
	if (rc)
		return rc;
	rc = ap_perf_reader_create_mem(out, buf, len, cfg, err);
	if (rc) {
		free(buf);
		return rc;
	}
	(*out)->owned = buf;
	return 0;
}

int ap_perf_reader_create_file(struct ap_perf_reader **out, const char *path,
                      const struct ap_perf_read_config *cfg, struct ap_error_ctx *err)
{
	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "cannot open: %s", strerror(errno));
	/* Mapped and guarded (map_guard.c): a file that shrinks while it is
	 * read is an error, not SIGBUS. A pipe, or no guard left: read whole. */
	struct ap_mapped_file m;
	int rc = ap_mapped_file_open(&m, fd, err);
	if (rc) {
		if (rc == 1)
			rc = ap_perf_reader_create_fd(out, fd, cfg, err);
		close(fd);
		return rc;
	}
	close(fd);
	void *map = (void *)m.data;
	size_t len = m.len;
	/* parsing reads a header here and there (read_events.c gives
	 * back what it walked, pd_release_parsed); the rest is given
	 * back here, as the data is read later (ap_perf_reader_release):
	 * the resident size does not grow with the number of records */
	madvise(map, len, MADV_RANDOM);
	rc = create(out, map, len, cfg, err, map, m.guard_);
	if (rc)
		return rc;
	madvise(map, len, MADV_DONTNEED);
	madvise(map, len, MADV_SEQUENTIAL); /* the AUX data is read in order */
	return 0;
}

void ap_perf_reader_release(const struct ap_perf_reader *r, const uint8_t *data, size_t len)
{
	/* only pages of the file mapping, and only whole ones inside the range:
	 * a private read-only file mapping gives them back to the page cache
	 * and reads them again if touched; memory read from a pipe or
	 * decompressed is kept as it is */
	const uint8_t *map = r->map;
	if (!map || data < map || len > r->map_len || (size_t)(data - map) > r->map_len - len)
		return;
	/* The range is widened back by 256 KiB (within the mapping): a fault
	 * maps the page cache's pages around it too (fault-around, 64 KiB by
	 * default), so reading a range maps back the tail of the one released
	 * before it; released again here, they do not pile up (800 MiB read in
	 * 256 KiB pieces kept 150 MiB of them). Dropping a page still in use
	 * costs a fault, never a wrong byte. */
	size_t back = (size_t)(data - map) < (256u << 10) ? (size_t)(data - map) : (256u << 10);
	data -= back;
	len += back;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)data + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)data + len) & ~(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

int ap_perf_reader_check(const struct ap_perf_reader *r, struct ap_error_ctx *err)
{
	struct ap_mapped_file m = { .data = r->map, .len = r->map_len, .guard_ = r->guard };
	return ap_mapped_file_check(&m, err);
}

const struct ap_perf_info *ap_perf_info(const struct ap_perf_reader *r)
{
	return &r->info;
}

void ap_perf_aux_iter_init(struct ap_perf_aux_iter *it)
{
	memset(it, 0, sizeof(*it));
	it->size = sizeof(*it);
	it->cpu = AP_PERF_ANY;
	it->tid = AP_PERF_ANY;
	it->order = AP_PERF_ORDER_FILE;
}

static int selected(const struct ap_perf_aux_iter *it, const struct ap_perf_aux_buffer *b)
{
	return (it->cpu == AP_PERF_ANY || b->cpu == it->cpu) &&
	       (it->tid == AP_PERF_ANY || b->tid == it->tid);
}

int ap_perf_next_aux_buffer(const struct ap_perf_reader *r, struct ap_perf_aux_iter *it,
                            const struct ap_perf_aux_buffer **out)
{
	const struct ap_perf_info *in = &r->info;
	if (pd_guard_fault(r->guard, NULL)) { /* the rest is zeros: ap_perf_reader_check */
		*out = NULL;
		return 0;
	}
	while (it->queue_ < (it->order == AP_PERF_ORDER_QUEUE ? in->n_queues : 1)) {
		while (it->pos_ < in->n_aux_buffers) {
			const struct ap_perf_aux_buffer *b = &in->aux_buffers[it->pos_++];
			if (it->order == AP_PERF_ORDER_QUEUE && b->idx != it->queue_)
				continue;
			if (selected(it, b)) {
				*out = b;
				return 1;
			}
		}
		it->queue_++;
		it->pos_ = 0;
	}
	*out = NULL;
	return 0;
}

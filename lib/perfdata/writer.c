/* ap_perf writer: SPE buffers and samples as a perf.data that Linux perf
 * decodes. Layout: header | attrs (SPE's, then the sample events') + their
 * ids | data (AUXTRACE_INFO with SPE, TIME_CONV, side-band, AUXTRACE+payload
 * and AUX per buffer, SAMPLE records, FINISHED_ROUND) | feature table |
 * features (write_features.c).
 * Written to a temporary file in the target's directory, renamed at the end,
 * or to a seekable descriptor the caller gives (and renames). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/writer_internal.h"

#define W_ATTRS_OFFSET PD_FILE_HEADER_SIZE /* 104 */
#define W_ATTR_ENTRY(w) ((w)->attr_size + 16u) /* attr + ids section */
#define W_MISC_USER 2u /* PERF_RECORD_MISC_USER */
#define W_PROT_EXEC 4u

/* The sample_type bits a sample event may ask for: those
 * ap_perf_write_sample writes. */
#define W_EVENT_SAMPLE_TYPES                                                               \
	(AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME | AP_PERF_SAMPLE_ADDR |    \
	 AP_PERF_SAMPLE_ID | AP_PERF_SAMPLE_CPU | AP_PERF_SAMPLE_PERIOD |                         \
	 AP_PERF_SAMPLE_CALLCHAIN | AP_PERF_SAMPLE_WEIGHT | AP_PERF_SAMPLE_DATA_SRC |             \
	 AP_PERF_SAMPLE_IDENTIFIER | AP_PERF_SAMPLE_PHYS_ADDR)

struct w_cpu {
	int32_t cpu;
	uint64_t aux_head; /* bytes written so far for this cpu's AUX area */
};

void ap_perf_write_config_init(struct ap_perf_write_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	/* Dynamic PMU types start after the fixed ones (0..5) and the kernel's
	 * own (breakpoint etc.); arm_spe_0 is often 8..12 on Neoverse servers. */
	cfg->pmu_type = 10;
	cfg->midr = 0x00000000413fd0c1ull; /* Neoverse N1 r3p1 */
	cfg->event_name = "arm_spe_0//";
	cfg->arch = "aarch64";
	cfg->nr_cpus = 1;
	cfg->sample_time = 1;
	cfg->time_mult = 1; /* perf time = SPE timestamp (shift 0, zero 0) */
	cfg->attr_id = 1;
	cfg->spe = 1;
}

/* The sample_id trailer of side-band records: the first attr's (perf
 * finds the attr by the IDENTIFIER word and parses the trailer by its
 * sample_type), in perf_event.h order: TID, TIME, ID, CPU, IDENTIFIER. */
static size_t sid_size(const struct ap_perf_writer *w)
{
	uint64_t st = w->attrs[0].sample_type;
	return 8 * (!!(st & AP_PERF_SAMPLE_TID) + !!(st & AP_PERF_SAMPLE_TIME) +
	            !!(st & AP_PERF_SAMPLE_ID) + !!(st & AP_PERF_SAMPLE_CPU) +
	            !!(st & AP_PERF_SAMPLE_IDENTIFIER));
}
static void w_sid(struct ap_perf_writer *w, int32_t pid, int32_t tid, uint64_t time, int32_t cpu)
{
	uint64_t st = w->attrs[0].sample_type;
	if (st & AP_PERF_SAMPLE_TID) {
		pd_w_u32(w, (uint32_t)pid);
		pd_w_u32(w, (uint32_t)tid);
	}
	if (st & AP_PERF_SAMPLE_TIME)
		pd_w_u64(w, time);
	if (st & AP_PERF_SAMPLE_ID)
		pd_w_u64(w, w->attrs[0].id);
	if (st & AP_PERF_SAMPLE_CPU) {
		pd_w_u32(w, (uint32_t)cpu);
		pd_w_u32(w, 0);
	}
	if (st & AP_PERF_SAMPLE_IDENTIFIER)
		pd_w_u64(w, w->attrs[0].id);
}

static int w_check(struct ap_perf_writer *w, struct ap_error_ctx *err, const char *where)
{
	if (!w->failed)
		return 0;
	return pd_fail(err, AP_ERR_IO, w->pos, 0, where, "write failed: %s", strerror(w->io_errno));
}

static void build_attr(const struct ap_perf_writer *w, struct w_attr *a, uint32_t type,
                       uint64_t config, uint64_t period)
{
	uint8_t *b = a->bytes;
	memset(b, 0, sizeof(a->bytes));
	uint32_t size = w->attr_size;
	uint64_t flags = AP_PERF_ATTR_DISABLED | AP_PERF_ATTR_SAMPLE_ID_ALL;
	if (w->cfg.exclude_kernel)
		flags |= AP_PERF_ATTR_EXCLUDE_KERNEL;
	memcpy(b + 0, &type, 4);
	memcpy(b + 4, &size, 4);
	memcpy(b + 8, &config, 8);
	memcpy(b + 16, &period, 8);
	memcpy(b + 24, &a->sample_type, 8);
	memcpy(b + 40, &flags, 8);
}

/* The attrs: SPE's first (cfg.spe), then one per cfg.events, with ids
 * attr_id, attr_id + 1, ... Every attr carries IDENTIFIER when there are
 * several: perf finds a record's attr by it (and refuses a file whose attrs
 * put their ids in different places). Returns 0 or a negative enum ap_error. */
static int build_attrs(struct ap_perf_writer *w)
{
	size_t n = (w->cfg.spe ? 1 : 0) + w->cfg.n_events;
	if (!n || (w->cfg.n_events && !w->cfg.events))
		return -AP_ERR_INVALID;
	w->attrs = calloc(n, sizeof(*w->attrs));
	if (!w->attrs)
		return -AP_ERR_NOMEM;
	/* The smallest size that holds the words set: perf refuses an attr
	 * larger than its own (perf 6.1: VER7) unless the rest is zero, so a
	 * file without config3/config4 stays readable by every perf. */
	w->attr_size = !w->cfg.spe ? PD_ATTR_SIZE_VER7
	               : w->cfg.spe_config4 ? PD_ATTR_SIZE_VER9
	               : w->cfg.spe_config3 ? PD_ATTR_SIZE_VER8
	                                    : PD_ATTR_SIZE_VER7;
	w->n_attrs = n;
	size_t k = 0;
	if (w->cfg.spe) {
		struct w_attr *a = &w->attrs[k++];
		a->sample_type = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_CPU |
		                 AP_PERF_SAMPLE_IDENTIFIER | AP_PERF_SAMPLE_DATA_SRC |
		                 AP_PERF_SAMPLE_PHYS_ADDR;
		if (w->cfg.sample_time)
			a->sample_type |= AP_PERF_SAMPLE_TIME;
		a->name = strdup(w->cfg.event_name);
		build_attr(w, a, w->cfg.pmu_type, w->cfg.spe_config, 1);
		/* config1, config2 (VER1), config3 (VER8), config4 (VER9) */
		memcpy(a->bytes + 56, &w->cfg.spe_config1, 8);
		memcpy(a->bytes + 64, &w->cfg.spe_config2, 8);
		memcpy(a->bytes + 128, &w->cfg.spe_config3, 8);
		memcpy(a->bytes + 136, &w->cfg.spe_config4, 8);
	}
	w->first_event = k;
	for (size_t i = 0; i < w->cfg.n_events; i++) {
		const struct ap_perf_write_event *e = &w->cfg.events[i];
		if (!e->name || (e->sample_type & ~(uint64_t)W_EVENT_SAMPLE_TYPES))
			return -AP_ERR_INVALID;
		struct w_attr *a = &w->attrs[k++];
		a->sample_type = e->sample_type | (n > 1 ? AP_PERF_SAMPLE_IDENTIFIER : 0);
		a->name = strdup(e->name);
		build_attr(w, a, e->type, e->config, e->sample_period ? e->sample_period : 1);
	}
	for (size_t i = 0; i < n; i++) {
		if (!w->attrs[i].name)
			return -AP_ERR_NOMEM;
		w->attrs[i].id = w->cfg.attr_id + i;
	}
	w->cfg.events = NULL; /* the caller's: not kept */
	return 0;
}

static struct ap_perf_writer *writer_new(const struct ap_perf_write_config *cfg)
{
	struct ap_perf_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	ap_perf_write_config_init(&w->cfg);
	if (cfg) {
		size_t n = cfg->size < sizeof(w->cfg) ? cfg->size : sizeof(w->cfg);
		memcpy(&w->cfg, cfg, n);
		w->cfg.size = sizeof(w->cfg);
	}
	if (!w->cfg.event_name)
		w->cfg.event_name = "arm_spe_0//";
	if (!w->cfg.arch)
		w->cfg.arch = "aarch64";
	if (!w->cfg.nr_cpus)
		w->cfg.nr_cpus = 1;
	pd_vec_init(&w->index, sizeof(uint64_t));
	pd_vec_init(&w->cpus, sizeof(struct w_cpu));
	pd_vec_init(&w->dsos, sizeof(struct w_dso));
	return w;
}

/* w->f is open at offset 0: the records every file starts with. */
static int writer_start(struct ap_perf_writer **out, struct ap_perf_writer *w, struct ap_error_ctx *err)
{
	int rc = build_attrs(w);
	if (rc) {
		ap_perf_writer_destroy(w);
		return pd_fail(err, -rc, 0, 0, "attrs", "%s",
		               rc == -AP_ERR_NOMEM ? "out of memory"
		                                   : "no event, an event without a name, or an event asking "
		                                     "for sample fields the writer does not write");
	}

	/* Header placeholder (rewritten by finish), the attrs, their ids. */
	uint64_t ids_offset = W_ATTRS_OFFSET + w->n_attrs * W_ATTR_ENTRY(w);
	pd_w_zero(w, PD_FILE_HEADER_SIZE);
	for (size_t i = 0; i < w->n_attrs; i++) {
		pd_w_bytes(w, w->attrs[i].bytes, w->attr_size);
		pd_w_u64(w, ids_offset + 8 * i);
		pd_w_u64(w, 8);
	}
	for (size_t i = 0; i < w->n_attrs; i++)
		pd_w_u64(w, w->attrs[i].id);

	/* TIME_CONV, the layout with time_cycles (perf >= 5.14), before
	 * AUXTRACE_INFO as perf record writes it: perf's SPE decoder copies the
	 * session's time conversion when it sees AUXTRACE_INFO (with none yet,
	 * it divides by a zero time_mult converting the first timestamp). */
	pd_w_header(w, AP_PERF_RECORD_TIME_CONV, 0, PD_TIME_CONV_V2_SIZE);
	pd_w_u64(w, w->cfg.time_shift);
	pd_w_u64(w, w->cfg.time_mult);
	pd_w_u64(w, w->cfg.time_zero);
	pd_w_u64(w, 0);          /* time_cycles */
	pd_w_u64(w, ~0ull);      /* time_mask */
	pd_w_zero(w, 8);         /* cap_user_time_zero, cap_user_time_short, reserved */
	if (w->cfg.spe) {
		/* AUXTRACE_INFO: type 4 and perf 6.1's two priv words. */
		pd_w_header(w, AP_PERF_RECORD_AUXTRACE_INFO, 0,
		            PD_AUXTRACE_INFO_SIZE + 8 * AP_PERF_SPE_PRIV_COUNT);
		pd_w_u32(w, AP_PERF_AUXTRACE_ARM_SPE);
		pd_w_u32(w, 0);
		pd_w_u64(w, w->cfg.pmu_type); /* ARM_SPE_PMU_TYPE */
		pd_w_u64(w, 1);               /* ARM_SPE_PER_CPU_MMAPS */
	}

	rc = w_check(w, err, "data");
	if (rc) {
		ap_perf_writer_destroy(w);
		return rc;
	}
	*out = w;
	return 0;
}

int ap_perf_writer_create_fd(struct ap_perf_writer **out, int fd, const struct ap_perf_write_config *cfg,
                           struct ap_error_ctx *err)
{
	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	if (lseek(fd, 0, SEEK_CUR) != 0)
		return pd_fail(err, AP_ERR_INVALID, 0, 0, "",
		               "the output must be seekable and at its start (perf.data's header is written last)");
	struct ap_perf_writer *w = writer_new(cfg);
	if (!w)
		return pd_fail(err, AP_ERR_NOMEM, 0, 0, "", "out of memory");
	/* A descriptor of its own: finish closes it, the caller's stays. */
	int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	w->f = own >= 0 ? fdopen(own, "wb") : NULL;
	if (!w->f) {
		int e = errno;
		if (own >= 0)
			close(own);
		ap_perf_writer_destroy(w);
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "cannot write to the descriptor: %s", strerror(e));
	}
	return writer_start(out, w, err);
}

int ap_perf_writer_create(struct ap_perf_writer **out, const char *path,
                        const struct ap_perf_write_config *cfg, struct ap_error_ctx *err)
{
	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	/* A file that is there keeps its mode; a symbolic link to one is kept
	 * and its target replaced; anything else (a device, a FIFO) is never
	 * replaced by a regular file. */
	mode_t mode = 0644;
	char *real = NULL;
	struct stat st;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return pd_fail(err, AP_ERR_INVALID, 0, 0, "",
			               "not a regular file (write a device or FIFO through ap_perf_writer_create_fd)");
		mode = st.st_mode & 07777;
		real = realpath(path, NULL);
		if (!real)
			return pd_fail(err, AP_ERR_IO, 0, 0, "", "%s", strerror(errno));
		path = real;
	} else if (errno != ENOENT) {
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "%s", strerror(errno));
	}
	struct ap_perf_writer *w = writer_new(cfg);
	size_t plen = strlen(path);
	if (w) {
		w->path = malloc(plen + 1);
		w->tmp = malloc(plen + 8);
	}
	if (!w || !w->path || !w->tmp) {
		free(real);
		ap_perf_writer_destroy(w);
		return pd_fail(err, AP_ERR_NOMEM, 0, 0, "", "out of memory");
	}
	memcpy(w->path, path, plen + 1);
	snprintf(w->tmp, plen + 8, "%s.XXXXXX", path);
	free(real);
	int fd = mkstemp(w->tmp);
	if (fd < 0) {
		int e = errno;
		free(w->tmp);
		w->tmp = NULL;
		ap_perf_writer_destroy(w);
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "cannot create a temporary file next to it: %s",
		               strerror(e));
	}
	w->f = fchmod(fd, mode) == 0 ? fdopen(fd, "wb") : NULL;
	if (!w->f) {
		int e = errno;
		close(fd);
		ap_perf_writer_destroy(w);
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "cannot open the temporary file: %s", strerror(e));
	}
	return writer_start(out, w, err);
}

static size_t padded_str(size_t len) { return (len + 8) & ~(size_t)7; } /* with NUL */

int ap_perf_write_comm(struct ap_perf_writer *w, int32_t pid, int32_t tid, const char *comm,
                       uint64_t time)
{
	size_t len = strnlen(comm, 15); /* TASK_COMM_LEN 16 */
	size_t size = 16 + padded_str(len) + sid_size(w);
	pd_w_header(w, AP_PERF_RECORD_COMM, 0, size);
	pd_w_u32(w, (uint32_t)pid);
	pd_w_u32(w, (uint32_t)tid);
	pd_w_bytes(w, comm, len);
	pd_w_zero(w, padded_str(len) - len);
	w_sid(w, pid, tid, time, -1);
	return w->failed ? -AP_ERR_IO : 0;
}

/* Keep a file with code, once, with its build ID. Few files (a program and
 * its libraries): a scan is enough. */
static int note_dso(struct ap_perf_writer *w, const char *name, size_t len)
{
	struct w_dso *d = w->dsos.data;
	for (size_t i = 0; i < w->dsos.n; i++)
		if (strlen(d[i].name) == len && !memcmp(d[i].name, name, len))
			return 0;
	char *copy = strndup(name, len);
	struct w_dso *slot = copy ? pd_vec_push(&w->dsos) : NULL;
	if (!slot) {
		free(copy);
		return -1;
	}
	slot->name = copy;
	slot->id_len = ap_perf_elf_build_id(copy, slot->id, sizeof(slot->id));
	if (slot->id_len < 0)
		slot->id_len = 0;
	return 0;
}

int ap_perf_write_mmap2(struct ap_perf_writer *w, int32_t pid, int32_t tid, uint64_t addr,
                        uint64_t len, uint64_t pgoff, uint32_t prot, const char *filename,
                        uint64_t time)
{
	size_t flen = strnlen(filename, 4000);
	size_t size = 72 + padded_str(flen) + sid_size(w);
	if (size > 0xFFFF)
		return -AP_ERR_INVALID;
	pd_w_header(w, AP_PERF_RECORD_MMAP2, W_MISC_USER, size);
	pd_w_u32(w, (uint32_t)pid);
	pd_w_u32(w, (uint32_t)tid);
	pd_w_u64(w, addr);
	pd_w_u64(w, len);
	pd_w_u64(w, pgoff);
	pd_w_zero(w, 24);    /* maj, min, ino, ino_generation: unknown */
	pd_w_u32(w, prot);
	pd_w_u32(w, 0x02);   /* MAP_PRIVATE */
	pd_w_bytes(w, filename, flen);
	pd_w_zero(w, padded_str(flen) - flen);
	w_sid(w, pid, tid, time, -1);
	/* A file with code: its build ID goes into the BUILD_ID feature. */
	if ((prot & W_PROT_EXEC) && filename[0] == '/' && note_dso(w, filename, flen) != 0)
		return -AP_ERR_NOMEM;
	return w->failed ? -AP_ERR_IO : 0;
}

static struct w_cpu *cpu_slot(struct ap_perf_writer *w, int32_t cpu)
{
	struct w_cpu *c = w->cpus.data;
	for (size_t i = 0; i < w->cpus.n; i++)
		if (c[i].cpu == cpu)
			return &c[i];
	struct w_cpu *n = pd_vec_push(&w->cpus);
	if (n)
		n->cpu = cpu;
	return n;
}

int ap_perf_write_aux(struct ap_perf_writer *w, int32_t cpu, int32_t pid, int32_t tid,
                      const uint8_t *data, size_t size, uint64_t aux_flags, uint64_t time)
{
	if (!w->cfg.spe)
		return -AP_ERR_INVALID;
	struct w_cpu *c = cpu_slot(w, cpu);
	uint64_t *ix = pd_vec_push(&w->index);
	if (!c || !ix)
		return -AP_ERR_NOMEM;
	size_t pad = (8 - (size & 7)) & 7; /* zero bytes: SPE Padding packets */
	*ix = w->pos;
	pd_w_header(w, AP_PERF_RECORD_AUXTRACE, 0, PD_AUXTRACE_SIZE);
	pd_w_u64(w, size + pad);
	pd_w_u64(w, c->aux_head);
	pd_w_u64(w, ++w->reference);
	pd_w_u32(w, cpu >= 0 ? (uint32_t)cpu : 0); /* idx: per-cpu mmaps are indexed by cpu */
	pd_w_u32(w, (uint32_t)tid);
	pd_w_u32(w, (uint32_t)cpu);
	pd_w_u32(w, 0);
	pd_w_bytes(w, data, size);
	pd_w_zero(w, pad);

	pd_w_header(w, AP_PERF_RECORD_AUX, 0, PD_AUX_SIZE + sid_size(w));
	pd_w_u64(w, c->aux_head);
	pd_w_u64(w, size);
	pd_w_u64(w, aux_flags);
	w_sid(w, pid, tid, time, cpu);
	c->aux_head += size + pad;
	return w->failed ? -AP_ERR_IO : 0;
}

static void writer_free(struct ap_perf_writer *w)
{
	pd_vec_free(&w->index);
	pd_vec_free(&w->cpus);
	struct w_dso *d = w->dsos.data;
	for (size_t i = 0; i < w->dsos.n; i++)
		free(d[i].name);
	pd_vec_free(&w->dsos);
	for (size_t i = 0; i < w->n_attrs; i++)
		free(w->attrs[i].name);
	free(w->attrs);
	free(w->path);
	free(w->tmp);
	free(w);
}

void ap_perf_writer_destroy(struct ap_perf_writer *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	if (w->tmp)
		unlink(w->tmp);
	writer_free(w);
}

int ap_perf_writer_finish(struct ap_perf_writer *w, struct ap_error_ctx *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
	pd_w_header(w, AP_PERF_RECORD_FINISHED_ROUND, 0, PD_EVENT_HEADER_SIZE);
	uint64_t data_offset = W_ATTRS_OFFSET + w->n_attrs * (W_ATTR_ENTRY(w) + 8);
	uint64_t data_size = w->pos - data_offset;

	uint64_t bits[4] = { 0, 0, 0, 0 };
	if (pd_w_features(w, bits) != 0)
		goto io_fail;
	int rc = w_check(w, err, "features");
	if (rc)
		goto fail;
	if (pd_w_seek(w, 0) != 0)
		goto io_fail;
	pd_w_bytes(w, PD_MAGIC, 8);
	pd_w_u64(w, PD_FILE_HEADER_SIZE);
	pd_w_u64(w, W_ATTR_ENTRY(w));
	pd_w_u64(w, W_ATTRS_OFFSET);
	pd_w_u64(w, w->n_attrs * W_ATTR_ENTRY(w));
	pd_w_u64(w, data_offset);
	pd_w_u64(w, data_size);
	pd_w_u64(w, 0); /* event_types: unused */
	pd_w_u64(w, 0);
	pd_w_bytes(w, bits, sizeof(bits));
	pd_w_flush(w);
	rc = w_check(w, err, "file header");
	if (rc)
		goto fail;
	/* A file written by path reaches the disk before it replaces the old
	 * one; a descriptor's owner syncs, closes and renames it. */
	if (fflush(w->f) != 0 || (w->tmp && fsync(fileno(w->f)) != 0))
		goto io_fail;
	if (fclose(w->f) != 0) {
		w->f = NULL;
		if (w->tmp)
			unlink(w->tmp);
		rc = pd_fail(err, AP_ERR_IO, 0, 0, "", "write failed: %s", strerror(errno));
		writer_free(w);
		return rc;
	}
	w->f = NULL;
	if (w->tmp && rename(w->tmp, w->path) != 0) {
		int e = errno;
		unlink(w->tmp);
		writer_free(w);
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "cannot rename into place: %s", strerror(e));
	}
	writer_free(w);
	return 0;
io_fail:
	rc = pd_fail(err, AP_ERR_IO, w->pos, 0, "", "write failed: %s", strerror(w->failed ? w->io_errno : errno));
fail:
	ap_perf_writer_destroy(w);
	return rc;
}

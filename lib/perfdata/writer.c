/* ap_perf writer: SPE buffers as a perf.data that Linux perf decodes as Arm
 * SPE. Layout: header | one attr + its id | data (AUXTRACE_INFO, TIME_CONV,
 * side-band, AUXTRACE+payload and AUX per buffer, FINISHED_ROUND) | feature
 * table | features (BUILD_ID, ARCH, NRCPUS, CPUID, EVENT_DESC, AUXTRACE index).
 * Written to a temporary file in the target's directory, renamed at the end,
 * or to a seekable descriptor the caller gives (and renames). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perf_internal.h"

#define W_ATTRS_OFFSET PD_FILE_HEADER_SIZE                         /* 104 */
#define W_ATTR_ENTRY (PD_ATTR_SIZE_VER7 + 16)                      /* attr + ids section */
#define W_IDS_OFFSET (W_ATTRS_OFFSET + W_ATTR_ENTRY)               /* 248 */
#define W_DATA_OFFSET (W_IDS_OFFSET + 8)                           /* 256 */
#define W_MISC_USER 2u /* PERF_RECORD_MISC_USER */
#define W_MISC_BUILD_ID_SIZE (1u << 15) /* PERF_RECORD_MISC_BUILD_ID_SIZE: the size byte is valid */
#define W_PROT_EXEC 4u
#define W_BUILD_ID_MAX 20 /* perf's BUILD_ID_SIZE */
#define W_HOST_PID (-1) /* HOST_KERNEL_ID: the host machine's files */
#define W_BUILD_ID_EVENT 36 /* header, pid, 20-byte ID, size, 3 reserved */

/* A file of an executable mapping and its build ID (read once, when the
 * file is first mapped; id_len 0: none, or not readable). */
struct w_dso {
	char *name;
	uint8_t id[W_BUILD_ID_MAX];
	int id_len;
};

struct w_cpu {
	int32_t cpu;
	uint64_t aux_head; /* bytes written so far for this cpu's AUX area */
};

struct ap_perf_writer {
	FILE *f;
	char *path, *tmp;
	uint64_t pos; /* current file offset */
	int failed;   /* an I/O error happened: finish fails */
	int io_errno;
	struct ap_perf_write_config cfg;
	uint64_t sample_type;
	uint8_t attr[PD_ATTR_SIZE_VER7];
	struct pd_vec index; /* uint64_t: file offsets of AUXTRACE records */
	struct pd_vec cpus;  /* struct w_cpu */
	struct pd_vec dsos;  /* struct w_dso: the files of executable mappings, once each */
	uint64_t reference;
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
}

static void w_bytes(struct ap_perf_writer *w, const void *p, size_t n)
{
	if (w->failed || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n) {
		w->failed = 1;
		w->io_errno = errno;
	}
	w->pos += n;
}
static void w_u16(struct ap_perf_writer *w, uint16_t v) { w_bytes(w, &v, 2); }
static void w_u32(struct ap_perf_writer *w, uint32_t v) { w_bytes(w, &v, 4); }
static void w_u64(struct ap_perf_writer *w, uint64_t v) { w_bytes(w, &v, 8); }
static void w_zero(struct ap_perf_writer *w, size_t n)
{
	static const uint8_t z[64];
	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);
		w_bytes(w, z, k);
		n -= k;
	}
}
static void w_header(struct ap_perf_writer *w, uint32_t type, uint16_t misc, size_t size)
{
	w_u32(w, type);
	w_u16(w, misc);
	w_u16(w, (uint16_t)size);
}

static size_t sid_size(const struct ap_perf_writer *w)
{
	return 8 /* TID */ + (w->cfg.sample_time ? 8 : 0) + 8 /* CPU */ + 8 /* IDENTIFIER */;
}
/* The sample_id trailer, in perf_event.h order: TID, TIME, CPU, IDENTIFIER. */
static void w_sid(struct ap_perf_writer *w, int32_t pid, int32_t tid, uint64_t time, int32_t cpu)
{
	w_u32(w, (uint32_t)pid);
	w_u32(w, (uint32_t)tid);
	if (w->cfg.sample_time)
		w_u64(w, time);
	w_u32(w, (uint32_t)cpu);
	w_u32(w, 0);
	w_u64(w, w->cfg.attr_id);
}

static int w_check(struct ap_perf_writer *w, struct ap_error_ctx *err, const char *where)
{
	if (!w->failed)
		return 0;
	return pd_fail(err, AP_ERR_IO, w->pos, 0, where, "write failed: %s", strerror(w->io_errno));
}

static void build_attr(struct ap_perf_writer *w)
{
	uint8_t *a = w->attr;
	memset(a, 0, sizeof(w->attr));
	uint32_t size = PD_ATTR_SIZE_VER7;
	uint64_t period = 1;
	uint64_t flags = AP_PERF_ATTR_DISABLED | AP_PERF_ATTR_SAMPLE_ID_ALL;
	if (w->cfg.exclude_kernel)
		flags |= AP_PERF_ATTR_EXCLUDE_KERNEL;
	memcpy(a + 0, &w->cfg.pmu_type, 4);
	memcpy(a + 4, &size, 4);
	memcpy(a + 8, &w->cfg.spe_config, 8);
	memcpy(a + 16, &period, 8);
	memcpy(a + 24, &w->sample_type, 8);
	memcpy(a + 40, &flags, 8);
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
	w->sample_type = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_CPU |
	                 AP_PERF_SAMPLE_IDENTIFIER | AP_PERF_SAMPLE_DATA_SRC |
	                 AP_PERF_SAMPLE_PHYS_ADDR;
	if (w->cfg.sample_time)
		w->sample_type |= AP_PERF_SAMPLE_TIME;
	build_attr(w);

	/* Header placeholder (rewritten by finish), the attr, its id. */
	w_zero(w, PD_FILE_HEADER_SIZE);
	w_bytes(w, w->attr, sizeof(w->attr));
	w_u64(w, W_IDS_OFFSET);
	w_u64(w, 8);
	w_u64(w, w->cfg.attr_id);

	/* AUXTRACE_INFO: type 4 and perf 6.1's two priv words. */
	w_header(w, AP_PERF_RECORD_AUXTRACE_INFO, 0, PD_AUXTRACE_INFO_SIZE + 8 * AP_PERF_SPE_PRIV_COUNT);
	w_u32(w, AP_PERF_AUXTRACE_ARM_SPE);
	w_u32(w, 0);
	w_u64(w, w->cfg.pmu_type); /* ARM_SPE_PMU_TYPE */
	w_u64(w, 1);               /* ARM_SPE_PER_CPU_MMAPS */

	/* TIME_CONV, the layout with time_cycles (perf >= 5.14). */
	w_header(w, AP_PERF_RECORD_TIME_CONV, 0, PD_TIME_CONV_V2_SIZE);
	w_u64(w, w->cfg.time_shift);
	w_u64(w, w->cfg.time_mult);
	w_u64(w, w->cfg.time_zero);
	w_u64(w, 0);          /* time_cycles */
	w_u64(w, ~0ull);      /* time_mask */
	w_zero(w, 8);         /* cap_user_time_zero, cap_user_time_short, reserved */
	int rc = w_check(w, err, "data");
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
	w_header(w, AP_PERF_RECORD_COMM, 0, size);
	w_u32(w, (uint32_t)pid);
	w_u32(w, (uint32_t)tid);
	w_bytes(w, comm, len);
	w_zero(w, padded_str(len) - len);
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
	w_header(w, AP_PERF_RECORD_MMAP2, W_MISC_USER, size);
	w_u32(w, (uint32_t)pid);
	w_u32(w, (uint32_t)tid);
	w_u64(w, addr);
	w_u64(w, len);
	w_u64(w, pgoff);
	w_zero(w, 24);    /* maj, min, ino, ino_generation: unknown */
	w_u32(w, prot);
	w_u32(w, 0x02);   /* MAP_PRIVATE */
	w_bytes(w, filename, flen);
	w_zero(w, padded_str(flen) - flen);
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
	struct w_cpu *c = cpu_slot(w, cpu);
	uint64_t *ix = pd_vec_push(&w->index);
	if (!c || !ix)
		return -AP_ERR_NOMEM;
	size_t pad = (8 - (size & 7)) & 7; /* zero bytes: SPE Padding packets */
	*ix = w->pos;
	w_header(w, AP_PERF_RECORD_AUXTRACE, 0, PD_AUXTRACE_SIZE);
	w_u64(w, size + pad);
	w_u64(w, c->aux_head);
	w_u64(w, ++w->reference);
	w_u32(w, cpu >= 0 ? (uint32_t)cpu : 0); /* idx: per-cpu mmaps are indexed by cpu */
	w_u32(w, (uint32_t)tid);
	w_u32(w, (uint32_t)cpu);
	w_u32(w, 0);
	w_bytes(w, data, size);
	w_zero(w, pad);

	w_header(w, AP_PERF_RECORD_AUX, 0, PD_AUX_SIZE + sid_size(w));
	w_u64(w, c->aux_head);
	w_u64(w, size);
	w_u64(w, aux_flags);
	w_sid(w, pid, tid, time, cpu);
	c->aux_head += size + pad;
	return w->failed ? -AP_ERR_IO : 0;
}

/* perf_header_string: u32 length (padded to 64), the string, zeros. */
static void w_string(struct ap_perf_writer *w, const char *s)
{
	size_t len = strlen(s) + 1;
	size_t olen = (len + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1);
	w_u32(w, (uint32_t)olen);
	w_bytes(w, s, len - 1);
	w_zero(w, olen - (len - 1));
}

struct w_section {
	unsigned feat;
	uint64_t off, size;
};

/* HEADER_BUILD_ID: per file with a build ID, a struct
 * perf_record_header_build_id (perf's util/build-id.c write_buildid): an
 * event header (type 0, misc USER | BUILD_ID_SIZE, size), pid -1 (the
 * host), 20 bytes of ID, its size, 3 reserved bytes, then the file name
 * padded to 64. perf report then checks each file against its ID and
 * finds its debug file by it (perf buildid-list shows them). A file that
 * cannot be read or has no ID is left out. */
static void w_build_ids(struct ap_perf_writer *w)
{
	const struct w_dso *d = w->dsos.data;
	for (size_t i = 0; i < w->dsos.n; i++) {
		if (!d[i].id_len)
			continue;
		size_t len = strlen(d[i].name), n = (size_t)d[i].id_len;
		size_t padded = (len + 1 + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1);
		w_header(w, 0, W_MISC_USER | W_MISC_BUILD_ID_SIZE, W_BUILD_ID_EVENT + padded);
		w_u32(w, (uint32_t)W_HOST_PID);
		w_bytes(w, d[i].id, n);
		w_zero(w, W_BUILD_ID_MAX - n);
		uint8_t id_size = (uint8_t)n;
		w_bytes(w, &id_size, 1);
		w_zero(w, 3);
		w_bytes(w, d[i].name, len);
		w_zero(w, padded - len);
	}
}

/* A topology feature (write_topology.c), built in memory. */
static void w_topology(struct ap_perf_writer *w, unsigned feat)
{
	size_t n = pd_topology_feature(feat, w->cfg.nr_cpus, NULL, 0);
	uint8_t *buf = malloc(n);
	if (!buf) {
		w->failed = 1;
		w->io_errno = ENOMEM;
		return;
	}
	pd_topology_feature(feat, w->cfg.nr_cpus, buf, n);
	w_bytes(w, buf, n);
	free(buf);
}

static void w_feature(struct ap_perf_writer *w, struct w_section *sec)
{
	char cpuid[32];
	sec->off = w->pos;
	switch (sec->feat) {
	case AP_PERF_FEAT_BUILD_ID:
		w_build_ids(w);
		break;
	case AP_PERF_FEAT_ARCH:
		w_string(w, w->cfg.arch);
		break;
	case AP_PERF_FEAT_NRCPUS:
		w_u32(w, w->cfg.nr_cpus); /* nr_cpus_avail */
		w_u32(w, w->cfg.nr_cpus); /* nr_cpus_online */
		break;
	case AP_PERF_FEAT_CPUID:
		snprintf(cpuid, sizeof(cpuid), "0x%016llx", (unsigned long long)w->cfg.midr);
		w_string(w, cpuid);
		break;
	case AP_PERF_FEAT_EVENT_DESC:
		w_u32(w, 1);
		w_u32(w, PD_ATTR_SIZE_VER7);
		w_bytes(w, w->attr, sizeof(w->attr));
		w_u32(w, 1);
		w_string(w, w->cfg.event_name);
		w_u64(w, w->cfg.attr_id);
		break;
	case AP_PERF_FEAT_CPU_TOPOLOGY:
	case AP_PERF_FEAT_NUMA_TOPOLOGY:
	case AP_PERF_FEAT_MEM_TOPOLOGY:
		w_topology(w, sec->feat);
		break;
	case AP_PERF_FEAT_AUXTRACE: {
		const uint64_t *ix = w->index.data;
		w_u64(w, w->index.n);
		for (size_t i = 0; i < w->index.n; i++) {
			w_u64(w, ix[i]);
			w_u64(w, PD_AUXTRACE_SIZE); /* perf checks it against header.size */
		}
		break;
	}
	default:
		break;
	}
	sec->size = w->pos - sec->off;
}

static void writer_free(struct ap_perf_writer *w)
{
	pd_vec_free(&w->index);
	pd_vec_free(&w->cpus);
	struct w_dso *d = w->dsos.data;
	for (size_t i = 0; i < w->dsos.n; i++)
		free(d[i].name);
	pd_vec_free(&w->dsos);
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
	w_header(w, AP_PERF_RECORD_FINISHED_ROUND, 0, PD_EVENT_HEADER_SIZE);
	uint64_t data_size = w->pos - W_DATA_OFFSET;

	/* In feature bit order: perf reads the sections in that order. The
	 * BUILD_ID section only when some file of a mapping has a build ID. */
	struct w_section all[] = {
		{ AP_PERF_FEAT_BUILD_ID, 0, 0 },
		{ AP_PERF_FEAT_ARCH, 0, 0 },       { AP_PERF_FEAT_NRCPUS, 0, 0 },
		{ AP_PERF_FEAT_CPUID, 0, 0 },      { AP_PERF_FEAT_EVENT_DESC, 0, 0 },
		{ AP_PERF_FEAT_CPU_TOPOLOGY, 0, 0 }, { AP_PERF_FEAT_NUMA_TOPOLOGY, 0, 0 },
		{ AP_PERF_FEAT_AUXTRACE, 0, 0 },   { AP_PERF_FEAT_MEM_TOPOLOGY, 0, 0 },
	};
	int any_id = 0;
	const struct w_dso *d = w->dsos.data;
	for (size_t i = 0; i < w->dsos.n; i++)
		any_id |= d[i].id_len > 0;
	struct w_section *secs = any_id ? all : all + 1;
	const size_t n = sizeof(all) / sizeof(all[0]) - (any_id ? 0 : 1);
	uint64_t table = w->pos;
	w_zero(w, 16 * n); /* section table, filled below */
	for (size_t i = 0; i < n; i++)
		w_feature(w, &secs[i]);
	int rc = w_check(w, err, "features");
	if (rc)
		goto fail;
	if (fseek(w->f, (long)table, SEEK_SET) != 0)
		goto io_fail;
	for (size_t i = 0; i < n; i++) {
		w_u64(w, secs[i].off);
		w_u64(w, secs[i].size);
	}
	if (fseek(w->f, 0, SEEK_SET) != 0)
		goto io_fail;
	w_bytes(w, PD_MAGIC, 8);
	w_u64(w, PD_FILE_HEADER_SIZE);
	w_u64(w, W_ATTR_ENTRY);
	w_u64(w, W_ATTRS_OFFSET);
	w_u64(w, W_ATTR_ENTRY);
	w_u64(w, W_DATA_OFFSET);
	w_u64(w, data_size);
	w_u64(w, 0); /* event_types: unused */
	w_u64(w, 0);
	uint64_t bits[4] = { 0, 0, 0, 0 };
	for (size_t i = 0; i < n; i++)
		bits[secs[i].feat / 64] |= 1ull << (secs[i].feat % 64);
	w_bytes(w, bits, sizeof(bits));
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

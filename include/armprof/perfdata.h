/* perf.data files (Linux perf): read the SPE AUX data and side-band of a
 * capture, and write SPE buffers as a perf.data that `perf report -D`,
 * `perf script` and `perf report` (Debian linux-perf 6.1) decode as Arm SPE.
 *
 * The layout follows tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h; see docs/perfdata.md for what is read,
 * what is written, and why. Files are native (little) endian; a byte-swapped
 * file is reported as unsupported.
 *
 * Reading parses the whole file at open (headers, features, event stream,
 * decompressing PERF_RECORD_COMPRESSED); the AUX buffers are then views into
 * the mapped file (zero copy) or into the decompressed data. Every size taken
 * from the file is checked against what is left before it is used. */
#ifndef ARMPROF_PERFDATA_H
#define ARMPROF_PERFDATA_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#include "armprof/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* perf_event.h / perf's user record types used here. */
enum ap_perf_record_type {
	AP_PERF_RECORD_MMAP = 1,
	AP_PERF_RECORD_LOST = 2,
	AP_PERF_RECORD_COMM = 3,
	AP_PERF_RECORD_EXIT = 4,
	AP_PERF_RECORD_FORK = 7,
	AP_PERF_RECORD_SAMPLE = 9,
	AP_PERF_RECORD_MMAP2 = 10,
	AP_PERF_RECORD_AUX = 11,
	AP_PERF_RECORD_ITRACE_START = 12,
	AP_PERF_RECORD_LOST_SAMPLES = 13,
	AP_PERF_RECORD_SWITCH = 14,
	AP_PERF_RECORD_SWITCH_CPU_WIDE = 15,
	AP_PERF_RECORD_HEADER_ATTR = 64,
	AP_PERF_RECORD_HEADER_EVENT_TYPE = 65,
	AP_PERF_RECORD_HEADER_TRACING_DATA = 66,
	AP_PERF_RECORD_HEADER_BUILD_ID = 67,
	AP_PERF_RECORD_FINISHED_ROUND = 68,
	AP_PERF_RECORD_ID_INDEX = 69,
	AP_PERF_RECORD_AUXTRACE_INFO = 70,
	AP_PERF_RECORD_AUXTRACE = 71,
	AP_PERF_RECORD_AUXTRACE_ERROR = 72,
	AP_PERF_RECORD_TIME_CONV = 79,
	AP_PERF_RECORD_HEADER_FEATURE = 80,
	AP_PERF_RECORD_COMPRESSED = 81,
	AP_PERF_RECORD_FINISHED_INIT = 82,
	AP_PERF_RECORD_TYPE_LIMIT = 128 /* counters below cover types < this */
};

/* Header feature bits (perf's HEADER_*). */
enum ap_perf_feature {
	AP_PERF_FEAT_BUILD_ID = 2,
	AP_PERF_FEAT_HOSTNAME = 3,
	AP_PERF_FEAT_OSRELEASE = 4,
	AP_PERF_FEAT_VERSION = 5,
	AP_PERF_FEAT_ARCH = 6,
	AP_PERF_FEAT_NRCPUS = 7,
	AP_PERF_FEAT_CPUDESC = 8,
	AP_PERF_FEAT_CPUID = 9,
	AP_PERF_FEAT_EVENT_DESC = 12,
	AP_PERF_FEAT_CPU_TOPOLOGY = 13,
	AP_PERF_FEAT_NUMA_TOPOLOGY = 14,
	AP_PERF_FEAT_MEM_TOPOLOGY = 22,
	AP_PERF_FEAT_AUXTRACE = 18,
	AP_PERF_FEAT_COMPRESSED = 27,
	/* armprof's own section (ap_perf_write_config.armprof_meta): the
	 * highest bit perf's 256-bit feature map has, far above the features
	 * perf defines, which perf reads in bit order and stops after its
	 * last: perf skips it, whatever version. */
	AP_PERF_FEAT_ARMPROF_META = 255,
};

/* AUXTRACE_INFO type of Arm SPE (perf's PERF_AUXTRACE_ARM_SPE). */
#define AP_PERF_AUXTRACE_ARM_SPE 4u
/* Its priv[] words as perf 6.1 defines them. */
#define AP_PERF_SPE_PRIV_PMU_TYPE 0u
#define AP_PERF_SPE_PRIV_PER_CPU_MMAPS 1u
#define AP_PERF_SPE_PRIV_COUNT 2u

/* PERF_RECORD_AUX flags. The kernel's SPE driver sets TRUNCATED when the
 * profiling buffer filled (PMBSR_EL1 buffer-full) and COLLISION when
 * PMBSR_EL1.COLL was set (records lost to a collision). */
#define AP_PERF_AUX_FLAG_TRUNCATED 0x01u
#define AP_PERF_AUX_FLAG_OVERWRITE 0x02u
#define AP_PERF_AUX_FLAG_PARTIAL 0x04u
#define AP_PERF_AUX_FLAG_COLLISION 0x08u

/* attr.sample_type bits (perf_event.h enum perf_event_sample_format): the
 * fields of a PERF_RECORD_SAMPLE, which appear in the record in the order
 * perf_event.h lists them (IDENTIFIER first, then IP, TID, TIME, ADDR, ID,
 * STREAM_ID, CPU, PERIOD, READ, CALLCHAIN, RAW, BRANCH_STACK, REGS_USER,
 * STACK_USER, WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR,
 * PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE, AUX). */
#define AP_PERF_SAMPLE_IP (1u << 0)
#define AP_PERF_SAMPLE_TID (1u << 1)
#define AP_PERF_SAMPLE_TIME (1u << 2)
#define AP_PERF_SAMPLE_ADDR (1u << 3)
#define AP_PERF_SAMPLE_READ (1u << 4)
#define AP_PERF_SAMPLE_CALLCHAIN (1u << 5)
#define AP_PERF_SAMPLE_ID (1u << 6)
#define AP_PERF_SAMPLE_CPU (1u << 7)
#define AP_PERF_SAMPLE_PERIOD (1u << 8)
#define AP_PERF_SAMPLE_STREAM_ID (1u << 9)
#define AP_PERF_SAMPLE_RAW (1u << 10)
#define AP_PERF_SAMPLE_BRANCH_STACK (1u << 11)
#define AP_PERF_SAMPLE_REGS_USER (1u << 12)
#define AP_PERF_SAMPLE_STACK_USER (1u << 13)
#define AP_PERF_SAMPLE_WEIGHT (1u << 14)
#define AP_PERF_SAMPLE_DATA_SRC (1u << 15)
#define AP_PERF_SAMPLE_IDENTIFIER (1u << 16)
#define AP_PERF_SAMPLE_TRANSACTION (1u << 17)
#define AP_PERF_SAMPLE_REGS_INTR (1u << 18)
#define AP_PERF_SAMPLE_PHYS_ADDR (1u << 19)
#define AP_PERF_SAMPLE_AUX (1u << 20)
#define AP_PERF_SAMPLE_CGROUP (1u << 21)
#define AP_PERF_SAMPLE_DATA_PAGE_SIZE (1u << 22)
#define AP_PERF_SAMPLE_CODE_PAGE_SIZE (1u << 23)
#define AP_PERF_SAMPLE_WEIGHT_STRUCT (1u << 24)
/* A record's cpumode (perf_event_header.misc & 7). */
#define AP_PERF_MISC_KERNEL 1u
#define AP_PERF_MISC_USER 2u
/* Callchain context markers (perf_event.h enum perf_callchain_context):
 * the entries after one are addresses in that context. */
#define AP_PERF_CONTEXT_KERNEL ((uint64_t)-128)
#define AP_PERF_CONTEXT_USER ((uint64_t)-512)
/* attr flag bits (the bitfield word at offset 40). */
#define AP_PERF_ATTR_DISABLED (1ull << 0)
#define AP_PERF_ATTR_EXCLUDE_KERNEL (1ull << 5)
#define AP_PERF_ATTR_EXCLUDE_HV (1ull << 6)
#define AP_PERF_ATTR_SAMPLE_ID_ALL (1ull << 18)

/* Where reading failed: the byte offset in the file (for data inside a
 * PERF_RECORD_COMPRESSED payload: the offset of that COMPRESSED record, with
 * the offset inside its decompressed stream in inner_offset), the record
 * type concerned (0 outside the event stream), and a message. */

/* Name of a record type ("PERF_RECORD_AUXTRACE"), or "PERF_RECORD_<n>". The
 * pointer is to static storage for known types; buf (>= 24 bytes) is used
 * for the others. */
AP_API const char *ap_perf_record_name(uint32_t type, char *buf, size_t cap);

/* ---- Reader ----------------------------------------------------------- */

struct ap_perf_attr {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format, flags;
	uint64_t config1, config2;
	uint64_t branch_sample_type, sample_regs_user, sample_regs_intr; /* 0 when the attr is
	                                                                    too old to have them */
	uint32_t n_ids;
	const uint64_t *ids;
	const char *name; /* from EVENT_DESC, or NULL */
	uint64_t config3, config4; /* 0 when the attr is too old (VER8: 136 bytes, VER9: 144) */
};

struct ap_perf_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
	uint8_t has_cycles; /* the record carried time_cycles.. (newer layout) */
};

/* The sample_id trailer of a non-sample record (attr.sample_id_all).
 * Fields the attr does not carry are -1 / 0 with the has_* bit clear. */
struct ap_perf_sample_id {
	int32_t pid, tid, cpu;
	uint64_t time, id;
	uint8_t has_tid, has_time, has_cpu, has_id;
};

struct ap_perf_comm {
	int32_t pid, tid;
	char comm[32];
	uint8_t exec; /* misc COMM_EXEC */
	struct ap_perf_sample_id sid;
};

struct ap_perf_mmap {
	int32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t prot, flags; /* MMAP2 only, else 0 */
	uint8_t is_mmap2;
	uint16_t misc;
	const char *filename; /* NUL-terminated copy owned by the reader */
	struct ap_perf_sample_id sid;
};

/* An entry of the BUILD_ID feature: a file and its build ID, as perf
 * record found them (perf buildid-list). */
struct ap_perf_build_id {
	int32_t pid;          /* -1: the host */
	uint16_t misc;
	uint8_t size;         /* bytes of id (20 when the entry does not say) */
	uint8_t id[20];
	const char *filename; /* NUL-terminated copy owned by the reader */
};

struct ap_perf_aux_record {
	uint64_t file_offset;
	uint64_t aux_offset, aux_size, flags;
	struct ap_perf_sample_id sid;
};

struct ap_perf_itrace_start {
	int32_t pid, tid;
	struct ap_perf_sample_id sid;
};

/* One AUXTRACE record and its payload. */
struct ap_perf_aux_buffer {
	const uint8_t *data;   /* the payload, size bytes */
	uint64_t size;
	uint64_t unpadded_size; /* size without the zero bytes perf record pads
	                           payloads to 8 with, when the AUX records
	                           account for the rest; else size */
	uint64_t record_offset; /* file offset of the AUXTRACE record */
	uint64_t data_offset;   /* file offset of the payload (0 if it came
	                           from a COMPRESSED record) */
	uint64_t aux_offset;    /* auxtrace.offset: position in the AUX area */
	uint64_t reference;
	uint32_t idx;           /* mmap index: perf queues buffers by it */
	int32_t tid, cpu;
	uint32_t seq;           /* position among all AUXTRACE records */
	uint32_t seq_in_queue;  /* position within its idx queue */
	uint64_t aux_flags;     /* OR of the flags of the PERF_RECORD_AUX
	                           records whose range overlaps this buffer */
	uint32_t n_aux_records; /* how many such AUX records */
};

struct ap_perf_info {
	uint8_t pipe_mode;
	uint64_t file_size;
	uint64_t data_offset, data_size;
	uint64_t features[4]; /* bitmap of header features present */

	const char *cpuid;    /* CPUID feature string, or NULL */
	uint64_t midr;        /* parsed from cpuid when it is an arm64 MIDR */
	uint8_t has_midr;
	const char *arch, *hostname, *osrelease, *version; /* or NULL */
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint8_t has_nrcpus;

	size_t n_attrs;
	const struct ap_perf_attr *attrs;

	uint8_t has_auxtrace_info;
	uint32_t auxtrace_type;
	size_t n_auxtrace_priv;
	const uint64_t *auxtrace_priv;
	uint8_t has_time_conv;
	struct ap_perf_time_conv time_conv;
	size_t n_auxtrace_index; /* entries of the AUXTRACE feature (index) */

	uint64_t n_records[AP_PERF_RECORD_TYPE_LIMIT]; /* by type (incl. decompressed) */
	uint64_t n_unknown_records; /* types perf.data does not define here: skipped by size */
	uint64_t n_compressed, decompressed_bytes;

	size_t n_comms, n_mmaps, n_aux_records, n_itrace_starts;
	const struct ap_perf_comm *comms;
	const struct ap_perf_mmap *mmaps;
	const struct ap_perf_aux_record *aux_records;
	const struct ap_perf_itrace_start *itrace_starts;

	size_t n_build_ids;   /* entries of the BUILD_ID feature */
	const struct ap_perf_build_id *build_ids;

	size_t n_samples;         /* PERF_RECORD_SAMPLE records listed (ap_perf_next_sample) */
	size_t n_samples_unknown; /* samples not listed: their attr's sample_type has bits
	                             this reader does not know */

	size_t n_aux_buffers; /* AUXTRACE records, in file order */
	const struct ap_perf_aux_buffer *aux_buffers;
	uint64_t aux_bytes;   /* sum of their sizes */
	uint32_t n_queues;    /* 1 + the highest idx */

	const char *armprof_meta; /* the AP_PERF_FEAT_ARMPROF_META section's text
	                             (`armprof record`'s metadata), or NULL */
};

struct ap_perf_read_config {
	size_t size;               /* sizeof(struct ap_perf_read_config) */
	uint64_t max_decompressed; /* bound on decompressed bytes; 0: 4 GiB */
};
AP_API void ap_perf_read_config_init(struct ap_perf_read_config *cfg);

struct ap_perf_reader; /* opaque */

/* Open a perf.data file (mapped, zero copy; a pipe or FIFO is read whole).
 * cfg may be NULL. Returns 0, or a negative enum ap_error with *err filled:
 * -AP_ERR_IO (cannot open/read), -AP_ERR_FORMAT (malformed: err names the
 * offset and record type), -AP_ERR_UNSUPPORTED (byte-swapped file),
 * -AP_ERR_NOMEM. */
AP_API int ap_perf_reader_create_file(struct ap_perf_reader **out, const char *path,
                             const struct ap_perf_read_config *cfg, struct ap_error_ctx *err);
/* The same from an open descriptor read to its end (e.g. stdin). */
AP_API int ap_perf_reader_create_fd(struct ap_perf_reader **out, int fd,
                           const struct ap_perf_read_config *cfg, struct ap_error_ctx *err);
/* The same from memory the caller keeps alive until ap_perf_reader_destroy. */
AP_API int ap_perf_reader_create_mem(struct ap_perf_reader **out, const uint8_t *data, size_t len,
                            const struct ap_perf_read_config *cfg, struct ap_error_ctx *err);
AP_API void ap_perf_reader_destroy(struct ap_perf_reader *r);
/* The caller is done with len bytes at data (an AUX buffer's, or part of
 * one): where they are pages of the mapped file, those wholly inside the
 * range leave the process's memory (they are read from the file again if
 * touched), so that reading a file of any size keeps the resident size
 * flat. Data held in memory (a pipe's, decompressed) stays. */
AP_API void ap_perf_reader_release(const struct ap_perf_reader *r, const uint8_t *data, size_t len);
/* Whether the mapped file shrank while it was read (truncated or rewritten
 * by another process): its pages past the new end read as zeros instead of
 * killing the process with SIGBUS (the reader handles SIGBUS in its own
 * mappings and passes any other one on to the handler before it), and
 * ap_perf_next_aux_buffer and ap_perf_next_sample stop there. Returns 0,
 * or -AP_ERR_IO with err saying "the file shrank while being read (offset
 * N)" (err->offset: N, the first page that was gone). A caller checks it
 * after the last buffer or sample it used, before it keeps any output;
 * ap_perf_reader_create_file checks it itself. */
AP_API int ap_perf_reader_check(const struct ap_perf_reader *r, struct ap_error_ctx *err);

AP_API const struct ap_perf_info *ap_perf_info(const struct ap_perf_reader *r);

/* A whole regular file mapped read-only and guarded as the reader maps a
 * perf.data (ap_perf_reader_check): if the file shrinks while mapped, its
 * pages past the new end read as zeros instead of killing the process with
 * SIGBUS, and ap_mapped_file_check says so. For raw SPE data read in place. */
struct ap_mapped_file {
	const uint8_t *data;
	size_t len;
	int guard_; /* private */
};
/* Map fd's file: 0; 1 when it is not to be mapped (not a regular file,
 * empty, or no guard left): the caller reads it instead; or -AP_ERR_IO
 * with err filled (cannot stat or map). */
AP_API int ap_mapped_file_open(struct ap_mapped_file *m, int fd, struct ap_error_ctx *err);
/* 0, or -AP_ERR_IO with err: "the file shrank while being read (offset N)". */
AP_API int ap_mapped_file_check(const struct ap_mapped_file *m, struct ap_error_ctx *err);
AP_API void ap_mapped_file_close(struct ap_mapped_file *m);

/* 1 if the bytes start like a perf.data file ("PERFILE2", either endian). */
AP_API int ap_perf_is_perfdata(const uint8_t *buf, size_t len);

/* One PERF_RECORD_SAMPLE: written with ap_perf_write_sample, read with
 * ap_perf_next_sample. A field is in the record when its attr's
 * sample_type has its AP_PERF_SAMPLE_* bit. */
struct ap_perf_sample {
	uint32_t event;     /* writer: index in cfg.events; reader: index in info->attrs */
	uint16_t misc;      /* header misc: its cpumode AP_PERF_MISC_USER or _KERNEL
	                       decides where perf looks for the ip's symbol */
	uint64_t ip;        /* IP */
	int32_t pid, tid;   /* TID */
	uint64_t time;      /* TIME (perf time) */
	uint64_t addr;      /* ADDR: the data address of a memory access */
	uint64_t id;        /* ID or IDENTIFIER (the writer writes the event's) */
	int32_t cpu;        /* CPU */
	uint64_t period;    /* PERIOD */
	uint64_t weight;    /* WEIGHT, or WEIGHT_STRUCT's 64 bits (var1_dw, the
	                       latency, in the low 32) */
	uint64_t data_src;  /* DATA_SRC: perf's union perf_mem_data_src */
	uint64_t phys_addr; /* PHYS_ADDR */
	uint32_t n_callchain; /* CALLCHAIN: its entries, innermost first (the
	                         sampled ip), context markers included */
	const uint64_t *callchain;
	/* reader only: */
	uint64_t present;     /* the attr's sample_type: which fields the record had */
	uint64_t file_offset; /* of the record (or of the COMPRESSED record it is in) */
};

/* Samples in file order. */
struct ap_perf_sample_iter {
	size_t size; /* sizeof(struct ap_perf_sample_iter) */
	size_t pos_; /* private */
};
AP_API void ap_perf_sample_iter_init(struct ap_perf_sample_iter *it);
/* Next sample: returns 1 and fills *out (its callchain points into the
 * reader's data, valid until ap_perf_reader_destroy), or 0 at the end. Every sample
 * was checked at open: a record too short for the fields its attr says it
 * has, a callchain running past its record, or an IDENTIFIER no attr has
 * made the open fail with -AP_ERR_FORMAT naming its offset. Samples of an
 * attr whose sample_type has bits this reader does not know (beyond
 * WEIGHT_STRUCT) are not listed (info->n_samples_unknown counts them). */
AP_API int ap_perf_next_sample(const struct ap_perf_reader *r, struct ap_perf_sample_iter *it,
                               struct ap_perf_sample *out);

/* Iterate over AUX buffers, optionally selected by cpu and/or tid.
 * Order AP_PERF_ORDER_FILE is the AUXTRACE records' file order;
 * AP_PERF_ORDER_QUEUE gives queue 0's buffers, then queue 1's, ... (the
 * per-idx order perf's decoder consumes them in). */
enum ap_perf_order { AP_PERF_ORDER_FILE = 0, AP_PERF_ORDER_QUEUE = 1 };
#define AP_PERF_ANY (-2) /* cpu/tid filter value that matches everything */
struct ap_perf_aux_iter {
	size_t size;      /* sizeof(struct ap_perf_aux_iter) */
	int32_t cpu, tid; /* AP_PERF_ANY, or the value to select */
	uint8_t order;    /* enum ap_perf_order */
	size_t pos_;      /* private */
	uint32_t queue_;  /* private */
};
AP_API void ap_perf_aux_iter_init(struct ap_perf_aux_iter *it);
/* Next selected buffer: returns 1 and sets *out, or 0 at the end. */
AP_API int ap_perf_next_aux_buffer(const struct ap_perf_reader *r, struct ap_perf_aux_iter *it,
                                   const struct ap_perf_aux_buffer **out);

/* ---- Writer ----------------------------------------------------------- */

/* A sample event of the file (an attr whose samples the caller writes
 * with ap_perf_write_sample). */
struct ap_perf_write_event {
	uint32_t type;          /* attr.type: 0 hardware, 1 software, 4 raw, or a
	                           PMU's dynamic type */
	uint64_t config;        /* attr.config (e.g. 0 with type 1: cpu-clock) */
	uint64_t sample_period; /* attr.sample_period (0: 1); perf takes it as
	                           each sample's period when PERIOD is absent */
	uint64_t sample_type;   /* fields of its samples: any of IP, TID, TIME,
	                           ADDR, ID, CPU, PERIOD, CALLCHAIN, WEIGHT,
	                           DATA_SRC, IDENTIFIER, PHYS_ADDR (IDENTIFIER is
	                           added when the file has several attrs) */
	const char *name;       /* EVENT_DESC name perf shows ("cpu-clock"),
	                           required; copied */
};

struct ap_perf_write_config {
	size_t size;            /* sizeof(struct ap_perf_write_config) */
	uint32_t pmu_type;      /* attr.type of the SPE PMU (dynamic type) */
	uint64_t spe_config;    /* attr.config (PMSCR-like bits, as perf passes) */
	uint64_t midr;          /* written as the CPUID feature "0x%016llx" */
	const char *event_name; /* EVENT_DESC name, default "arm_spe_0//" */
	const char *arch;       /* ARCH feature, default "aarch64" */
	uint32_t nr_cpus;       /* NRCPUS online and available */
	uint8_t sample_time;    /* 1: attr carries PERF_SAMPLE_TIME (perf
	                           orders SPE records by their timestamps) */
	uint64_t time_mult, time_shift, time_zero; /* TIME_CONV */
	uint64_t attr_id;       /* the attr's sample id */
	uint8_t exclude_kernel; /* attr.exclude_kernel (every attr) */
	uint8_t spe;            /* 1 (the default): the file has the SPE attr
	                           (first, id attr_id), AUXTRACE_INFO and the
	                           AUXTRACE index; 0: sample events only, and
	                           ap_perf_write_aux is refused */
	const struct ap_perf_write_event *events; /* sample events, after SPE's
	                           attr, ids attr_id + 1, ... (attr_id, ... without
	                           SPE); read at open, not kept */
	size_t n_events;
	const char *armprof_meta; /* text written as the AP_PERF_FEAT_ARMPROF_META
	                           section (a perf header string), or NULL for
	                           none; the caller's, read at finish */
	/* The SPE attr's other config words, as the PMU's format defines them
	 * (Linux arm_spe_pmu: config1 event_filter, config2 min_latency,
	 * config3 inv_event_filter, config4 inv_data_src_filter). Every attr
	 * of the file is 128 bytes (PERF_ATTR_SIZE_VER7, what perf 6.1
	 * reads) unless config3 (136, VER8) or config4 (144, VER9) is set. */
	uint64_t spe_config1, spe_config2, spe_config3, spe_config4;
};
AP_API void ap_perf_write_config_init(struct ap_perf_write_config *cfg);

struct ap_perf_writer; /* opaque */

/* Create PATH through a temporary file in the same directory; nothing
 * appears at PATH until ap_perf_writer_finish succeeds. A file already
 * there keeps its mode (a new one gets 0644); a symbolic link to a file
 * stays, and its target is replaced. A path that is not a regular file (a
 * device, a FIFO) is refused with -AP_ERR_INVALID: write it through
 * ap_perf_writer_create_fd. Writes the attrs, AUXTRACE_INFO (type 4, with
 * cfg.spe) and TIME_CONV. cfg may be NULL. -AP_ERR_INVALID also for no
 * attr at all (spe 0 and no events), an event without a name, or one
 * asking for sample fields the writer does not write. */
AP_API int ap_perf_writer_create(struct ap_perf_writer **out, const char *path,
                               const struct ap_perf_write_config *cfg, struct ap_error_ctx *err);
/* The same into fd, open for writing, seekable and at offset 0 (the header
 * is written last): -AP_ERR_INVALID otherwise. The writer writes through a
 * duplicate of fd; ap_perf_writer_finish flushes and closes that and
 * leaves fd (its sync, close and rename) to the caller. */
AP_API int ap_perf_writer_create_fd(struct ap_perf_writer **out, int fd,
                                  const struct ap_perf_write_config *cfg, struct ap_error_ctx *err);
/* Side-band for the profiled program (perf needs a thread to attribute
 * samples and a map to find symbols). time is the record's sample time. */
AP_API int ap_perf_write_comm(struct ap_perf_writer *w, int32_t pid, int32_t tid,
                              const char *comm, uint64_t time);
AP_API int ap_perf_write_mmap2(struct ap_perf_writer *w, int32_t pid, int32_t tid,
                               uint64_t addr, uint64_t len, uint64_t pgoff,
                               uint32_t prot, const char *filename, uint64_t time);
/* One AUX buffer: a PERF_RECORD_AUXTRACE with its payload (padded with zero
 * bytes, i.e. SPE Padding, to a multiple of 8 as perf record does), then a
 * PERF_RECORD_AUX with aux_flags. cpu -1 with a tid is per-thread mode. */
AP_API int ap_perf_write_aux(struct ap_perf_writer *w, int32_t cpu, int32_t pid, int32_t tid,
                             const uint8_t *data, size_t size, uint64_t aux_flags, uint64_t time);
/* One PERF_RECORD_SAMPLE of cfg.events[s->event]: header misc s->misc,
 * then the fields that event's sample_type names, in perf_event.h's
 * order, from *s (id is the event's own; the callchain is written as
 * given: perf expects AP_PERF_CONTEXT_USER (or _KERNEL) before the
 * addresses, the sampled ip first, then the return addresses outward).
 * Returns 0, -AP_ERR_INVALID (no such event, or a callchain that makes the
 * record longer than 65535 bytes), -AP_ERR_IO (a write failed: finish
 * fails too). No allocation. */
AP_API int ap_perf_write_sample(struct ap_perf_writer *w, const struct ap_perf_sample *s);
/* Write the feature sections and header, then (opened by path) sync and
 * rename into place. The writer
 * is freed whatever the result; on failure the temporary file is removed. */
AP_API int ap_perf_writer_finish(struct ap_perf_writer *w, struct ap_error_ctx *err);
/* Destroy a writer that was not finished: abandon its output (the
 * temporary file is removed; with _create_fd, fd is left as it is) and free. */
AP_API void ap_perf_writer_destroy(struct ap_perf_writer *w);

/* ---- ELF helper for attributing samples to a binary ------------------- */

/* A PT_LOAD segment of an ELF64 file, as a page-aligned map. */
struct ap_perf_elf_map {
	uint64_t addr, len, pgoff;
	uint32_t prot; /* PROT_READ/WRITE/EXEC bits from p_flags */
};
/* Read the executable PT_LOAD segments of an ELF64 little-endian file.
 * Returns the number found (<= cap are stored), or a negative enum ap_error
 * with *err filled. These ELF helpers read regular files only: a FIFO,
 * socket or device is -AP_ERR_IO (it is never opened to wait for a writer
 * nor read forever). */
AP_API int ap_perf_elf_exec_maps(const char *path, struct ap_perf_elf_map *maps, size_t cap,
                                 struct ap_error_ctx *err);
/* The same for every PT_LOAD segment, the data ones too (prot without
 * PROT_EXEC): mapped, they let perf mem and perf c2c name the global
 * variable a data address lies in. */
AP_API int ap_perf_elf_load_maps(const char *path, struct ap_perf_elf_map *maps, size_t cap,
                                 struct ap_error_ctx *err);
/* 1 when path is a 64-bit little-endian aarch64 ELF file (a profiled
 * program's, its loader's or a library's), else 0. */
AP_API int ap_perf_elf_is_aarch64(const char *path);
/* The interpreter (dynamic loader) an ELF64 little-endian program asks
 * for, its PT_INTERP: returns 1 with the path in out (NUL-terminated), 0
 * with out empty for a program without one (static), or a negative enum
 * ap_error (-AP_ERR_IO: cannot read; -AP_ERR_FORMAT: not such an ELF file,
 * or its program headers or interpreter string are out of the file, or
 * the string does not fit in cap). */
AP_API int ap_perf_elf_interp(const char *path, char *out, size_t cap);
/* The GNU build ID (NT_GNU_BUILD_ID note of a PT_NOTE segment) of the
 * ELF64 file at path, into id: its length in bytes, 0 when the file has
 * none, -AP_ERR_FORMAT (not an ELF64 file, or an ID longer than cap) or
 * -AP_ERR_IO. */
AP_API int ap_perf_elf_build_id(const char *path, uint8_t *id, size_t cap);

#ifdef __cplusplus
}
#endif
#endif

/* Private to lib/perfdata: the reader's state, a growable array, bounded
 * little-endian field access, and the error helper. */
#ifndef ARMPROF_PERF_INTERNAL_H
#define ARMPROF_PERF_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "armprof/perfdata.h"

/* On-disk sizes (perf_event.h, perf.data-file-format.txt). */
#define PD_FILE_HEADER_SIZE 104u  /* magic, size, attr_size, 3 sections, 256-bit flags */
#define PD_PIPE_HEADER_SIZE 16u   /* magic, size */
#define PD_EVENT_HEADER_SIZE 8u   /* u32 type, u16 misc, u16 size */
#define PD_ATTR_SIZE_VER0 64u     /* smallest perf_event_attr */
#define PD_ATTR_SIZE_VER7 128u    /* perf 6.1's sizeof(struct perf_event_attr) */
#define PD_ATTR_SIZE_VER8 136u    /* + config3 (Linux 6.3) */
#define PD_ATTR_SIZE_VER9 144u    /* + config4 (Linux 7.x: arm_spe's inv_data_src_filter) */
#define PD_ATTR_SIZE_MAX 4096u    /* refuse anything larger as malformed */
#define PD_AUXTRACE_SIZE 48u      /* struct perf_record_auxtrace */
#define PD_AUXTRACE_INFO_SIZE 16u /* header + u32 type + u32 reserved */
#define PD_AUX_SIZE 32u           /* header + aux_offset, aux_size, flags */
#define PD_TIME_CONV_V1_SIZE 32u  /* header + shift, mult, zero */
#define PD_TIME_CONV_V2_SIZE 56u  /* + cycles, mask, 2 caps, 6 reserved */
#define PD_NAME_ALIGN 64u         /* perf pads header strings to this */
#define PD_MAGIC "PERFILE2"
#define PD_MAGIC_SWAPPED "2ELIFREP"

#define PD_MISC_COMM_EXEC (1u << 13)

static inline uint16_t pd_u16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}
static inline uint32_t pd_u32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}
static inline uint64_t pd_u64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* A growable array of fixed-size elements. */
struct pd_vec {
	void *data;
	size_t n, cap, elem;
};
void pd_vec_init(struct pd_vec *v, size_t elem);
/* Append one zeroed element; returns it, or NULL if out of memory. */
void *pd_vec_push(struct pd_vec *v);
void pd_vec_free(struct pd_vec *v);

/* An owned copy of a string (strings are kept in one list and freed at close). */
struct pd_strings {
	char **items;
	size_t n, cap;
};
const char *pd_strdup_n(struct pd_strings *s, const char *src, size_t max);
void pd_strings_free(struct pd_strings *s);

/* Fill err (if not NULL); returns -code for "return pd_fail(...)". */
int pd_fail(struct ap_error_ctx *err, int code, uint64_t offset, uint32_t record_type,
            const char *where, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Where an AUXTRACE payload lives: in the file, or in the decompressed arena
 * (which can move while it grows, so offsets, not pointers, until the end). */
struct pd_aux_slot {
	struct ap_perf_aux_buffer buf;
	uint8_t in_arena;
	uint64_t arena_offset;
};

/* A PERF_RECORD_SAMPLE checked at open: where it is and whose it is. */
struct pd_sample_slot {
	uint64_t offset;      /* in the file, or in the arena when in_arena */
	uint64_t file_offset; /* for the caller: the record's, or its COMPRESSED record's */
	size_t attr;          /* index in attrs */
	size_t chain_copy;    /* 1 + index in chains of an aligned copy of its
	                         callchain (the record's is not 8-byte aligned), or 0 */
	uint8_t in_arena;
};

/* An EVENT_DESC entry: matched to attrs by id once all attrs are known (in
 * pipe mode the feature may come before the HEADER_ATTR records). */
struct pd_event_desc {
	const char *name;
	uint64_t first_id;
	uint8_t has_id;
};

struct ap_perf_reader {
	const uint8_t *file;
	size_t file_len;
	void *map;          /* munmap at close */
	size_t map_len;
	size_t map_released; /* pd_release_parsed: bytes of the map given back */
	uint8_t *owned;     /* free at close (fd read whole) */
	int guard;          /* map's pd_guard_add slot, or -1 */
	struct ap_perf_read_config cfg;

	struct ap_perf_info info;
	struct pd_vec attrs;       /* struct ap_perf_attr */
	struct pd_vec ids;         /* uint64_t storage, per attr, see attr_ids_off */
	struct pd_vec attr_ids_off; /* size_t: start of each attr's ids in ids */
	struct pd_vec comms, mmaps, aux_records, itrace_starts;
	struct pd_vec aux_slots;   /* struct pd_aux_slot */
	struct pd_vec aux_buffers; /* struct ap_perf_aux_buffer, resolved at the end */
	struct pd_vec queue_counts; /* uint32_t per idx */
	struct pd_vec auxtrace_priv; /* uint64_t */
	struct pd_vec event_descs;  /* struct pd_event_desc */
	struct pd_vec build_ids;    /* struct ap_perf_build_id */
	struct pd_vec samples;      /* struct pd_sample_slot */
	struct pd_vec chains;       /* uint64_t: aligned copies of misaligned callchains */
	struct pd_strings strings;

	/* Decompressed PERF_RECORD_COMPRESSED data. */
	uint8_t *arena;
	size_t arena_len, arena_cap;
	size_t arena_parsed; /* arena bytes already parsed as events */
	void *zstd;          /* ZSTD_DStream, created on first use */
	uint8_t zstd_in_frame; /* the last COMPRESSED record ended inside a zstd block */
	uint64_t compressed_offset; /* file offset of the COMPRESSED record being parsed */
};

/* lib/perfdata/read_header.c: file header, attrs, feature sections. */
int pd_read_file_header(struct ap_perf_reader *r, struct ap_error_ctx *err);
/* Parse one feature's bytes (file section or pipe HEADER_FEATURE payload). */
int pd_read_feature(struct ap_perf_reader *r, unsigned feat, const uint8_t *p, size_t len,
                    uint64_t offset, struct ap_error_ctx *err);
/* Record an attr (with ids copied) from bytes p[0..attr_len). */
int pd_add_attr(struct ap_perf_reader *r, const uint8_t *p, size_t attr_len,
                const uint8_t *ids, size_t n_ids, uint64_t offset, uint32_t rtype,
                struct ap_error_ctx *err);

/* Give attrs their ids pointers and EVENT_DESC names (after all are read). */
void pd_name_attrs(struct ap_perf_reader *r);

/* lib/perfdata/read_events.c: the event stream. */
int pd_read_events(struct ap_perf_reader *r, const uint8_t *p, size_t len,
                   uint64_t base_offset, struct ap_error_ctx *err);

/* lib/perfdata/read_samples.c: PERF_RECORD_SAMPLE. */
/* The attr of the sample rec (index in *attr, its id in *id): 0, or -1 (no
 * attr yet), -2 (the record ends before its id), -3 (no attr has that id). */
int pd_sample_attr(const struct ap_perf_reader *r, const uint8_t *rec, size_t size, size_t *attr,
                   uint64_t *id);
/* 1 when every bit of sample_type is one this reader can parse. */
int pd_sample_type_known(uint64_t sample_type);
/* Parse rec[0..size) as a sample of attr a into *s (callchain not set: its
 * entries start at rec + *chain_off). Returns NULL, or the name of the
 * field that does not fit in the record. */
const char *pd_parse_sample(const struct ap_perf_attr *a, const uint8_t *rec, size_t size,
                            struct ap_perf_sample *s, size_t *chain_off);

/* lib/perfdata/aux_flags.c: AUX record flags and padding of each buffer. */
int pd_match_aux_flags(const struct ap_perf_aux_record *aux, size_t n_aux,
                       struct ap_perf_aux_buffer *bufs, size_t n_bufs, const struct ap_perf_reader *r);

/* lib/perfdata/read_zstd.c: append the decompression of src to r->arena. */
int pd_decompress(struct ap_perf_reader *r, const uint8_t *src, size_t len,
                  uint64_t offset, struct ap_error_ctx *err);
void pd_zstd_free(struct ap_perf_reader *r);

/* write_topology.c: the bytes of topology feature feat (CPU_TOPOLOGY,
 * NUMA_TOPOLOGY or MEM_TOPOLOGY) for nr_cpus CPUs into buf, at most cap of
 * them; returns the feature's size (call with NULL, 0 to learn it). */
size_t pd_topology_feature(unsigned feat, uint32_t nr_cpus, uint8_t *buf, size_t cap);

/* reader.c: the parse has walked the mapped file up to upto: give back
 * (madvise) the pages behind it, every 4 MiB (nothing for data in memory). */
void pd_release_parsed(struct ap_perf_reader *r, const uint8_t *upto);
/* The pages of the mapped file around p (a read's fault-around), given
 * back: after reading a few bytes of a buffer's tail. */
void pd_release_around(const struct ap_perf_reader *r, const uint8_t *p);

/* map_guard.c: a SIGBUS in a guarded mapping (its file shrank under it)
 * maps zeros over the page and is remembered instead of killing the
 * process. pd_guard_add returns the guard's slot, or -1 (the table is full,
 * or no handler could be installed: the caller reads the file instead).
 * pd_guard_fault: 1 and the offset of the first page that faulted, or 0. */
int pd_guard_add(const void *map, size_t len);
void pd_guard_remove(int slot);
int pd_guard_fault(int slot, uint64_t *offset);

#endif

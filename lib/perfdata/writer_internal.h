/* Private to lib/perfdata's writer: its state, shared by writer.c (file,
 * side-band, AUX), write_sample.c (PERF_RECORD_SAMPLE) and
 * write_features.c (the feature sections). */
#ifndef ARMPROF_WRITER_INTERNAL_H
#define ARMPROF_WRITER_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "perfdata/perf_internal.h"

#define W_BUILD_ID_MAX 20 /* perf's BUILD_ID_SIZE */

/* A file of an executable mapping and its build ID (read once, when the
 * file is first mapped; id_len 0: none, or not readable). */
struct w_dso {
	char *name;
	uint8_t id[W_BUILD_ID_MAX];
	int id_len;
};

/* One perf_event_attr of the file: the SPE event's, or a sample event's. */
struct w_attr {
	uint8_t bytes[PD_ATTR_SIZE_VER9]; /* the first attr_size of them are written */
	uint64_t id;
	uint64_t sample_type;
	char *name; /* EVENT_DESC name (owned) */
};

struct ap_perf_writer {
	FILE *f;
	char *path, *tmp;
	uint64_t pos; /* current file offset */
	int failed;   /* an I/O error happened: finish fails */
	int io_errno;
	struct ap_perf_write_config cfg;
	struct w_attr *attrs; /* the SPE attr first (when cfg.spe), then cfg.events */
	size_t n_attrs;
	/* Every attr's size (perf wants one for the file): VER7 (128, what
	 * perf 6.1 reads), larger only for the SPE config words beyond it
	 * (config3: VER8, config4: VER9) that are set. */
	uint32_t attr_size;
	size_t first_event;   /* index in attrs of cfg.events[0] */
	struct pd_vec index; /* uint64_t: file offsets of AUXTRACE records */
	struct pd_vec cpus;  /* struct w_cpu */
	struct pd_vec dsos;  /* struct w_dso: the files of executable mappings, once each */
	uint64_t reference;
	/* Bytes not yet handed to f: most records are written a field at a
	 * time, and a stdio call per field (its lock, its checks) cost more
	 * than building the records (a fifth of armprof record's conversion
	 * of a large call-graph recording). */
	size_t buf_n;
	uint8_t buf[64 * 1024];
};

/* pd_w_bytes when the buffer has no room for n more bytes. */
void pd_w_spill(struct ap_perf_writer *w, const void *p, size_t n);
/* Hand the buffered bytes to f (errors kept as pd_w_bytes keeps them). */
void pd_w_flush(struct ap_perf_writer *w);
/* Flush, then move to file offset off (pos follows). Returns 0, or -1
 * when seeking failed (errno). */
int pd_w_seek(struct ap_perf_writer *w, uint64_t off);

/* Append n bytes at p: pos counts them, the first I/O error is kept
 * (failed, io_errno) and later bytes are dropped. */
static inline void pd_w_bytes(struct ap_perf_writer *w, const void *p, size_t n)
{
	if (n <= sizeof(w->buf) - w->buf_n) {
		memcpy(w->buf + w->buf_n, p, n);
		w->buf_n += n;
		w->pos += n;
		return;
	}
	pd_w_spill(w, p, n);
}
void pd_w_zero(struct ap_perf_writer *w, size_t n);
static inline void pd_w_u16(struct ap_perf_writer *w, uint16_t v) { pd_w_bytes(w, &v, 2); }
static inline void pd_w_u32(struct ap_perf_writer *w, uint32_t v) { pd_w_bytes(w, &v, 4); }
static inline void pd_w_u64(struct ap_perf_writer *w, uint64_t v) { pd_w_bytes(w, &v, 8); }
static inline void pd_w_header(struct ap_perf_writer *w, uint32_t type, uint16_t misc, size_t size)
{
	pd_w_u32(w, type);
	pd_w_u16(w, misc);
	pd_w_u16(w, (uint16_t)size);
}

/* write_features.c: at the current position, the feature section table
 * and the sections, in feature-bit order; then the table is filled in and
 * the file left positioned at its end. Sets the bits of the features
 * written in bits[]. Returns 0, or -1 when seeking failed (errno). */
int pd_w_features(struct ap_perf_writer *w, uint64_t bits[4]);

#endif

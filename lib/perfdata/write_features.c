/* ap_perf writer: the feature sections after the data (BUILD_ID, ARCH,
 * NRCPUS, CPUID, EVENT_DESC, topologies, AUXTRACE index, armprof's
 * metadata) and their table.
 * perf reads the sections in feature-bit order, so they are written so. */
#include <errno.h>
#include <stdlib.h>

#include "perfdata/writer_internal.h"

#define W_MISC_USER 2u                   /* PERF_RECORD_MISC_USER */
#define W_MISC_BUILD_ID_SIZE (1u << 15)  /* PERF_RECORD_MISC_BUILD_ID_SIZE: the size byte is valid */
#define W_HOST_PID (-1)                  /* HOST_KERNEL_ID: the host machine's files */
#define W_BUILD_ID_EVENT 36              /* header, pid, 20-byte ID, size, 3 reserved */

/* perf_header_string: u32 length (padded to 64), the string, zeros. */
static void w_string(struct ap_perf_writer *w, const char *s)
{
	size_t len = strlen(s) + 1;
	size_t olen = (len + PD_NAME_ALIGN - 1) & ~(size_t)(PD_NAME_ALIGN - 1);
	pd_w_u32(w, (uint32_t)olen);
	pd_w_bytes(w, s, len - 1);
	pd_w_zero(w, olen - (len - 1));
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
		pd_w_header(w, 0, W_MISC_USER | W_MISC_BUILD_ID_SIZE, W_BUILD_ID_EVENT + padded);
		pd_w_u32(w, (uint32_t)W_HOST_PID);
		pd_w_bytes(w, d[i].id, n);
		pd_w_zero(w, W_BUILD_ID_MAX - n);
		uint8_t id_size = (uint8_t)n;
		pd_w_bytes(w, &id_size, 1);
		pd_w_zero(w, 3);
		pd_w_bytes(w, d[i].name, len);
		pd_w_zero(w, padded - len);
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
	pd_w_bytes(w, buf, n);
	free(buf);
}

/* EVENT_DESC: the number of events, attr size, then per event its attr,
 * its number of ids, its name and its ids. perf names the events by it. */
static void w_event_desc(struct ap_perf_writer *w)
{
	pd_w_u32(w, (uint32_t)w->n_attrs);
	pd_w_u32(w, w->attr_size);
	for (size_t i = 0; i < w->n_attrs; i++) {
		pd_w_bytes(w, w->attrs[i].bytes, w->attr_size);
		pd_w_u32(w, 1);
		w_string(w, w->attrs[i].name);
		pd_w_u64(w, w->attrs[i].id);
	}
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
		pd_w_u32(w, w->cfg.nr_cpus); /* nr_cpus_avail */
		pd_w_u32(w, w->cfg.nr_cpus); /* nr_cpus_online */
		break;
	case AP_PERF_FEAT_CPUID:
		snprintf(cpuid, sizeof(cpuid), "0x%016llx", (unsigned long long)w->cfg.midr);
		w_string(w, cpuid);
		break;
	case AP_PERF_FEAT_EVENT_DESC:
		w_event_desc(w);
		break;
	case AP_PERF_FEAT_CPU_TOPOLOGY:
	case AP_PERF_FEAT_NUMA_TOPOLOGY:
	case AP_PERF_FEAT_MEM_TOPOLOGY:
		w_topology(w, sec->feat);
		break;
	case AP_PERF_FEAT_ARMPROF_META:
		w_string(w, w->cfg.armprof_meta);
		break;
	case AP_PERF_FEAT_AUXTRACE: {
		const uint64_t *ix = w->index.data;
		pd_w_u64(w, w->index.n);
		for (size_t i = 0; i < w->index.n; i++) {
			pd_w_u64(w, ix[i]);
			pd_w_u64(w, PD_AUXTRACE_SIZE); /* perf checks it against header.size */
		}
		break;
	}
	default:
		break;
	}
	sec->size = w->pos - sec->off;
}

int pd_w_features(struct ap_perf_writer *w, uint64_t bits[4])
{
	/* In feature bit order: perf reads the sections in that order. The
	 * BUILD_ID section only when some file of a mapping has a build ID,
	 * the AUXTRACE index only with the SPE event. */
	struct w_section secs[10];
	size_t n = 0;
	int any_id = 0;
	const struct w_dso *d = w->dsos.data;
	for (size_t i = 0; i < w->dsos.n; i++)
		any_id |= d[i].id_len > 0;
	if (any_id)
		secs[n++].feat = AP_PERF_FEAT_BUILD_ID;
	secs[n++].feat = AP_PERF_FEAT_ARCH;
	secs[n++].feat = AP_PERF_FEAT_NRCPUS;
	secs[n++].feat = AP_PERF_FEAT_CPUID;
	secs[n++].feat = AP_PERF_FEAT_EVENT_DESC;
	secs[n++].feat = AP_PERF_FEAT_CPU_TOPOLOGY;
	secs[n++].feat = AP_PERF_FEAT_NUMA_TOPOLOGY;
	if (w->cfg.spe)
		secs[n++].feat = AP_PERF_FEAT_AUXTRACE;
	secs[n++].feat = AP_PERF_FEAT_MEM_TOPOLOGY;
	if (w->cfg.armprof_meta)
		secs[n++].feat = AP_PERF_FEAT_ARMPROF_META; /* the highest bit: last */

	uint64_t table = w->pos;
	pd_w_zero(w, 16 * n); /* section table, filled below */
	for (size_t i = 0; i < n; i++)
		w_feature(w, &secs[i]);
	uint64_t end = w->pos;
	if (pd_w_seek(w, table) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		pd_w_u64(w, secs[i].off);
		pd_w_u64(w, secs[i].size);
		bits[secs[i].feat / 64] |= 1ull << (secs[i].feat % 64);
	}
	return pd_w_seek(w, end);
}

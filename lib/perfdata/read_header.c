/* perf.data file header, attr section and feature sections
 * (perf.data-file-format.txt: perf_header, perf_file_attr, the feature
 * bitmap and the section table after the data section). */
#include <stdio.h>
#include <stdlib.h>

#include "perfdata/perf_internal.h"

/* 1 if [off, off+len) lies inside a file of file_len bytes. */
static int in_file(uint64_t off, uint64_t len, uint64_t file_len)
{
	return off <= file_len && len <= file_len - off;
}

int pd_add_attr(struct ap_perf_reader *r, const uint8_t *p, size_t attr_len,
                const uint8_t *ids, size_t n_ids, uint64_t offset, uint32_t rtype,
                struct ap_error_ctx *err)
{
	const char *where = rtype ? "PERF_RECORD_HEADER_ATTR" : "attrs";
	if (attr_len < PD_ATTR_SIZE_VER0)
		return pd_fail(err, AP_ERR_FORMAT, offset, rtype, where,
		               "perf_event_attr of %zu bytes is shorter than the %u of its first version",
		               attr_len, PD_ATTR_SIZE_VER0);
	struct ap_perf_attr *a = pd_vec_push(&r->attrs);
	size_t *ids_off = pd_vec_push(&r->attr_ids_off);
	if (!a || !ids_off)
		return pd_fail(err, AP_ERR_NOMEM, offset, rtype, where, "out of memory");
	a->type = pd_u32(p + 0);
	a->size = pd_u32(p + 4);
	a->config = pd_u64(p + 8);
	a->sample_period = pd_u64(p + 16);
	a->sample_type = pd_u64(p + 24);
	a->read_format = pd_u64(p + 32);
	a->flags = pd_u64(p + 40);
	a->config1 = pd_u64(p + 56);
	a->config2 = attr_len >= 72 ? pd_u64(p + 64) : 0;
	/* VER2 (80 bytes), VER3 (96), VER4 (104): what sample fields' sizes
	 * depend on (BRANCH_STACK's hw_idx, REGS_USER, REGS_INTR) */
	a->branch_sample_type = attr_len >= 80 ? pd_u64(p + 72) : 0;
	a->sample_regs_user = attr_len >= 88 ? pd_u64(p + 80) : 0;
	a->sample_regs_intr = attr_len >= 104 ? pd_u64(p + 96) : 0;
	a->config3 = attr_len >= PD_ATTR_SIZE_VER8 ? pd_u64(p + 128) : 0;
	a->config4 = attr_len >= PD_ATTR_SIZE_VER9 ? pd_u64(p + 136) : 0;
	*ids_off = r->ids.n;
	for (size_t i = 0; i < n_ids; i++) {
		uint64_t *id = pd_vec_push(&r->ids);
		if (!id)
			return pd_fail(err, AP_ERR_NOMEM, offset, rtype, where, "out of memory");
		*id = pd_u64(ids + 8 * i);
	}
	a->n_ids = (uint32_t)n_ids;
	return 0;
}

static int read_attrs(struct ap_perf_reader *r, uint64_t attr_size, uint64_t off, uint64_t size,
                      struct ap_error_ctx *err)
{
	const uint64_t flen = r->file_len;
	if (attr_size < PD_ATTR_SIZE_VER0 + 16 || attr_size > PD_ATTR_SIZE_MAX + 16)
		return pd_fail(err, AP_ERR_FORMAT, 16, 0, "file header",
		               "attr size mismatch: header attr_size %llu is not a perf_event_attr plus its ids section",
		               (unsigned long long)attr_size);
	if (!in_file(off, size, flen))
		return pd_fail(err, AP_ERR_FORMAT, 24, 0, "file header",
		               "attr section [%llu, +%llu) runs past the end of the %llu-byte file",
		               (unsigned long long)off, (unsigned long long)size, (unsigned long long)flen);
	if (size % attr_size)
		return pd_fail(err, AP_ERR_FORMAT, off, 0, "attrs",
		               "attr size mismatch: section of %llu bytes is not a multiple of attr_size %llu",
		               (unsigned long long)size, (unsigned long long)attr_size);
	for (uint64_t pos = off; pos < off + size; pos += attr_size) {
		const uint8_t *p = r->file + pos;
		uint32_t asz = pd_u32(p + 4);
		if (asz == 0)
			asz = PD_ATTR_SIZE_VER0; /* perf: size 0 means the first version */
		/* perf reads attr.size bytes then the ids section: the stride it
		 * walks must be the header's attr_size. */
		if ((uint64_t)asz + 16 != attr_size)
			return pd_fail(err, AP_ERR_FORMAT, pos, 0, "attrs",
			               "attr size mismatch: attr.size %u + 16 != header attr_size %llu",
			               asz, (unsigned long long)attr_size);
		uint64_t ids_off = pd_u64(p + asz), ids_size = pd_u64(p + asz + 8);
		if (!in_file(ids_off, ids_size, flen) || ids_size % 8)
			return pd_fail(err, AP_ERR_FORMAT, pos + asz, 0, "attrs",
			               "attr ids section [%llu, +%llu) is outside the file or not a multiple of 8",
			               (unsigned long long)ids_off, (unsigned long long)ids_size);
		int rc = pd_add_attr(r, p, asz, r->file + ids_off, ids_size / 8, pos, 0, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* A perf_header_string at p[0..len): u32 length then that many bytes. */
static int read_string(struct ap_perf_reader *r, const uint8_t *p, size_t len, size_t *used,
                       const char **out, uint64_t offset, const char *where,
                       struct ap_error_ctx *err)
{
	if (len < 4)
		return pd_fail(err, AP_ERR_FORMAT, offset, 0, where,
		               "string length field cut short (%zu bytes left)", len);
	uint32_t slen = pd_u32(p);
	if (slen > len - 4)
		return pd_fail(err, AP_ERR_FORMAT, offset, 0, where,
		               "string of %u bytes runs past its section (%zu bytes left)", slen, len - 4);
	*out = pd_strdup_n(&r->strings, (const char *)p + 4, slen);
	if (!*out)
		return pd_fail(err, AP_ERR_NOMEM, offset, 0, where, "out of memory");
	*used = 4 + (size_t)slen;
	return 0;
}

/* "0x00000000413fd0c1" (arm64 perf's CPUID) -> MIDR. */
static int parse_midr(const char *s, uint64_t *midr)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return 0;
	uint64_t v = 0;
	for (const char *c = s + 2; *c; c++) {
		unsigned d;
		if (*c >= '0' && *c <= '9')
			d = (unsigned)(*c - '0');
		else if (*c >= 'a' && *c <= 'f')
			d = (unsigned)(*c - 'a' + 10);
		else if (*c >= 'A' && *c <= 'F')
			d = (unsigned)(*c - 'A' + 10);
		else
			return 0;
		if (c - (s + 2) >= 16)
			return 0;
		v = (v << 4) | d;
	}
	*midr = v;
	return 1;
}

static int read_event_desc(struct ap_perf_reader *r, const uint8_t *p, size_t len,
                           uint64_t offset, struct ap_error_ctx *err)
{
	const char *where = "feature EVENT_DESC";
	if (len < 8)
		return pd_fail(err, AP_ERR_FORMAT, offset, 0, where, "section of %zu bytes is too short", len);
	uint32_t nr = pd_u32(p), attr_size = pd_u32(p + 4);
	if (attr_size < PD_ATTR_SIZE_VER0 || attr_size > PD_ATTR_SIZE_MAX)
		return pd_fail(err, AP_ERR_FORMAT, offset + 4, 0, where,
		               "attr size mismatch: attr_size %u", attr_size);
	size_t pos = 8;
	for (uint32_t i = 0; i < nr; i++) {
		if (len - pos < (size_t)attr_size + 4)
			return pd_fail(err, AP_ERR_FORMAT, offset + pos, 0, where,
			               "event %u of %u runs past the section", i, nr);
		pos += attr_size;
		uint32_t nr_ids = pd_u32(p + pos);
		pos += 4;
		const char *name;
		size_t used;
		int rc = read_string(r, p + pos, len - pos, &used, &name, offset + pos, where, err);
		if (rc)
			return rc;
		pos += used;
		if (nr_ids > (len - pos) / 8)
			return pd_fail(err, AP_ERR_FORMAT, offset + pos, 0, where,
			               "%u ids run past the section", nr_ids);
		struct pd_event_desc *d = pd_vec_push(&r->event_descs);
		if (!d)
			return pd_fail(err, AP_ERR_NOMEM, offset, 0, where, "out of memory");
		d->name = name;
		d->has_id = nr_ids > 0;
		d->first_id = nr_ids ? pd_u64(p + pos) : 0;
		pos += 8 * (size_t)nr_ids;
	}
	return 0;
}

void pd_name_attrs(struct ap_perf_reader *r)
{
	const struct pd_event_desc *d = r->event_descs.data;
	struct ap_perf_attr *a = r->attrs.data;
	const uint64_t *ids = r->ids.data;
	const size_t *ids_off = r->attr_ids_off.data;
	for (size_t i = 0; i < r->attrs.n; i++) {
		a[i].ids = a[i].n_ids ? ids + ids_off[i] : NULL;
		a[i].name = NULL;
		for (size_t j = 0; j < r->event_descs.n && !a[i].name; j++)
			if (d[j].has_id && a[i].n_ids && d[j].first_id == a[i].ids[0])
				a[i].name = d[j].name;
		if (!a[i].name && i < r->event_descs.n)
			a[i].name = d[i].name;
	}
}

/* BUILD_ID: entries of a struct perf_record_header_build_id (an event
 * header, pid, 24 bytes of ID with its size in byte 20 when misc has
 * PERF_RECORD_MISC_BUILD_ID_SIZE, else a 20-byte ID), each followed by
 * its NUL-terminated file name, padded; header.size covers the whole
 * entry. (perf before 2010 wrote no pid: such files are not read.) */
#define PD_BUILD_ID_ENTRY 36
#define PD_MISC_BUILD_ID_SIZE (1u << 15)
static int read_build_ids(struct ap_perf_reader *r, const uint8_t *p, size_t len, uint64_t offset,
                          struct ap_error_ctx *err)
{
	for (size_t pos = 0; pos < len;) {
		if (len - pos < PD_BUILD_ID_ENTRY)
			return pd_fail(err, AP_ERR_FORMAT, offset + pos, 0, "feature BUILD_ID",
			               "entry cut short (%zu bytes left)", len - pos);
		const uint8_t *e = p + pos;
		uint16_t misc = pd_u16(e + 4), size = pd_u16(e + 6);
		if (size < PD_BUILD_ID_ENTRY + 1 || size > len - pos)
			return pd_fail(err, AP_ERR_FORMAT, offset + pos, 0, "feature BUILD_ID",
			               "entry size %u is not within its %zu-byte section", size, len - pos);
		struct ap_perf_build_id *b = pd_vec_push(&r->build_ids);
		if (!b)
			return pd_fail(err, AP_ERR_NOMEM, offset + pos, 0, "feature BUILD_ID", "out of memory");
		b->pid = (int32_t)pd_u32(e + 8);
		b->misc = misc;
		memcpy(b->id, e + 12, 20);
		b->size = (misc & PD_MISC_BUILD_ID_SIZE) && e[32] <= 20 ? e[32] : 20;
		const char *name = (const char *)e + PD_BUILD_ID_ENTRY;
		b->filename = pd_strdup_n(&r->strings, name, strnlen(name, size - PD_BUILD_ID_ENTRY));
		if (!b->filename)
			return pd_fail(err, AP_ERR_NOMEM, offset + pos, 0, "feature BUILD_ID", "out of memory");
		pos += size;
	}
	return 0;
}

int pd_read_feature(struct ap_perf_reader *r, unsigned feat, const uint8_t *p, size_t len,
                    uint64_t offset, struct ap_error_ctx *err)
{
	struct ap_perf_info *in = &r->info;
	char where[32];
	const char **str = NULL;
	size_t used;
	if (feat < 256)
		in->features[feat / 64] |= 1ull << (feat % 64);
	switch (feat) {
	case AP_PERF_FEAT_HOSTNAME: str = &in->hostname; snprintf(where, sizeof(where), "feature HOSTNAME"); break;
	case AP_PERF_FEAT_OSRELEASE: str = &in->osrelease; snprintf(where, sizeof(where), "feature OSRELEASE"); break;
	case AP_PERF_FEAT_VERSION: str = &in->version; snprintf(where, sizeof(where), "feature VERSION"); break;
	case AP_PERF_FEAT_ARCH: str = &in->arch; snprintf(where, sizeof(where), "feature ARCH"); break;
	case AP_PERF_FEAT_CPUID: str = &in->cpuid; snprintf(where, sizeof(where), "feature CPUID"); break;
	case AP_PERF_FEAT_ARMPROF_META:
		str = &in->armprof_meta;
		snprintf(where, sizeof(where), "feature ARMPROF_META");
		break;
	case AP_PERF_FEAT_NRCPUS:
		if (len < 8)
			return pd_fail(err, AP_ERR_FORMAT, offset, 0, "feature NRCPUS",
			               "section of %zu bytes is shorter than 8", len);
		/* perf writes nr_cpus_avail, then nr_cpus_online */
		in->nr_cpus_avail = pd_u32(p);
		in->nr_cpus_online = pd_u32(p + 4);
		in->has_nrcpus = 1;
		return 0;
	case AP_PERF_FEAT_EVENT_DESC:
		return read_event_desc(r, p, len, offset, err);
	case AP_PERF_FEAT_BUILD_ID:
		return read_build_ids(r, p, len, offset, err);
	case AP_PERF_FEAT_AUXTRACE:
		if (len < 8)
			return pd_fail(err, AP_ERR_FORMAT, offset, 0, "feature AUXTRACE",
			               "index of %zu bytes is shorter than its count", len);
		if (pd_u64(p) > (len - 8) / 16)
			return pd_fail(err, AP_ERR_FORMAT, offset, 0, "feature AUXTRACE",
			               "index count %llu runs past its %zu-byte section",
			               (unsigned long long)pd_u64(p), len);
		in->n_auxtrace_index = (size_t)pd_u64(p);
		return 0;
	default:
		return 0; /* other features are not needed to decode SPE */
	}
	int rc = read_string(r, p, len, &used, str, offset, where, err);
	if (rc)
		return rc;
	if (feat == AP_PERF_FEAT_CPUID)
		in->has_midr = (uint8_t)parse_midr(in->cpuid, &in->midr);
	return 0;
}

static int read_features(struct ap_perf_reader *r, struct ap_error_ctx *err)
{
	const struct ap_perf_info *in = &r->info;
	uint64_t bits[4];
	memcpy(bits, in->features, sizeof(bits));
	unsigned n = 0;
	for (unsigned f = 0; f < 256; f++)
		n += (bits[f / 64] >> (f % 64)) & 1u;
	if (!n)
		return 0;
	uint64_t table = in->data_offset + in->data_size;
	if (!in_file(table, 16ull * n, r->file_len))
		return pd_fail(err, AP_ERR_FORMAT, table, 0, "feature table",
		               "%u feature sections announced but the table runs past the end of the file", n);
	unsigned k = 0;
	for (unsigned f = 0; f < 256; f++) {
		if (!((bits[f / 64] >> (f % 64)) & 1u))
			continue;
		const uint8_t *e = r->file + table + 16ull * k++;
		uint64_t off = pd_u64(e), size = pd_u64(e + 8);
		if (!in_file(off, size, r->file_len))
			return pd_fail(err, AP_ERR_FORMAT, table + 16ull * (k - 1), 0, "feature table",
			               "feature %u section [%llu, +%llu) runs past the end of the file",
			               f, (unsigned long long)off, (unsigned long long)size);
		int rc = pd_read_feature(r, f, r->file + off, (size_t)size, off, err);
		if (rc)
			return rc;
	}
	return 0;
}

int pd_read_file_header(struct ap_perf_reader *r, struct ap_error_ctx *err)
{
	struct ap_perf_info *in = &r->info;
	const uint8_t *f = r->file;
	in->file_size = r->file_len;
	if (r->file_len < 16)
		return pd_fail(err, AP_ERR_FORMAT, 0, 0, "file header",
		               "truncated header: file of %zu bytes is shorter than the 16-byte minimum",
		               r->file_len);
	if (!memcmp(f, PD_MAGIC_SWAPPED, 8))
		return pd_fail(err, AP_ERR_UNSUPPORTED, 0, 0, "file header",
		               "byte-swapped (big-endian) perf.data is not supported");
	if (memcmp(f, PD_MAGIC, 8))
		return pd_fail(err, AP_ERR_FORMAT, 0, 0, "file header",
		               "bad magic: not a perf.data file (expected \"PERFILE2\")");
	uint64_t hsize = pd_u64(f + 8);
	if (hsize == PD_PIPE_HEADER_SIZE) {
		in->pipe_mode = 1;
		in->data_offset = PD_PIPE_HEADER_SIZE;
		in->data_size = r->file_len - PD_PIPE_HEADER_SIZE;
		return 0;
	}
	/* 72: the older header without the feature bitmap, which perf accepts */
	if (hsize != PD_FILE_HEADER_SIZE && hsize != 72)
		return pd_fail(err, AP_ERR_FORMAT, 8, 0, "file header",
		               "header size %llu is neither 104 (file) nor 16 (pipe)",
		               (unsigned long long)hsize);
	if (r->file_len < hsize)
		return pd_fail(err, AP_ERR_FORMAT, 0, 0, "file header",
		               "truncated header: file of %zu bytes, header of %llu",
		               r->file_len, (unsigned long long)hsize);
	uint64_t attr_size = pd_u64(f + 16);
	uint64_t attrs_off = pd_u64(f + 24), attrs_size = pd_u64(f + 32);
	in->data_offset = pd_u64(f + 40);
	in->data_size = pd_u64(f + 48);
	if (hsize == PD_FILE_HEADER_SIZE)
		memcpy(in->features, f + 72, sizeof(in->features));
	if (!in_file(in->data_offset, in->data_size, r->file_len))
		return pd_fail(err, AP_ERR_FORMAT, 40, 0, "file header",
		               "data section [%llu, +%llu) runs past the end of the %zu-byte file",
		               (unsigned long long)in->data_offset, (unsigned long long)in->data_size,
		               r->file_len);
	int rc = read_attrs(r, attr_size, attrs_off, attrs_size, err);
	if (rc)
		return rc;
	/* pd_read_feature sets the bits again as it reads each section */
	uint64_t bits[4];
	memcpy(bits, in->features, sizeof(bits));
	rc = read_features(r, err);
	memcpy(in->features, bits, sizeof(bits));
	return rc;
}

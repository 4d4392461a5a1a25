/* The PT_LOAD segments of an ELF64 file (the executable ones, or all), as
 * the page-aligned mappings a loader would make: what a PERF_RECORD_MMAP2
 * for the profiled binary must say so that perf finds its symbols (ip -
 * addr + pgoff is a file offset): of its functions in the executable
 * segments, of its global variables (data addresses) in the others. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perf_internal.h"

#define ELF_PT_LOAD 1u
#define ELF_PF_X 1u
#define ELF_PF_W 2u
#define ELF_PF_R 4u
#define PAGE 4096ull

/* path opened for reading if it is a regular file, else -1 (errno set): a
 * FIFO or a device named as a binary would block the open or the reads. */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t got = pread(fd, buf, n, (off_t)off);
	return got == (ssize_t)n ? 0 : -1;
}

static int load_maps(const char *path, struct ap_perf_elf_map *maps, size_t cap, struct ap_error_ctx *err,
                     int exec_only)
{
	if (err)
		memset(err, 0, sizeof(*err));
	int fd = open_regular(path);
	if (fd < 0)
		return pd_fail(err, AP_ERR_IO, 0, 0, "ELF", "cannot open: %s",
		               errno == EINVAL ? "not a regular file (a FIFO, socket or device)" : strerror(errno));
	uint8_t eh[64];
	int rc = 0, n = 0;
	if (read_at(fd, eh, sizeof(eh), 0) || memcmp(eh, "\177ELF", 4)) {
		rc = pd_fail(err, AP_ERR_FORMAT, 0, 0, "ELF", "not an ELF file");
		goto out;
	}
	if (eh[4] != 2 || eh[5] != 1) {
		rc = pd_fail(err, AP_ERR_UNSUPPORTED, 4, 0, "ELF", "not a 64-bit little-endian ELF file");
		goto out;
	}
	uint64_t phoff = pd_u64(eh + 32);
	uint16_t phentsize = pd_u16(eh + 54), phnum = pd_u16(eh + 56);
	if (phentsize < 56) {
		rc = pd_fail(err, AP_ERR_FORMAT, 54, 0, "ELF", "program header size %u < 56", phentsize);
		goto out;
	}
	for (uint16_t i = 0; i < phnum; i++) {
		uint8_t ph[56];
		uint64_t off = phoff + (uint64_t)i * phentsize;
		if (read_at(fd, ph, sizeof(ph), off)) {
			rc = pd_fail(err, AP_ERR_FORMAT, off, 0, "ELF", "program header %u cut short", i);
			goto out;
		}
		uint32_t type = pd_u32(ph), flags = pd_u32(ph + 4);
		if (type != ELF_PT_LOAD || (exec_only && !(flags & ELF_PF_X)))
			continue;
		uint64_t p_offset = pd_u64(ph + 8), vaddr = pd_u64(ph + 16), memsz = pd_u64(ph + 40);
		if ((size_t)n < cap) {
			struct ap_perf_elf_map *m = &maps[n];
			m->addr = vaddr & ~(PAGE - 1);
			m->pgoff = p_offset & ~(PAGE - 1);
			m->len = ((vaddr + memsz + PAGE - 1) & ~(PAGE - 1)) - m->addr;
			m->prot = ((flags & ELF_PF_R) ? 1u : 0u) | ((flags & ELF_PF_W) ? 2u : 0u) |
			          ((flags & ELF_PF_X) ? 4u : 0u);
		}
		n++;
	}
	rc = n;
out:
	close(fd);
	return rc;
}

int ap_perf_elf_exec_maps(const char *path, struct ap_perf_elf_map *maps, size_t cap,
                          struct ap_error_ctx *err)
{
	return load_maps(path, maps, cap, err, 1);
}

int ap_perf_elf_load_maps(const char *path, struct ap_perf_elf_map *maps, size_t cap,
                          struct ap_error_ctx *err)
{
	return load_maps(path, maps, cap, err, 0);
}

int ap_perf_elf_is_aarch64(const char *path)
{
	int fd = open_regular(path);
	if (fd < 0)
		return 0;
	unsigned char h[20];
	int ok = read_at(fd, h, sizeof(h), 0) == 0 && !memcmp(h, "\177ELF", 4) && h[4] == 2 /* ELFCLASS64 */ &&
	         h[5] == 1 /* little-endian */ && (h[18] | h[19] << 8) == 183 /* EM_AARCH64 */;
	close(fd);
	return ok;
}

static uint64_t le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* An ELF64 little-endian file opened for its program headers. */
struct phdrs {
	int fd;
	uint64_t off, entsize, num;
};

/* 0 with h->fd open, -AP_ERR_IO (cannot open) or -AP_ERR_FORMAT (not such
 * a file, or program headers too small to read). */
static int open_phdrs(const char *path, struct phdrs *h)
{
	h->fd = open_regular(path);
	if (h->fd < 0)
		return -AP_ERR_IO;
	unsigned char eh[64];
	if (read_at(h->fd, eh, sizeof(eh), 0) != 0 || memcmp(eh, "\177ELF", 4) != 0 || eh[4] != 2 || eh[5] != 1)
		goto bad;
	h->off = le(eh + 32, 8);
	h->entsize = le(eh + 54, 2);
	h->num = le(eh + 56, 2);
	if (h->num && h->entsize < 56)
		goto bad;
	return 0;
bad:
	close(h->fd);
	return -AP_ERR_FORMAT;
}

/* Program header k (its first 56 bytes): 0, or -1 if it is not in the file. */
static int read_phdr(const struct phdrs *h, uint64_t k, unsigned char ph[56])
{
	return read_at(h->fd, ph, 56, h->off + k * h->entsize);
}

int ap_perf_elf_interp(const char *path, char *out, size_t cap)
{
	if (cap)
		out[0] = 0;
	struct phdrs h;
	int rc = open_phdrs(path, &h);
	if (rc)
		return rc;
	for (uint64_t k = 0; k < h.num; k++) {
		unsigned char ph[56];
		if (read_phdr(&h, k, ph) != 0) {
			rc = -AP_ERR_FORMAT;
			break;
		}
		if (le(ph, 4) != 3) /* PT_INTERP */
			continue;
		uint64_t off = le(ph + 8, 8), size = le(ph + 32, 8);
		/* The string with its NUL; nothing after the first NUL counts. */
		if (size < 2 || size > cap || read_at(h.fd, out, (size_t)size, off) != 0) {
			if (cap)
				out[0] = 0;
			rc = -AP_ERR_FORMAT;
			break;
		}
		out[size - 1] = 0;
		rc = out[0] ? 1 : -AP_ERR_FORMAT;
		break;
	}
	close(h.fd);
	return rc;
}

int ap_perf_elf_build_id(const char *path, uint8_t *id, size_t cap)
{
	struct phdrs h;
	int rc = open_phdrs(path, &h);
	if (rc)
		return rc;
	for (uint64_t k = 0; k < h.num && rc == 0; k++) {
		unsigned char ph[56];
		if (read_phdr(&h, k, ph) != 0) {
			rc = -AP_ERR_FORMAT;
			break;
		}
		if (le(ph, 4) != 4) /* PT_NOTE */
			continue;
		/* The notes, each: namesz, descsz, type, then the name and the
		 * descriptor, each padded to 4 bytes. A note segment is small:
		 * a larger one is not read. */
		uint64_t off = le(ph + 8, 8), size = le(ph + 32, 8);
		unsigned char notes[4096];
		if (size > sizeof(notes) || read_at(h.fd, notes, (size_t)size, off) != 0)
			continue;
		for (uint64_t at = 0; size - at >= 12;) {
			uint64_t namesz = le(notes + at, 4), descsz = le(notes + at + 4, 4), type = le(notes + at + 8, 4);
			uint64_t name_at = at + 12, desc_at = name_at + ((namesz + 3) & ~3ull);
			uint64_t next = desc_at + ((descsz + 3) & ~3ull);
			if (namesz > size || descsz > size || next > size)
				break;
			if (type == 3 && namesz == 4 && !memcmp(notes + name_at, "GNU", 4)) { /* NT_GNU_BUILD_ID */
				if (descsz == 0 || descsz > cap) {
					rc = -AP_ERR_FORMAT;
				} else {
					memcpy(id, notes + desc_at, (size_t)descsz);
					rc = (int)descsz;
				}
				break;
			}
			at = next;
		}
	}
	close(h.fd);
	return rc;
}

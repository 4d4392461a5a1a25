/* `armprof system --modules DIR`: the user's modules appended to the kit's
 * initramfs (system_modules.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "system_modules.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_io.h"
#include "system_modules_dep.h"

/* What the guest's /init needs (system/kit/build.sh loads the same); the
 * guest itself reports a kernel without arm_spe_pmu. */
static const char *const wanted[] = { "virtio_mmio", "9pnet_virtio", "9p", "arm_spe_pmu" };
static const int wanted_optional[] = { 0, 0, 0, 1 };

static int read_text(const char *path, char **out)
{
	uint8_t *data = NULL;
	size_t len = 0;
	if (cli_read_all("system", path, &data, &len) != 0)
		return -1;
	char *s = realloc(data, len + 1);
	if (!s) {
		free(data);
		fprintf(stderr, "armprof system: %s: out of memory\n", path);
		return -1;
	}
	s[len] = 0;
	*out = s;
	return 0;
}

/* The archive's writer: newc entries (Linux's
 * Documentation/driver-api/early-userspace/buffer-format.rst), each name and
 * body padded to 4 bytes. */
struct cpio {
	FILE *f;
	unsigned long long pos;
	unsigned ino;
	int failed;
};

static void put(struct cpio *c, const void *p, size_t n)
{
	if (!c->failed && n && fwrite(p, 1, n, c->f) != n)
		c->failed = 1;
	c->pos += n;
}

static void pad4(struct cpio *c)
{
	static const char zero[4];
	put(c, zero, (4 - c->pos % 4) % 4);
}

/* An entry's header and name; its body of len bytes follows, then pad4. */
static void header(struct cpio *c, const char *name, unsigned mode, uint32_t len)
{
	char hdr[160];
	unsigned nlen = (unsigned)strlen(name) + 1; /* < PATH_MAX */
	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", ++c->ino & 0xffffffffu,
	         mode, 0u, 0u, (mode & S_IFDIR) ? 2u : 1u, 0u, (unsigned)len, 0u, 0u, 0u, 0u, nlen, 0u);
	put(c, hdr, 110);
	put(c, name, nlen);
	pad4(c);
}

static void entry(struct cpio *c, const char *name, unsigned mode, const void *body, size_t len)
{
	header(c, name, mode, (uint32_t)len); /* small: a load order */
	put(c, body, len);
	pad4(c);
}

/* The directories above path (relative), each once. */
static void parents(struct cpio *c, const char *path, char seen[][PATH_MAX], size_t *n_seen)
{
	char dir[PATH_MAX];
	for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(s - path), path);
		size_t k = 0;
		while (k < *n_seen && strcmp(seen[k], dir))
			k++;
		if (k < *n_seen)
			continue;
		if (*n_seen < 2 * MODULES_DEP_MAX + 8)
			snprintf(seen[(*n_seen)++], PATH_MAX, "%s", dir);
		entry(c, dir, S_IFDIR | 0755, NULL, 0);
	}
}

static int copy_file(struct cpio *c, const char *path, char *err, size_t errlen)
{
	FILE *in = fopen(path, "rb");
	if (!in) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char buf[1 << 16];
	size_t got;
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		put(c, buf, got);
	int bad = ferror(in);
	fclose(in);
	if (bad) {
		snprintf(err, errlen, "%s: read error", path);
		return -1;
	}
	return 0;
}

static int write_initrd(const struct modules_dep *m, const char *dir, const char *kit_initrd, const char *out,
                        const char *release, char *err, size_t errlen)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0600);
	struct cpio c = { fd >= 0 ? fdopen(fd, "wb") : NULL, 0, 0, 0 };
	if (!c.f) {
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int rc = copy_file(&c, kit_initrd, err, errlen);
	pad4(&c); /* the next archive starts on a 4-byte boundary (zeros between are skipped) */
	static char seen[2 * MODULES_DEP_MAX + 8][PATH_MAX];
	size_t n_seen = 0;
	char path[2 * PATH_MAX], order[MODULES_DEP_MAX * 128] = "";
	snprintf(path, sizeof(path), "lib/modules/%s/armprof-load-order", release);
	if (rc == 0)
		parents(&c, path, seen, &n_seen);
	for (size_t k = 0; rc == 0 && k < m->n_order; k++) {
		const char *rel = m->order[k];
		char src[2 * PATH_MAX];
		snprintf(path, sizeof(path), "lib/modules/%s/%s", release, rel);
		snprintf(src, sizeof(src), "%s/%s", dir, rel);
		struct stat st;
		size_t rl = strlen(rel);
		if (rl > 4 && !strcmp(rel + rl - 4, ".zst")) {
			snprintf(err, errlen, "%s is zstd-compressed, which the guest's busybox cannot undo: "
			         "build the kernel with CONFIG_MODULE_COMPRESS_XZ or _NONE", src);
			rc = -1;
			break;
		}
		errno = 0;
		if (stat(src, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)UINT32_MAX) {
			snprintf(err, errlen, "%s: %s (modules.dep names it)", src,
			         errno ? strerror(errno) : "not a file of at most 4 GiB");
			rc = -1;
			break;
		}
		parents(&c, path, seen, &n_seen);
		/* The body streams from the file: the header gives its size. */
		header(&c, path, S_IFREG | 0644, (uint32_t)st.st_size);
		unsigned long long before = c.pos;
		rc = copy_file(&c, src, err, errlen);
		if (rc == 0 && c.pos - before != (unsigned long long)st.st_size) {
			snprintf(err, errlen, "%s changed while it was read", src);
			rc = -1;
		}
		pad4(&c);
		size_t used = strlen(order);
		snprintf(order + used, sizeof(order) - used, "%s\n", rel);
	}
	if (rc == 0) {
		snprintf(path, sizeof(path), "lib/modules/%s/armprof-load-order", release);
		entry(&c, path, S_IFREG | 0644, order, strlen(order));
		entry(&c, "TRAILER!!!", 0, NULL, 0);
	}
	if (fclose(c.f) != 0)
		c.failed = 1;
	if (rc == 0 && c.failed) {
		snprintf(err, errlen, "%s: write error: %s", out, strerror(errno));
		rc = -1;
	}
	if (rc != 0)
		unlink(out); /* made here, above */
	return rc;
}

int system_modules_initrd(const char *kit_initrd, const char *modules_dir, const char *out, char *release,
                          size_t release_len, char *err, size_t errlen)
{
	char dir[PATH_MAX], file[PATH_MAX + 32];
	struct stat st;
	if (!realpath(modules_dir, dir) || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--modules %s: %s", modules_dir, errno ? strerror(errno) : "not a directory");
		return -1;
	}
	const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	if (!*base || strpbrk(base, " \t\n") || strlen(base) >= release_len) {
		snprintf(err, errlen, "--modules %s: its name is not a kernel release", modules_dir);
		return -1;
	}
	snprintf(release, release_len, "%s", base);
	char *dep = NULL, *builtin = NULL;
	snprintf(file, sizeof(file), "%s/modules.dep", dir);
	if (access(file, R_OK) != 0) {
		snprintf(err, errlen, "--modules %s: no modules.dep there: give the lib/modules/<release> "
		         "directory that `make modules_install` (INSTALL_MOD_PATH=...) wrote", modules_dir);
		return -1;
	}
	int rc = read_text(file, &dep) == 0 ? 0 : -1;
	if (rc < 0)
		snprintf(err, errlen, "--modules %s: cannot read modules.dep", modules_dir);
	snprintf(file, sizeof(file), "%s/modules.builtin", dir);
	if (rc == 0 && access(file, F_OK) == 0 && read_text(file, &builtin) != 0) {
		snprintf(err, errlen, "--modules %s: cannot read modules.builtin", modules_dir);
		rc = -1;
	}
	struct modules_dep m = { 0 };
	long missing = -1;
	if (rc == 0)
		rc = modules_dep_order(&m, dir, dep, builtin ? builtin : "", wanted, wanted_optional,
		                       sizeof(wanted) / sizeof(wanted[0]), &missing, err, errlen);
	if (rc != 0 && missing >= 0)
		snprintf(err, errlen,
		         "--modules %s: this kernel has no %s, neither built in (modules.builtin) nor a module "
		         "(modules.dep): the guest mounts its shares with 9p over virtio-mmio "
		         "(CONFIG_VIRTIO_MMIO, CONFIG_NET_9P_VIRTIO, CONFIG_9P_FS)",
		         modules_dir, wanted[missing]);
	if (rc == 0)
		rc = write_initrd(&m, dir, kit_initrd, out, release, err, errlen);
	modules_dep_fini(&m);
	free(builtin);
	free(dep);
	return rc;
}

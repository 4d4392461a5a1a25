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

/* What the guest's /init needs (system/kit/build.sh loads the same). */
static const char *const wanted[] = { "virtio_mmio", "9pnet_virtio", "9p", "arm_spe_pmu" };

enum { MAX_MODULES = 64 };

struct dep_line {
	char *path;  /* relative to DIR, e.g. kernel/fs/9p/9p.ko (NUL-terminated in place) */
	char *deps;  /* the paths after ':', space separated */
	int state;   /* 0 unvisited, 1 in progress, 2 ordered */
};

struct mods {
	const char *dir;
	struct dep_line *lines;
	size_t n;
	char *builtin; /* modules.builtin's text, "" without one */
	size_t order[MAX_MODULES];
	size_t n_order;
	char *err;
	size_t errlen;
};

/* A module's name as the kernel knows it: the file's name before .ko, '-'
 * as '_' (modprobe's rule). */
static void module_name(const char *path, size_t len, char *out, size_t cap)
{
	const char *base = path;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	size_t n = (size_t)(path + len - base);
	const char *ko = NULL;
	for (const char *p = base; p + 3 <= base + n; p++)
		if (!strncmp(p, ".ko", 3))
			ko = p;
	if (ko)
		n = (size_t)(ko - base);
	if (n >= cap)
		n = cap - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = base[i] == '-' ? '_' : base[i];
	out[n] = 0;
}

static int is_builtin(const struct mods *m, const char *name)
{
	char got[256];
	for (const char *line = m->builtin; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		module_name(line, len, got, sizeof(got));
		if (len && !strcmp(got, name))
			return 1;
		line += len + (nl ? 1 : 0);
	}
	return 0;
}

static long find_by_name(const struct mods *m, const char *name)
{
	char got[256];
	for (size_t i = 0; i < m->n; i++) {
		module_name(m->lines[i].path, strlen(m->lines[i].path), got, sizeof(got));
		if (!strcmp(got, name))
			return (long)i;
	}
	return -1;
}

static long find_by_path(const struct mods *m, const char *path, size_t len)
{
	for (size_t i = 0; i < m->n; i++)
		if (strlen(m->lines[i].path) == len && !strncmp(m->lines[i].path, path, len))
			return (long)i;
	return -1;
}

/* Line i after the modules it depends on (each dependency's own line gives
 * its own, so the order holds whatever modules.dep's order of them). */
static int order_module(struct mods *m, size_t i)
{
	struct dep_line *l = &m->lines[i];
	if (l->state == 2)
		return 0;
	if (l->state == 1) {
		snprintf(m->err, m->errlen, "%s/modules.dep: %s depends on itself", m->dir, l->path);
		return -1;
	}
	l->state = 1;
	for (const char *p = l->deps; *p;) {
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t");
		if (!len)
			break;
		long d = find_by_path(m, p, len);
		if (d < 0) {
			snprintf(m->err, m->errlen, "%s/modules.dep: %s depends on %.*s, which has no line of its own",
			         m->dir, l->path, (int)len, p);
			return -1;
		}
		if (order_module(m, (size_t)d) < 0)
			return -1;
		p += len;
	}
	if (m->n_order == MAX_MODULES) {
		snprintf(m->err, m->errlen, "%s/modules.dep: more than %d modules to load", m->dir, MAX_MODULES);
		return -1;
	}
	l->state = 2;
	m->order[m->n_order++] = i;
	return 0;
}

/* modules.dep's lines "PATH: DEP DEP", parsed in place. */
static int parse_dep(struct mods *m, char *text)
{
	size_t cap = 0;
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		char *colon = strchr(line, ':');
		if (*line && *line != '#') {
			if (!colon || colon == line || line[0] == '/' || strstr(line, "..")) {
				snprintf(m->err, m->errlen, "%s/modules.dep: line %zu: want \"kernel/...ko: DEPS\" (as depmod writes it)",
				         m->dir, m->n + 1);
				return -1;
			}
			if (m->n == cap) {
				cap = cap ? 2 * cap : 1024;
				struct dep_line *nw = realloc(m->lines, cap * sizeof(*nw));
				if (!nw) {
					snprintf(m->err, m->errlen, "out of memory");
					return -1;
				}
				m->lines = nw;
			}
			*colon = 0;
			m->lines[m->n++] = (struct dep_line){ line, colon + 1, 0 };
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}

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
		if (*n_seen < 2 * MAX_MODULES + 8)
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

static int write_initrd(struct mods *m, const char *kit_initrd, const char *out, const char *release)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0600);
	struct cpio c = { fd >= 0 ? fdopen(fd, "wb") : NULL, 0, 0, 0 };
	if (!c.f) {
		snprintf(m->err, m->errlen, "%s: %s", out, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int rc = copy_file(&c, kit_initrd, m->err, m->errlen);
	pad4(&c); /* the next archive starts on a 4-byte boundary (zeros between are skipped) */
	static char seen[2 * MAX_MODULES + 8][PATH_MAX];
	size_t n_seen = 0;
	char path[2 * PATH_MAX], order[MAX_MODULES * 128] = "";
	snprintf(path, sizeof(path), "lib/modules/%s/armprof-load-order", release);
	if (rc == 0)
		parents(&c, path, seen, &n_seen);
	for (size_t k = 0; rc == 0 && k < m->n_order; k++) {
		const char *rel = m->lines[m->order[k]].path;
		char src[2 * PATH_MAX];
		snprintf(path, sizeof(path), "lib/modules/%s/%s", release, rel);
		snprintf(src, sizeof(src), "%s/%s", m->dir, rel);
		struct stat st;
		size_t rl = strlen(rel);
		if (rl > 4 && !strcmp(rel + rl - 4, ".zst")) {
			snprintf(m->err, m->errlen, "%s is zstd-compressed, which the guest's busybox cannot undo: "
			         "build the kernel with CONFIG_MODULE_COMPRESS_XZ or _NONE", src);
			rc = -1;
			break;
		}
		errno = 0;
		if (stat(src, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)UINT32_MAX) {
			snprintf(m->err, m->errlen, "%s: %s (modules.dep names it)", src,
			         errno ? strerror(errno) : "not a file of at most 4 GiB");
			rc = -1;
			break;
		}
		parents(&c, path, seen, &n_seen);
		/* The body streams from the file: the header gives its size. */
		header(&c, path, S_IFREG | 0644, (uint32_t)st.st_size);
		unsigned long long before = c.pos;
		rc = copy_file(&c, src, m->err, m->errlen);
		if (rc == 0 && c.pos - before != (unsigned long long)st.st_size) {
			snprintf(m->err, m->errlen, "%s changed while it was read", src);
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
		snprintf(m->err, m->errlen, "%s: write error: %s", out, strerror(errno));
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
	struct mods m = { .dir = dir, .err = err, .errlen = errlen };
	char *dep = NULL;
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
	if (rc == 0 && access(file, F_OK) == 0 && read_text(file, &m.builtin) != 0) {
		snprintf(err, errlen, "--modules %s: cannot read modules.builtin", modules_dir);
		rc = -1;
	}
	if (rc == 0 && !m.builtin && !(m.builtin = calloc(1, 1))) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	if (rc == 0)
		rc = parse_dep(&m, dep);
	for (size_t w = 0; rc == 0 && w < sizeof(wanted) / sizeof(wanted[0]); w++) {
		if (is_builtin(&m, wanted[w]))
			continue;
		long i = find_by_name(&m, wanted[w]);
		if (i < 0 && strcmp(wanted[w], "arm_spe_pmu")) {
			snprintf(err, errlen,
			         "--modules %s: this kernel has no %s, neither built in (modules.builtin) nor a module "
			         "(modules.dep): the guest mounts its shares with 9p over virtio-mmio "
			         "(CONFIG_VIRTIO_MMIO, CONFIG_NET_9P_VIRTIO, CONFIG_9P_FS)",
			         modules_dir, wanted[w]);
			rc = -1;
		} else if (i >= 0) {
			rc = order_module(&m, (size_t)i);
		}
	}
	if (rc == 0)
		rc = write_initrd(&m, kit_initrd, out, release);
	free(m.lines);
	free(m.builtin);
	free(dep);
	return rc;
}

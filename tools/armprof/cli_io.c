#include "cli_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *cli_open_input(const char *cmd, const char *path)
{
	if (!strcmp(path, "-"))
		return stdin;
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "armprof %s: %s: %s\n", cmd, path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "armprof %s: %s: is a directory\n", cmd, path);
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f)
		fprintf(stderr, "armprof %s: %s: %s\n", cmd, path, strerror(errno));
	return f;
}

int cli_read_all(const char *cmd, const char *path, uint8_t **data, size_t *len)
{
	FILE *f = cli_open_input(cmd, path);
	if (!f)
		return -1;
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	int err = ferror(f);
	if (f != stdin)
		fclose(f);
	if (!buf) {
		fprintf(stderr, "armprof %s: %s: out of memory\n", cmd, path);
		return -1;
	}
	if (err) {
		fprintf(stderr, "armprof %s: %s: read error\n", cmd, path);
		free(buf);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}

int cli_output_open(struct cli_output *out, const char *cmd, const char *path)
{
	memset(out, 0, sizeof(*out));
	if (!path || !strcmp(path, "-")) {
		out->f = stdout;
		return 0;
	}
	size_t n = strlen(path) + 32;
	out->path = strdup(path);
	out->tmp_path = malloc(n);
	if (!out->path || !out->tmp_path) {
		fprintf(stderr, "armprof %s: out of memory\n", cmd);
		free(out->path);
		free(out->tmp_path);
		return -1;
	}
	snprintf(out->tmp_path, n, "%s.tmp.%ld", path, (long)getpid());
	out->f = fopen(out->tmp_path, "wb");
	if (!out->f) {
		fprintf(stderr, "armprof %s: %s: %s\n", cmd, path, strerror(errno));
		free(out->path);
		free(out->tmp_path);
		out->path = out->tmp_path = NULL;
		return -1;
	}
	return 0;
}

int cli_output_close(struct cli_output *out, const char *cmd, int ok)
{
	int rc = 0;
	if (!out->f)
		return 0;
	if (fflush(out->f) != 0 || ferror(out->f)) {
		if (ok)
			fprintf(stderr, "armprof %s: %s: write error\n", cmd,
			        out->path ? out->path : "standard output");
		ok = 0;
		rc = -1;
	}
	if (out->path) {
		if (fclose(out->f) != 0 && ok) {
			fprintf(stderr, "armprof %s: %s: %s\n", cmd, out->path, strerror(errno));
			ok = 0;
			rc = -1;
		}
		if (ok && rename(out->tmp_path, out->path) != 0) {
			fprintf(stderr, "armprof %s: %s: %s\n", cmd, out->path, strerror(errno));
			rc = -1;
			ok = 0;
		}
		if (!ok)
			unlink(out->tmp_path);
		free(out->path);
		free(out->tmp_path);
	}
	out->f = NULL;
	out->path = out->tmp_path = NULL;
	return rc;
}

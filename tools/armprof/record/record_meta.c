/* armprof record's metadata: see record_meta.h. */
#define _GNU_SOURCE /* open_memstream, realpath */
#include "record_meta.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cli_output.h"
#include "record_perf.h"

char *record_meta_text(const struct record_opts *o, const char *prog, const char *sysroot, uint64_t bias,
                       const struct record_stats *st, const struct record_library *libs, size_t n_libs,
                       size_t n_procs, int exit_status)
{
	char abs[PATH_MAX];
	if (!realpath(prog, abs))
		snprintf(abs, sizeof(abs), "%s", prog);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fprintf(f, "# armprof record metadata (read by armprof report)\n");
	fprintf(f, "binary=%s\nload_bias=0x%" PRIx64 "\nformat=%s\n", abs, bias,
	        o->format == RECORD_OUT_RAW ? "raw" : "perf");
	/* The CPU the model's Data Source values are of (a raw stream says
	 * nothing of it; the perf.data's CPUID says the same). */
	fprintf(f, "midr=0x%x\n", RECORD_MIDR);
	fprintf(f, "interval=%" PRIu64 "\njitter=%d\nexit_status=%d\n", o->interval, o->jitter, exit_status);
	fprintf(f, "ops=%" PRIu64 "\nsample_pop=%" PRIu64 "\nsample_feed=%" PRIu64 "\nrecords=%" PRIu64 "\n", st->ops,
	        st->sample_pop, st->sample_feed, st->records);
	/* Over all the processes: the program's and the children it forked. */
	fprintf(f, "threads=%zu\nprocesses=%zu\n", st->n_vcpus, n_procs);
	/* Outputs written when a signal was about to end the program
	 * (plugins/qemu/stop_signal.h); stopped_by_signal: these are one. */
	fprintf(f, "checkpoints=%" PRIu64 "\nstopped_by_signal=%" PRIu64 "\n", st->checkpoints, st->stopped_by_signal);
	/* Processes whose profile ends at an execve that replaced them. */
	fprintf(f, "ended_by_exec=%" PRIu64 "\n", st->ended_by_exec);
	/* How the plugin saw the program run (inline_ring.c): its QEMU's
	 * inline event log (1) or its own callbacks (0). */
	fprintf(f, "inline_ring=%" PRIu64 "\n", st->inline_ring);
	/* The other files with code (dynamic loader, shared libraries), each
	 * with its load bias, for armprof report's symbols. */
	for (size_t k = 0; k < n_libs; k++)
		fprintf(f, "library=0x%" PRIx64 " %s\n", libs[k].bias, libs[k].path);
	/* The aarch64 root: armprof report looks for debug files under its
	 * usr/lib/debug too (a -dbgsym package unpacked into it). */
	char root[PATH_MAX];
	if (sysroot[0] && realpath(sysroot, root))
		fprintf(f, "sysroot=%s\n", root);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

int record_meta_write(const struct record_opts *o, const char *text, const struct stat *data)
{
	char path[PATH_MAX + 8];
	if ((size_t)snprintf(path, sizeof(path), "%s.meta", o->output) >= sizeof(path)) {
		fprintf(stderr, "armprof record: %s.meta: %s\n", o->output, strerror(ENAMETOOLONG));
		return -1;
	}
	struct cli_output out;
	if (cli_output_open(&out, "record", path) != 0)
		return -1;
	char id[64];
	int n = snprintf(id, sizeof(id), "data_size=%llu\n", (unsigned long long)data->st_size);
	int ok = cli_output_write(&out, text, strlen(text)) == 0 && cli_output_write(&out, id, (size_t)n) == 0;
	return cli_output_close(&out, "record", ok);
}

int record_pair_lock(const char *output)
{
	char real[PATH_MAX];
	const char *file = realpath(output, real) ? real : output; /* a link's target's directory */
	const char *slash = strrchr(file, '/');
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash == file ? 1 : slash - file) : 1, slash ? file : ".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

void record_pair_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* and the lock with it */
}

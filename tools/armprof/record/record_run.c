/* `armprof record`: processes and files around the QEMU run (record_run.h). */
#include "record_run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "armprof/perfdata.h"

#define EM_AARCH64_ID 183

static int is_file_executable(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* The first executable prog in the directories of PATH, each under root
 * ("" for the host's own); 1 if found (into out). */
static int search_path(const char *prog, const char *root, char *out, size_t cap)
{
	const char *path = getenv("PATH");
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char cand[PATH_MAX];
		int n = snprintf(cand, sizeof(cand), "%s%s/%s", root, d, prog);
		if (n > 0 && (size_t)n < sizeof(cand) && is_file_executable(cand)) {
			snprintf(out, cap, "%s", cand);
			return 1;
		}
	}
	return 0;
}

int record_resolve_program(const char *prog, const char *root, char *out, size_t cap, char *err,
                           size_t errlen)
{
	if (strchr(prog, '/')) {
		snprintf(out, cap, "%s", prog);
	} else if (!(root && root[0] && search_path(prog, root, out, cap)) && !search_path(prog, "", out, cap)) {
		if (root && root[0])
			snprintf(err, errlen, "%s: not found on PATH, neither under the root %s nor on the host", prog, root);
		else
			snprintf(err, errlen, "%s: not found on PATH", prog);
		return -1;
	}
	FILE *f = fopen(out, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
		return -1;
	}
	unsigned char h[20] = { 0 };
	size_t n = fread(h, 1, sizeof(h), f);
	fclose(f);
	if (n < 20 || memcmp(h, "\177ELF", 4) != 0) {
		snprintf(err, errlen, "%s: not an ELF file", out);
		return -1;
	}
	if (h[4] != 2 || h[5] != 1 || (h[18] | h[19] << 8) != EM_AARCH64_ID) {
		snprintf(err, errlen, "%s: not a 64-bit little-endian aarch64 ELF program", out);
		return -1;
	}
	return 0;
}

/* root + interp is an aarch64 ELF file. */
static int has_aarch64_interp(const char *root, const char *interp)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s%s", root, interp);
	return n > 0 && (size_t)n < sizeof(path) && ap_perf_elf_is_aarch64(path);
}

int record_choose_sysroot(const char *prog, const char *given, char *out, size_t cap, char *err,
                          size_t errlen)
{
	char interp[PATH_MAX];
	out[0] = 0;
	int has = ap_perf_elf_interp(prog, interp, sizeof(interp));
	if (has < 0) {
		snprintf(err, errlen, "%s: its ELF program headers or interpreter are broken", prog);
		return -1;
	}
	if (!has)
		return 0; /* static: no interpreter to find */
	/* A root the user named: it must have the interpreter. */
	const char *env = getenv("QEMU_LD_PREFIX");
	const char *named = given ? given : env && *env ? env : NULL;
	if (named) {
		if (!has_aarch64_interp(named, interp)) {
			snprintf(err, errlen, "%s%s: no aarch64 %s%s there (the interpreter %s asks for)",
			         given ? "--sysroot " : "QEMU_LD_PREFIX=", named, named, interp, prog);
			return -1;
		}
		snprintf(out, cap, "%s", named);
		return 0;
	}
	if (has_aarch64_interp("", interp))
		return 0; /* an aarch64 host, or one with aarch64 libraries in place */
	static const char debian_cross_root[] = "/usr/aarch64-linux-gnu";
	if (has_aarch64_interp(debian_cross_root, interp)) {
		snprintf(out, cap, "%s", debian_cross_root);
		return 0;
	}
	snprintf(err, errlen,
	         "%s is dynamically linked (its interpreter is %s) and no aarch64 root file system here has it: "
	         "install Debian's libc6-arm64-cross (%s), or give --sysroot DIR (or set QEMU_LD_PREFIX)",
	         prog, interp, debian_cross_root);
	return -1;
}

int record_find_plugin(const char *given, char *out, size_t cap, char *err, size_t errlen)
{
	const char *env = getenv("ARMPROF_PLUGIN");
	const char *explicit_path = given ? given : env;
	if (explicit_path) {
		if (access(explicit_path, R_OK) != 0) {
			snprintf(err, errlen, "plugin %s: %s", explicit_path, strerror(errno));
			return -1;
		}
		snprintf(out, cap, "%s", explicit_path);
		return 0;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(err, errlen, "cannot find the armprof executable to locate armprof-qemu.so; use --plugin");
		return -1;
	}
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	const char *rel[] = { "", "/../lib/armprof", "/../lib/x86_64-linux-gnu/armprof",
		              "/../lib/aarch64-linux-gnu/armprof", "/../lib64/armprof" };
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(out, cap, "%s%s/armprof-qemu.so", exe, rel[i]);
		if (access(out, R_OK) == 0)
			return 0;
	}
	snprintf(err, errlen, "armprof-qemu.so not found next to %s or in ../lib/armprof; use --plugin PATH "
	         "or set ARMPROF_PLUGIN", exe);
	return -1;
}

static volatile pid_t running_child;

/* SIGTERM or SIGHUP for armprof (a `timeout`, a closed terminal), or a
 * SIGINT a process sent (kill -INT): pass it on to QEMU and keep waiting,
 * so that armprof still writes what was recorded, cleans up and says what
 * happened instead of leaving QEMU running on its own. A SIGINT the
 * terminal sent (^C: si_code SI_KERNEL) went to QEMU too, as it is in
 * armprof's process group: not sent again. */
static void forward_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (sig == SIGINT && si && si->si_code > 0)
		return;
	if (running_child > 0)
		kill(running_child, sig);
}

int record_run_child(char **argv, const char *preload, int stdout_fd, char *err, size_t errlen)
{
	int pipefd[2];
	if (pipe(pipefd) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* Should armprof be killed outright (SIGKILL), QEMU goes too. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127); /* armprof died before prctl */
		/* The pipe tells the parent whether exec worked (close-on-exec). */
		close(pipefd[0]);
		fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
		if (preload)
			setenv("LD_PRELOAD", preload, 1);
		if (stdout_fd >= 0 && stdout_fd != STDOUT_FILENO && dup2(stdout_fd, STDOUT_FILENO) < 0) {
			int e = errno;
			if (write(pipefd[1], &e, sizeof(e)) < 0)
				_exit(127);
			_exit(127);
		}
		execvp(argv[0], argv);
		int e = errno;
		if (write(pipefd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	/* The terminal's ^C goes to the program; armprof waits for it and
	 * still writes what was recorded, as perf record does. */
	struct sigaction ign = { 0 }, fwd = { 0 }, old_int, old_quit, old_term, old_hup;
	ign.sa_handler = SIG_IGN;
	sigaction(SIGQUIT, &ign, &old_quit);
	running_child = pid;
	fwd.sa_sigaction = forward_signal;
	fwd.sa_flags = SA_SIGINFO;
	sigemptyset(&fwd.sa_mask);
	/* SIGINT inherited as ignored (nohup, a script's background job)
	 * stays ignored, as QEMU inherited it. */
	sigaction(SIGINT, NULL, &old_int);
	if (old_int.sa_handler != SIG_IGN)
		sigaction(SIGINT, &fwd, NULL);
	sigaction(SIGTERM, &fwd, &old_term);
	sigaction(SIGHUP, &fwd, &old_hup);
	int exec_errno = 0;
	ssize_t got = read(pipefd[0], &exec_errno, sizeof(exec_errno));
	close(pipefd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	running_child = 0;
	if (got == (ssize_t)sizeof(exec_errno)) {
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(exec_errno));
		return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

int record_read_stats(const char *path, struct record_stats *st)
{
	memset(st, 0, sizeof(*st));
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (!strncmp(line, "map=", 4)) {
			if (st->n_maps == RECORD_MAX_MAPS)
				continue;
			struct record_map *m = &st->map[st->n_maps];
			int at = 0;
			if (sscanf(line, "map=%" SCNx64 " %" SCNx64 " %" SCNx64 " %n", &m->start, &m->end, &m->offset, &at) ==
			        3 &&
			    at && line[at] == '/') {
				snprintf(m->path, sizeof(m->path), "%s", line + at);
				m->path[strcspn(m->path, "\n")] = 0;
				st->n_maps++;
			}
			continue;
		}
		if (!strncmp(line, "aarch64_exec_failed_path=", 25)) {
			snprintf(st->aarch64_exec_failed_path, sizeof(st->aarch64_exec_failed_path), "%.*s",
			         (int)sizeof(st->aarch64_exec_failed_path) - 1, line + 25);
			st->aarch64_exec_failed_path[strcspn(st->aarch64_exec_failed_path, "\n")] = 0;
			continue;
		}
		int64_t tid;
		if (sscanf(line, "thread=%" SCNd64, &tid) == 1) {
			if (st->n_threads < RECORD_MAX_THREADS)
				st->thread_tid[st->n_threads++] = tid;
			continue;
		}
		if (!strncmp(line, "vcpu=", 5)) {
			if (st->n_vcpus == RECORD_MAX_VCPUS)
				continue;
			struct record_vcpu *v = &st->vcpu[st->n_vcpus];
			if (sscanf(line,
			           "vcpu=%u tid=%" SCNd64 " ops=%" SCNu64 " offset=%" SCNu64 " bytes=%" SCNu64
			           " sample_pop=%" SCNu64 " records=%" SCNu64,
			           &v->index, &v->tid, &v->ops, &v->offset, &v->bytes, &v->sample_pop,
			           &v->records) == 7)
				st->n_vcpus++;
			continue;
		}
		char key[64];
		uint64_t val;
		if (sscanf(line, "%63[a-z0-9_]=%" SCNi64, key, &val) != 2)
			continue;
		struct {
			const char *k;
			uint64_t *v;
		} map[] = {
			{ "ops", &st->ops },
			{ "sample_pop", &st->sample_pop },
			{ "sample_feed", &st->sample_feed },
			{ "sample_filtrate", &st->sample_filtrate },
			{ "sample_collision", &st->sample_collision },
			{ "records", &st->records },
			{ "records_discarded", &st->records_discarded },
			{ "spe_bytes", &st->spe_bytes },
			{ "mgmt_events", &st->mgmt_events },
			{ "buffer_drains", &st->buffer_drains },
			{ "lost_bytes", &st->lost_bytes },
			{ "loads", &st->loads },
			{ "stores", &st->stores },
			{ "l1d_misses", &st->l1d_misses },
			{ "l2_misses", &st->l2_misses },
			{ "llc_misses", &st->llc_misses },
			{ "peer_hits", &st->peer_hits },
			{ "tlb_walks", &st->tlb_walks },
			{ "branches", &st->branches },
			{ "mispredicts", &st->mispredicts },
			{ "entry", &st->entry },
			{ "timing_window", &st->timing_window },
			{ "detailed_ops", &st->detailed_ops },
			{ "replay_cpu_ns", &st->replay_cpu_ns },
			{ "pipeline", &st->pipeline },
			{ "ring_full_waits", &st->ring_full_waits },
			{ "ring_full_wait_ns", &st->ring_full_wait_ns },
			{ "ring_drain_waits", &st->ring_drain_waits },
			{ "ring_drain_wait_ns", &st->ring_drain_wait_ns },
			{ "model_waits", &st->model_waits },
			{ "model_wait_ns", &st->model_wait_ns },
			{ "inline_ring", &st->inline_ring },
			{ "loop_run_ops", &st->loop_run_ops },
			{ "interleave", &st->interleave },
			{ "interleave_switches", &st->interleave_switches },
			{ "interleave_timeouts", &st->interleave_timeouts },
			{ "interleave_windows", &st->interleave_windows },
			{ "interleave_wake_holds", &st->interleave_wake_holds },
			{ "stopped_by_signal", &st->stopped_by_signal },
			{ "checkpoints", &st->checkpoints },
			{ "ended_by_exec", &st->ended_by_exec },
			{ "aarch64_execs_failed", &st->aarch64_execs_failed },
			{ "call_graph", &st->call_graph },
			{ "stack_samples", &st->stack_samples },
			{ "stack_unmatched_returns", &st->stack_unmatched },
			{ "stack_signal_frames", &st->stack_signals },
			{ "stack_dropped_frames", &st->stack_dropped },
		};
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (!strcmp(key, map[i].k))
				*map[i].v = val;
	}
	fclose(f);
	return 0;
}

int record_file_bias(const struct record_stats *st, const char *path, uint64_t *bias)
{
	struct ap_perf_elf_map seg[16];
	struct ap_error_ctx err;
	int n = ap_perf_elf_exec_maps(path, seg, 16, &err);
	for (int i = 0; i < n && i < 16; i++)
		for (size_t k = 0; k < st->n_maps; k++) {
			const struct record_map *m = &st->map[k];
			if (m->offset == seg[i].pgoff && !strcmp(m->path, path)) {
				*bias = m->start - seg[i].addr;
				return 1;
			}
		}
	return 0;
}

size_t record_libraries(const struct record_stats *st, const char *abs_prog, struct record_library *out,
                        size_t cap)
{
	size_t n = 0;
	for (size_t k = 0; k < st->n_maps && n < cap; k++) {
		const char *path = st->map[k].path;
		size_t first = 0;
		while (strcmp(st->map[first].path, path) != 0)
			first++; /* each file once: at its first mapping */
		if (first == k && strcmp(path, abs_prog) != 0 && record_file_bias(st, path, &out[n].bias))
			out[n++].path = path;
	}
	return n;
}

/* `armprof system`: one run of QEMU (system_run.h). Linux-only: signalfd
 * takes the signals into the poll loop, so no handler runs
 * asynchronously, and PR_SET_PDEATHSIG ends QEMU even if armprof is
 * killed with SIGKILL. */
#define _GNU_SOURCE
#include "system_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* After the guest reported, QEMU powers off by itself; this long at most. */
#define POWEROFF_GRACE_MS 10000
/* A QEMU asked to stop with SIGTERM gets this long before SIGKILL. */
#define TERM_GRACE_MS 3000

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int out_stdout(void *ctx, const char *bytes, size_t len)
{
	if (write_all(STDOUT_FILENO, bytes, len) == 0)
		return 0;
	*(int *)ctx = errno ? errno : EIO;
	return -1;
}

/* QEMU's stderr, line by line, each with "armprof system: qemu: ". */
struct err_lines {
	char line[1024];
	size_t len;
};

static void err_flush(struct err_lines *l)
{
	if (!l->len)
		return;
	fprintf(stderr, "armprof system: qemu: %.*s\n", (int)l->len, l->line);
	l->len = 0;
}

static void err_feed(struct err_lines *l, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n')
			err_flush(l);
		else if (l->len < sizeof(l->line))
			l->line[l->len++] = p[i];
	}
}

/* Ends QEMU: SIGTERM, then SIGKILL; reaps it. */
static int stop_qemu(pid_t pid)
{
	int status = 0;
	kill(pid, SIGTERM);
	for (int waited = 0; waited < TERM_GRACE_MS; waited += 50) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			return status;
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* The child: QEMU, or the reason it could not be run through ex_fd. */
static void exec_qemu(char *const *argv, const sigset_t *old_mask, int out_fd, int err_fd, int ex_fd)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, 0); /* the terminal's ^C reaches armprof, which stops QEMU */
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	signal(SIGPIPE, SIG_DFL);
	int in = open("/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
	    dup2(err_fd, STDERR_FILENO) < 0) {
		int e = errno;
		ssize_t w = write(ex_fd, &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	execv(argv[0], argv);
	int e = errno;
	ssize_t w = write(ex_fd, &e, sizeof(e));
	(void)w;
	_exit(127);
}

static void run_loop(pid_t pid, int out_fd, int err_fd, int sig_fd, unsigned timeout_s,
                     struct system_result *res, double t0);

void system_run(char *const *argv, const char *nonce, unsigned timeout_s, struct system_result *res)
{
	memset(res, 0, sizeof(*res));
	res->qemu_status = -1;
	res->start_seconds = -1;
	console_init(&res->console, nonce);
	double t0 = now_seconds();

	sigset_t mask, old_mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGQUIT);
	sigprocmask(SIG_BLOCK, &mask, &old_mask);
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old_pipe); /* a closed stdout is an error, not death */

	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, ex_p[2] = { -1, -1 };
	int sig_fd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sig_fd < 0 || pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(ex_p, O_CLOEXEC) < 0) {
		res->outcome = SYSTEM_QEMU_FAILED;
		snprintf(res->why, sizeof(res->why), "cannot make pipes: %s", strerror(errno));
		goto out;
	}
	pid_t pid = fork();
	if (pid < 0) {
		res->outcome = SYSTEM_QEMU_FAILED;
		snprintf(res->why, sizeof(res->why), "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		exec_qemu(argv, &old_mask, out_p[1], err_p[1], ex_p[1]);
	close(out_p[1]);
	close(err_p[1]);
	close(ex_p[1]);
	out_p[1] = err_p[1] = ex_p[1] = -1;
	int exec_errno = 0;
	ssize_t got;
	while ((got = read(ex_p[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof(exec_errno)) {
		while (waitpid(pid, &res->qemu_status, 0) < 0 && errno == EINTR)
			;
		res->outcome = SYSTEM_QEMU_FAILED;
		snprintf(res->why, sizeof(res->why), "cannot run %s: %s", argv[0], strerror(exec_errno));
		goto out;
	}
	run_loop(pid, out_p[0], err_p[0], sig_fd, timeout_s, res, t0);
out:
	for (int i = 0; i < 2; i++) {
		if (out_p[i] >= 0)
			close(out_p[i]);
		if (err_p[i] >= 0)
			close(err_p[i]);
		if (ex_p[i] >= 0)
			close(ex_p[i]);
	}
	if (sig_fd >= 0)
		close(sig_fd);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	res->seconds = now_seconds() - t0;
}

static void run_loop(pid_t pid, int out_fd, int err_fd, int sig_fd, unsigned timeout_s,
                     struct system_result *res, double t0)
{
	struct console *con = &res->console;
	struct err_lines errl = { .len = 0 };
	int out_errno = 0, stopped = 0; /* stopped: QEMU already reaped */
	double deadline = timeout_s ? t0 + timeout_s : 0, done_at = 0;
	res->outcome = SYSTEM_QEMU_FAILED;
	struct pollfd fds[3] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 }, { sig_fd, POLLIN, 0 } };
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		double t = now_seconds(), until = 0;
		int reported = con->phase == CONSOLE_EXIT || con->phase == CONSOLE_ERROR;
		if (reported && !done_at)
			done_at = t;
		if (reported)
			until = done_at + POWEROFF_GRACE_MS / 1000.0;
		else if (deadline)
			until = deadline;
		if (until && t >= until) {
			if (!reported) {
				res->outcome = SYSTEM_TIMEOUT;
			}
			res->qemu_status = stop_qemu(pid);
			stopped = 1;
			break;
		}
		int wait_ms = until ? (int)((until - t) * 1000) + 1 : -1;
		int n = poll(fds, 3, wait_ms);
		if (n < 0 && errno != EINTR) {
			snprintf(res->why, sizeof(res->why), "poll: %s", strerror(errno));
			res->qemu_status = stop_qemu(pid);
			stopped = 1;
			break;
		}
		if (n <= 0)
			continue;
		if (fds[2].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				res->outcome = SYSTEM_SIGNALLED;
				res->signal = (int)si.ssi_signo;
				res->qemu_status = stop_qemu(pid);
				stopped = 1;
				break;
			}
		}
		char buf[65536];
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t r = read(fds[i].fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				fds[i].fd = -1; /* EOF: QEMU closed it (exited) */
				continue;
			}
			if (i == 1) {
				err_feed(&errl, buf, (size_t)r);
				continue;
			}
			enum console_phase before = con->phase;
			if (console_feed(con, buf, (size_t)r, out_stdout, &out_errno) != 0)
				break;
			if (before == CONSOLE_BOOT && con->phase != CONSOLE_BOOT)
				res->start_seconds = now_seconds() - t0;
		}
		if (out_errno) {
			res->outcome = SYSTEM_OUTPUT_FAILED;
			snprintf(res->why, sizeof(res->why), "standard output: %s", strerror(out_errno));
			res->qemu_status = stop_qemu(pid);
			stopped = 1;
			break;
		}
	}
	if (!stopped) {
		while (waitpid(pid, &res->qemu_status, 0) < 0 && errno == EINTR)
			;
	}
	err_flush(&errl);
	if (res->outcome != SYSTEM_OUTPUT_FAILED) { /* the bytes held back are the command's */
		if (console_finish(con, out_stdout, &out_errno) != 0 && res->outcome == SYSTEM_QEMU_FAILED) {
			res->outcome = SYSTEM_OUTPUT_FAILED;
			snprintf(res->why, sizeof(res->why), "standard output: %s", strerror(out_errno));
			return;
		}
	}
	if (res->outcome == SYSTEM_QEMU_FAILED) {
		/* Whatever the loop saw, the console's phase is the report. */
		if (con->phase == CONSOLE_EXIT)
			res->outcome = SYSTEM_EXITED;
		else if (con->phase == CONSOLE_ERROR)
			res->outcome = SYSTEM_GUEST_ERROR;
		else if (!res->why[0])
			snprintf(res->why, sizeof(res->why), "%s",
			         con->phase == CONSOLE_RUN ? "QEMU ended while the command was running"
			                                   : "QEMU ended before the guest started the command");
	}
}

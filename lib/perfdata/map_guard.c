/* A mapped perf.data that shrinks while it is read (truncated, rewritten by
 * another perf record) must not kill the process: the kernel sends SIGBUS
 * for a page of the mapping past the file's new end. The handler here
 * maps a page of zeros over the faulting page, notes its offset, and lets
 * the read go on; the reader then stops iterating and reports the file as
 * shrunk (ap_perf_reader_check). This costs nothing while the file stays
 * whole: no copy, no system call or lock per packet, the decoder reads the
 * mapping directly as before.
 *
 * The handler only touches a fixed table of atomics and calls mmap() (a
 * system call, as systemd's journal reader does for the same reason),
 * sigaction() and raise(). A SIGBUS outside every guarded mapping goes to
 * the handler installed before ours, or ends the process as it would have. */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perf_internal.h"

#define GUARD_SLOTS 64

struct guard_slot {
	_Atomic uintptr_t start; /* 0: free */
	_Atomic size_t len;
	_Atomic uint64_t fault;  /* 1 + the offset of the first faulting page; 0: none */
};

static struct guard_slot slots[GUARD_SLOTS];
static struct sigaction previous;
static uintptr_t page_size;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed;

static void pass_on(int sig, siginfo_t *si, void *uc)
{
	if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
		previous.sa_sigaction(sig, si, uc);
		return;
	}
	if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
		previous.sa_handler(sig);
		return;
	}
	/* The default action: a fault retried after return kills the process
	 * with SIGBUS; a SIGBUS sent by kill() is sent again. */
	signal(sig, SIG_DFL);
	if (si->si_code <= 0)
		raise(sig);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	uintptr_t a = (uintptr_t)si->si_addr;
	for (size_t i = 0; si->si_code > 0 && i < GUARD_SLOTS; i++) {
		uintptr_t s = atomic_load(&slots[i].start);
		if (s <= 1 || a < s || a - s >= atomic_load(&slots[i].len))
			continue;
		uintptr_t page = a & ~(page_size - 1);
		if (mmap((void *)page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED)
			break;
		uint64_t want = (uint64_t)(page - s) + 1, seen = atomic_load(&slots[i].fault);
		while ((!seen || want < seen) && !atomic_compare_exchange_weak(&slots[i].fault, &seen, want))
			;
		errno = saved;
		return;
	}
	errno = saved;
	pass_on(sig, si, uc);
}

static void install(void)
{
	page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	installed = sigaction(SIGBUS, &sa, &previous) == 0;
}

int pd_guard_add(const void *map, size_t len)
{
	pthread_once(&install_once, install);
	if (!installed || !map || !len)
		return -1;
	for (int i = 0; i < GUARD_SLOTS; i++) {
		uintptr_t free_slot = 0;
		if (atomic_load(&slots[i].start))
			continue;
		/* 1: being filled (the handler skips it); len and fault are set
		 * before the real start, which makes the handler trust them */
		if (!atomic_compare_exchange_strong(&slots[i].start, &free_slot, (uintptr_t)1))
			continue; /* taken meanwhile */
		atomic_store(&slots[i].fault, 0);
		atomic_store(&slots[i].len, len);
		atomic_store(&slots[i].start, (uintptr_t)map);
		return i;
	}
	return -1;
}

void pd_guard_remove(int slot)
{
	if (slot < 0)
		return;
	atomic_store(&slots[slot].len, 0);
	atomic_store(&slots[slot].start, 0);
}

int pd_guard_fault(int slot, uint64_t *offset)
{
	if (slot < 0)
		return 0;
	uint64_t f = atomic_load_explicit(&slots[slot].fault, memory_order_relaxed);
	if (f && offset)
		*offset = f - 1;
	return f != 0;
}

int ap_mapped_file_open(struct ap_mapped_file *m, int fd, struct ap_error_ctx *err)
{
	memset(m, 0, sizeof(*m));
	m->guard_ = -1;
	if (err)
		memset(err, 0, sizeof(*err));
	struct stat st;
	if (fstat(fd, &st) < 0)
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return 1;
	size_t len = (size_t)st.st_size;
	void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return pd_fail(err, AP_ERR_IO, 0, 0, "", "cannot map: %s", strerror(errno));
	int guard = pd_guard_add(map, len);
	if (guard < 0) {
		munmap(map, len);
		return 1;
	}
	m->data = map;
	m->len = len;
	m->guard_ = guard;
	return 0;
}

int ap_mapped_file_check(const struct ap_mapped_file *m, struct ap_error_ctx *err)
{
	uint64_t at;
	if (!pd_guard_fault(m->guard_, &at))
		return 0;
	return pd_fail(err, AP_ERR_IO, at, 0, "", "the file shrank while being read (offset %" PRIu64 ")", at);
}

void ap_mapped_file_close(struct ap_mapped_file *m)
{
	pd_guard_remove(m->guard_);
	if (m->data)
		munmap((void *)m->data, m->len);
	memset(m, 0, sizeof(*m));
	m->guard_ = -1;
}

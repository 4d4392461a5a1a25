/* The /proc/kallsyms reader (ap_report_load_kallsyms): any bytes give the
 * kernel's functions or an error naming the file, never a crash. A result
 * must hold together: symbols sorted by address, one per address, each
 * with an extent that ends at or before the next one's start; a function
 * is found at its first and last byte and the report's rows of PCs there
 * name it and its binary ([kernel.kallsyms] or a [module]). */
#define _GNU_SOURCE 1 /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "armprof/error.h"
#include "armprof/report.h"
#include "fuzz.h"
#include "report/report_internal.h"

/* Symbols whose PCs are given to the report (the rest: structure only). */
#define PCS_CHECKED 64

static void check_rows(const struct ap_report *rep)
{
	const struct ap_report_row *rows;
	size_t n = ap_report_instructions(rep, &rows);
	for (size_t i = 0; i < n; i++) {
		const struct report_kernel_symbol *s = report_kernel_symbol(&rep->kernel, rows[i].addr);
		if (!report_is_kernel_pc(rows[i].addr))
			continue;
		if (!rows[i].binary || (s && (rows[i].name != s->sym.name || rows[i].binary != s->binary ||
		                              rows[i].offset != rows[i].addr - s->sym.start)) ||
		    (!s && rows[i].name))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("kallsyms", 0);
		if (fd < 0)
			return 0;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	struct ap_report *rep;
	if (ap_report_create(&rep) < 0)
		abort();
	struct ap_error_ctx err = { 0 };
	int rc = ap_report_load_kallsyms(rep, path, &err);
	const struct report_kernel *k = &rep->kernel;
	if (rc < 0) {
		/* An error names the file and leaves no symbol. */
		if ((rc != -AP_ERR_FORMAT && rc != -AP_ERR_NOMEM) || strncmp(err.message, path, strlen(path)) != 0 || k->n)
			abort();
		ap_report_destroy(rep);
		return 0;
	}
	size_t functions = 0;
	for (size_t i = 0; i < k->n; i++) {
		const struct report_kernel_symbol *s = &k->v[i];
		if (!s->sym.start || !s->sym.size || !s->binary || !s->sym.name[0])
			abort();
		if (i + 1 < k->n && (k->v[i + 1].sym.start <= s->sym.start ||
		                     k->v[i + 1].sym.start - s->sym.start < s->sym.size))
			abort();
		if (s->sym.start + (s->sym.size - 1) < s->sym.start) /* past the top of the address space */
			abort();
		const struct report_kernel_symbol *first = report_kernel_symbol(k, s->sym.start);
		const struct report_kernel_symbol *last = report_kernel_symbol(k, s->sym.start + (s->sym.size - 1));
		if (first != (s->is_function ? s : NULL) || last != first)
			abort();
		functions += (size_t)s->is_function;
		if (i < PCS_CHECKED) {
			struct ap_record rec;
			memset(&rec, 0, sizeof(rec));
			rec.has = AP_HAS_PC;
			rec.pc = s->sym.start;
			if (ap_report_add(rep, &rec) < 0)
				abort();
			rec.pc = s->sym.start + (s->sym.size - 1);
			if (ap_report_add(rep, &rec) < 0)
				abort();
			rec.pc = s->sym.start - 1;
			if (ap_report_add(rep, &rec) < 0)
				abort();
		}
	}
	if (!functions)
		abort();
	if (ap_report_finish(rep) < 0)
		abort();
	check_rows(rep);
	ap_report_destroy(rep);
	return 0;
}

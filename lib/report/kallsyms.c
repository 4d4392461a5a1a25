/* The kernel's functions from a /proc/kallsyms text, as perf reads one
 * (perf report --kallsyms; tools/perf/util/symbol.c): lines "ADDRESS TYPE
 * NAME [MODULE]", of which the text symbols (t, T, w, W) are functions,
 * each reaching to the next symbol's address (a function's or, as perf
 * reads them too, a data symbol's: d, D, b, B). Addresses of 0 are what kptr_restrict shows a reader
 * without the right to see them: such lines are left out. */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

/* A file larger than this is not a kallsyms (the guest kit's Debian 6.1
 * kernel's, modules loaded, is 2 MB in 50 862 lines): read no further (a
 * device, /dev/zero). */
#define KALLSYMS_MAX_BYTES (256u << 20)

/* Where a kernel PC no symbol covers is counted (perf's name of the
 * kernel's dso). */
static const char kernel_dso[] = "[kernel.kallsyms]";

/* A candidate before the duplicates of one address are resolved. */
struct candidate {
	struct report_kernel_symbol ks;
	size_t line;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next field of the line at *p (up to end), NUL-terminated in place;
 * NULL when none is left. */
static char *next_field(char **p, char *end)
{
	char *s = *p;
	while (s < end && is_blank(*s))
		s++;
	if (s == end)
		return NULL;
	char *e = s;
	while (e < end && !is_blank(*e))
		e++;
	*e = 0; /* the blank or the line's end: end points at '\n' or the file's NUL */
	*p = e < end ? e + 1 : end;
	return s;
}

static int parse_address(const char *s, uint64_t *out)
{
	size_t n = strlen(s);
	if (!n || n > 16)
		return -1;
	uint64_t a = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
		             : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		             : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
		if (d == 16)
			return -1;
		a = a << 4 | d;
	}
	*out = a;
	return 0;
}

static int fail(char *err, size_t err_len, const char *file, size_t line, const char *what, const char *field)
{
	if (err && err_len)
		snprintf(err, err_len, "%s:%zu: %s%s%.80s%s (expected 'ADDRESS TYPE NAME [MODULE]', as /proc/kallsyms)",
		         file, line, what, field ? " '" : "", field ? field : "", field ? "'" : "");
	return -AP_ERR_FORMAT;
}

/* By address, then in the file's order: of the symbols at one address,
 * perf keeps the last (symbols__fixup_end gives the others no extent,
 * then symbols__fixup_duplicate prefers the one with an extent). */
static int cmp_candidates(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;
	if (x->ks.sym.start != y->ks.sym.start)
		return x->ks.sym.start < y->ks.sym.start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The end of a symbol followed by no function of its own kernel or module:
 * perf's (symbols__fixup_end) end of the page after its start's page. */
static uint64_t page_end(uint64_t start)
{
	uint64_t page = start & ~(uint64_t)4095;
	uint64_t end = page + (start == page ? 4096 : 8192);
	return end < start ? UINT64_MAX : end; /* the top of the address space */
}

/* Sort, keep one symbol per address, and give each its extent. */
static int finish_symbols(struct report_kernel *k, struct candidate *c, size_t n)
{
	if (n) /* qsort wants an array, c is NULL for a file of no symbol */
		qsort(c, n, sizeof(*c), cmp_candidates);
	struct report_kernel_symbol *v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -AP_ERR_NOMEM;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (i + 1 == n || c[i + 1].ks.sym.start != c[i].ks.sym.start)
			v[m++] = c[i].ks;
	for (size_t i = 0; i < m; i++) {
		uint64_t end = page_end(v[i].sym.start);
		if (i + 1 < m && (!strcmp(v[i + 1].binary, v[i].binary) || v[i + 1].sym.start < end))
			end = v[i + 1].sym.start;
		/* A symbol at the last byte of the address space: that byte. */
		v[i].sym.size = end > v[i].sym.start ? end - v[i].sym.start : 1;
	}
	k->v = v;
	k->n = m;
	return 0;
}

/* One line (NUL-terminated at *end): a candidate into *c when it is a
 * symbol perf reads (text t, T, w, W: a function; data d, D, b, B: only the
 * end of the function before it) with an address; *zero counts the
 * functions without one. */
static int parse_line(char *s, char *end, const char *file, size_t line, struct candidate *c, int *taken,
                      size_t *zero, char *err, size_t err_len)
{
	*taken = 0;
	char *p = s;
	char *addr = next_field(&p, end), *type = next_field(&p, end), *name = next_field(&p, end);
	char *module = next_field(&p, end), *extra = next_field(&p, end);
	if (!addr)
		return 0; /* a blank line */
	uint64_t a;
	if (parse_address(addr, &a) != 0)
		return fail(err, err_len, file, line, "the address is not 1 to 16 hexadecimal digits:", addr);
	if (!type || strlen(type) != 1 || !((type[0] >= 'a' && type[0] <= 'z') || (type[0] >= 'A' && type[0] <= 'Z')))
		return fail(err, err_len, file, line, type ? "the type is not one letter:" : "no type", type);
	if (!name)
		return fail(err, err_len, file, line, "no name", NULL);
	size_t ml = module ? strlen(module) : 0;
	if (module && (ml < 3 || module[0] != '[' || module[ml - 1] != ']'))
		return fail(err, err_len, file, line, "the module is not a name in brackets:", module);
	if (extra)
		return fail(err, err_len, file, line, "more than four fields:", extra);
	char t = type[0], upper = t >= 'a' ? (char)(t - 'a' + 'A') : t;
	int is_function = upper == 'T' || upper == 'W';
	if (!is_function && upper != 'D' && upper != 'B')
		return 0;
	if (!a) {
		*zero += (size_t)is_function;
		return 0;
	}
	*taken = 1;
	c->ks.sym = (struct report_symbol){
		.start = a,
		.name = name,
		.bind = upper == 'W' ? STB_WEAK : t == upper ? STB_GLOBAL : STB_LOCAL, /* nm's letters */
	};
	c->ks.binary = module ? module : kernel_dso;
	c->ks.is_function = is_function;
	c->line = line;
	return 0;
}

int report_kallsyms_parse(struct report_kernel *k, const char *file, char *text, size_t len, char *err,
                          size_t err_len)
{
	memset(k, 0, sizeof(*k));
	k->text = text; /* owned from here, whatever happens */
	struct candidate *c = NULL;
	size_t n = 0, cap = 0, zero = 0, functions = 0, line = 0;
	int rc = 0;
	for (size_t off = 0; off < len && !rc;) {
		line++;
		char *s = text + off, *nl = memchr(s, '\n', len - off);
		char *end = nl ? nl : text + len;
		if (memchr(s, 0, (size_t)(end - s))) {
			rc = fail(err, err_len, file, line, "a NUL byte: not a text file", NULL);
			break;
		}
		*end = 0; /* text[len] is the caller's NUL */
		off = (size_t)(end - text) + 1;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 4096;
			struct candidate *g = realloc(c, ncap * sizeof(*g));
			if (!g) {
				rc = -AP_ERR_NOMEM;
				break;
			}
			c = g;
			cap = ncap;
		}
		int taken;
		rc = parse_line(s, end, file, line, &c[n], &taken, &zero, err, err_len);
		n += (size_t)taken;
	}
	if (!rc)
		rc = finish_symbols(k, c, n);
	/* Counted after one symbol per address is kept: a function whose
	 * address a later data symbol takes is no function of the result. */
	functions = 0;
	for (size_t i = 0; !rc && i < k->n; i++)
		functions += (size_t)k->v[i].is_function;
	if (!rc && !functions) {
		if (err && err_len)
			snprintf(err, err_len, "%s: %s", file,
			         zero ? "every function's address is 0: kptr_restrict hid them (read /proc/kallsyms as "
			                "root, or after sysctl kernel.kptr_restrict=0)"
			              : "no function (no symbol of type t, T, w or W that keeps its address): not a kallsyms text");
		rc = -AP_ERR_FORMAT;
	}
	if (rc == -AP_ERR_NOMEM && err && err_len)
		snprintf(err, err_len, "%s: out of memory", file);
	free(c);
	if (rc < 0)
		report_kernel_fini(k);
	return rc;
}

const struct report_kernel_symbol *report_kernel_symbol(const struct report_kernel *k, uint64_t pc)
{
	size_t lo = 0, hi = k->n;
	while (lo < hi) { /* the first symbol starting after pc */
		size_t mid = lo + (hi - lo) / 2;
		if (k->v[mid].sym.start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct report_kernel_symbol *s = lo ? &k->v[lo - 1] : NULL;
	return s && s->is_function && pc - s->sym.start < s->sym.size ? s : NULL;
}

const struct report_symbol *report_kernel_find(const struct report_kernel *k, uint64_t pc, const char **binary)
{
	const struct report_kernel_symbol *s = report_kernel_symbol(k, pc);
	*binary = s ? s->binary : kernel_dso;
	return s ? &s->sym : NULL;
}

void report_kernel_fini(struct report_kernel *k)
{
	free(k->v);
	free(k->text);
	memset(k, 0, sizeof(*k));
}

int ap_report_load_kallsyms(struct ap_report *r, const char *path, struct ap_error_ctx *err)
{
	char *err_msg = err ? err->message : NULL;
	size_t err_len = err ? sizeof(err->message) : 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (err_msg && err_len)
			snprintf(err_msg, err_len, "%s: cannot open: %s", path, strerror(errno));
		return -AP_ERR_IO;
	}
	/* Read whole: the names stay in the text, NUL-terminated in place.
	 * /proc files have no size: read until the end. */
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;
	for (;;) {
		if (len + 1 >= cap) {
			size_t ncap = cap ? 2 * cap : 1u << 20;
			if (ncap > KALLSYMS_MAX_BYTES + 1u) {
				if (err_msg && err_len)
					snprintf(err_msg, err_len, "%s: larger than %u MiB: not a kallsyms text", path,
					         KALLSYMS_MAX_BYTES >> 20);
				rc = -AP_ERR_FORMAT;
				break;
			}
			char *g = realloc(text, ncap);
			if (!g) {
				if (err_msg && err_len)
					snprintf(err_msg, err_len, "%s: out of memory", path);
				rc = -AP_ERR_NOMEM;
				break;
			}
			text = g;
			cap = ncap;
		}
		size_t got = fread(text + len, 1, cap - 1 - len, f);
		len += got;
		if (memchr(text + len - got, 0, got))
			break; /* not text (/dev/zero): the parser names the line */
		if (got == 0) {
			if (ferror(f)) {
				if (err_msg && err_len)
					snprintf(err_msg, err_len, "%s: cannot read: %s", path, strerror(errno));
				rc = -AP_ERR_IO;
			}
			break;
		}
	}
	fclose(f);
	if (rc < 0) {
		free(text);
		return rc;
	}
	text[len] = 0;
	struct report_kernel k;
	rc = report_kallsyms_parse(&k, path, text, len, err_msg, err_len);
	if (rc < 0)
		return rc;
	report_kernel_fini(&r->kernel);
	r->kernel = k;
	r->finished = 0;
	return 0;
}

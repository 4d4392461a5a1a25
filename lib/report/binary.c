/* The profiled binary and the libraries it ran: function symbols (libelf),
 * source lines (libdw) and disassembly (capstone) for report rows. */
#include <capstone/capstone.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/error.h"
#include "report_internal.h"

struct report_binary {
	struct report_binary *next; /* the next library */
	const char *file;           /* a library's file name (in name or path), NULL for the binary */
	char *path;
	char *name;                 /* the name rows show, when not path's own (or NULL) */
	int fd;
	Elf *elf;
	/* The separate debug file (report_find_debug_file), when the file is
	 * stripped and one was found: its symbols and lines stand in for the
	 * file's; code bytes still come from the file. */
	int debug_fd;
	Elf *debug_elf;
	Dwarf *dw;         /* NULL without DWARF */
	uint64_t bias;
	struct report_symbol *syms; /* one per address: the name rows get */
	size_t n_syms;
	/* Every function symbol, aliases too, for a lookup by name
	 * (ap_report_find_function: printf as well as _IO_printf). */
	struct report_symbol *all_syms;
	size_t n_all_syms;
	char *added_names; /* of the functions report_elf_functions added */
	csh cs;
	int cs_ok;
};

void report_binary_free(struct report_binary *b)
{
	if (!b)
		return;
	if (b->cs_ok)
		cs_close(&b->cs);
	if (b->dw)
		dwarf_end(b->dw);
	if (b->elf)
		elf_end(b->elf);
	if (b->fd >= 0)
		close(b->fd);
	if (b->debug_elf)
		elf_end(b->debug_elf);
	if (b->debug_fd >= 0)
		close(b->debug_fd);
	free(b->syms);
	free(b->all_syms);
	free(b->added_names);
	free(b->name);
	free(b->path);
	free(b);
}

void report_libraries_free(struct report_binary *libs)
{
	while (libs) {
		struct report_binary *next = libs->next;
		report_binary_free(libs);
		libs = next;
	}
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct report_symbol *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Same address (aliases): the one rows are named after comes first,
	 * chosen as perf does: a sized one, not weak, global, with fewer
	 * leading underscores, shorter; then by name for stable output. */
	if ((x->size != 0) != (y->size != 0))
		return x->size ? -1 : 1;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return x->bind == STB_WEAK ? 1 : -1;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL ? -1 : 1;
	size_t ux = leading_underscores(x->name), uy = leading_underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	size_t lx = strlen(x->name), ly = strlen(y->name);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Function symbols of elf's first symbol table of the given type. */
static int read_symbols(struct report_binary *b, Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		struct report_symbol *v = realloc(b->syms, (b->n_syms + n) * sizeof(*v));
		if (!v)
			return -AP_ERR_NOMEM;
		b->syms = v;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(data, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value)
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			GElf_Shdr in;
			Elf_Scn *in_scn = s.st_shndx && s.st_shndx < SHN_LORESERVE ? elf_getscn(elf, s.st_shndx) : NULL;
			uint64_t end = in_scn && gelf_getshdr(in_scn, &in) && in.sh_addr <= s.st_value &&
			                       s.st_value - in.sh_addr < in.sh_size
			                   ? in.sh_addr + in.sh_size + b->bias
			                   : 0;
			v[b->n_syms++] = (struct report_symbol){ s.st_value + b->bias, s.st_size, name,
				                                 (unsigned char)GELF_ST_BIND(s.st_info), end };
		}
		return 1;
	}
	return 0;
}

static int has_section(Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return 1;
	return 0;
}

/* A stripped file's debug file, opened into b (nothing when none). */
static void open_debug_file(struct report_binary *b, const struct ap_report *r, char *warn, size_t warn_cap)
{
	const char *dirs[64];
	size_t n = 0;
	for (size_t i = 0; r && i < r->n_debug_dirs && n + 1 < 64; i++)
		dirs[n++] = r->debug_dirs[i];
	dirs[n++] = "/usr/lib/debug";
	char found[4096];
	unsigned machine = r ? r->elf_machine : EM_AARCH64;
	if (!report_find_debug_file(b->elf, b->path, machine, dirs, n, found, sizeof(found), warn, warn_cap))
		return;
	char why[400];
	if (report_elf_open(found, machine, &b->debug_fd, &b->debug_elf, why, sizeof(why)) < 0)
		snprintf(warn, warn_cap, "%s: %s; not used as a debug file", found, why);
}

/* The functions no symbol names (a stripped file's): added to syms and
 * all_syms, at runtime addresses. */
static int add_unnamed_functions(struct report_binary *b)
{
	struct report_binary_symbols have = { b->syms, b->n_syms, b->bias };
	struct report_symbol *added;
	size_t n;
	int rc = report_elf_functions(b->elf, &have, &added, &n, &b->added_names);
	if (rc < 0 || !n) {
		if (!rc)
			free(added);
		return rc;
	}
	struct report_symbol *syms = realloc(b->syms, (b->n_syms + n) * sizeof(*syms));
	struct report_symbol *all = syms ? realloc(b->all_syms, (b->n_all_syms + n) * sizeof(*all)) : NULL;
	if (syms)
		b->syms = syms;
	if (!all) {
		free(added);
		return -AP_ERR_NOMEM;
	}
	b->all_syms = all;
	for (size_t i = 0; i < n; i++) {
		added[i].start += b->bias;
		b->syms[b->n_syms++] = added[i];
		b->all_syms[b->n_all_syms++] = added[i];
	}
	free(added);
	qsort(b->syms, b->n_syms, sizeof(*b->syms), cmp_sym);
	return 0;
}

/* Open path's ELF, its symbols, DWARF lines and a disassembler. r (may be
 * NULL) gives the debug directories. */
static int open_binary(struct report_binary **out, const struct ap_report *r, const char *path,
                       uint64_t load_bias, char *err_msg, size_t err_len)
{
	char dummy[8];
	if (!err_msg) {
		err_msg = dummy;
		err_len = sizeof(dummy);
	}
	err_msg[0] = 0;
	struct report_binary *b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err_msg, err_len, "out of memory");
		return -AP_ERR_NOMEM;
	}
	b->bias = load_bias;
	b->fd = b->debug_fd = -1;
	b->path = strdup(path);
	if (!b->path) {
		snprintf(err_msg, err_len, "%s: out of memory", path);
		report_binary_free(b);
		return -AP_ERR_NOMEM;
	}
	char why[400];
	unsigned machine = r ? r->elf_machine : EM_AARCH64;
	int rc = report_elf_open(path, machine, &b->fd, &b->elf, why, sizeof(why));
	if (rc < 0) {
		snprintf(err_msg, err_len, "%s: %s", path, why);
		report_binary_free(b);
		return rc;
	}
	/* Stripped (no full symbol table): the debug file's, when found; one
	 * found but refused leaves its warning in err_msg. */
	if (!has_section(b->elf, SHT_SYMTAB))
		open_debug_file(b, r, err_msg, err_len);
	int got = read_symbols(b, b->elf, SHT_SYMTAB);
	if (got == 0 && b->debug_elf)
		got = read_symbols(b, b->debug_elf, SHT_SYMTAB);
	if (got == 0)
		got = read_symbols(b, b->elf, SHT_DYNSYM);
	if (got < 0) {
		snprintf(err_msg, err_len, "%s: out of memory", path);
		report_binary_free(b);
		return got;
	}
	if (b->n_syms)
		qsort(b->syms, b->n_syms, sizeof(*b->syms), cmp_sym);
	b->all_syms = malloc((b->n_syms ? b->n_syms : 1) * sizeof(*b->all_syms));
	if (!b->all_syms) {
		snprintf(err_msg, err_len, "%s: out of memory", path);
		report_binary_free(b);
		return -AP_ERR_NOMEM;
	}
	if (b->n_syms)
		memcpy(b->all_syms, b->syms, b->n_syms * sizeof(*b->all_syms));
	b->n_all_syms = b->n_syms;
	/* Keep one symbol per address (aliases), and give size-0 symbols the
	 * room up to the next one. */
	size_t k = 0;
	for (size_t i = 0; i < b->n_syms; i++)
		if (!k || b->syms[k - 1].start != b->syms[i].start)
			b->syms[k++] = b->syms[i];
	b->n_syms = k;
	for (size_t i = 0; i + 1 < k; i++) {
		struct report_symbol *sym = &b->syms[i];
		if (sym->size)
			continue;
		uint64_t end = b->syms[i + 1].start;
		if (sym->section_end && sym->section_end < end)
			end = sym->section_end;
		sym->size = end - sym->start;
	}
	if (add_unnamed_functions(b) < 0) {
		snprintf(err_msg, err_len, "%s: out of memory", path);
		report_binary_free(b);
		return -AP_ERR_NOMEM;
	}
	b->dw = dwarf_begin_elf(b->elf, DWARF_C_READ, NULL);
	if (!b->dw && b->debug_elf)
		b->dw = dwarf_begin_elf(b->debug_elf, DWARF_C_READ, NULL);
	b->cs_ok = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &b->cs) == CS_ERR_OK;
	*out = b;
	return 0;
}

void ap_report_set_elf_machine(struct ap_report *r, unsigned e_machine)
{
	r->elf_machine = e_machine;
}

int ap_report_add_debug_dir(struct ap_report *r, const char *dir)
{
	char **v = realloc(r->debug_dirs, (r->n_debug_dirs + 1) * sizeof(*v));
	if (!v)
		return -AP_ERR_NOMEM;
	r->debug_dirs = v;
	if (!(v[r->n_debug_dirs] = strdup(dir)))
		return -AP_ERR_NOMEM;
	r->n_debug_dirs++;
	return 0;
}

int ap_report_load_binary(struct ap_report *r, const char *path, uint64_t load_bias,
                          struct ap_error_ctx *err)
{
	char *err_msg = err ? err->message : NULL;
	size_t err_len = err ? sizeof(err->message) : 0;
	struct report_binary *b;
	int rc = open_binary(&b, r, path, load_bias, err_msg, err_len);
	if (rc < 0)
		return rc;
	report_binary_free(r->bin);
	r->bin = b;
	r->finished = 0;
	return 0;
}

int ap_report_load_library_named(struct ap_report *r, const char *path, const char *name,
                                 uint64_t load_bias, struct ap_error_ctx *err)
{
	char *err_msg = err ? err->message : NULL;
	size_t err_len = err ? sizeof(err->message) : 0;
	struct report_binary *b;
	int rc = open_binary(&b, r, path, load_bias, err_msg, err_len);
	if (rc < 0)
		return rc;
	if (name && name[0] && !(b->name = strdup(name))) {
		report_binary_free(b);
		if (err_msg)
			snprintf(err_msg, err_len, "%s: out of memory", path);
		return -AP_ERR_NOMEM;
	}
	const char *shown = b->name ? b->name : b->path;
	const char *slash = strrchr(shown, '/');
	b->file = slash ? slash + 1 : shown;
	struct report_binary **tail = &r->libs;
	while (*tail)
		tail = &(*tail)->next;
	*tail = b;
	r->finished = 0;
	return 0;
}

int ap_report_load_library(struct ap_report *r, const char *path, uint64_t load_bias,
                           struct ap_error_ctx *err)
{
	return ap_report_load_library_named(r, path, NULL, load_bias, err);
}

static int insn_bytes(const struct report_binary *b, uint64_t addr, uint8_t out[4]);

/* The binary or library pc belongs to: the one whose symbols cover it,
 * else a library whose code holds it (a stripped library's local
 * functions), else the binary. */
static const struct report_binary *binary_of(const struct ap_report *r, uint64_t pc)
{
	if (r->bin && report_binary_symbol(r->bin, pc))
		return r->bin;
	for (const struct report_binary *b = r->libs; b; b = b->next)
		if (report_binary_symbol(b, pc))
			return b;
	uint8_t bytes[4];
	for (const struct report_binary *b = r->libs; b; b = b->next)
		if (pc >= b->bias && insn_bytes(b, pc - b->bias, bytes) == 0)
			return b;
	return r->bin;
}

/* Samples in [start, start + size): the instructions are 4-byte aligned.
 * Whichever is shorter is walked, the range or the PCs sampled, so that a
 * symbol with an absurd size (a corrupt file) costs no more than the PCs. */
static uint64_t samples_in(const struct ap_report *r, uint64_t start, uint64_t size)
{
	uint64_t n = 0;
	if (size / 4 > r->pcs.n) {
		for (size_t i = 0; i < r->pcs.n; i++)
			if (r->pcs.v[i].pc - start < size)
				n += report_pcs_samples(&r->pcs, i);
		return n;
	}
	uint64_t first = start & ~(uint64_t)3, count = (size + (start - first) + 3) / 4;
	for (uint64_t k = 0; k < count; k++) {
		long i = report_pcs_find(&r->pcs, first + 4 * k);
		n += i >= 0 ? report_pcs_samples(&r->pcs, (size_t)i) : 0;
	}
	return n;
}

/* name itself, or (clones) a compiler's copy of it: name.constprop.0,
 * name.isra.0, name.part.0, name.cold, ... */
static int names_function(const char *sym, const char *name, int clones)
{
	size_t n = strlen(name);
	if (strncmp(sym, name, n) != 0)
		return 0;
	return clones ? sym[n] == '.' : sym[n] == 0;
}

int ap_report_find_function(const struct ap_report *r, const char *name, uint64_t *start, uint64_t *size,
                            const char **binary, const char **found)
{
	const struct report_symbol *best = NULL;
	const struct report_binary *best_bin = NULL;
	const char *best_kernel = NULL;
	uint64_t best_samples = 0;
	/* The exact name first; only without it the compiler's copies. */
	for (int clones = 0; clones < 2 && !best; clones++) {
	const struct report_binary *b = r->bin ? r->bin : r->libs;
	for (; b; b = b == r->bin ? r->libs : b->next) {
		for (size_t i = 0; i < b->n_all_syms; i++) {
			const struct report_symbol *s = &b->all_syms[i];
			if (!s->size || !names_function(s->name, name, clones))
				continue;
			uint64_t n = samples_in(r, s->start, s->size);
			if (!best || n > best_samples) {
				best = s;
				best_bin = b;
				best_samples = n;
			}
		}
	}
	/* Then the kernel's functions (ap_report_load_kallsyms). */
	for (size_t i = 0; i < r->kernel.n; i++) {
		const struct report_kernel_symbol *k = &r->kernel.v[i];
		if (!k->is_function || !names_function(k->sym.name, name, clones))
			continue;
		uint64_t n = samples_in(r, k->sym.start, k->sym.size);
		if (!best || n > best_samples) {
			best = &k->sym;
			best_bin = NULL;
			best_kernel = k->binary;
			best_samples = n;
		}
	}
	}
	if (!best)
		return -AP_ERR_INVALID;
	*start = best->start;
	*size = best->size;
	*binary = best_bin ? best_bin->file : best_kernel;
	*found = best->name;
	return 0;
}

const struct report_symbol *report_find_symbol(const struct ap_report *r, uint64_t pc, const char **binary)
{
	if (r->kernel.n && report_is_kernel_pc(pc))
		return report_kernel_find(&r->kernel, pc, binary);
	const struct report_binary *b = binary_of(r, pc);
	*binary = b ? b->file : NULL;
	return b ? report_binary_symbol(b, pc) : NULL;
}

const char *ap_report_symbol_name(const struct ap_report *r, uint64_t pc, const char **binary)
{
	const char *bin = NULL;
	const struct report_symbol *s = report_find_symbol(r, pc, &bin);
	if (binary)
		*binary = bin;
	return s ? s->name : NULL;
}

/* The symbol of v (sorted, one per address) covering pc, or NULL. */
static const struct report_symbol *symbol_covering(const struct report_symbol *v, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* first symbol with start > pc */
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct report_symbol *s = &v[lo - 1];
	return pc - s->start < (s->size ? s->size : 4) ? s : NULL;
}

const struct report_symbol *report_binary_symbol(const struct report_binary *b, uint64_t pc)
{
	return symbol_covering(b->syms, b->n_syms, pc);
}

int report_symbols_cover(const struct report_binary_symbols *have, uint64_t addr)
{
	return symbol_covering(have->v, have->n, addr + have->bias) != NULL;
}

/* The 4 instruction bytes at ELF address addr, from an executable section. */
static int insn_bytes(const struct report_binary *b, uint64_t addr, uint8_t out[4])
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(b->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (addr < sh.sh_addr || addr + 4 > sh.sh_addr + sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr + 4 > d->d_size)
			return -1;
		memcpy(out, (const uint8_t *)d->d_buf + (addr - sh.sh_addr), 4);
		return 0;
	}
	return -1;
}

int ap_report_disassemble(const struct ap_report *r, uint64_t pc, char *buf, size_t cap)
{
	const struct report_binary *b = binary_of(r, pc);
	uint8_t bytes[4];
	if (!b || !b->cs_ok || pc < b->bias || insn_bytes(b, pc - b->bias, bytes) != 0)
		return -AP_ERR_UNSUPPORTED;
	cs_insn *insn;
	if (cs_disasm(b->cs, bytes, 4, pc, 1, &insn) != 1) {
		snprintf(buf, cap, ".inst 0x%02x%02x%02x%02x", bytes[3], bytes[2], bytes[1], bytes[0]);
		return 0;
	}
	snprintf(buf, cap, "%s%s%s", insn->mnemonic, insn->op_str[0] ? " " : "", insn->op_str);
	cs_free(insn, 1);
	return 0;
}

int ap_report_source_line(const struct ap_report *r, uint64_t pc, char *buf, size_t cap)
{
	const struct report_binary *b = binary_of(r, pc);
	if (!b || !b->dw || pc < b->bias)
		return -AP_ERR_UNSUPPORTED;
	Dwarf_Die cu;
	Dwarf_Addr addr = pc - b->bias;
	if (!dwarf_addrdie(b->dw, addr, &cu))
		return -AP_ERR_UNSUPPORTED;
	Dwarf_Line *line = dwarf_getsrc_die(&cu, addr);
	int lineno = 0;
	const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
	if (!file || dwarf_lineno(line, &lineno) != 0)
		return -AP_ERR_UNSUPPORTED;
	const char *base = strrchr(file, '/');
	snprintf(buf, cap, "%s:%d", base ? base + 1 : file, lineno);
	return 0;
}

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
	const char *file;           /* a library's file name (in path), NULL for the binary */
	char *path;
	int fd;
	Elf *elf;
	Dwarf *dw;         /* NULL without DWARF */
	uint64_t bias;
	struct report_symbol *syms; /* one per address: the name rows get */
	size_t n_syms;
	/* Every function symbol, aliases too, for a lookup by name
	 * (ap_report_find_function: printf as well as _IO_printf). */
	struct report_symbol *all_syms;
	size_t n_all_syms;
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
	free(b->syms);
	free(b->all_syms);
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

/* Function symbols of the first symbol table of the given type. */
static int read_symbols(struct report_binary *b, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(b->elf, scn))) {
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
			const char *name = elf_strptr(b->elf, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			v[b->n_syms++] = (struct report_symbol){ s.st_value + b->bias, s.st_size, name,
				                                 (unsigned char)GELF_ST_BIND(s.st_info) };
		}
		return 1;
	}
	return 0;
}

/* Open path's ELF, its symbols, DWARF lines and a disassembler. */
static int open_binary(struct report_binary **out, const char *path, uint64_t load_bias, char *err_msg,
                       size_t err_len)
{
	char dummy[8];
	if (!err_msg) {
		err_msg = dummy;
		err_len = sizeof(dummy);
	}
	elf_version(EV_CURRENT);
	struct report_binary *b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err_msg, err_len, "out of memory");
		return -AP_ERR_NOMEM;
	}
	b->bias = load_bias;
	b->path = strdup(path);
	b->fd = open(path, O_RDONLY);
	if (b->fd < 0) {
		snprintf(err_msg, err_len, "%s: cannot open", path);
		report_binary_free(b);
		return -AP_ERR_IO;
	}
	b->elf = elf_begin(b->fd, ELF_C_READ_MMAP, NULL);
	if (!b->elf || elf_kind(b->elf) != ELF_K_ELF || gelf_getclass(b->elf) != ELFCLASS64) {
		snprintf(err_msg, err_len, "%s: not a 64-bit ELF file", path);
		report_binary_free(b);
		return -AP_ERR_FORMAT;
	}
	int got = read_symbols(b, SHT_SYMTAB);
	if (got == 0)
		got = read_symbols(b, SHT_DYNSYM);
	if (got < 0 || b->n_syms == 0) {
		snprintf(err_msg, err_len, "%s: %s", path, got < 0 ? "out of memory" : "no function symbols");
		report_binary_free(b);
		return got < 0 ? got : -AP_ERR_FORMAT;
	}
	qsort(b->syms, b->n_syms, sizeof(*b->syms), cmp_sym);
	b->all_syms = malloc(b->n_syms * sizeof(*b->all_syms));
	if (!b->all_syms) {
		snprintf(err_msg, err_len, "%s: out of memory", path);
		report_binary_free(b);
		return -AP_ERR_NOMEM;
	}
	memcpy(b->all_syms, b->syms, b->n_syms * sizeof(*b->all_syms));
	b->n_all_syms = b->n_syms;
	/* Keep one symbol per address (aliases), and give size-0 symbols the
	 * room up to the next one. */
	size_t k = 0;
	for (size_t i = 0; i < b->n_syms; i++)
		if (!k || b->syms[k - 1].start != b->syms[i].start)
			b->syms[k++] = b->syms[i];
	b->n_syms = k;
	for (size_t i = 0; i + 1 < k; i++)
		if (!b->syms[i].size)
			b->syms[i].size = b->syms[i + 1].start - b->syms[i].start;
	b->dw = dwarf_begin_elf(b->elf, DWARF_C_READ, NULL);
	b->cs_ok = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &b->cs) == CS_ERR_OK;
	*out = b;
	return 0;
}

int ap_report_load_binary(struct ap_report *r, const char *path, uint64_t load_bias, char *err_msg,
                          size_t err_len)
{
	struct report_binary *b;
	int rc = open_binary(&b, path, load_bias, err_msg, err_len);
	if (rc < 0)
		return rc;
	report_binary_free(r->bin);
	r->bin = b;
	r->finished = 0;
	return 0;
}

int ap_report_load_library(struct ap_report *r, const char *path, uint64_t load_bias, char *err_msg,
                           size_t err_len)
{
	struct report_binary *b;
	int rc = open_binary(&b, path, load_bias, err_msg, err_len);
	if (rc < 0)
		return rc;
	if (b->path) {
		const char *slash = strrchr(b->path, '/');
		b->file = slash ? slash + 1 : b->path;
	}
	struct report_binary **tail = &r->libs;
	while (*tail)
		tail = &(*tail)->next;
	*tail = b;
	r->finished = 0;
	return 0;
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

/* Samples in [start, start + size): the instructions are 4-byte aligned. */
static uint64_t samples_in(const struct ap_report *r, uint64_t start, uint64_t size)
{
	uint64_t n = 0;
	for (uint64_t pc = start & ~(uint64_t)3; pc < start + size; pc += 4) {
		const struct ap_report_stats *s = ap_report_pc_stats(r, pc);
		n += s ? s->samples : 0;
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
	}
	if (!best)
		return -AP_ERR_INVALID;
	*start = best->start;
	*size = best->size;
	*binary = best_bin->file;
	*found = best->name;
	return 0;
}

const struct report_symbol *report_find_symbol(const struct ap_report *r, uint64_t pc, const char **binary)
{
	const struct report_binary *b = binary_of(r, pc);
	*binary = b ? b->file : NULL;
	return b ? report_binary_symbol(b, pc) : NULL;
}

const struct report_symbol *report_binary_symbol(const struct report_binary *b, uint64_t pc)
{
	size_t lo = 0, hi = b->n_syms;
	while (lo < hi) { /* first symbol with start > pc */
		size_t mid = lo + (hi - lo) / 2;
		if (b->syms[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct report_symbol *s = &b->syms[lo - 1];
	return pc - s->start < (s->size ? s->size : 4) ? s : NULL;
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

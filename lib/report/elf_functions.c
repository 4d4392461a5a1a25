/* Functions an ELF file still tells when its symbol table is gone (a
 * distribution's stripped program or library):
 *   - every function with unwind information has an FDE, and the sorted
 *     search table of .eh_frame_hdr lists where each starts and where its
 *     FDE is, which gives its extent (libdw's CFI reader gives only the
 *     extent of one row of unwind rules, not the function's). They are
 *     named sub_<address> (the ELF address, as objdump shows it).
 *   - the PLT stubs, one per .rela.plt entry in order, named <symbol>@plt
 *     as perf names them, and the PLT's header (the lazy binding's entry
 *     to the dynamic linker), named .plt as perf names it (since 6.3).
 * Only what no symbol covers is added (report_elf_functions, called by
 * binary.c add_unnamed_functions). */
#include <elf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "report_internal.h"

/* DWARF exception-header pointer encodings (LSB "Linux Standard Base Core
 * Specification", .eh_frame_hdr). */
#define EH_PE_OMIT 0xff
#define EH_PE_FORMAT 0x0f
#define EH_PE_UDATA4 0x03
#define EH_PE_SDATA4 0x0b
#define EH_PE_UDATA8 0x04
#define EH_PE_SDATA8 0x0c
#define EH_PE_DATAREL_SDATA4 0x3b /* the table encoding every linker writes */

static int pointer_size(unsigned enc)
{
	switch (enc & EH_PE_FORMAT) {
	case EH_PE_UDATA4:
	case EH_PE_SDATA4:
		return 4;
	case EH_PE_UDATA8:
	case EH_PE_SDATA8:
		return 8;
	default:
		return -1;
	}
}

static uint64_t read_unsigned(const uint8_t *p, int size)
{
	uint64_t v = 0;
	for (int i = size - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The extent of the FDE at eh_frame + off whose pc_begin the search
 * table gave as start; 0 when its fields are not the ones read here. The
 * table does not say how the FDE encodes pc_begin (its CIE does): the two
 * encodings linkers write are tried, and one is taken only if it gives
 * back start. */
static uint64_t fde_range(const uint8_t *eh, size_t eh_len, uint64_t eh_addr, uint64_t off, uint64_t start)
{
	if (off > eh_len || eh_len - off < 8)
		return 0;
	uint64_t at = off + 4; /* past the length */
	if (read_unsigned(eh + off, 4) == 0xffffffffu)
		at += 8; /* a 64-bit length */
	at += 4; /* the CIE pointer */
	if (at > eh_len || eh_len - at < 16)
		return 0;
	/* pcrel sdata4, the range udata4 (GNU ld, lld, gcc's crt files) */
	int32_t rel = (int32_t)(uint32_t)read_unsigned(eh + at, 4);
	if (eh_addr + at + (uint64_t)(int64_t)rel == start)
		return read_unsigned(eh + at + 4, 4);
	/* absolute udata8 */
	if (read_unsigned(eh + at, 8) == start)
		return read_unsigned(eh + at + 8, 8);
	return 0;
}

long report_fde_functions(const uint8_t *hdr, size_t hdr_len, uint64_t hdr_addr, const uint8_t *eh, size_t eh_len,
                          uint64_t eh_addr, struct report_extent *out, size_t cap)
{
	if (hdr_len < 4 || hdr[0] != 1)
		return -AP_ERR_FORMAT;
	unsigned ptr_enc = hdr[1], count_enc = hdr[2], table_enc = hdr[3];
	if (count_enc == EH_PE_OMIT || table_enc == EH_PE_OMIT)
		return 0; /* no search table: nothing to list */
	if (table_enc != EH_PE_DATAREL_SDATA4)
		return -AP_ERR_UNSUPPORTED;
	size_t at = 4;
	int ptr_size = ptr_enc == EH_PE_OMIT ? 0 : pointer_size(ptr_enc);
	int count_size = pointer_size(count_enc);
	if (ptr_size < 0 || count_size < 0 || hdr_len - at < (size_t)ptr_size + (size_t)count_size)
		return -AP_ERR_FORMAT;
	at += (size_t)ptr_size;
	uint64_t count = read_unsigned(hdr + at, count_size);
	at += (size_t)count_size;
	if (count > (hdr_len - at) / 8)
		return -AP_ERR_FORMAT; /* the table would run past the section */
	size_t n = 0;
	for (uint64_t i = 0; i < count && n < cap; i++) {
		const uint8_t *e = hdr + at + 8 * i;
		uint64_t start = hdr_addr + (uint64_t)(int64_t)(int32_t)(uint32_t)read_unsigned(e, 4);
		uint64_t fde = hdr_addr + (uint64_t)(int64_t)(int32_t)(uint32_t)read_unsigned(e + 4, 4);
		uint64_t size = fde >= eh_addr ? fde_range(eh, eh_len, eh_addr, fde - eh_addr, start) : 0;
		if (size && start + size > start)
			out[n++] = (struct report_extent){ start, size };
	}
	return (long)n;
}

/* Room for the name of one added function: "sub_" and 16 hex digits, or a
 * PLT symbol's name cut to fit. */
#define NAME_ROOM 64

struct added {
	struct report_symbol *v;
	size_t n, cap;
	char *names; /* NAME_ROOM bytes per entry of v */
};

static int add(struct added *a, uint64_t start, uint64_t size, const char *name)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		struct report_symbol *v = realloc(a->v, cap * sizeof(*v));
		if (!v)
			return -AP_ERR_NOMEM;
		a->v = v;
		char *names = realloc(a->names, cap * NAME_ROOM);
		if (!names)
			return -AP_ERR_NOMEM;
		a->names = names;
		a->cap = cap;
	}
	snprintf(a->names + a->n * NAME_ROOM, NAME_ROOM, "%s", name);
	/* The name's pointer is set once the arena stops moving. */
	a->v[a->n++] = (struct report_symbol){ start, size, NULL, STB_LOCAL, 0 };
	return 0;
}

static Elf_Scn *section_named(Elf *elf, const char *want, GElf_Shdr *sh)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static const uint8_t *section_bytes(Elf *elf, const char *name, GElf_Shdr *sh, size_t *len)
{
	Elf_Scn *scn = section_named(elf, name, sh);
	Elf_Data *d = scn && sh->sh_type == SHT_PROGBITS ? elf_getdata(scn, NULL) : NULL;
	if (!d || !d->d_buf)
		return NULL;
	*len = d->d_size;
	return d->d_buf;
}

/* The functions the FDEs describe. */
static int add_fde_functions(Elf *elf, const struct report_binary_symbols *have, struct added *a)
{
	GElf_Shdr hdr_sh, eh_sh;
	size_t hdr_len = 0, eh_len = 0; /* set by section_bytes when it finds the section */
	const uint8_t *hdr = section_bytes(elf, ".eh_frame_hdr", &hdr_sh, &hdr_len);
	const uint8_t *eh = section_bytes(elf, ".eh_frame", &eh_sh, &eh_len);
	if (!hdr || !eh)
		return 0;
	/* At most one function per table entry (8 bytes each). */
	size_t cap = hdr_len / 8;
	struct report_extent *fns = malloc((cap ? cap : 1) * sizeof(*fns));
	if (!fns)
		return -AP_ERR_NOMEM;
	long n = report_fde_functions(hdr, hdr_len, hdr_sh.sh_addr, eh, eh_len, eh_sh.sh_addr, fns, cap);
	int rc = 0;
	for (long i = 0; i < n && !rc; i++) {
		if (report_symbols_cover(have, fns[i].start))
			continue;
		char name[NAME_ROOM];
		snprintf(name, sizeof(name), "sub_%llx", (unsigned long long)fns[i].start);
		rc = add(a, fns[i].start, fns[i].size, name);
	}
	free(fns);
	return rc;
}

/* aarch64 PLT: a 32-byte header, then one stub per .rela.plt entry, in
 * order (16 bytes each, 24 with BTI landing pads): the stub size is what
 * divides the rest evenly. */
static int add_plt_stubs(Elf *elf, const struct report_binary_symbols *have, struct added *a)
{
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_AARCH64)
		return 0;
	GElf_Shdr plt_sh, rel_sh, sym_sh;
	Elf_Scn *plt = section_named(elf, ".plt", &plt_sh);
	Elf_Scn *rel = section_named(elf, ".rela.plt", &rel_sh);
	if (!plt || !rel || rel_sh.sh_type != SHT_RELA || !rel_sh.sh_entsize)
		return 0;
	size_t n = rel_sh.sh_size / rel_sh.sh_entsize;
	const uint64_t header = 32;
	if (!n || plt_sh.sh_size <= header || (plt_sh.sh_size - header) % n)
		return 0;
	uint64_t stub = (plt_sh.sh_size - header) / n;
	if (stub != 16 && stub != 24)
		return 0;
	/* The header: every call's first trip through a lazily bound stub
	 * jumps to it (it branches to the dynamic linker's resolver). */
	if (!report_symbols_cover(have, plt_sh.sh_addr)) {
		int rc = add(a, plt_sh.sh_addr, header, ".plt");
		if (rc)
			return rc;
	}
	Elf_Scn *symtab = elf_getscn(elf, rel_sh.sh_link);
	Elf_Data *rd = elf_getdata(rel, NULL), *sd = symtab ? elf_getdata(symtab, NULL) : NULL;
	if (!rd || !sd || !gelf_getshdr(symtab, &sym_sh))
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym s;
		if (!gelf_getrela(rd, (int)i, &r) || !gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &s))
			continue;
		const char *name = elf_strptr(elf, sym_sh.sh_link, s.st_name);
		uint64_t start = plt_sh.sh_addr + header + i * stub;
		if (!name || !*name || report_symbols_cover(have, start))
			continue;
		char plt_name[NAME_ROOM];
		snprintf(plt_name, sizeof(plt_name), "%.59s@plt", name);
		int rc = add(a, start, stub, plt_name);
		if (rc)
			return rc;
	}
	return 0;
}

int report_elf_functions(Elf *elf, const struct report_binary_symbols *have, struct report_symbol **out,
                         size_t *n_out, char **names_out)
{
	struct added a = { 0 };
	int rc = add_fde_functions(elf, have, &a);
	if (!rc)
		rc = add_plt_stubs(elf, have, &a);
	if (rc) {
		free(a.v);
		free(a.names);
		return rc;
	}
	for (size_t i = 0; i < a.n; i++)
		a.v[i].name = a.names + i * NAME_ROOM;
	*out = a.v;
	*n_out = a.n;
	*names_out = a.names;
	return 0;
}

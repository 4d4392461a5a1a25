/* Opening an ELF file the report reads symbols, lines and code from (the
 * profiled binary, a library, a separate debug file). Only a file that can
 * describe AArch64 code is taken: a FIFO or a device would block the open or
 * the read, another architecture's symbols would name AArch64 PCs wrongly
 * and its bytes would disassemble as .inst, and a file whose section headers
 * point past its end (cut short) gives no symbols without saying why. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "armprof/error.h"
#include "report_internal.h"

/* The machines one is most likely to be handed by mistake, by name. */
static const char *machine_name(unsigned m)
{
	switch (m) {
	case EM_X86_64: return "x86-64";
	case EM_386: return "i386";
	case EM_ARM: return "32-bit Arm";
	case EM_RISCV: return "RISC-V";
	case EM_PPC64: return "PowerPC64";
	case EM_S390: return "s390";
	default: return "another architecture";
	}
}

/* 0 if elf's section headers (the table and each section's bytes) lie
 * inside the size-byte file; else why not, in why. */
static int sections_inside(Elf *elf, uint64_t size, char *why, size_t cap)
{
	size_t n;
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &n) != 0) {
		snprintf(why, cap, "its ELF header or section header table cannot be read (%s)", elf_errmsg(-1));
		return -1;
	}
	/* The header's own counts: libelf reads a table past the end as none. */
	uint64_t shnum = eh.e_shnum ? eh.e_shnum : 1, phnum = eh.e_phnum;
	if (eh.e_shoff && (eh.e_shoff > size || shnum * eh.e_shentsize > size - eh.e_shoff)) {
		snprintf(why, cap, "its section header table (%llu entries at offset %llu) lies past the end of the "
		         "file (%llu bytes): cut short?", (unsigned long long)shnum, (unsigned long long)eh.e_shoff,
		         (unsigned long long)size);
		return -1;
	}
	if (eh.e_phoff > size || phnum * eh.e_phentsize > size - eh.e_phoff) {
		snprintf(why, cap, "its program header table lies past the end of the file (%llu bytes): cut short?",
		         (unsigned long long)size);
		return -1;
	}
	if (!eh.e_shoff || !n) {
		snprintf(why, cap, "it has no section headers (no symbols, no code to read)");
		return -1;
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh)) {
			snprintf(why, cap, "section %zu's header cannot be read (%s)", elf_ndxscn(scn), elf_errmsg(-1));
			return -1;
		}
		if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)) {
			snprintf(why, cap, "section %zu (bytes %llu..%llu) lies past the end of the file (%llu bytes): "
			         "cut short?", elf_ndxscn(scn), (unsigned long long)sh.sh_offset,
			         (unsigned long long)(sh.sh_offset + sh.sh_size), (unsigned long long)size);
			return -1;
		}
	}
	return 0;
}

int report_elf_open(const char *path, unsigned machine, int *fd_out, Elf **elf_out, char *why, size_t cap)
{
	*fd_out = -1;
	*elf_out = NULL;
	elf_version(EV_CURRENT);
	/* O_NONBLOCK: opening a FIFO with no writer would wait for one. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, cap, "cannot open: %s", strerror(errno));
		return -AP_ERR_IO;
	}
	struct stat st;
	int stat_rc = fstat(fd, &st);
	if (stat_rc != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, cap, "%s", stat_rc != 0 ? strerror(errno)
		                         : S_ISDIR(st.st_mode) ? "is a directory, not an ELF file"
		                                               : "not a regular file (a FIFO, socket or device)");
		close(fd);
		return -AP_ERR_IO;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	int rc = -AP_ERR_FORMAT;
	if (!elf || elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) != ELFCLASS64 || !gelf_getehdr(elf, &eh))
		snprintf(why, cap, "not a 64-bit ELF file");
	else if (machine && eh.e_machine != machine)
		snprintf(why, cap, "a%s %s ELF file (e_machine %u), not %s (%u): its symbols and code are not the "
		         "profiled program's", eh.e_machine == EM_386 || eh.e_machine == EM_X86_64 ? "n" : "",
		         machine_name(eh.e_machine), eh.e_machine, machine == EM_AARCH64 ? "AArch64" : "the machine asked for",
		         machine);
	else if (sections_inside(elf, (uint64_t)st.st_size, why, cap) == 0)
		rc = 0;
	if (rc < 0) {
		if (elf)
			elf_end(elf);
		close(fd);
		return rc;
	}
	*fd_out = fd;
	*elf_out = elf;
	return 0;
}

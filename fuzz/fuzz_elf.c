/* The ELF readers: lib/report's (ap_report_load_binary: symbols, a debug
 * file, the FDE and PLT functions of a stripped file, disassembly and
 * lines of the PCs found in it), and the ELF helpers of lib/perfdata
 * (perfdata.h): the build ID, the executable segments
 * (ap_perf_elf_exec_maps, ap_perf_elf_load_maps: the files perf.data's mappings and armprof
 * record name), the interpreter a program asks for (ap_perf_elf_interp:
 * armprof record's choice of an aarch64 root) and the aarch64 check. They
 * read any file a user names: any bytes must give a result or an error,
 * never a crash, and a result must hold together: page-aligned segments,
 * an interpreter string terminated and non-empty, or empty without one. */
#define _GNU_SOURCE 1 /* memfd_create */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "armprof/report.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("elf", 0);
		if (fd < 0)
			return 0;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	struct ap_perf_elf_map maps[4];
	struct ap_error_ctx err;
	int n = ap_perf_elf_exec_maps(path, maps, 4, &err);
	if (n < 0 && !err.message[0])
		__builtin_trap(); /* an error says what */
	for (int i = 0; i < n && i < 4; i++)
		if (maps[i].addr % 4096 || maps[i].pgoff % 4096 || !(maps[i].prot & 4u))
			__builtin_trap(); /* page-aligned executable maps, as documented */
	/* Every segment: at least the executable ones, the same error. */
	struct ap_perf_elf_map all[8];
	int na = ap_perf_elf_load_maps(path, all, 8, &err);
	if ((n < 0) != (na < 0) || (n >= 0 && na < n))
		__builtin_trap();
	for (int i = 0; i < na && i < 8; i++)
		if (all[i].addr % 4096 || all[i].pgoff % 4096)
			__builtin_trap();
	char interp[32];
	int has = ap_perf_elf_interp(path, interp, sizeof(interp));
	if (has == 1 && (!interp[0] || !memchr(interp, 0, sizeof(interp))))
		__builtin_trap();
	if (has <= 0 && interp[0])
		__builtin_trap(); /* no interpreter: an empty string */
	struct ap_report *rep;
	if (ap_report_create(&rep) == 0) {
		struct ap_error_ctx msg = { 0 };
		if (ap_report_add_debug_dir(rep, "/nonexistent") != 0)
			__builtin_trap();
		ap_report_set_elf_machine(rep, 0); /* any machine: the readers behind the check too */
		if (ap_report_load_binary(rep, path, 0x10000, &msg) == 0) {
			/* Samples at every fourth byte of the file's first 4 KiB of
			 * addresses and at a few of its words read as addresses. */
			struct ap_record rec;
			memset(&rec, 0, sizeof(rec));
			rec.has = AP_HAS_PC;
			for (uint64_t a = 0; a < 4096; a += 4) {
				rec.pc = 0x10000 + a;
				if (ap_report_add(rep, &rec) != 0)
					__builtin_trap();
			}
			for (size_t i = 0; i + 8 <= size && i < 256; i += 8) {
				memcpy(&rec.pc, data + i, 8);
				if (ap_report_add(rep, &rec) != 0)
					__builtin_trap();
			}
			if (ap_report_finish(rep) != 0)
				__builtin_trap();
			const struct ap_report_row *rows;
			size_t n_rows = ap_report_functions(rep, &rows);
			char buf[256];
			for (size_t i = 0; i < n_rows && i < 64; i++) {
				if (rows[i].name && !memchr(rows[i].name, 0, 4096))
					__builtin_trap();
				ap_report_disassemble(rep, rows[i].addr, buf, sizeof(buf));
				ap_report_source_line(rep, rows[i].addr, buf, sizeof(buf));
				uint64_t start, fsize;
				const char *bin, *found;
				if (rows[i].name)
					ap_report_find_function(rep, rows[i].name, &start, &fsize, &bin, &found);
			}
		} else if (!msg.message[0]) {
			__builtin_trap(); /* an error says what */
		}
		ap_report_destroy(rep);
	}
	uint8_t id[20];
	int id_len = ap_perf_elf_build_id(path, id, sizeof(id));
	if (id_len > (int)sizeof(id))
		__builtin_trap(); /* never more than fits */
	int a64 = ap_perf_elf_is_aarch64(path);
	if (a64 != 0 && a64 != 1)
		__builtin_trap();
	return 0;
}

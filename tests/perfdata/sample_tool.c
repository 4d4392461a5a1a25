/* Test helper for PERF_RECORD_SAMPLE (issue 20, item 2; issue 22):
 *   perfdata_samples write OUT.data ELF [spe]
 *     writes a perf.data with known samples of two sample events (no SPE
 *     attr unless "spe"): "cpu-clock" (IP, TID, TIME, CPU, PERIOD,
 *     CALLCHAIN) and "mem-lat" (IP, TID, TIME, ADDR, CPU, WEIGHT, DATA_SRC,
 *     PHYS_ADDR), PCs in the functions of ELF (tests/perfdata/data/tiny.c),
 *     threads 100 and 101 of process 100, CPUs 0 and 1; prints the samples
 *     it wrote to stdout as `print` does.
 *   perfdata_samples print IN.data
 *     one line per sample armprof's reader lists, in file order:
 *     "EVENT tid=T cpu=C time=NS ip=HEX period=P addr=HEX weight=W
 *      data_src=HEX chain=HEX,HEX,..." (fields the attr lacks: '-').
 * The interop test compares these lines with what perf script prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/perfdata.h"

#define N_SAMPLES 40
static const uint64_t fn_pc[] = { 0x4000e8 + 8, 0x400128 + 4, 0x400154 + 12 }; /* load_loop, store_loop, branchy */
#define START_PC 0x40018cull /* _start */

static void print_sample(FILE *o, const char *name, const struct ap_perf_sample *s)
{
	uint64_t p = s->present;
	fprintf(o, "%s", name);
	if (p & AP_PERF_SAMPLE_TID)
		fprintf(o, " tid=%d", s->tid);
	else
		fprintf(o, " tid=-");
	if (p & AP_PERF_SAMPLE_CPU)
		fprintf(o, " cpu=%d", s->cpu);
	else
		fprintf(o, " cpu=-");
	fprintf(o, (p & AP_PERF_SAMPLE_TIME) ? " time=%llu" : " time=-", (unsigned long long)s->time);
	fprintf(o, (p & AP_PERF_SAMPLE_IP) ? " ip=%llx" : " ip=-", (unsigned long long)s->ip);
	fprintf(o, (p & AP_PERF_SAMPLE_PERIOD) ? " period=%llu" : " period=-", (unsigned long long)s->period);
	fprintf(o, (p & AP_PERF_SAMPLE_ADDR) ? " addr=%llx" : " addr=-", (unsigned long long)s->addr);
	fprintf(o, (p & (AP_PERF_SAMPLE_WEIGHT | AP_PERF_SAMPLE_WEIGHT_STRUCT)) ? " weight=%llu" : " weight=-",
	        (unsigned long long)s->weight);
	fprintf(o, (p & AP_PERF_SAMPLE_DATA_SRC) ? " data_src=%llx" : " data_src=-",
	        (unsigned long long)s->data_src);
	fprintf(o, " chain=");
	if (!(p & AP_PERF_SAMPLE_CALLCHAIN))
		fprintf(o, "-");
	for (uint32_t i = 0; i < s->n_callchain; i++)
		fprintf(o, "%s%llx", i ? "," : "", (unsigned long long)s->callchain[i]);
	fprintf(o, "\n");
}

static int do_write(const char *out, const char *elf, int spe)
{
	static const struct ap_perf_write_event ev[2] = {
		{ .type = 1, .config = 0, .sample_period = 1000, .name = "cpu-clock",
		  .sample_type = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME |
		                 AP_PERF_SAMPLE_CPU | AP_PERF_SAMPLE_PERIOD | AP_PERF_SAMPLE_CALLCHAIN },
		{ .type = 4, .config = 0x1234, .sample_period = 1, .name = "mem-lat",
		  .sample_type = AP_PERF_SAMPLE_IP | AP_PERF_SAMPLE_TID | AP_PERF_SAMPLE_TIME |
		                 AP_PERF_SAMPLE_ADDR | AP_PERF_SAMPLE_CPU | AP_PERF_SAMPLE_WEIGHT |
		                 AP_PERF_SAMPLE_DATA_SRC | AP_PERF_SAMPLE_PHYS_ADDR },
	};
	struct ap_perf_write_config cfg;
	ap_perf_write_config_init(&cfg);
	cfg.spe = (uint8_t)spe;
	cfg.events = ev;
	cfg.n_events = 2;
	cfg.nr_cpus = 2;
	struct ap_perf_writer *w;
	struct ap_error_ctx err;
	int rc = ap_perf_writer_create(&w, out, &cfg, &err);
	if (rc) {
		fprintf(stderr, "open %s: %s\n", out, err.message);
		return 1;
	}
	struct ap_perf_elf_map maps[8];
	int n = ap_perf_elf_exec_maps(elf, maps, 8, &err);
	if (n <= 0) {
		fprintf(stderr, "%s: no executable segment\n", elf);
		ap_perf_writer_destroy(w);
		return 1;
	}
	rc = ap_perf_write_comm(w, 100, 100, "tiny", 1);
	rc |= ap_perf_write_comm(w, 100, 101, "tiny", 1);
	for (int i = 0; i < n && i < 8; i++)
		rc |= ap_perf_write_mmap2(w, 100, 100, maps[i].addr, maps[i].len, maps[i].pgoff,
		                          maps[i].prot, elf, 2);
	for (int i = 0; i < N_SAMPLES && !rc; i++) {
		uint64_t chain[4] = { AP_PERF_CONTEXT_USER, fn_pc[i % 3], START_PC + 8 + 4 * (uint64_t)(i % 2) };
		struct ap_perf_sample s = {
			.event = (uint32_t)(i % 2), .misc = AP_PERF_MISC_USER, .ip = fn_pc[i % 3],
			.pid = 100, .tid = 100 + (i % 2), .time = 1000000 + 1000 * (uint64_t)i,
			.addr = 0x41ffe8 + 8 * (uint64_t)(i % 64), .cpu = i % 2, .period = 1000 + (uint64_t)i,
			.weight = 4 + 3 * (uint64_t)i, .data_src = 0x6a100142ull + (uint64_t)i,
			.phys_addr = 0x8041ffe8 + 8 * (uint64_t)(i % 64), .n_callchain = 3, .callchain = chain,
		};
		rc = ap_perf_write_sample(w, &s);
		s.present = ev[s.event].sample_type;
		if (!s.present || !(s.present & AP_PERF_SAMPLE_CALLCHAIN))
			s.n_callchain = 0;
		print_sample(stdout, ev[s.event].name, &s);
	}
	if (rc) {
		fprintf(stderr, "write: %d\n", rc);
		ap_perf_writer_destroy(w);
		return 1;
	}
	if (ap_perf_writer_finish(w, &err)) {
		fprintf(stderr, "finish %s: %s\n", out, err.message);
		return 1;
	}
	return 0;
}

static int do_print(const char *in)
{
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	if (ap_perf_reader_create_file(&r, in, NULL, &err)) {
		fprintf(stderr, "%s:0x%llx: %s: %s\n", in, (unsigned long long)err.offset, err.where, err.message);
		return 1;
	}
	const struct ap_perf_info *info = ap_perf_info(r);
	struct ap_perf_sample_iter it;
	ap_perf_sample_iter_init(&it);
	struct ap_perf_sample s;
	size_t n = 0;
	while (ap_perf_next_sample(r, &it, &s)) {
		const char *name = info->attrs[s.event].name;
		print_sample(stdout, name ? name : "?", &s);
		n++;
	}
	int ok = n == info->n_samples &&
	         n + info->n_samples_unknown == info->n_records[AP_PERF_RECORD_SAMPLE];
	ap_perf_reader_destroy(r);
	if (!ok)
		fprintf(stderr, "%s: %zu samples listed, info says otherwise\n", in, n);
	return ok ? 0 : 1;
}

struct sym {
	unsigned long long addr, size;
	char name[64];
};
static struct sym syms[256];
static size_t n_syms;

static const char *sym_of(uint64_t pc)
{
	for (size_t i = 0; i < n_syms; i++)
		if (pc >= syms[i].addr && pc - syms[i].addr < syms[i].size)
			return syms[i].name;
	return "[unknown]";
}

static int is_marker(uint64_t v) { return v >= (uint64_t)-4095; } /* >= PERF_CONTEXT_MAX */

static int do_expect(const char *in, const char *symfile, int counts)
{
	if (symfile) {
		FILE *f = fopen(symfile, "r");
		if (!f)
			return 1;
		while (n_syms < 256 && fscanf(f, "%llx %llu %63s", &syms[n_syms].addr, &syms[n_syms].size,
		                              syms[n_syms].name) == 3)
			n_syms++;
		fclose(f);
	}
	struct ap_perf_reader *r;
	struct ap_error_ctx err;
	if (ap_perf_reader_create_file(&r, in, NULL, &err)) {
		fprintf(stderr, "%s:0x%llx: %s: %s\n", in, (unsigned long long)err.offset, err.where, err.message);
		return 1;
	}
	const struct ap_perf_info *info = ap_perf_info(r);
	struct ap_perf_sample_iter it;
	ap_perf_sample_iter_init(&it);
	struct ap_perf_sample s;
	while (ap_perf_next_sample(r, &it, &s)) {
		unsigned long long sec = s.time / 1000000000u, ns = s.time % 1000000000u;
		if (counts) {
			unsigned n = 0;
			for (uint32_t i = 0; i < s.n_callchain; i++)
				n += !is_marker(s.callchain[i]);
			printf("%d %llu.%09llu %llu %u\n", s.tid, sec, ns, (unsigned long long)s.period, n);
			continue;
		}
		const char *name = info->attrs[s.event].name ? info->attrs[s.event].name : "?";
		if (s.present & AP_PERF_SAMPLE_CALLCHAIN) {
			printf("%s %d %d %llu.%09llu %llu %s ", name, s.tid, s.cpu, sec, ns,
			       (unsigned long long)s.period, sym_of(s.ip));
			int first = 1;
			for (uint32_t i = 0; i < s.n_callchain; i++) {
				if (is_marker(s.callchain[i]) || s.callchain[i] == s.ip)
					continue; /* the sampled ip heads the chain */
				printf("%s%s", first ? "" : ";", sym_of(s.callchain[i]));
				first = 0;
			}
			printf("\n");
		} else {
			printf("%s %d %d %llu.%09llu %llx %llx %llu %s %llx\n", name, s.tid, s.cpu, sec, ns,
			       (unsigned long long)s.addr, (unsigned long long)s.data_src,
			       (unsigned long long)s.weight, sym_of(s.ip), (unsigned long long)s.phys_addr);
		}
	}
	ap_perf_reader_destroy(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argv[3], argc > 4 && !strcmp(argv[4], "spe"));
	if (argc == 3 && !strcmp(argv[1], "print"))
		return do_print(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "expect"))
		return do_expect(argv[2], argv[3], 0);
	if (argc == 3 && !strcmp(argv[1], "counts"))
		return do_expect(argv[2], NULL, 1);
	fprintf(stderr, "usage: perfdata_samples write OUT.data ELF [spe] | print IN.data | expect IN.data SYMS | counts IN.data\n");
	return 2;
}

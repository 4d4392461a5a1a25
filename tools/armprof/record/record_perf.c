/* armprof record's perf.data output: per process, its threads' COMM, the
 * mappings of the program and its libraries, each thread's SPE data as an
 * AUX area on a CPU of its own and, with call graphs, one sample per SPE
 * record with its call chain (record_stacks.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "record_perf.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_output.h"
#include "record_stacks.h"

static void free_stacks(struct record_stacks *st, size_t n)
{
	for (size_t k = 0; st && k < n; k++)
		record_stacks_free(&st[k]);
	free(st);
}

/* One process's events: its threads' COMM, the mappings of the program
 * and its libraries, and each thread's SPE data as an AUX area on a CPU of
 * its own (*cpu counts them over the processes). */
static int write_process(struct ap_perf_writer *w, const char *prog, const char *base,
                         const struct record_process *p, uint64_t bias, uint32_t *cpu,
                         const struct record_stacks *stacks, uint64_t *n_samples, uint64_t *n_with_stack)
{
	const struct record_stats *st = p->st;
	struct ap_error_ctx err;
	int32_t pid = st->n_vcpus ? (int32_t)st->vcpu[0].tid : 1;
	int rc = 0;
	/* Every thread that ran (a plugin without "thread=" lines: the
	 * vCPUs' latest), so that a report knows each record's process. */
	for (size_t i = 0; !rc && i < st->n_threads; i++)
		rc = ap_perf_write_comm(w, pid, (int32_t)st->thread_tid[i], base, 0);
	for (size_t i = 0; !rc && !st->n_threads && i < st->n_vcpus; i++)
		rc = ap_perf_write_comm(w, pid, (int32_t)st->vcpu[i].tid, base, 0);
	struct ap_perf_elf_map maps[16];
	char abs[PATH_MAX];
	if (!realpath(prog, abs))
		snprintf(abs, sizeof(abs), "%s", prog);
	/* A child was forked from the program: where it shows the program
	 * itself, else where the program was. */
	record_file_bias(st, abs, &bias);
	/* Every segment: the data ones let perf mem and perf c2c name the
	 * globals the samples' data addresses lie in. */
	int nm = rc ? 0 : ap_perf_elf_load_maps(prog, maps, 16, &err);
	for (int i = 0; !rc && i < nm && i < 16; i++)
		rc = ap_perf_write_mmap2(w, pid, pid, maps[i].addr + bias, maps[i].len, maps[i].pgoff,
		                         maps[i].prot, abs, 0);
	/* The dynamic loader and shared libraries, each once, where the
	 * plugin saw them: perf report then names their functions too. */
	struct record_library libs[RECORD_MAX_MAPS];
	size_t n_libs = record_libraries(st, abs, libs, RECORD_MAX_MAPS);
	for (size_t k = 0; !rc && k < n_libs; k++) {
		nm = ap_perf_elf_load_maps(libs[k].path, maps, 16, &err);
		for (int i = 0; !rc && i < nm && i < 16; i++)
			rc = ap_perf_write_mmap2(w, pid, pid, maps[i].addr + libs[k].bias, maps[i].len, maps[i].pgoff,
			                         maps[i].prot, libs[k].path, 0);
	}
	for (size_t i = 0; !rc && i < st->n_vcpus; i++, (*cpu)++) {
		const struct record_vcpu *v = &st->vcpu[i];
		if (!v->bytes || v->offset + v->bytes > p->spe_len)
			continue;
		rc = ap_perf_write_aux(w, (int32_t)*cpu, pid, (int32_t)v->tid, p->spe + v->offset, (size_t)v->bytes,
		                       0, 0);
		/* and the samples perf would synthesise from them, with their
		 * call chains */
		if (!rc && stacks)
			rc = record_write_stack_samples(w, p->spe + v->offset, (size_t)v->bytes, pid, (int32_t)v->tid,
			                                (int32_t)*cpu, stacks, n_samples, n_with_stack);
	}
	return rc;
}

/* The SPE attr's config words: what perf would have passed for the same
 * session, in Linux 7.x arm_spe_pmu's format (drivers/perf/arm_spe_pmu.c
 * ATTR_CFG_FLD_*; /sys/bus/event_source/devices/arm_spe_0/format):
 * config ts_enable 0, pa_enable 1, pct_enable 2, jitter 16, branch_filter
 * 32, load_filter 33, store_filter 34, discard 35, branch/load/store_filter_mask
 * 36-38, simd_filter 39, simd_filter_mask 40, float_filter 41,
 * float_filter_mask 42; config1 event_filter (PMSEVFR_EL1), config2 [11:0]
 * min_latency, config3 inv_event_filter (PMSNEVFR_EL1), config4
 * inv_data_src_filter (~PMSDSFR_EL1). The plugin programs PMSCR_EL1.PCT
 * = 1 (physical time): pct_enable. */
static void spe_attr_config(const struct record_opts *o, struct ap_perf_write_config *cfg)
{
	const uint64_t fcr = o->pmsfcr;
	/* PMSFCR_EL1 bit -> the format's config bit */
	static const struct { uint8_t fcr_bit, cfg_bit; } type_bits[] = {
		{ 16, 32 }, { 17, 33 }, { 18, 34 },             /* B, LD, ST */
		{ 48, 36 }, { 49, 37 }, { 50, 38 },             /* Bm, LDm, STm */
		{ 20, 39 }, { 52, 40 }, { 19, 41 }, { 51, 42 }, /* SIMD, SIMDm, FP, FPm */
	};
	uint64_t c = (o->ts ? 1ull << 0 : 0) | (o->pa ? 1ull << 1 : 0) | 1ull << 2 | (o->jitter ? 1ull << 16 : 0) |
	             (o->discard ? 1ull << 35 : 0);
	for (size_t i = 0; i < sizeof(type_bits) / sizeof(type_bits[0]); i++)
		if (fcr & 1ull << type_bits[i].fcr_bit)
			c |= 1ull << type_bits[i].cfg_bit;
	cfg->spe_config = c;
	cfg->spe_config1 = (fcr & 1u << 0) ? o->pmsevfr : 0;          /* FE */
	cfg->spe_config2 = (fcr & 1u << 2) ? o->pmslatfr & 0xFFF : 0; /* FL */
	cfg->spe_config3 = (fcr & 1u << 3) ? o->pmsnevfr : 0;         /* FnE */
	cfg->spe_config4 = (fcr & 1u << 4) ? ~o->pmsdsfr : 0;         /* FDS: perf writes it inverted */
}

int record_write_perf(const struct record_opts *o, const char *prog, uint64_t bias,
                      const struct record_process *procs, size_t n_procs, size_t n_threads,
                      const char *stacks_base, const char *meta, struct stat *written)
{
	struct ap_perf_write_config cfg;
	struct ap_error_ctx err;
	struct ap_perf_writer *w;
	ap_perf_write_config_init(&cfg);
	cfg.midr = RECORD_MIDR;
	cfg.nr_cpus = n_threads ? (uint32_t)n_threads : 1;
	cfg.exclude_kernel = 1;
	cfg.armprof_meta = meta; /* inside the file: found wherever it is written */
	spe_attr_config(o, &cfg);
	/* With call graphs, a sample event beside SPE's attr (record_stacks.h). */
	struct record_stacks *stacks = NULL;
	if (stacks_base) {
		cfg.events = &record_stack_event;
		cfg.n_events = 1;
		stacks = calloc(n_procs ? n_procs : 1, sizeof(*stacks));
		if (!stacks) {
			fprintf(stderr, "armprof record: out of memory\n");
			return -1;
		}
		char path[PATH_MAX + 32], msg[PATH_MAX + 160];
		for (size_t k = 0; k < n_procs; k++) {
			record_process_path(path, sizeof(path), stacks_base, procs[k].pid);
			if (record_stacks_load(&stacks[k], path, msg, sizeof(msg)) != 0) {
				fprintf(stderr, "armprof record: %s\n", msg);
				free_stacks(stacks, n_procs);
				return -1;
			}
			record_stacks_sort(&stacks[k]);
		}
	}
	struct cli_output out;
	if (cli_output_open_seekable(&out, "record", o->output) != 0) {
		free_stacks(stacks, n_procs);
		return -1;
	}
	if (ap_perf_writer_create_fd(&w, out.fd, &cfg, &err) != 0) {
		fprintf(stderr, "armprof record: %s: %s\n", o->output, err.message);
		cli_output_close(&out, "record", 0);
		free_stacks(stacks, n_procs);
		return -1;
	}
	const char *base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	int rc = 0;
	uint32_t cpu = 0;
	uint64_t n_samples = 0, n_with_stack = 0;
	for (size_t k = 0; (!rc || rc == -AP_ERR_IO) && k < n_procs; k++)
		rc = write_process(w, prog, base, &procs[k], bias, &cpu, stacks ? &stacks[k] : NULL, &n_samples,
		                   &n_with_stack);
	/* A stacks file that shrank while mapped was read as zeros from there. */
	char msg[PATH_MAX + 160];
	int shrank = 0;
	for (size_t k = 0; stacks && !shrank && k < n_procs; k++)
		if ((shrank = record_stacks_check(&stacks[k], msg, sizeof(msg)) != 0))
			fprintf(stderr, "armprof record: %s\n", msg);
	free_stacks(stacks, n_procs);
	if (shrank) {
		ap_perf_writer_destroy(w);
		cli_output_close(&out, "record", 0);
		return -1;
	}
	/* Every record's operation was sampled with its stack: one without is
	 * a bug worth saying (the chain then holds its PC alone). */
	if (stacks && n_with_stack != n_samples)
		fprintf(stderr, "armprof record: %" PRIu64 " of %" PRIu64 " samples found no call stack\n",
		        n_samples - n_with_stack, n_samples);
	if (rc && rc != -AP_ERR_IO) {
		fprintf(stderr, "armprof record: %s: %s\n", o->output, ap_errstr(rc));
		ap_perf_writer_destroy(w);
		cli_output_close(&out, "record", 0);
		return -1;
	}
	/* finish names a write error that happened on the way too */
	if (ap_perf_writer_finish(w, &err) != 0) {
		fprintf(stderr, "armprof record: %s: %s\n", o->output, err.message);
		cli_output_close(&out, "record", 0);
		return -1;
	}
	/* the file as it will be at o->output (renamed, same inode) */
	if (fstat(out.fd, written) != 0)
		memset(written, 0, sizeof(*written));
	return cli_output_close(&out, "record", 1);
}


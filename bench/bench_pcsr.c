/* Benchmark (not a test): the cost of PC sampling and PMU snapshots in the
 * model, per operation.
 *   retire      ap_pe_retire() per instruction, PC sampling live, 4 event
 *               counters + cycle + instruction counter enabled, one branch
 *               target in 8 instructions
 *   retire-nopmu  the same with the PMU disabled (PMCR_EL0.E = 0)
 *   retire-block  ap_pe_retire_block() with blocks of 8 instructions
 *   pcsr-retire ap_pcsr_retire() alone (the inline sample update, private
 *               to lib/model: lib/model/pcsr/pcsr.h)
 *   ext-read    one 64-bit external read of PMPCSR (a sampling read)
 *   snapshot    one external snapshot request (allowed; 4 counters + 2)
 * Usage: bench_pcsr [MILLION_INSTRUCTIONS]   (default 100). Best of 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/extregs.h"
#include "armprof/model.h"
#include "armprof/pcsr.h"
#include "armprof/pmu.h"
#include "armprof/snapshot.h"
#include "model/pcsr/pcsr.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct ap_pe *make_pe(bool pmu_on)
{
	struct ap_config cfg;
	struct ap_error_ctx err = { 0 };
	ap_config_init(&cfg);
	static const char *const keys[][2] = {
		{ "pcsr.arch_major", "9" }, { "pcsr.arch_minor", "4" }, { "pcsr.pmu_ext", "ext64" },
		{ "pcsr.v8p9", "1" }, { "pcsr.pmpcsctl_imp", "0" }, { "snapshot.feat_pmuv3_ss", "1" },
		{ "pmu.icntr", "1" }, { "pmu.pmuv3p5", "1" }, { "pmu.counters", "4" },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (ap_config_set(&cfg, keys[i][0], keys[i][1], &err) < 0) {
			fprintf(stderr, "bench_pcsr: %s\n", err.message);
			exit(2);
		}
	struct ap_pe *pe;
	if (ap_pe_create(&cfg, NULL, &pe, &err) < 0) {
		fprintf(stderr, "bench_pcsr: %s\n", err.message);
		exit(2);
	}
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(pe, &st);
	ap_pe_state_set_field(&st, "mdcr_el3.pmsse", 3);
	ap_pe_state_set_field(&st, "mdcr_el3.epmssad", 3);
	ap_pe_state_set_field(&st, "mdcr_el2.hpmn", 4);
	ap_pe_set_state(pe, &st);
	static const char *const regs[][2] = {
		{ "PMEVTYPER0_EL0", "0x08" }, { "PMEVTYPER1_EL0", "0x21" }, { "PMEVTYPER2_EL0", "0x11" },
		{ "PMEVTYPER3_EL0", "0x8127" }, { "PMCNTENSET_EL0", "0x18000000F" }, { "PMCR_EL0", "1" },
	};
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint32_t r;
		if (!pmu_on && i == 5)
			break;
		ap_sysreg_lookup(regs[i][0], &r);
		ap_pe_msr(pe, r, strtoull(regs[i][1], NULL, 0));
	}
	return pe;
}

static double best_of_3(double (*fn)(struct ap_pe *, uint64_t), struct ap_pe *pe, uint64_t n)
{
	double best = 1e30;
	for (int i = 0; i < 3; i++) {
		double t = fn(pe, n);
		if (t < best)
			best = t;
	}
	return best;
}

static double run_retire(struct ap_pe *pe, uint64_t n)
{
	double t0 = now();
	for (uint64_t i = 0; i < n; i++)
		ap_pe_retire(pe, 0x400000 + (i & 0xfff) * 4, (i & 7) == 0);
	return now() - t0;
}

static double run_retire_block(struct ap_pe *pe, uint64_t n)
{
	double t0 = now();
	for (uint64_t i = 0; i < n; i += 8)
		ap_pe_retire_block(pe, 0x400000 + (i & 0xfff) * 4, 8);
	return now() - t0;
}

static double run_pcsr_retire(struct ap_pe *pe, uint64_t n)
{
	double t0 = now();
	for (uint64_t i = 0; i < n; i++)
		ap_pcsr_retire(pe, 0x400000 + (i & 0xfff) * 4, (i & 7) == 0);
	return now() - t0;
}

static volatile uint64_t sink;

static double run_ext_read(struct ap_pe *pe, uint64_t n)
{
	struct ap_ext_access a = { AP_EXT_PMU, 0x200, 8, false };
	uint64_t v, acc = 0;
	double t0 = now();
	for (uint64_t i = 0; i < n; i++) {
		ap_pe_retire(pe, 0x400000 + i * 4, true);
		ap_pe_ext_read(pe, &a, &v);
		acc += v;
	}
	sink = acc;
	return now() - t0;
}

static double run_snapshot(struct ap_pe *pe, uint64_t n)
{
	double t0 = now();
	for (uint64_t i = 0; i < n; i++)
		ap_pe_snapshot_request(pe);
	return now() - t0;
}

int main(int argc, char **argv)
{
	uint64_t millions = argc > 1 ? strtoull(argv[1], NULL, 0) : 100;
	uint64_t n = millions * 1000000ull;
	struct ap_pe *pe = make_pe(true);
	struct ap_pe *quiet = make_pe(false);
	double t_retire = best_of_3(run_retire, pe, n);
	double t_nopmu = best_of_3(run_retire, quiet, n);
	double t_pcsr = best_of_3(run_pcsr_retire, pe, n);
	double t_block = best_of_3(run_retire_block, pe, n);
	uint64_t n_small = n / 10;
	double t_ext = best_of_3(run_ext_read, pe, n_small) - best_of_3(run_retire, pe, n_small) * 1.0;
	double t_snap = best_of_3(run_snapshot, pe, n_small);
	printf("retire        %7.2f ns/instr  %7.1f M instr/s  (PMU on: 4 counters + cycle + instr)\n",
	       t_retire * 1e9 / (double)n, (double)n / t_retire / 1e6);
	printf("retire-nopmu  %7.2f ns/instr  %7.1f M instr/s\n", t_nopmu * 1e9 / (double)n,
	       (double)n / t_nopmu / 1e6);
	printf("retire-block  %7.2f ns/instr  %7.1f M instr/s  (blocks of 8, PMU on)\n",
	       t_block * 1e9 / (double)n, (double)n / t_block / 1e6);
	printf("pcsr-retire   %7.2f ns/instr  %7.1f M instr/s\n", t_pcsr * 1e9 / (double)n,
	       (double)n / t_pcsr / 1e6);
	printf("ext-read      %7.2f ns/read   (64-bit PMPCSR, sampling read; retire cost subtracted)\n",
	       t_ext * 1e9 / (double)n_small);
	printf("snapshot      %7.2f ns/capture\n", t_snap * 1e9 / (double)n_small);
	ap_pe_destroy(pe);
	ap_pe_destroy(quiet);
	return 0;
}

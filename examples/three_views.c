/* Three views of one run (docs/pc-sampling-and-snapshots.md).
 *
 * A synthetic program runs on the armprof model PE: main() calls hot() (a
 * load-heavy loop with slow loads), warm() (a longer loop) and cold()
 * (straight-line code) over and over. While it runs, two external agents
 * watch it the way a debugger or a system monitor would:
 *   - a PC sampler reads PMPCSR at offset 0x200 of the PMU frame every
 *     SAMPLE_PERIOD cycles (PC Sample-based Profiling, spec/001 H7.1) and
 *     builds a PC histogram by function;
 *   - a snapshot agent asserts the external snapshot request every
 *     SNAPSHOT_PERIOD cycles and reads PMEVCNTSVR<n>_EL1, PMCCNTSVR_EL1 and
 *     PMICNTSVR_EL1 from the same frame (PMU snapshots, spec/000 D13.9),
 *     which gives a time series of counter deltas per interval;
 * and, when the SPE operation API is built in (ARMPROF_HAVE_SPE_OPS), the
 * Statistical Profiling Extension samples the loads and writes records to a
 * host buffer, decoded afterwards: the per-operation view (spec/002).
 *
 * Usage: three_views [ITERATIONS]   (default 200). The output is
 * deterministic: the model has no hidden randomness at these settings. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/error.h"
#include "armprof/extregs.h"
#include "armprof/model.h"
#include "armprof/pcsr.h"
#include "armprof/pmu.h"
#include "armprof/snapshot.h"

#ifdef ARMPROF_HAVE_SPE_OPS
#include "armprof/decode.h"
#include "armprof/spe.h"
#endif

#define SAMPLE_PERIOD 997u     /* cycles between PMPCSR reads (prime: no aliasing with loops) */
#define SNAPSHOT_PERIOD 25000u /* cycles between Capture events */
#define LD_RETIRED 0x0006u     /* common event: load instruction architecturally executed */

/* The program: functions as PC ranges. */
struct func {
	const char *name;
	uint64_t entry;
	unsigned length;   /* instructions in the body */
	unsigned loop;     /* iterations of the body per call */
	unsigned load_every; /* every Nth instruction of the body is a load (0: none) */
	unsigned load_cycles; /* cycles a load takes */
};

static const struct func funcs[] = {
	{ "main", 0x400000, 6, 1, 0, 1 },
	{ "hot", 0x401000, 8, 40, 4, 9 },   /* 2 loads per iteration, 9 cycles each */
	{ "warm", 0x402000, 24, 6, 8, 2 },
	{ "cold", 0x403000, 64, 1, 0, 1 },
};
#define NFUNCS (sizeof(funcs) / sizeof(funcs[0]))

struct run {
	struct ap_pe *pe;
	uint64_t cycles;
	uint64_t next_sample, next_snapshot;
	/* View 1: PC histogram. */
	uint64_t samples_by_func[NFUNCS];
	uint64_t samples_invalid, samples_total;
	uint64_t cycles_by_func[NFUNCS]; /* ground truth, known only to the program */
	unsigned current;                /* the function running now */
	/* View 2: counter time series (one row per snapshot). */
	uint64_t last_svr[6];
	unsigned snapshots;
#ifdef ARMPROF_HAVE_SPE_OPS
	uint8_t *buffer;
	size_t buffer_size;
	uint64_t buffer_base;
#endif
};

static int func_of(uint64_t pc)
{
	for (unsigned i = 0; i < NFUNCS; i++)
		if (pc >= funcs[i].entry && pc < funcs[i].entry + 4ull * funcs[i].length)
			return (int)i;
	return -1;
}

static uint64_t ext_read64(struct ap_pe *pe, uint32_t offset)
{
	struct ap_ext_access a = { AP_EXT_PMU, offset, 8, false };
	uint64_t v = 0;
	if (ap_pe_ext_read(pe, &a, &v) != AP_EXT_OK) {
		fprintf(stderr, "three_views: external read of 0x%03x failed\n", offset);
		exit(1);
	}
	return v;
}

/* The PC-sample agent: one read of PMPCSR (64-bit atomic). */
static void sample_pc(struct run *r)
{
	uint64_t v = ext_read64(r->pe, 0x200);
	r->samples_total++;
	if ((v & 0xffffffffu) == 0xffffffffu) { /* no valid sample (spec/003) */
		r->samples_invalid++;
		return;
	}
	uint64_t pc = v & 0x00ffffffffffffffull; /* PCSample[55:0] */
	int f = func_of(pc);
	if (f >= 0)
		r->samples_by_func[f]++;
}

/* The snapshot agent: a Capture event, then the saved values. */
static const char *const svr_names[6] = { "LD_RETIRED", "BR_RETIRED", "CPU_CYCLES", "PMU_SNAPSHOT",
                                          "PMCCNTR", "PMICNTR" };
static void snapshot(struct run *r)
{
	if (ap_pe_snapshot_request(r->pe) != 1) {
		fprintf(stderr, "three_views: the snapshot request was ignored\n");
		exit(1);
	}
	uint64_t svr[6];
	for (unsigned n = 0; n < 4; n++)
		svr[n] = ext_read64(r->pe, 0x600 + 8 * n); /* PMEVCNTSVR<n>_EL1 */
	svr[4] = ext_read64(r->pe, 0x6F8);               /* PMCCNTSVR_EL1 */
	svr[5] = ext_read64(r->pe, 0x700);               /* PMICNTSVR_EL1 */
	printf("%8u %10" PRIu64, ++r->snapshots, r->cycles);
	for (unsigned i = 0; i < 6; i++) {
		printf(" %12" PRIu64, svr[i] - r->last_svr[i]);
		r->last_svr[i] = svr[i];
	}
	printf("\n");
}

static void tick(struct run *r, unsigned cycles)
{
	ap_pe_cycles(r->pe, cycles);
	r->cycles += cycles;
	r->cycles_by_func[r->current] += cycles;
	if (r->cycles >= r->next_sample) {
		sample_pc(r);
		r->next_sample += SAMPLE_PERIOD;
	}
	if (r->cycles >= r->next_snapshot) {
		snapshot(r);
		r->next_snapshot += SNAPSHOT_PERIOD;
	}
}

#ifdef ARMPROF_HAVE_SPE_OPS
static void spe_load(struct run *r, uint64_t pc, uint64_t va, unsigned latency)
{
	struct ap_spe_op op;
	memset(&op, 0, sizeof(op));
	op.kind = AP_SPE_OP_LOAD;
	op.pc = pc;
	op.va = va;
	op.pa = va;
	op.lat_total = latency;
	op.lat_issue = 1;
	op.lat_xlat = 1;
	ap_spe_op(r->pe, &op);
}
static void spe_other(struct run *r, uint64_t pc)
{
	struct ap_spe_op op;
	memset(&op, 0, sizeof(op));
	op.kind = AP_SPE_OP_OTHER;
	op.pc = pc;
	op.lat_total = 1;
	ap_spe_op(r->pe, &op);
}
#endif

/* One call of function f: its body, looped; returns to main. */
static void call(struct run *r, const struct func *f, uint64_t *data)
{
	r->current = (unsigned)(f - funcs);
	for (unsigned it = 0; it < f->loop; it++) {
		for (unsigned i = 0; i < f->length; i++) {
			uint64_t pc = f->entry + 4ull * i;
			bool target = i == 0; /* the entry (call) or the loop head (back edge) */
			ap_pe_retire(r->pe, pc, target);
			bool load = f->load_every && i % f->load_every == f->load_every - 1;
			if (load) {
				ap_pe_pmu_event(r->pe, LD_RETIRED, 1);
#ifdef ARMPROF_HAVE_SPE_OPS
				spe_load(r, pc, 0x10000000 + (*data % 4096) * 64, f->load_cycles);
#endif
				(*data)++;
			} else {
#ifdef ARMPROF_HAVE_SPE_OPS
				spe_other(r, pc);
#endif
			}
			if (i == f->length - 1)
				ap_pe_pmu_event(r->pe, AP_PMU_EV_BR_RETIRED, 1); /* back edge or return */
			tick(r, load ? f->load_cycles : 1);
		}
	}
}

static void set(struct ap_pe_state *st, const char *field, uint64_t v)
{
	if (ap_pe_state_set_field(st, field, v) < 0) {
		fprintf(stderr, "three_views: state field %s\n", field);
		exit(2);
	}
}

static void msr(struct ap_pe *pe, const char *name, uint64_t v)
{
	uint32_t reg;
	if (ap_sysreg_lookup(name, &reg) < 0 || ap_pe_msr(pe, reg, v) != AP_ACCESS_OK) {
		fprintf(stderr, "three_views: msr %s failed\n", name);
		exit(2);
	}
}

#ifdef ARMPROF_HAVE_SPE_OPS
static int buffer_write(void *ctx, uint64_t va, const uint8_t *bytes, size_t len, struct ap_mem_fault *fault)
{
	struct run *r = ctx;
	if (va < r->buffer_base || va - r->buffer_base + len > r->buffer_size) {
		fault->kind = AP_MEMF_TRANSLATION;
		fault->stage = 1;
		fault->va = va;
		return 1;
	}
	memcpy(r->buffer + (va - r->buffer_base), bytes, len);
	return 0;
}

struct spe_view {
	uint64_t ops[NFUNCS], loads[NFUNCS], load_latency[NFUNCS], records;
};

static int on_record(void *ctx, const struct ap_record *rec)
{
	struct spe_view *v = ctx;
	v->records++;
	if (!(rec->has & AP_HAS_PC))
		return 0;
	int f = func_of(rec->pc);
	if (f < 0)
		return 0;
	v->ops[f]++;
	if ((rec->has & AP_HAS_VADDR) && (rec->has & AP_HAS_LAT_TOTAL)) { /* a load */
		v->loads[f]++;
		v->load_latency[f] += rec->lat_total;
	}
	return 0;
}
#endif

int main(int argc, char **argv)
{
	unsigned iterations = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 200;
	struct ap_config cfg;
	ap_config_init(&cfg);
	/* An Armv9.4-like PE: PC sampling in a 64-bit PMU frame with
	 * suspend/activate, PMU snapshots, the instruction counter. */
	struct ap_error_ctx err = { 0 };
	static const char *const keys[][2] = {
		{ "pcsr.arch_major", "9" }, { "pcsr.arch_minor", "4" }, { "pcsr.pmu_ext", "ext64" },
		{ "pcsr.v8p9", "1" }, { "snapshot.feat_pmuv3_ss", "1" }, { "pmu.icntr", "1" },
		{ "pmu.pmuv3p5", "1" }, { "pmu.counters", "4" },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (ap_config_set(&cfg, keys[i][0], keys[i][1], &err) < 0) {
			fprintf(stderr, "three_views: %s\n", err.message);
			return 2;
		}
	struct run r;
	memset(&r, 0, sizeof(r));
	struct ap_host host;
	memset(&host, 0, sizeof(host));
	host.ctx = &r;
#ifdef ARMPROF_HAVE_SPE_OPS
	r.buffer_size = 1u << 20;
	r.buffer_base = 0xFFFF000000000000ull;
	r.buffer = calloc(1, r.buffer_size);
	if (!r.buffer)
		return 2;
	host.buffer_write = buffer_write;
#endif
	if (ap_pe_create(&cfg, &host, &r.pe, &err) < 0) {
		fprintf(stderr, "three_views: %s\n", err.message);
		return 2;
	}
	/* EL3 firmware's choices: Capture events allowed (MDCR_EL3.PMSSE 0b11),
	 * external access to the snapshot registers (EPMSSAD 0b11), EL1 owns all
	 * counters (MDCR_EL2.HPMN = N). The PE runs at Non-secure EL1. */
	struct ap_pe_state st;
	st.size = sizeof(st);
	ap_pe_get_state(r.pe, &st);
	set(&st, "mdcr_el3.pmsse", 3);
	set(&st, "mdcr_el3.epmssad", 3);
	set(&st, "mdcr_el2.hpmn", 4);
	set(&st, "contextidr_el1", 42);
	if (ap_pe_set_state(r.pe, &st) < 0)
		return 2;
	/* The OS programs the PMU: 4 event counters, the cycle and instruction
	 * counters, all enabled. */
	msr(r.pe, "PMEVTYPER0_EL0", LD_RETIRED);
	msr(r.pe, "PMEVTYPER1_EL0", AP_PMU_EV_BR_RETIRED);
	msr(r.pe, "PMEVTYPER2_EL0", AP_PMU_EV_CPU_CYCLES);
	msr(r.pe, "PMEVTYPER3_EL0", AP_PMU_EV_PMU_SNAPSHOT);
	msr(r.pe, "PMCNTENSET_EL0", 0xF | 1ull << 31 | 1ull << 32);
	msr(r.pe, "PMCR_EL0", AP_PMCR_E);
#ifdef ARMPROF_HAVE_SPE_OPS
	/* SPE: sample one operation in 1024 (PMSIRR_EL1.INTERVAL = 4) at EL0
	 * and EL1 into the host buffer. */
	msr(r.pe, "PMSIRR_EL1", 1024);
	msr(r.pe, "PMSFCR_EL1", 0);
	msr(r.pe, "PMBPTR_EL1", r.buffer_base);
	msr(r.pe, "PMBLIMITR_EL1", (r.buffer_base + r.buffer_size) | 1);
	msr(r.pe, "PMSCR_EL1", 0x3); /* E0SPE, E1SPE */
#endif
	r.next_sample = SAMPLE_PERIOD;
	r.next_snapshot = SNAPSHOT_PERIOD;

	printf("== view 2: PMU snapshots every %u cycles (counter deltas per interval)\n", SNAPSHOT_PERIOD);
	printf("%8s %10s", "snapshot", "cycle");
	for (unsigned i = 0; i < 6; i++)
		printf(" %12s", svr_names[i]);
	printf("\n");
	uint64_t data = 0;
	for (unsigned it = 0; it < iterations; it++) {
		const struct func *m = &funcs[0];
		for (unsigned i = 0; i < m->length; i++) {
			ap_pe_retire(r.pe, m->entry + 4ull * i, i == 0 || i == 2 || i == 4);
			tick(&r, 1);
			if (i == 1)
				call(&r, &funcs[1], &data);
			else if (i == 3)
				call(&r, &funcs[2], &data);
			else if (i == 5 && it % 4 == 0)
				call(&r, &funcs[3], &data); /* cold: every fourth iteration */
			r.current = 0;
		}
	}

	printf("\n== view 1: PC samples (PMPCSR read every %u cycles)\n", SAMPLE_PERIOD);
	printf("reads %" PRIu64 ", no sample (0xFFFFFFFF) %" PRIu64 "\n", r.samples_total, r.samples_invalid);
	uint64_t valid = r.samples_total - r.samples_invalid;
	for (unsigned f = 0; f < NFUNCS; f++)
		printf("%-6s %6" PRIu64 " samples %5.1f%%   (true share of cycles %5.1f%%)\n", funcs[f].name,
		       r.samples_by_func[f], valid ? 100.0 * (double)r.samples_by_func[f] / (double)valid : 0.0,
		       100.0 * (double)r.cycles_by_func[f] / (double)r.cycles);
	printf("(PMPCSR samples taken by the model: %" PRIu64 ")\n", ap_pe_pcsr_samples_taken(r.pe));

#ifdef ARMPROF_HAVE_SPE_OPS
	ap_spe_psb_csync(r.pe);
	uint32_t ptr_reg;
	uint64_t ptr = 0;
	if (ap_sysreg_lookup("PMBPTR_EL1", &ptr_reg) == 0)
		ap_pe_peek(r.pe, ptr_reg, &ptr);
	struct spe_view view;
	memset(&view, 0, sizeof(view));
	struct ap_decoder_config dcfg;
	ap_decoder_config_init(&dcfg);
	dcfg.on_record = on_record;
	dcfg.ctx = &view;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dcfg);
	ap_decoder_feed(&dec, r.buffer, (size_t)(ptr - r.buffer_base));
	ap_decoder_finish(&dec);
	printf("\n== view 3: SPE records (one operation in 1024 sampled), %" PRIu64 " records, %" PRIu64 " bytes\n",
	       view.records, ptr - r.buffer_base);
	for (unsigned f = 0; f < NFUNCS; f++)
		printf("%-6s %6" PRIu64 " sampled operations, %4" PRIu64 " loads, mean load latency %4.1f cycles\n",
		       funcs[f].name, view.ops[f], view.loads[f],
		       view.loads[f] ? (double)view.load_latency[f] / (double)view.loads[f] : 0.0);
	free(r.buffer);
#endif
	ap_pe_destroy(r.pe);
	return 0;
}

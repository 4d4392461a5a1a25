/* Fuzz target for the SPE sampling engine (lib/model/spe/): the input is a
 * configuration and a program of register writes, state changes,
 * operations, batch skips, PSB CSYNCs and injected buffer faults. The
 * engine must never crash, and these must hold after every step:
 *   - no buffer write reaches PMBLIMITR_EL1's limit (SPE-3.5-17);
 *   - the PMBIRQ level the host saw is PMBSR_EL1.S (SPE-3.5-4);
 *   - SAMPLE_FILTRATE <= SAMPLE_FEED, records written <= SAMPLE_FILTRATE;
 *   - after ap_spe_skip(ap_spe_until_sample()), the next operation is the
 *     sampled one while profiling stays enabled (the batch form's contract). */
#include <stdlib.h>
#include <string.h>

#include "armprof/spe.h"
#include "fuzz.h"

#define MEM_BASE 0x10000ull
#define MEM_SIZE 0x4000ull

struct fz {
	const uint8_t *p;
	size_t left;
	struct ap_pe *pe;
	uint8_t mem[MEM_SIZE];
	uint64_t fault_at;
	uint8_t fault_kind, fault_stage;
	int irq;
};
static struct fz fz;

static uint64_t take(unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n && fz.left; i++, fz.left--)
		v |= (uint64_t)*fz.p++ << (8 * i);
	return v;
}

static int mem_write(void *ctx, uint64_t va, const uint8_t *b, size_t len, struct ap_mem_fault *f)
{
	(void)ctx;
	uint64_t limit = 0;
	ap_pe_peek(fz.pe, AP_PMBLIMITR_EL1, &limit);
	limit &= ~0xFFFull;
	if (va + len > limit || va + len < va)
		abort(); /* SPE never writes at or past the limit */
	for (size_t i = 0; i < len; i++) {
		uint64_t a = va + i;
		if ((fz.fault_at && a == fz.fault_at) || a < MEM_BASE || a >= MEM_BASE + MEM_SIZE) {
			f->kind = fz.fault_at && a == fz.fault_at ? fz.fault_kind : AP_MEMF_TRANSLATION;
			f->stage = fz.fault_stage;
			f->level = 3;
			f->va = a;
			return 1;
		}
		fz.mem[a - MEM_BASE] = b[i];
	}
	return 0;
}
static uint64_t counter(void *ctx)
{
	(void)ctx;
	static uint64_t t;
	return t += 3;
}
static void irq(void *ctx, int level)
{
	(void)ctx;
	fz.irq = level;
}

static const uint32_t regs[] = {
	AP_PMSCR_EL1, AP_PMSICR_EL1, AP_PMSIRR_EL1, AP_PMSFCR_EL1, AP_PMSEVFR_EL1, AP_PMSLATFR_EL1,
	AP_PMBLIMITR_EL1, AP_PMBPTR_EL1, AP_PMBSR_EL1, AP_PMSCR_EL2, AP_PMSCR_EL12,
	AP_PMSNEVFR_EL1, AP_PMSDSFR_EL1,
};

static void check(void)
{
	uint64_t sr = 0;
	ap_pe_peek(fz.pe, AP_PMBSR_EL1, &sr);
	if (((sr >> 17) & 1) != (uint64_t)fz.irq || ap_spe_pmbirq(fz.pe) != ((sr >> 17) & 1))
		abort();
	struct ap_spe_counts c;
	ap_spe_get_counts(fz.pe, &c);
	if (c.sample_filtrate > c.sample_feed || c.records_written > c.sample_filtrate)
		abort();
}

static void make_op(struct ap_spe_op *op)
{
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)(take(1) % 5);
	op->flags = (uint32_t)take(2) & 0x3FFFu;
	op->pc = 0x400000 + take(1) * 4;
	op->va = take(2) | (take(1) << 56);
	op->pa = take(2);
	op->target = take(2);
	op->target_el = (uint8_t)(take(1) & 3);
	op->target_ns = 1;
	op->events = take(2) | (take(1) << 24);
	op->lat_total = (uint32_t)take(2);
	op->data_abort = (uint8_t)(take(1) & 3);
	op->inflight = (uint16_t)(take(1) & 0x3F);
	/* SPE after v1: FP/SIMD, call/return, previous branch target */
	uint64_t later = take(1);
	op->flags |= (uint32_t)(later & 0x1F) << 14;
	op->prev_target = take(2) << 2;
	op->prev_target_el = (uint8_t)((later >> 5) & 3);
	op->prev_target_ns = (uint8_t)(later >> 7);
	op->data_source = (uint16_t)take(1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	memset(&fz, 0, sizeof(fz));
	fz.p = data;
	fz.left = size;
	struct ap_config cfg;
	ap_config_init(&cfg);
	uint64_t c1 = take(4);
	cfg.spe.ernd = c1 & 1;
	cfg.spe.sample_next_op = (c1 >> 1) & 1;
	cfg.spe.max_in_flight = 1 + ((c1 >> 2) & 3);
	cfg.spe.record_hold = (uint8_t)((c1 >> 4) & 3);
	cfg.spe.max_size = (uint8_t)(6 + ((c1 >> 6) & 1));
	cfg.spe.align = (uint8_t)((c1 >> 7) & 3) * 2;
	cfg.spe.ext_abort = (uint8_t)(((c1 >> 9) & 3) % 3);
	cfg.spe.late_disable = (uint8_t)(((c1 >> 11) & 3) % 3);
	cfg.spe.bad_ptr = (uint8_t)(((c1 >> 13) & 3) % 3);
	cfg.spe.bad_ptr_data_loss = (c1 >> 15) & 1;
	cfg.spe.misspeculated_written = (c1 >> 16) & 1;
	cfg.spe.exclude_misspeculated = (c1 >> 17) & 1;
	cfg.spe.ts_at_completion = (c1 >> 18) & 1;
	cfg.spe.exception_minimal = (c1 >> 19) & 1;
	cfg.spe.events_size = (uint8_t)(1u << ((c1 >> 20) & 3));
	cfg.spe.fe_zero_discards = (c1 >> 22) & 1;
	cfg.spe.ft_none_discards = (c1 >> 23) & 1;
	cfg.seed = c1 >> 24;
	/* SPE after v1 (docs/requirements-later.md): every feature, and the
	 * CONSTRAINED UNPREDICTABLE choices of the inverted filter. */
	uint64_t c2 = take(1);
	if (c2 & 1) {
		ap_config_spe_preset(&cfg, "max", NULL);
		cfg.spe_later.fne_zero_discards = (c2 >> 1) & 1;
		cfg.spe_later.fne_overlap_discards = (c2 >> 2) & 1;
	}
	struct ap_host host = { .buffer_write = mem_write, .cntpct = counter, .cntvct = counter, .pmbirq = irq };
	if (ap_pe_create(&cfg, &host, &fz.pe, NULL) < 0)
		return 0;
	/* A working start: profiling enabled at Non-secure EL1. */
	ap_pe_msr(fz.pe, AP_PMSIRR_EL1, 0x100);
	ap_pe_msr(fz.pe, AP_PMBPTR_EL1, MEM_BASE);
	ap_pe_msr(fz.pe, AP_PMSCR_EL1, 0x7b);
	ap_pe_msr(fz.pe, AP_PMBLIMITR_EL1, (MEM_BASE + MEM_SIZE) | 1);

	while (fz.left) {
		unsigned cmd = (unsigned)take(1) % 9;
		struct ap_spe_op op;
		switch (cmd) {
		case 0: { /* msr */
			uint32_t reg = regs[take(1) % (sizeof(regs) / sizeof(regs[0]))];
			ap_pe_msr(fz.pe, reg, take(8));
			break;
		}
		case 1: { /* state */
			struct ap_pe_state st;
			st.size = sizeof(st);
			ap_pe_get_state(fz.pe, &st);
			uint64_t s = take(2);
			st.el = (uint8_t)(s & 3);
			st.scr_el3 = (st.scr_el3 & ~1ull) | ((s >> 2) & 1);
			st.hcr_el2 = (st.hcr_el2 & ~(1ull << AP_HCR_EL2_TGE)) | (((s >> 3) & 1) << AP_HCR_EL2_TGE);
			st.mdcr_el2 = (st.mdcr_el2 & ~(3ull << 12)) | (((s >> 4) & 3) << 12);
			st.mdcr_el3 = (st.mdcr_el3 & ~(3ull << 12)) | (((s >> 6) & 3) << 12);
			st.halted = (s >> 8) & 1;
			st.timer_enabled = !((s >> 9) & 1);
			st.contextidr_el1 = s >> 10;
			ap_pe_set_state(fz.pe, &st); /* impossible states are refused */
			break;
		}
		case 2:
			make_op(&op);
			ap_spe_op(fz.pe, &op);
			break;
		case 3: {
			make_op(&op);
			uint64_t n = take(1) * 16;
			for (uint64_t i = 0; i < n; i++)
				ap_spe_op(fz.pe, &op);
			break;
		}
		case 4:
			ap_spe_skip(fz.pe, take(2));
			break;
		case 5:
			ap_spe_psb_csync(fz.pe);
			break;
		case 6:
			fz.fault_at = MEM_BASE + take(2) % MEM_SIZE;
			fz.fault_kind = (uint8_t)(1 + take(1) % 9);
			fz.fault_stage = (uint8_t)(1 + (take(1) & 1));
			break;
		case 7:
			fz.fault_at = 0;
			break;
		case 8: { /* the batch form's contract */
			uint64_t u = ap_spe_until_sample(fz.pe);
			if (u == UINT64_MAX || u > (1ull << 26))
				break;
			uint64_t got = ap_spe_skip(fz.pe, u);
			make_op(&op);
			op.flags &= ~(uint32_t)AP_SPE_OPF_MISSPEC; /* never excluded */
			if (ap_spe_profiling_enabled(fz.pe) && (got != u || ap_spe_op(fz.pe, &op) != 1))
				abort();
			break;
		}
		}
		check();
	}
	ap_pe_destroy(fz.pe);
	return 0;
}

/* An emulator's use of armprof-core: the smallest loop that models SPE.
 *
 * A real emulator (QEMU, a simulator) owns the guest's memory, its timer and
 * its instruction loop; armprof's PE model owns the SPE registers, decides
 * which operations are sampled and writes their records to guest memory
 * through a callback. This program plays the emulator for a made-up guest:
 *
 *   1. create a PE (ap_pe_create) with host callbacks: guest memory writes,
 *      the generic timer, the PMBIRQ interrupt line;
 *   2. run the guest's "kernel" code, which programs SPE with MSR
 *      instructions as Linux's arm_spe driver does (the model checks each
 *      access as the architecture does: ap_pe_msr returns its outcome);
 *   3. run the guest's "user" loop, reporting each operation (ap_spe_op);
 *   4. stop profiling (PSB CSYNC, PMBLIMITR_EL1.E = 0), read PMBPTR_EL1 and
 *      decode the guest's profiling buffer (ap_decoder_*).
 *
 * Build against an installed armprof (cmake --install build --prefix P):
 *   cc emulator.c $(PKG_CONFIG_PATH=P/lib/pkgconfig pkg-config --cflags --libs armprof-core)
 * Exit status: 0 when the decoded records match what the model wrote, 1 when
 * they do not, 2 when the model could not be set up. */
#include <stdio.h>
#include <string.h>

#include <armprof/decode.h>
#include <armprof/model.h>
#include <armprof/spe.h>

/* ---- the emulator's side: guest memory, timer, interrupt line ---------- */

#define BUF_VA 0x80000000ull /* the profiling buffer, as the guest kernel maps it */
#define BUF_SIZE (64u * 1024u)

struct guest {
	uint8_t buf[BUF_SIZE]; /* guest memory behind BUF_VA (identity-mapped here) */
	uint64_t cycles;       /* the generic timer counts guest instructions */
	int pmbirq;            /* the interrupt line the model drives */
};

/* The model writes records in the owning translation regime; the emulator
 * translates and stores them, or reports the fault. */
static int guest_write(void *ctx, uint64_t va, const uint8_t *bytes, size_t len,
                       struct ap_mem_fault *fault)
{
	struct guest *g = ctx;
	if (va < BUF_VA || va - BUF_VA > BUF_SIZE || len > BUF_SIZE - (va - BUF_VA)) {
		fault->kind = AP_MEMF_TRANSLATION;
		fault->stage = 1;
		fault->level = 3;
		fault->va = va;
		return 1;
	}
	memcpy(g->buf + (va - BUF_VA), bytes, len);
	return 0;
}

static uint64_t guest_timer(void *ctx)
{
	return ((struct guest *)ctx)->cycles;
}

static void guest_pmbirq(void *ctx, int level)
{
	((struct guest *)ctx)->pmbirq = level;
}

/* ---- the guest kernel: programming SPE, as software does --------------- */

/* One MSR of guest code at the current Exception level. A real emulator
 * would take the exception the outcome names. */
static int guest_msr(struct ap_pe *pe, uint32_t reg, uint64_t value)
{
	int r = ap_pe_msr(pe, reg, value);
	if (r != AP_ACCESS_OK) {
		fprintf(stderr, "emulator: MSR %s: %s\n", ap_sysreg_name(reg),
		        r < 0 ? "no such register" : ap_access_name((enum ap_access)r));
		return -1;
	}
	return 0;
}

static int guest_mrs(struct ap_pe *pe, uint32_t reg, uint64_t *value)
{
	int r = ap_pe_mrs(pe, reg, value);
	if (r != AP_ACCESS_OK) {
		fprintf(stderr, "emulator: MRS %s: %s\n", ap_sysreg_name(reg),
		        r < 0 ? "no such register" : ap_access_name((enum ap_access)r));
		return -1;
	}
	return 0;
}

/* EL2 (the hypervisor) lets EL1 collect physical addresses and timestamps;
 * then EL1 (the kernel) programs the sampling interval and the buffer and
 * enables sampling at EL0 and EL1 (PMSCR_EL1: E0SPE, E1SPE, CX, PA, TS). */
static int program_spe(struct ap_pe *pe, struct ap_pe_state *st)
{
	st->el = AP_EL2;
	if (ap_pe_set_state(pe, st) < 0 || guest_msr(pe, AP_PMSCR_EL2, (1u << 4) | (1u << 5)) < 0)
		return -1;
	st->el = AP_EL1;
	if (ap_pe_set_state(pe, st) < 0)
		return -1;

	uint64_t idr, bidr;
	if (guest_mrs(pe, AP_PMSIDR_EL1, &idr) < 0 || guest_mrs(pe, AP_PMBIDR_EL1, &bidr) < 0)
		return -1;
	if (bidr & (1u << 4)) { /* PMBIDR_EL1.P: the buffer is owned by a higher EL */
		fprintf(stderr, "emulator: PMBIDR_EL1.P is set: EL1 cannot use the buffer\n");
		return -1;
	}
	/* PMSIDR_EL1.Interval (4.3.11): the smallest recommended interval. */
	static const unsigned interval[16] = { 256, 0, 512, 768, 1024, 1536, 2048, 3072, 4096 };
	unsigned n = interval[(idr >> 8) & 0xF] ? interval[(idr >> 8) & 0xF] : 1024;

	if (guest_msr(pe, AP_PMSIRR_EL1, n) < 0 ||        /* INTERVAL, no random part */
	    guest_msr(pe, AP_PMSICR_EL1, 0) < 0 ||
	    guest_msr(pe, AP_PMSFCR_EL1, 0) < 0 ||        /* no filtering */
	    guest_msr(pe, AP_PMBPTR_EL1, BUF_VA) < 0 ||
	    guest_msr(pe, AP_PMBSR_EL1, 0) < 0 ||
	    guest_msr(pe, AP_PMBLIMITR_EL1, (BUF_VA + BUF_SIZE) | 1u) < 0 || /* LIMIT, E */
	    guest_msr(pe, AP_PMSCR_EL1, 0x3u | (1u << 3) | (1u << 4) | (1u << 5)) < 0)
		return -1;
	return ap_spe_profiling_enabled(pe) ? 0 : -1;
}

/* ---- the guest user program, one operation at a time ------------------- */

/* A loop of 7 instructions: two loads, a store, three ALU operations, a
 * branch back. (Its length is prime to the sampling interval, so that every
 * instruction gets sampled in turn.) */
#define LOOP_LEN 7
static void describe(uint64_t i, struct ap_spe_op *op)
{
	memset(op, 0, sizeof(*op));
	unsigned slot = (unsigned)(i % LOOP_LEN);
	op->pc = 0x400000 + 4 * slot;
	op->lat_issue = 1;
	op->lat_total = 3;
	switch (slot) {
	case 0:
	case 1:
		op->kind = AP_SPE_OP_LOAD;
		op->va = 0x7ff000 + 8 * (i % 512);
		op->pa = 0x12345000 + 8 * (i % 512);
		op->flags = AP_SPE_OPF_PA_NS;
		op->lat_xlat = 2;
		op->lat_total = slot == 0 ? 4 : 120; /* the second one misses */
		break;
	case 2:
		op->kind = AP_SPE_OP_STORE;
		op->va = 0x7ff800 + 8 * (i % 512);
		op->pa = 0x12345800 + 8 * (i % 512);
		op->flags = AP_SPE_OPF_PA_NS;
		break;
	case LOOP_LEN - 1:
		op->kind = AP_SPE_OP_BRANCH;
		op->flags = AP_SPE_OPF_COND;
		op->target = 0x400000;
		op->target_el = AP_EL0;
		op->target_ns = 1;
		break;
	default:
		op->kind = AP_SPE_OP_OTHER;
		break;
	}
}

/* ---- decoding the buffer ------------------------------------------------ */

struct tally {
	uint64_t records, with_errors, slow_loads, bad_pc;
};

static int on_record(void *ctx, const struct ap_record *rec)
{
	struct tally *t = ctx;
	t->records++;
	if (rec->n_errors_total)
		t->with_errors++;
	if (rec->op_class == AP_OP_CLASS_LDST && !(rec->op_subclass & AP_OP_ST) &&
	    (rec->has & AP_HAS_PADDR) && rec->lat_total == 120)
		t->slow_loads++;
	if (!(rec->has & AP_HAS_PC) || rec->pc < 0x400000 || rec->pc >= 0x400000 + 4 * LOOP_LEN || rec->el != 0)
		t->bad_pc++;
	return 0;
}

int main(void)
{
	static struct guest g;
	struct ap_config cfg;
	ap_config_init(&cfg);
	struct ap_host host = { .ctx = &g, .buffer_write = guest_write, .cntpct = guest_timer,
	                        .cntvct = guest_timer, .pmbirq = guest_pmbirq };
	struct ap_pe *pe;
	struct ap_error_ctx err;
	if (ap_pe_create(&cfg, &host, &pe, &err) < 0) {
		fprintf(stderr, "emulator: ap_pe_create: %s\n", err.message);
		return 2;
	}
	struct ap_pe_state st;
	ap_pe_state_init(&st);
	if (program_spe(pe, &st) < 0) {
		fprintf(stderr, "emulator: SPE did not become enabled\n");
		ap_pe_destroy(pe);
		return 2;
	}

	/* The user program runs at EL0 for a million operations. */
	st.el = AP_EL0;
	ap_pe_set_state(pe, &st);
	for (uint64_t i = 0; i < 1000000 && !g.pmbirq; i++) {
		struct ap_spe_op op;
		describe(i, &op);
		ap_spe_op(pe, &op);
		g.cycles++;
	}

	/* Back in the kernel: drain, disable, and see how far the buffer got. */
	st.el = AP_EL1;
	ap_pe_set_state(pe, &st);
	ap_spe_psb_csync(pe);
	uint64_t ptr = 0, limit = 0;
	if (guest_mrs(pe, AP_PMBLIMITR_EL1, &limit) < 0 ||
	    guest_msr(pe, AP_PMBLIMITR_EL1, limit & ~1ull) < 0 ||
	    guest_mrs(pe, AP_PMBPTR_EL1, &ptr) < 0) {
		ap_pe_destroy(pe);
		return 2;
	}
	struct ap_spe_counts counts;
	ap_spe_get_counts(pe, &counts);
	ap_pe_destroy(pe);

	struct tally t = { 0 };
	struct ap_decoder_config dcfg;
	ap_decoder_config_init(&dcfg);
	dcfg.on_record = on_record;
	dcfg.ctx = &t;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dcfg);
	ap_decoder_feed(&dec, g.buf, (size_t)(ptr - BUF_VA));
	ap_decoder_finish(&dec);

	printf("operations: %llu, sampled: %llu, records written: %llu (%llu bytes)\n",
	       (unsigned long long)counts.sample_pop, (unsigned long long)counts.sample_feed,
	       (unsigned long long)counts.records_written, (unsigned long long)(ptr - BUF_VA));
	printf("decoded: %llu records, %llu of the slow load, %llu with errors, %llu not of the EL0 loop\n",
	       (unsigned long long)t.records, (unsigned long long)t.slow_loads,
	       (unsigned long long)t.with_errors, (unsigned long long)t.bad_pc);
	int ok = t.records > 0 && t.records == counts.records_written && t.with_errors == 0 &&
	         t.bad_pc == 0 && t.slow_loads > 0 && counts.bytes_written == ptr - BUF_VA;
	return ok ? 0 : 1;
}

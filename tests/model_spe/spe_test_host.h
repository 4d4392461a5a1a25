/* A host for SPE engine tests: flat memory behind the Profiling Buffer with
 * one optional faulting address, a settable counter, and the PMBIRQ/CTI
 * outputs recorded. Also a helper that programs a PE the way a driver
 * does (Non-secure EL1 owner, profiling at EL1 and EL0). */
#ifndef ARMPROF_TEST_SPE_TEST_HOST_H
#define ARMPROF_TEST_SPE_TEST_HOST_H

#include <string.h>

#include "armprof/decode.h"
#include "armprof/spe.h"

#define TH_BASE 0x100000ull
#define TH_SIZE 0x10000ull

struct test_host {
	uint8_t mem[TH_SIZE];
	uint64_t fault_at; /* 0: none */
	struct ap_mem_fault fault;
	uint64_t cntpct, cntvct;
	int irq;
	unsigned irq_changes, cti2;
	unsigned writes;
};

static int th_write(void *ctx, uint64_t va, const uint8_t *b, size_t len, struct ap_mem_fault *f)
{
	struct test_host *h = ctx;
	h->writes++;
	for (size_t i = 0; i < len; i++) {
		uint64_t a = va + i;
		if ((h->fault_at && a == h->fault_at) || a < TH_BASE || a >= TH_BASE + TH_SIZE) {
			*f = h->fault;
			f->va = a;
			return 1;
		}
		h->mem[a - TH_BASE] = b[i];
	}
	return 0;
}
static uint64_t th_cntpct(void *ctx) { return ((struct test_host *)ctx)->cntpct; }
static uint64_t th_cntvct(void *ctx) { return ((struct test_host *)ctx)->cntvct; }
static void th_irq(void *ctx, int level)
{
	struct test_host *h = ctx;
	h->irq = level;
	h->irq_changes++;
}
static void th_cti(void *ctx, unsigned trigger)
{
	if (trigger == 2)
		((struct test_host *)ctx)->cti2++;
}

static struct ap_pe *th_create(struct test_host *h, struct ap_config *cfg)
{
	memset(h, 0, sizeof(*h));
	struct ap_host host = { .ctx = h, .buffer_write = th_write, .cntpct = th_cntpct,
	                        .cntvct = th_cntvct, .pmbirq = th_irq, .cti_trigger = th_cti };
	struct ap_pe *pe = NULL;
	struct ap_error_ctx err;
	if (ap_pe_create(cfg, &host, &pe, &err) < 0) {
		fprintf(stderr, "ap_pe_create: %s\n", err.message);
		exit(2);
	}
	return pe;
}

/* Program SPE from Non-secure EL1 (the default state): interval, filters
 * off, buffer [TH_BASE, TH_BASE+size), profiling at EL1 and EL0. */
static void th_program(struct ap_pe *pe, uint64_t pmsirr, uint64_t pmscr_extra, uint64_t size)
{
	ap_pe_msr(pe, AP_PMSIRR_EL1, pmsirr);
	ap_pe_msr(pe, AP_PMSICR_EL1, 0);
	ap_pe_msr(pe, AP_PMSFCR_EL1, 0);
	ap_pe_msr(pe, AP_PMBPTR_EL1, TH_BASE);
	ap_pe_msr(pe, AP_PMBSR_EL1, 0);
	ap_pe_msr(pe, AP_PMSCR_EL1, 0x3 | pmscr_extra); /* E1SPE, E0SPE */
	ap_pe_msr(pe, AP_PMBLIMITR_EL1, (TH_BASE + size) | 1);
}

static uint64_t th_reg(struct ap_pe *pe, uint32_t reg)
{
	uint64_t v = 0;
	ap_pe_peek(pe, reg, &v);
	return v;
}

/* Decode the buffer from TH_BASE to PMBPTR_EL1 into recs[]; returns the
 * record count (or -1 on a decode error). */
struct th_records {
	struct ap_record rec[64];
	int n, errors;
};
static int th_keep(void *ctx, const struct ap_record *r)
{
	struct th_records *t = ctx;
	if (r->n_errors || r->end == AP_END_NONE)
		t->errors++;
	if (t->n < 64)
		t->rec[t->n] = *r;
	t->n++;
	return 0;
}
static int th_decode(struct test_host *h, uint64_t end, struct th_records *out)
{
	memset(out, 0, sizeof(*out));
	struct ap_decoder_config dc;
	ap_decoder_config_init(&dc);
	dc.on_record = th_keep;
	dc.ctx = out;
	struct ap_decoder dec;
	ap_decoder_init(&dec, &dc);
	ap_decoder_feed(&dec, h->mem, end - TH_BASE);
	ap_decoder_finish(&dec);
	return out->errors ? -1 : out->n;
}

#endif

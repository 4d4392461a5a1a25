/* The SPE System registers (section 4): encodings (Table 7), field masks,
 * reset values (4.2), reads of the ID registers, and the side effects of a
 * write. The access checks are in access.c. */
#include <stddef.h>

#include "model/pe.h"
#include "model/spe/access.h"
#include "model/spe/engine.h"
#include "model/spe/later.h"
#include "model/sysreg.h"

#define REG(f) offsetof(struct ap_pe, spe_regs.f)
#define BIT(n) (1ull << (n))
#define BITS(hi, lo) ((~0ull >> (63 - (hi))) & (~0ull << (lo))) /* bits hi..lo, 0 <= lo <= hi <= 63 */

/* Field layouts (4.3.x). */
#define PMSCR_VALID (BITS(6, 3) | BITS(1, 0))      /* SPE-4.3.5-8, SPE-4.3.7-8 */
#define PMSCR_PCT BIT(6)
#define PMSICR_RES0 BITS(55, 32)                  /* SPE-4.3.10-12 */
#define PMSICR_ECOUNT BITS(63, 56)
#define PMSIRR_VALID (BITS(31, 8) | BIT(0))       /* SPE-4.3.12-7 */
#define PMSFCR_VALID (BITS(18, 16) | BITS(2, 0))  /* SPE-4.3.9-8 */
/* Every bit a later version or feature can bring (later.c says which the
 * configuration has; the others stay RES0 through the dyn masks). */
#define PMSFCR_LATER (BITS(4, 3) | BITS(20, 19) | BITS(52, 48))
#define EVFR_LATER (BIT(2) | BIT(4) | BIT(6) | BITS(11, 8) | BITS(25, 17))
#define PMSEVFR_ARCH (BIT(7) | BIT(5) | BIT(3) | BIT(1)) /* SPE-4.3.8-13..17 */
#define PMSEVFR_IMPDEF (BITS(63, 48) | BITS(31, 24) | BITS(15, 12)) /* SPE-4.3.8-8/9 */
#define PMSLATFR_VALID BITS(11, 0)                /* SPE-4.3.13-7 */
#define PMBLIMITR_RES0 BITS(11, 3)                /* SPE-4.3.2-9 */
#define PMBLIMITR_E BIT(0)
#define PMBSR_RES0 (BITS(63, 32) | BITS(25, 20))  /* SPE-4.3.4-7 */
#define PMBSR_EA BIT(18)

/* ---- configuration-dependent masks ---- */

static void pmscr_el1_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res0;
	if (!pe->cfg.have_el2)
		*res1 |= PMSCR_PCT; /* SPE-4.3.5-11 */
}

static void pmscr_el2_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res1;
	/* SPE-4.3.7-4: RES0 (at EL3) if EL2 is not implemented. E2SPE/E0HSPE
	 * "RES0 if MDCR_EL2.E2PB != 0b00" depends on run-time state: the model
	 * keeps the written value and the enable logic ignores it (SPE-4.3.7-21). */
	if (!pe->cfg.have_el2)
		*res0 |= ~0ull;
}

static void pmsicr_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res1;
	if (!pe->cfg.spe.ernd)
		*res0 |= PMSICR_ECOUNT; /* SPE-4.3.10-11 */
}

/* The event bits of PMSEVFR_EL1 and PMSNEVFR_EL1 that are RES0 here. */
static uint64_t event_filter_res0(const struct ap_pe *pe)
{
	uint64_t later = ap_spe_later_event_bits(&pe->cfg);
	uint64_t impdef = PMSEVFR_IMPDEF & ~pe->cfg.spe.evfr_impdef_mask; /* SPE-4.3.8-9 */
	if (ap_spe_version(&pe->cfg) >= AP_SPE_V1P4)
		impdef |= BITS(31, 24); /* LATER-EVF-1: no IMP DEF events in [31:24] from v1p4 */
	/* Later bits inside the IMP DEF ranges (E[24], E[25]) stay IMP DEF
	 * before v1p4, as in v1. */
	return (impdef | (EVFR_LATER & ~PMSEVFR_IMPDEF)) & ~later;
}

static void pmsevfr_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	*res0 |= event_filter_res0(pe);
	if (!pe->cfg.spe.speculative_sampling)
		*res1 |= BIT(1); /* SPE-4.3.8-18 */
}

/* LATER-FNE-2: PMSNEVFR_EL1 has PMSEVFR_EL1's event bits. */
static void pmsnevfr_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res1;
	*res0 |= event_filter_res0(pe);
}

static void pmsfcr_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res1;
	*res0 |= PMSFCR_LATER & ~ap_spe_later_pmsfcr_bits(&pe->cfg); /* LATER-FNE-1, LATER-EFT-1, LATER-FDS-1 */
}

static void pmblimitr_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res1;
	unsigned n = pe->cfg.spe.min_granule_log2;
	if (n > 12)
		*res0 |= BITS(n - 1, 12); /* SPE-4.3.2-8 */
}

static void pmbptr_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res1;
	/* SPE-4.3.3-9/10: without synchronous external-abort reporting the PE
	 * treats PMBPTR_EL1[Align-1:0] as RES0. */
	unsigned a = pe->cfg.spe.align;
	if (a && pe->cfg.spe.ext_abort != AP_SPE_EA_SYNC)
		*res0 |= BIT(a) - 1;
}

static void pmbsr_masks(const struct ap_pe *pe, uint64_t *res0, uint64_t *res1)
{
	(void)res1;
	if (pe->cfg.spe.ext_abort == AP_SPE_EA_SERROR)
		*res0 |= PMBSR_EA; /* SPE-4.3.4-16 */
}

/* ---- the ID registers, computed ---- */

static uint64_t read_pmsidr(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	(void)r;
	const struct ap_spe_config *s = &pe->cfg.spe;
	return (uint64_t)(s->count_size & 0xF) << 16 | (uint64_t)(s->max_size & 0xF) << 12 |
	       (uint64_t)(s->interval & 0xF) << 8 | (uint64_t)s->ernd << 5 |
	       (uint64_t)s->lds << 4 | (uint64_t)s->arch_inst << 3 |
	       BIT(2) | BIT(1) | BIT(0) | /* FL, FT, FE read as 1 (SPE-4.3.11-30..32) */
	       ap_spe_later_pmsidr_bits(&pe->cfg); /* LATER-VER-3 */
}

/* PMBIDR_EL1.P (SPE-4.3.1-9..15): 1 when the buffer is owned by a higher
 * Exception level or the other Security state. The spec lists the NSPB/E2PB
 * cases; the model derives them all from ProfilingBufferOwner(), which
 * gives the listed values and covers E2PB == 0b01 and missing ELs. */
static bool pmbidr_p(const struct ap_pe *pe)
{
	if (pe->st.el == AP_EL3)
		return false; /* SPE-4.3.1-14 */
	struct ap_spe_owner o = ap_spe_buffer_owner(pe);
	return o.el > pe->st.el || o.secure != ap_is_secure(pe);
}

static uint64_t read_pmbidr(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	(void)r;
	const struct ap_spe_config *s = &pe->cfg.spe;
	return (uint64_t)s->f << 5 | (uint64_t)pmbidr_p(pe) << 4 | (s->align & 0xF);
}

/* ---- redirection and side effects ---- */

/* SPE-4.3.5-2: at EL2 with HCR_EL2.E2H == 1, PMSCR_EL1 names PMSCR_EL2. */
static const struct ap_sysreg *pmscr_el1_redirect(const struct ap_pe *pe, const struct ap_sysreg *r)
{
	if (pe->st.el == AP_EL2 && ap_e2h(pe))
		return ap_sysreg_find(AP_PMSCR_EL2);
	return r;
}

static void spe_written(struct ap_pe *pe, const struct ap_sysreg *r)
{
	ap_spe_engine_sysreg_written(pe, r->enc);
}

static void pmbsr_written(struct ap_pe *pe, const struct ap_sysreg *r)
{
	/* A direct write of S drives PMBIRQ like a management event (3.5). */
	ap_pe_update_pmbirq(pe);
	ap_spe_engine_sysreg_written(pe, r->enc);
}

#define SAMPLING(name, enc, fgt, nv, res0, dyn, field)                                     \
	{ name, enc, AP_SR_R | AP_SR_W, fgt, nv, res0, 0, 0, dyn, ap_spe_check_sampling_reg, \
	  NULL, REG(field), NULL, NULL, spe_written }
#define BUFFER(name, enc, fgt, nv, res0, dyn, field, written)                            \
	{ name, enc, AP_SR_R | AP_SR_W, fgt, nv, res0, 0, 0, dyn, ap_spe_check_buffer_reg, \
	  NULL, REG(field), NULL, NULL, written }

static const struct ap_sysreg spe_regs[] = {
	{ "PMSCR_EL1", AP_PMSCR_EL1, AP_SR_R | AP_SR_W, 26, 0x828, ~PMSCR_VALID, 0, 0,
	  pmscr_el1_masks, ap_spe_check_sampling_reg, pmscr_el1_redirect, REG(pmscr_el1),
	  NULL, NULL, spe_written },
	/* PMSICR_EL1 counts lazily in the SPE engine: reads go through it. */
	{ "PMSICR_EL1", AP_PMSICR_EL1, AP_SR_R | AP_SR_W, 29, 0x838, PMSICR_RES0, 0, 0, pmsicr_masks,
	  ap_spe_check_sampling_reg, NULL, REG(pmsicr_el1), ap_spe_engine_read_pmsicr, NULL, spe_written },
	SAMPLING("PMSIRR_EL1", AP_PMSIRR_EL1, 31, 0x840, ~PMSIRR_VALID, NULL, pmsirr_el1),
	SAMPLING("PMSFCR_EL1", AP_PMSFCR_EL1, 28, 0, ~(PMSFCR_VALID | PMSFCR_LATER), pmsfcr_masks,
	         pmsfcr_el1),
	SAMPLING("PMSEVFR_EL1", AP_PMSEVFR_EL1, 27, 0x830, ~(PMSEVFR_ARCH | PMSEVFR_IMPDEF | EVFR_LATER),
	         pmsevfr_masks, pmsevfr_el1),
	/* After v1: their own checks make them UNDEFINED without the feature. */
	{ "PMSNEVFR_EL1", AP_PMSNEVFR_EL1, AP_SR_R | AP_SR_W, -1, 0,
	  ~(PMSEVFR_ARCH | PMSEVFR_IMPDEF | EVFR_LATER), 0, 0, pmsnevfr_masks, ap_spe_check_pmsnevfr,
	  NULL, REG(pmsnevfr_el1), NULL, NULL, spe_written },
	{ "PMSDSFR_EL1", AP_PMSDSFR_EL1, AP_SR_R | AP_SR_W, -1, 0, 0, 0, 0, NULL, ap_spe_check_pmsdsfr,
	  NULL, REG(pmsdsfr_el1), NULL, NULL, spe_written },
	SAMPLING("PMSLATFR_EL1", AP_PMSLATFR_EL1, 32, 0x848, ~PMSLATFR_VALID, NULL, pmslatfr_el1),
	{ "PMSIDR_EL1", AP_PMSIDR_EL1, AP_SR_R, 30, 0, 0, 0, 0, NULL,
	  ap_spe_check_sampling_reg, NULL, 0, read_pmsidr, NULL, NULL },
	BUFFER("PMBLIMITR_EL1", AP_PMBLIMITR_EL1, 23, 0x800, PMBLIMITR_RES0, pmblimitr_masks,
	       pmblimitr_el1, spe_written),
	BUFFER("PMBPTR_EL1", AP_PMBPTR_EL1, 24, 0x810, 0, pmbptr_masks, pmbptr_el1, spe_written),
	BUFFER("PMBSR_EL1", AP_PMBSR_EL1, 25, 0x820, PMBSR_RES0, pmbsr_masks, pmbsr_el1,
	       pmbsr_written),
	{ "PMBIDR_EL1", AP_PMBIDR_EL1, AP_SR_R, 63, 0, BITS(63, 6), 0, 0, NULL,
	  ap_spe_check_pmbidr, NULL, 0, read_pmbidr, NULL, NULL },
	{ "PMSCR_EL2", AP_PMSCR_EL2, AP_SR_R | AP_SR_W, -1, 0, ~PMSCR_VALID, 0, 0,
	  pmscr_el2_masks, ap_spe_check_pmscr_el2, NULL, REG(pmscr_el2), NULL, NULL, spe_written },
	/* PMSCR_EL12 reaches PMSCR_EL1's storage with its own check (4.3.6). */
	{ "PMSCR_EL12", AP_PMSCR_EL12, AP_SR_R | AP_SR_W, -1, 0, ~PMSCR_VALID, 0, 0,
	  pmscr_el1_masks, ap_spe_check_pmscr_el12, NULL, REG(pmscr_el1), NULL, NULL, spe_written },
};

static void spe_reset(struct ap_pe *pe)
{
	const struct ap_spe_config *s = &pe->cfg.spe;
	const struct { uint32_t enc; uint64_t value; } resets[] = {
		{ AP_PMSCR_EL1, s->reset_pmscr_el1 },     { AP_PMSCR_EL2, s->reset_pmscr_el2 },
		{ AP_PMSICR_EL1, s->reset_pmsicr_el1 },   { AP_PMSIRR_EL1, s->reset_pmsirr_el1 },
		{ AP_PMSFCR_EL1, s->reset_pmsfcr_el1 },   { AP_PMSEVFR_EL1, s->reset_pmsevfr_el1 },
		{ AP_PMSLATFR_EL1, s->reset_pmslatfr_el1 },
		/* Table 8 (SPE-T8-row1): PMBLIMITR_EL1.E resets to 0. */
		{ AP_PMBLIMITR_EL1, s->reset_pmblimitr_el1 & ~PMBLIMITR_E },
		{ AP_PMBPTR_EL1, s->reset_pmbptr_el1 },   { AP_PMBSR_EL1, s->reset_pmbsr_el1 },
		/* After v1: UNKNOWN on reset; the model picks 0 (filters off). */
		{ AP_PMSNEVFR_EL1, 0 }, { AP_PMSDSFR_EL1, 0 },
	};
	for (size_t i = 0; i < sizeof(resets) / sizeof(resets[0]); i++) {
		const struct ap_sysreg *r = ap_sysreg_find(resets[i].enc);
		uint64_t res0, res1;
		ap_sysreg_masks(pe, r, &res0, &res1);
		ap_sysreg_set(pe, r, (resets[i].value | res1) & ~res0);
	}
	ap_spe_engine_reset(pe);
}

static void spe_state_changed(struct ap_pe *pe, const struct ap_pe_state *old)
{
	ap_spe_engine_state_changed(pe, old);
}

const struct ap_sysreg_table ap_spe_sysreg_table = {
	"spe", spe_regs, sizeof(spe_regs) / sizeof(spe_regs[0]), spe_reset, spe_state_changed,
};

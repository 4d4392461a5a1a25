/* PC Sample-based Profiling: the sample, the rules that make a read return
 * it, 0xFFFFFFFF or an UNKNOWN value, the context registers' side-effects,
 * the Software Lock and suspend/activate (spec/001 H7.1, spec/003 PMPCSR;
 * DDI 0487 pseudocode where the texts are blank, cited per function). Every
 * fact about the PE comes from the PE: its configuration (ap_config.pcsr and
 * the core features) and its state (struct ap_pe_state). */
#include <string.h>

#include "armprof/error.h"
#include "model/pcsr/pcsr.h"
#include "model/pmu/pmu_access.h"

#define ONES32 0xffffffffu
#define PMPCSCTL_EN  (1ull << 0) /* DDI 0487 I5.3.46 */
#define PMPCSCTL_IMP (1ull << 1)
#define PMPCSCTL_SS  (1ull << 4)
#define CORESIGHT_LAR_KEY 0xC5ACCE55u

/* H7.1.1 Controlling the PC Sample-based Profiling Extension
 * (PCS-H7.1.1-2..8). */
bool ap_pcsr_allowed(const struct ap_pe *pe)
{
	const struct ap_pe_state *st = &pe->st;
	enum ap_security sec = ap_pe_security(pe);
	if (!st->ext_noninvasive)
		return false;
	if (sec == AP_SS_NONSECURE)                                             /* -3 */
		return true;
	if (!pe->cfg.have_el3)                                                  /* -4 */
		return true;
	if (sec == AP_SS_SECURE && st->ext_secure_noninvasive)                  /* -5 */
		return true;
	if (sec == AP_SS_REALM && st->ext_realm_noninvasive)                    /* -6 */
		return true;
	if (sec == AP_SS_ROOT && st->ext_root_noninvasive)                      /* -7 */
		return true;
	if ((ap_el_using_aarch32(pe, 3) || ap_el_using_aarch32(pe, 1)) && st->el == 0 &&
	    sec == AP_SS_SECURE && ap_bit(st->sder32_el3, AP_SDER_SUNIDEN))      /* -8 */
		return true;
	return false;
}

/* FEAT_PMUv3_SS and PMPCSCTL.SS == 1: sampling on Capture events. */
static bool ss_mode(const struct ap_pe *pe)
{
	return pe->cfg.snapshot.feat_pmuv3_ss && (pe->pcsr.pmpcsctl & PMPCSCTL_SS);
}

/* PCSRSuspended() (DDI 0487 J1.3.1.122). FEAT_PCSRv8 has no suspended
 * state in the model. */
bool ap_pcsr_suspended(const struct ap_pe *pe)
{
	const struct ap_pcsr_config *c = &pe->cfg.pcsr;
	if (!c->feat_pcsrv8p2)
		return false;
	if (ss_mode(pe))
		return false; /* PCS-H7.1.1.1-9 */
	if (c->feat_pcsrv8p9 && c->pmpcsctl_imp)
		return !(pe->pcsr.pmpcsctl & PMPCSCTL_EN); /* PCS-H7.1.1.1-1/2 */
	return pe->pcsr.impdef_suspended;                  /* PCS-H7.1.1.1-4 */
}

bool ap_pcsr_sampling_on_reads(const struct ap_pe *pe)
{
	return !ss_mode(pe); /* PCS-H7.1.1.1-11/12 */
}

/* Recompute whether retire() records samples; leaving a state where it did
 * not (Debug, prohibited, suspended, powered down) needs a new branch before
 * the sample is known again (H7.1.3, PCS-H7.1.3-3). */
static void update_live(struct ap_pe *pe)
{
	struct ap_pcsr *p = &pe->pcsr;
	bool was = p->live;
	p->allowed = ap_pcsr_allowed(pe);
	p->live = (pe->cfg.pcsr.feat_pcsrv8 || pe->cfg.pcsr.feat_pcsrv8p2) && p->allowed && !pe->st.halted &&
	          pe->st.core_powered && !ap_pcsr_suspended(pe);
	if (!p->live || !was)
		p->fresh = false;
}

/* The context a sample taken now carries (CreatePCSample()). */
static void update_context(struct ap_pe *pe)
{
	const struct ap_pe_state *st = &pe->st;
	const struct ap_pcsr_config *cfg = &pe->cfg.pcsr;
	struct ap_pcsr *p = &pe->pcsr;
	struct ap_pcsr_sample *c = &p->cur;
	uint32_t fill32 = (uint32_t)cfg->unknown_fill;
	bool el2_aarch32 = pe->cfg.have_el2 && ap_el_using_aarch32(pe, 2);
	c->el = st->el;
	c->aarch64 = !ap_using_aarch32(pe);
	c->security = (uint8_t)ap_pe_security(pe);
	c->tstate = cfg->feat_tme && st->tstate;
	/* CreatePCSample(): has_el2 = PSTATE.EL != EL3 && EL2Enabled() */
	c->has_el2 = st->el != 3 && ap_el2_enabled(pe);
	c->el0h = st->el == 0 && ap_e2h(pe) && ap_tge(pe); /* IsInHost() */
	c->contextidr = (uint32_t)st->contextidr_el1;
	/* CONTEXTIDR_EL2 is sampled only with FEAT_VHE (or Debugv8p2) and EL2
	 * in AArch64; otherwise UNKNOWN. */
	c->contextidr_el2 = (pe->cfg.have_vhe || cfg->feat_pcsrv8p2) && !el2_aarch32 ? (uint32_t)st->contextidr_el2
	                                                                           : fill32;
	c->vmid = cfg->feat_vmid16 ? st->vmid : (uint16_t)(st->vmid & 0xff);
	p->pe_gen++;
}

void ap_pcsr_reset(struct ap_pe *pe, bool cold)
{
	const struct ap_pcsr_config *c = &pe->cfg.pcsr;
	struct ap_pcsr *p = &pe->pcsr;
	p->pmpcsctl = c->feat_pcsrv8p9 && c->pmpcsctl_imp ? PMPCSCTL_IMP : 0; /* EN, SS reset to 0 */
	p->impdef_suspended = c->reset_suspended;
	p->have_sample = p->fresh = p->branch_since_read = p->branch_since_capture = false;
	p->first_capture_after_ss = false;
	p->read_since_reset = false;
	p->slk = c->software_lock; /* CoreSight: the Software Lock is locked at reset */
	if (cold) {
		/* Cold reset values are UNKNOWN: the model uses unknown_fill. */
		p->pmpcsr = c->unknown_fill;
		p->pmcid1sr = p->pmcid2sr = (uint32_t)c->unknown_fill;
		p->pmvidsr = (uint32_t)c->unknown_fill & 0xffff;
		p->edpcsr_hi = p->edcidsr = p->edvidsr = (uint32_t)c->unknown_fill;
		p->samples_taken = 0;
	}
	ap_debug_reset(pe, cold);
	update_context(pe);
	update_live(pe);
	p->fresh = false;
}

void ap_pcsr_state_changed(struct ap_pe *pe)
{
	ap_debug_state_changed(pe);
	update_context(pe);
	update_live(pe);
}

/* PMPCSR.{NS,NSE} from a Security state (PMPCSR-11..15, SetPCSample). */
static uint64_t pmpcsr_security_bits(const struct ap_pe *pe, unsigned s)
{
	uint64_t ns = 0, nse = 0;
	if (pe->cfg.have_rme) {
		ns = (s == AP_SS_NONSECURE || s == AP_SS_REALM);
		nse = (s == AP_SS_ROOT || s == AP_SS_REALM);
	} else {
		ns = (s != AP_SS_SECURE);
	}
	return ns << 63 | nse << 59;
}

static uint16_t vmid_mask(const struct ap_pe *pe)
{
	return pe->cfg.pcsr.feat_vmid16 ? 0xffff : 0xff;
}

/* SetPCSample() (DDI 0487 J1.3.1.128; PMPCSR-10..28, PMPCSR-33). */
static void set_pc_sample(struct ap_pe *pe)
{
	struct ap_pcsr *p = &pe->pcsr;
	const struct ap_pcsr_config *c = &pe->cfg.pcsr;
	const struct ap_pcsr_sample *s = &p->sample;
	uint64_t v = s->pc & 0xffffffffull;
	if (s->aarch64)
		v |= s->pc & 0x00ffffff00000000ull; /* PCSample[55:32] */
	v |= (uint64_t)(s->el & 3) << 61;
	v |= pmpcsr_security_bits(pe, s->security);
	if (c->feat_tme && s->tstate)
		v |= 1ull << 60;
	p->pmpcsr = v;
	uint32_t cid2 = s->has_el2 ? s->contextidr_el2 : (uint32_t)c->unknown_fill;
	uint16_t vmid = (uint16_t)c->unknown_fill;
	if (s->has_el2 && s->el <= 1 && !s->el0h)
		vmid = s->vmid;
	p->pmcid1sr = s->contextidr;
	p->pmcid2sr = cid2;
	p->pmvidsr = vmid & vmid_mask(pe);
	p->samples_taken++;
}

/* SetPCSRUnknown() (DDI 0487 J1.3.1.127; PMPCSR-32). */
static void set_pc_unknown(struct ap_pe *pe)
{
	struct ap_pcsr *p = &pe->pcsr;
	uint64_t fill = pe->cfg.pcsr.unknown_fill;
	uint64_t unknown_hi = 0x00ffffff00000000ull | 3ull << 61 | 1ull << 63; /* [55:32], EL, NS */
	p->pmpcsr = (p->pmpcsr & ~unknown_hi & ~0xffffffffull) | (fill & unknown_hi) | ONES32;
	p->pmcid1sr = p->pmcid2sr = (uint32_t)fill;
	p->pmvidsr = (uint32_t)fill & vmid_mask(pe);
}

/* SetPCSRActive() (DDI 0487 J1.3.1.126). Leaving the suspended state makes
 * the sample UNKNOWN until a branch retires (PCS-H7.1.3-3). */
static void set_active(struct ap_pe *pe)
{
	if (pe->cfg.pcsr.feat_pcsrv8p9 && pe->cfg.pcsr.pmpcsctl_imp)
		pe->pcsr.pmpcsctl |= PMPCSCTL_EN; /* PCS-H7.1.1.1-7 */
	else
		pe->pcsr.impdef_suspended = false; /* PCS-H7.1.1.1-8: only a Warm reset suspends again */
	update_live(pe);
}

enum read_kind { KIND_VALID, KIND_ONES, KIND_UNKNOWN };

/* Which of the PMPCSR/EDPCSR cases of spec/003 (lists from DDI 0487's
 * PMPCSR page) a sampling read falls in. */
static enum read_kind classify_read(const struct ap_pe *pe, bool need_branch_since_read)
{
	const struct ap_pcsr *p = &pe->pcsr;
	if (pe->st.halted || !p->allowed)
		return KIND_ONES; /* PMPCSR-29: Debug state; PC sampling prohibited */
	if (!p->have_sample || !p->fresh)
		return KIND_UNKNOWN; /* PMPCSR-31, PCS-H7.1.3-3 */
	if (need_branch_since_read && !p->branch_since_read)
		return KIND_UNKNOWN; /* PCS-H7.1.3-5 */
	if (!p->read_since_reset && pe->cfg.pcsr.first_read_ones)
		return KIND_ONES; /* PMPCSR-30: permitted, not required */
	return KIND_VALID;
}

static enum read_kind resolve_unknown(const struct ap_pe *pe, enum read_kind k)
{
	if (k != KIND_UNKNOWN)
		return k;
	return pe->cfg.pcsr.unknown == AP_PCSR_UNKNOWN_STALE && pe->pcsr.have_sample ? KIND_VALID : KIND_ONES;
}

static bool side_effects_allowed(const struct ap_pe *pe, bool memory_mapped)
{
	/* PMPCSR-34: a memory-mapped read with PMLSR.SLK == 1 has no side-effect. */
	return !(memory_mapped && pe->cfg.pcsr.software_lock && pe->pcsr.slk);
}

uint32_t ap_pcsr_read_pmpcsr_lo(struct ap_pe *pe, bool memory_mapped)
{
	struct ap_pcsr *p = &pe->pcsr;
	if (!pe->cfg.pcsr.feat_pcsrv8p2)
		return 0; /* PMPCSR-2: RES0 */
	if (!ap_pcsr_sampling_on_reads(pe))
		return (uint32_t)p->pmpcsr; /* PCS-H7.1.1.1-13/14: last sampled value, no side-effects */
	bool update = side_effects_allowed(pe, memory_mapped);
	enum read_kind kind;
	if (ap_pcsr_suspended(pe)) {
		/* PCS-H7.1.1.1-5: a read while suspended, allowed and sampling on
		 * reads makes profiling active; the read itself has no valid sample
		 * (Read_PMPCSR sets pc_sample.valid = FALSE), and H7.1.3 permits
		 * 0xFFFFFFFF or an UNKNOWN value (PCS-H7.1.3-4). */
		bool activates = update && p->allowed;
		if (activates)
			set_active(pe);
		kind = activates && !pe->cfg.pcsr.activate_read_ones ? KIND_UNKNOWN : KIND_ONES;
	} else {
		kind = classify_read(pe, false);
	}
	kind = resolve_unknown(pe, kind);
	p->read_since_reset = true;
	if (kind == KIND_VALID) {
		if (update)
			set_pc_sample(pe);
		return (uint32_t)p->sample.pc;
	}
	if (update)
		set_pc_unknown(pe);
	return ONES32;
}

uint64_t ap_pcsr_read_pmpcsr64(struct ap_pe *pe, bool memory_mapped)
{
	uint32_t lo = ap_pcsr_read_pmpcsr_lo(pe, memory_mapped);
	return (pe->pcsr.pmpcsr & 0xffffffff00000000ull) | lo; /* PMPCSR-7 */
}

/* Read_EDPCSRlo() (DDI 0487 J1.3.1.124), FEAT_PCSRv8. */
uint32_t ap_pcsr_read_edpcsr_lo(struct ap_pe *pe, bool memory_mapped)
{
	struct ap_pcsr *p = &pe->pcsr;
	const struct ap_pcsr_config *c = &pe->cfg.pcsr;
	if (!c->feat_pcsrv8)
		return 0; /* RES0 when FEAT_PCSRv8 is not implemented */
	bool update = side_effects_allowed(pe, memory_mapped);
	/* PCS-H7.1.3-5/-6: without FEAT_MOPS and FEAT_PCSRv8p2 (always so with
	 * FEAT_PCSRv8), no branch since the last read makes the value UNKNOWN. */
	enum read_kind kind = resolve_unknown(pe, classify_read(pe, true));
	p->read_since_reset = true;
	if (kind != KIND_VALID) {
		if (update)
			p->edpcsr_hi = p->edcidsr = p->edvidsr = (uint32_t)c->unknown_fill;
		return ONES32;
	}
	const struct ap_pcsr_sample *s = &p->sample;
	if (update) {
		uint32_t ns = s->security != AP_SS_SECURE;
		bool sc2 = pe->cfg.have_vhe && ap_bit(pe->st.edscr, AP_EDSCR_SC2); /* PCS-H7.1.2-7 */
		if (sc2)
			p->edpcsr_hi = ns << 31 | (uint32_t)(s->el & 3) << 29 |
			               (s->aarch64 ? (uint32_t)(s->pc >> 32) & 0xffffff : 0);
		else
			p->edpcsr_hi = s->aarch64 ? (uint32_t)(s->pc >> 32) : 0;
		p->edcidsr = s->contextidr;
		if (sc2) {
			p->edvidsr = s->has_el2 ? s->contextidr_el2 : (uint32_t)c->unknown_fill;
		} else {
			uint32_t vmid = s->has_el2 && s->el <= 1 ? (s->vmid & vmid_mask(pe)) : 0;
			uint32_t hv = p->edpcsr_hi != 0 ? 1 : c->edvidsr_hv_when_zero;
			p->edvidsr = ns << 31 | (uint32_t)(s->el == 2) << 30 |
			             (uint32_t)(s->el == 3 && s->aarch64) << 29 | hv << 28 | vmid;
		}
		p->branch_since_read = false;
		p->samples_taken++;
	}
	return (uint32_t)s->pc;
}

/* PMUCaptureEvent(), the PMPCSCTL.SS part (DDI 0487 J1.3.1.107; D13.9
 * SS-RVPZHN-4..8, SS-RWSVYM-1..3). */
void ap_pcsr_capture(struct ap_pe *pe)
{
	struct ap_pcsr *p = &pe->pcsr;
	bool ones_first = p->first_capture_after_ss && pe->cfg.pcsr.capture_unknown_ones;
	enum read_kind kind;
	if (pe->st.halted || !p->allowed) {
		kind = KIND_ONES; /* SS-RVPZHN-8 */
	} else if (!p->have_sample || !p->fresh || !p->branch_since_capture) {
		kind = ones_first ? KIND_ONES : KIND_UNKNOWN; /* SS-RWSVYM-2 */
	} else if (ones_first) {
		kind = KIND_ONES; /* SS-RWSVYM-3: permitted, not required */
	} else {
		kind = KIND_VALID;
	}
	kind = resolve_unknown(pe, kind);
	p->branch_since_capture = false;
	p->first_capture_after_ss = false;
	if (kind == KIND_VALID) {
		set_active(pe);
		set_pc_sample(pe);
	} else {
		/* Only PMPCSR[31:0]: [63:32] and the context registers are unchanged. */
		p->pmpcsr |= ONES32;
	}
}

uint64_t ap_pcsr_read_pmpcsctl(const struct ap_pe *pe)
{
	return pe->cfg.pcsr.feat_pcsrv8p9 ? pe->pcsr.pmpcsctl : 0;
}

void ap_pcsr_write_pmpcsctl(struct ap_pe *pe, uint64_t value)
{
	const struct ap_pcsr_config *c = &pe->cfg.pcsr;
	struct ap_pcsr *p = &pe->pcsr;
	if (!c->feat_pcsrv8p9)
		return; /* RES0 */
	uint64_t old = p->pmpcsctl;
	uint64_t v = c->pmpcsctl_imp ? PMPCSCTL_IMP : 0;
	if (c->pmpcsctl_imp)
		v |= value & PMPCSCTL_EN;
	if (pe->cfg.snapshot.feat_pmuv3_ss)
		v |= value & PMPCSCTL_SS;
	p->pmpcsctl = v;
	if ((v & PMPCSCTL_SS) && !(old & PMPCSCTL_SS)) {
		/* SS-RWSVYM-2/3: the next Capture needs a branch after this point. */
		p->branch_since_capture = false;
		p->first_capture_after_ss = true;
	}
	update_live(pe);
}

void ap_pcsr_write_lar(struct ap_pe *pe, uint32_t value)
{
	if (pe->cfg.pcsr.software_lock)
		pe->pcsr.slk = value != CORESIGHT_LAR_KEY;
}

uint32_t ap_pcsr_read_lsr(const struct ap_pe *pe, bool memory_mapped)
{
	/* PMLSR/EDLSR (DDI 0487 I5.3.41): SLI [0], SLK [1], nTT [2] = 0. */
	bool sli = pe->cfg.pcsr.software_lock && memory_mapped;
	return (uint32_t)sli | (uint32_t)(sli && pe->pcsr.slk) << 1;
}

uint64_t ap_pcsr_pmpcsr(const struct ap_pe *pe)
{
	return pe->cfg.pcsr.feat_pcsrv8p2 ? pe->pcsr.pmpcsr : 0;
}

uint64_t ap_pcsr_pmccidsr(const struct ap_pe *pe)
{
	return (uint64_t)pe->pcsr.pmcid2sr << 32 | pe->pcsr.pmcid1sr;
}

uint64_t ap_pcsr_pmvcidsr(const struct ap_pe *pe)
{
	return (uint64_t)(pe->pcsr.pmvidsr & 0xffff) << 32 | pe->pcsr.pmcid1sr;
}

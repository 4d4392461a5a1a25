/* PC Sample-based Profiling: the sample, the rules that make a read return
 * it, 0xFFFFFFFF or an UNKNOWN value, the context registers' side-effects,
 * the Software Lock and suspend/activate (spec/001 H7.1, spec/003 PMPCSR;
 * DDI 0487 pseudocode where the texts are blank, cited per function). */
#include <string.h>

#include "armprof/error.h"
#include "armprof/pcsr.h"

#define ONES32 0xffffffffu
#define PMPCSCTL_EN  (1ull << 0) /* DDI 0487 I5.3.46 */
#define PMPCSCTL_IMP (1ull << 1)
#define PMPCSCTL_SS  (1ull << 4)
#define CORESIGHT_LAR_KEY 0xC5ACCE55u

void ap_pcsr_config_init(struct ap_pcsr_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->feat_pcsrv8p2 = true;
	cfg->feat_pcsrv8p9 = true;
	cfg->feat_pmuv3_ss = true;
	cfg->arch_major = 9;
	cfg->arch_minor = 4;
	cfg->pmu_ext = AP_PCSR_EXT64;
	cfg->atomic64 = true;
	cfg->software_lock = true;
	cfg->feat_vhe = true;
	cfg->feat_vmid16 = true;
	cfg->have_el2 = true;
	cfg->have_el3 = true;
	cfg->pmpcsctl_imp = true;
	cfg->activate_read_ones = true; /* as the DDI 0487 Read_PMPCSR pseudocode */
	cfg->edvidsr_hv_when_zero = true;
	cfg->unknown = AP_PCSR_UNKNOWN_ONES;
	cfg->pmdevarch_archid = 0x0A20;
}

int ap_pcsr_config_check(const struct ap_pcsr_config *cfg, const char **why)
{
	const char *msg = NULL;
	bool v8_2_or_later = cfg->arch_major > 8 || (cfg->arch_major == 8 && cfg->arch_minor >= 2);
	if (cfg->size < sizeof(*cfg))
		msg = "configuration struct too small";
	else if (cfg->feat_pcsrv8 && cfg->feat_pcsrv8p2)
		msg = "PCS-H7.1.2-4: an implementation must not include both FEAT_PCSRv8 and FEAT_PCSRv8p2 (H7.1.2)";
	else if (cfg->feat_pcsrv8 && v8_2_or_later)
		msg = "PCS-H7.1.2-5: FEAT_PCSRv8 is not permitted from Armv8.2 (H7.1.2)";
	else if (cfg->feat_pcsrv8p9 && !cfg->feat_pcsrv8p2)
		msg = "FEAT_PCSRv8p9 needs FEAT_PCSRv8p2: PMPCSCTL is a PMU register (DDI 0487 I5.3.46)";
	else if (cfg->feat_pcsrv8p9 && cfg->pmu_ext == AP_PCSR_EXT_NONE)
		msg = "PMPCSCTL is present only with FEAT_PCSRv8p9 and FEAT_PMUv3_EXT (DDI 0487 I5.3.46); pmu_ext=none has no PMPCSCTL";
	else if (cfg->feat_pcsrv8p2 && cfg->pmu_ext == AP_PCSR_EXT_NONE &&
	         cfg->pmdevarch_archid != 0x0A10 && cfg->pmdevarch_archid != 0x0A20)
		msg = "PCS-H7.1.2-13: PMDEVARCH.ARCHID must be 0x0A10 or 0x0A20 without a PMU (H7.1.2)";
	else if (cfg->feat_rme && !cfg->have_el3)
		msg = "FEAT_RME needs EL3";
	else if (cfg->pmu_ext > AP_PCSR_EXT64)
		msg = "pmu_ext must be none, ext32 or ext64";
	else if (cfg->unknown > AP_PCSR_UNKNOWN_STALE)
		msg = "unknown policy must be ones or stale";
	if (why)
		*why = msg;
	return msg ? -AP_ERR_INVALID : 0;
}

void ap_pcsr_pe_init(struct ap_pcsr_pe *pe)
{
	memset(pe, 0, sizeof(*pe));
	pe->el = 1;
	pe->security = AP_PCSR_NONSECURE;
	pe->el2_enabled = true;
	pe->powered = true;
	pe->niden = pe->spniden = pe->rlpniden = pe->rtpniden = true;
}

/* H7.1.1 Controlling the PC Sample-based Profiling Extension
 * (PCS-H7.1.1-2..8). */
bool ap_pcsr_allowed(const struct ap_pcsr_config *cfg, const struct ap_pcsr_pe *pe)
{
	if (!pe->niden)
		return false;
	if (pe->security == AP_PCSR_NONSECURE)                                  /* -3 */
		return true;
	if (!cfg->have_el3)                                                     /* -4 */
		return true;
	if (pe->security == AP_PCSR_SECURE && pe->spniden)                      /* -5 */
		return true;
	if (pe->security == AP_PCSR_REALM && pe->rlpniden)                      /* -6 */
		return true;
	if (pe->security == AP_PCSR_ROOT && pe->rtpniden)                       /* -7 */
		return true;
	if ((pe->el3_aarch32 || pe->el1_aarch32) && pe->el == 0 &&
	    pe->security == AP_PCSR_SECURE && pe->sder_suniden)                 /* -8 */
		return true;
	return false;
}

/* PCSRSuspended() (DDI 0487 J1.3.1.122). FEAT_PCSRv8 has no suspended
 * state in the model. */
bool ap_pcsr_suspended(const struct ap_pcsr *p)
{
	if (!p->cfg.feat_pcsrv8p2)
		return false;
	if (p->cfg.feat_pmuv3_ss && (p->pmpcsctl & PMPCSCTL_SS))
		return false; /* PCS-H7.1.1.1-9 */
	if (p->cfg.feat_pcsrv8p9 && p->cfg.pmpcsctl_imp)
		return !(p->pmpcsctl & PMPCSCTL_EN); /* PCS-H7.1.1.1-1/2 */
	return p->impdef_suspended;                  /* PCS-H7.1.1.1-4 */
}

bool ap_pcsr_sampling_on_reads(const struct ap_pcsr *p)
{
	/* PCS-H7.1.1.1-11/12 */
	return !(p->cfg.feat_pmuv3_ss && (p->pmpcsctl & PMPCSCTL_SS));
}

/* Recompute whether retire() records samples; leaving a state where it did
 * not (Debug, prohibited, suspended, powered down) needs a new branch before
 * the sample is known again (H7.1.3, PCS-H7.1.3-3). */
static void update_live(struct ap_pcsr *p)
{
	bool was = p->live;
	p->allowed = ap_pcsr_allowed(&p->cfg, &p->pe);
	p->live = (p->cfg.feat_pcsrv8 || p->cfg.feat_pcsrv8p2) && p->allowed && !p->pe.halted &&
	          p->pe.powered && !ap_pcsr_suspended(p);
	if (!p->live || !was)
		p->fresh = false;
}

static void update_context(struct ap_pcsr *p)
{
	const struct ap_pcsr_pe *pe = &p->pe;
	struct ap_pcsr_sample *c = &p->cur;
	uint32_t fill32 = (uint32_t)p->cfg.unknown_fill;
	c->el = pe->el;
	c->aarch64 = !pe->aarch32;
	c->security = pe->security;
	c->tstate = p->cfg.feat_tme && pe->tstate;
	/* CreatePCSample(): has_el2 = PSTATE.EL != EL3 && EL2Enabled() */
	c->has_el2 = p->cfg.have_el2 && pe->el != 3 && pe->el2_enabled;
	c->el0h = pe->el == 0 && pe->in_host;
	c->contextidr = pe->contextidr_el1;
	/* CONTEXTIDR_EL2 is sampled only with FEAT_VHE (or Debugv8p2) and EL2
	 * in AArch64; otherwise UNKNOWN. */
	c->contextidr_el2 = (p->cfg.feat_vhe || p->cfg.feat_pcsrv8p2) && !pe->el2_aarch32 ? pe->contextidr_el2
	                                                                                  : fill32;
	c->vmid = p->cfg.feat_vmid16 ? pe->vmid : (uint16_t)(pe->vmid & 0xff);
	p->pe_gen++;
}

int ap_pcsr_init(struct ap_pcsr *p, const struct ap_pcsr_config *cfg, const struct ap_pcsr_pe *pe)
{
	if (!p || !cfg || !pe || ap_pcsr_config_check(cfg, NULL) < 0)
		return -AP_ERR_INVALID;
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->pe = *pe;
	ap_pcsr_reset(p, true);
	return 0;
}

void ap_pcsr_reset(struct ap_pcsr *p, bool cold)
{
	p->pmpcsctl = p->cfg.feat_pcsrv8p9 && p->cfg.pmpcsctl_imp ? PMPCSCTL_IMP : 0; /* EN, SS reset to 0 */
	p->impdef_suspended = p->cfg.reset_suspended;
	p->have_sample = p->fresh = p->branch_since_read = p->branch_since_capture = false;
	p->first_capture_after_ss = false;
	p->read_since_reset = false;
	p->slk = p->cfg.software_lock; /* CoreSight: the Software Lock is locked at reset */
	if (cold) {
		/* Cold reset values are UNKNOWN: the model uses unknown_fill. */
		p->pmpcsr = p->cfg.unknown_fill;
		p->pmcid1sr = p->pmcid2sr = (uint32_t)p->cfg.unknown_fill;
		p->pmvidsr = (uint32_t)p->cfg.unknown_fill & 0xffff;
		p->edpcsr_hi = p->edcidsr = p->edvidsr = (uint32_t)p->cfg.unknown_fill;
		p->samples_taken = 0;
	}
	update_context(p);
	update_live(p);
	p->fresh = false;
}

void ap_pcsr_set_pe(struct ap_pcsr *p, const struct ap_pcsr_pe *pe)
{
	p->pe = *pe;
	update_context(p);
	update_live(p);
}

/* PMPCSR.{NS,NSE} from a Security state (PMPCSR-11..15, SetPCSample). */
static uint64_t pmpcsr_security_bits(const struct ap_pcsr *p, enum ap_pcsr_security s)
{
	uint64_t ns = 0, nse = 0;
	if (p->cfg.feat_rme) {
		ns = (s == AP_PCSR_NONSECURE || s == AP_PCSR_REALM);
		nse = (s == AP_PCSR_ROOT || s == AP_PCSR_REALM);
	} else {
		ns = (s != AP_PCSR_SECURE);
	}
	return ns << 63 | nse << 59;
}

static uint16_t vmid_mask(const struct ap_pcsr *p)
{
	return p->cfg.feat_vmid16 ? 0xffff : 0xff;
}

/* SetPCSample() (DDI 0487 J1.3.1.128; PMPCSR-10..28, PMPCSR-33). */
static void set_pc_sample(struct ap_pcsr *p)
{
	const struct ap_pcsr_sample *s = &p->sample;
	uint64_t v = s->pc & 0xffffffffull;
	if (s->aarch64)
		v |= s->pc & 0x00ffffff00000000ull; /* PCSample[55:32] */
	v |= (uint64_t)(s->el & 3) << 61;
	v |= pmpcsr_security_bits(p, s->security);
	if (p->cfg.feat_tme && s->tstate)
		v |= 1ull << 60;
	p->pmpcsr = v;
	uint32_t cid2 = s->has_el2 ? s->contextidr_el2 : (uint32_t)p->cfg.unknown_fill;
	uint16_t vmid = (uint16_t)p->cfg.unknown_fill;
	if (s->has_el2 && s->el <= 1 && !s->el0h)
		vmid = s->vmid;
	p->pmcid1sr = s->contextidr;
	p->pmcid2sr = cid2;
	p->pmvidsr = vmid & vmid_mask(p);
	p->samples_taken++;
}

/* SetPCSRUnknown() (DDI 0487 J1.3.1.127; PMPCSR-32). */
static void set_pc_unknown(struct ap_pcsr *p)
{
	uint64_t fill = p->cfg.unknown_fill;
	uint64_t unknown_hi = 0x00ffffff00000000ull | 3ull << 61 | 1ull << 63; /* [55:32], EL, NS */
	p->pmpcsr = (p->pmpcsr & ~unknown_hi & ~0xffffffffull) | (fill & unknown_hi) | ONES32;
	p->pmcid1sr = p->pmcid2sr = (uint32_t)fill;
	p->pmvidsr = (uint32_t)fill & vmid_mask(p);
}

/* SetPCSRActive() (DDI 0487 J1.3.1.126). Leaving the suspended state makes
 * the sample UNKNOWN until a branch retires (PCS-H7.1.3-3). */
static void set_active(struct ap_pcsr *p)
{
	if (p->cfg.feat_pcsrv8p9 && p->cfg.pmpcsctl_imp)
		p->pmpcsctl |= PMPCSCTL_EN; /* PCS-H7.1.1.1-7 */
	else
		p->impdef_suspended = false; /* PCS-H7.1.1.1-8: only a Warm reset suspends again */
	update_live(p);
}

enum read_kind { KIND_VALID, KIND_ONES, KIND_UNKNOWN };

/* Which of the PMPCSR/EDPCSR cases of spec/003 (lists from DDI 0487's
 * PMPCSR page) a sampling read falls in. */
static enum read_kind classify_read(const struct ap_pcsr *p, bool need_branch_since_read)
{
	if (p->pe.halted || !p->allowed)
		return KIND_ONES; /* PMPCSR-29: Debug state; PC sampling prohibited */
	if (!p->have_sample || !p->fresh)
		return KIND_UNKNOWN; /* PMPCSR-31, PCS-H7.1.3-3 */
	if (need_branch_since_read && !p->branch_since_read)
		return KIND_UNKNOWN; /* PCS-H7.1.3-5 */
	if (!p->read_since_reset && p->cfg.first_read_ones)
		return KIND_ONES; /* PMPCSR-30: permitted, not required */
	return KIND_VALID;
}

static enum read_kind resolve_unknown(const struct ap_pcsr *p, enum read_kind k)
{
	if (k != KIND_UNKNOWN)
		return k;
	return p->cfg.unknown == AP_PCSR_UNKNOWN_STALE && p->have_sample ? KIND_VALID : KIND_ONES;
}

static bool side_effects_allowed(const struct ap_pcsr *p, bool memory_mapped)
{
	/* PMPCSR-34: a memory-mapped read with PMLSR.SLK == 1 has no side-effect. */
	return !(memory_mapped && p->cfg.software_lock && p->slk);
}

uint32_t ap_pcsr_read_pmpcsr_lo(struct ap_pcsr *p, bool memory_mapped)
{
	if (!p->cfg.feat_pcsrv8p2)
		return 0; /* PMPCSR-2: RES0 */
	if (!ap_pcsr_sampling_on_reads(p))
		return (uint32_t)p->pmpcsr; /* PCS-H7.1.1.1-13/14: last sampled value, no side-effects */
	bool update = side_effects_allowed(p, memory_mapped);
	enum read_kind kind;
	if (ap_pcsr_suspended(p)) {
		/* PCS-H7.1.1.1-5: a read while suspended, allowed and sampling on
		 * reads makes profiling active; the read itself has no valid sample
		 * (Read_PMPCSR sets pc_sample.valid = FALSE), and H7.1.3 permits
		 * 0xFFFFFFFF or an UNKNOWN value (PCS-H7.1.3-4). */
		bool activates = update && p->allowed;
		if (activates)
			set_active(p);
		kind = activates && !p->cfg.activate_read_ones ? KIND_UNKNOWN : KIND_ONES;
	} else {
		kind = classify_read(p, false);
	}
	kind = resolve_unknown(p, kind);
	p->read_since_reset = true;
	if (kind == KIND_VALID) {
		if (update)
			set_pc_sample(p);
		return (uint32_t)p->sample.pc;
	}
	if (update)
		set_pc_unknown(p);
	return ONES32;
}

uint64_t ap_pcsr_read_pmpcsr64(struct ap_pcsr *p, bool memory_mapped)
{
	uint32_t lo = ap_pcsr_read_pmpcsr_lo(p, memory_mapped);
	return (p->pmpcsr & 0xffffffff00000000ull) | lo; /* PMPCSR-7 */
}

/* Read_EDPCSRlo() (DDI 0487 J1.3.1.124), FEAT_PCSRv8. */
uint32_t ap_pcsr_read_edpcsr_lo(struct ap_pcsr *p, bool memory_mapped)
{
	if (!p->cfg.feat_pcsrv8)
		return 0; /* RES0 when FEAT_PCSRv8 is not implemented */
	bool update = side_effects_allowed(p, memory_mapped);
	/* PCS-H7.1.3-5/-6: without FEAT_MOPS and FEAT_PCSRv8p2 (always so with
	 * FEAT_PCSRv8), no branch since the last read makes the value UNKNOWN. */
	enum read_kind kind = resolve_unknown(p, classify_read(p, true));
	p->read_since_reset = true;
	if (kind != KIND_VALID) {
		if (update)
			p->edpcsr_hi = p->edcidsr = p->edvidsr = (uint32_t)p->cfg.unknown_fill;
		return ONES32;
	}
	const struct ap_pcsr_sample *s = &p->sample;
	if (update) {
		uint32_t ns = s->security != AP_PCSR_SECURE;
		bool sc2 = p->cfg.feat_vhe && p->pe.edscr_sc2; /* PCS-H7.1.2-7 */
		if (sc2)
			p->edpcsr_hi = ns << 31 | (uint32_t)(s->el & 3) << 29 |
			               (s->aarch64 ? (uint32_t)(s->pc >> 32) & 0xffffff : 0);
		else
			p->edpcsr_hi = s->aarch64 ? (uint32_t)(s->pc >> 32) : 0;
		p->edcidsr = s->contextidr;
		if (sc2) {
			p->edvidsr = s->has_el2 ? s->contextidr_el2 : (uint32_t)p->cfg.unknown_fill;
		} else {
			uint32_t vmid = s->has_el2 && s->el <= 1 ? (s->vmid & vmid_mask(p)) : 0;
			uint32_t hv = p->edpcsr_hi != 0 ? 1 : p->cfg.edvidsr_hv_when_zero;
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
void ap_pcsr_capture(struct ap_pcsr *p)
{
	enum read_kind kind;
	if (p->pe.halted || !p->allowed) {
		kind = KIND_ONES; /* SS-RVPZHN-8 */
	} else if (!p->have_sample || !p->fresh || !p->branch_since_capture) {
		kind = KIND_UNKNOWN; /* SS-RWSVYM-2 */
		if (p->first_capture_after_ss && p->cfg.capture_unknown_ones)
			kind = KIND_ONES;
	} else if (p->first_capture_after_ss && p->cfg.capture_unknown_ones) {
		kind = KIND_ONES; /* SS-RWSVYM-3: permitted, not required */
	} else {
		kind = KIND_VALID;
	}
	kind = resolve_unknown(p, kind);
	p->branch_since_capture = false;
	p->first_capture_after_ss = false;
	if (kind == KIND_VALID) {
		set_active(p);
		set_pc_sample(p);
	} else {
		/* Only PMPCSR[31:0]: [63:32] and the context registers are unchanged. */
		p->pmpcsr |= ONES32;
	}
}

uint64_t ap_pcsr_read_pmpcsctl(const struct ap_pcsr *p)
{
	return p->cfg.feat_pcsrv8p9 ? p->pmpcsctl : 0;
}

void ap_pcsr_write_pmpcsctl(struct ap_pcsr *p, uint64_t value)
{
	if (!p->cfg.feat_pcsrv8p9)
		return; /* RES0 */
	uint64_t old = p->pmpcsctl;
	uint64_t v = p->cfg.pmpcsctl_imp ? PMPCSCTL_IMP : 0;
	if (p->cfg.pmpcsctl_imp)
		v |= value & PMPCSCTL_EN;
	if (p->cfg.feat_pmuv3_ss)
		v |= value & PMPCSCTL_SS;
	p->pmpcsctl = v;
	if ((v & PMPCSCTL_SS) && !(old & PMPCSCTL_SS)) {
		/* SS-RWSVYM-2/3: the next Capture needs a branch after this point. */
		p->branch_since_capture = false;
		p->first_capture_after_ss = true;
	}
	update_live(p);
}

void ap_pcsr_write_lar(struct ap_pcsr *p, uint32_t value)
{
	if (p->cfg.software_lock)
		p->slk = value != CORESIGHT_LAR_KEY;
}

uint32_t ap_pcsr_read_lsr(const struct ap_pcsr *p, bool memory_mapped)
{
	/* PMLSR/EDLSR (DDI 0487 I5.3.41): SLI [0], SLK [1], nTT [2] = 0. */
	bool sli = p->cfg.software_lock && memory_mapped;
	return (uint32_t)sli | (uint32_t)(sli && p->slk) << 1;
}

uint64_t ap_pcsr_pmpcsr(const struct ap_pcsr *p)
{
	return p->cfg.feat_pcsrv8p2 ? p->pmpcsr : 0;
}

uint64_t ap_pcsr_pmccidsr(const struct ap_pcsr *p)
{
	return (uint64_t)p->pmcid2sr << 32 | p->pmcid1sr;
}

uint64_t ap_pcsr_pmvcidsr(const struct ap_pcsr *p)
{
	return (uint64_t)(p->pmvidsr & 0xffff) << 32 | p->pmcid1sr;
}

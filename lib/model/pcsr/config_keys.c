/* Configuration keys of the PMU (pmu.*), PC Sample-based Profiling (pcsr.*)
 * and PMU snapshots (snapshot.*), their Neoverse-N1-like defaults, and the
 * configuration rules ap_config_validate() applies to them. Features the
 * core configuration already names (have_el2, have_el3, have_rme, have_vhe)
 * are not repeated here. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "armprof/model.h"
#include "model/config_keys.h"
#include "armprof/error.h"
#include "model/pcsr/prof_config.h"
#include "model/pmu/pmu.h"

#define PMU(f) offsetof(struct ap_config, pmu.f)
#define PCSR(f) offsetof(struct ap_config, pcsr.f)
#define SS(f) offsetof(struct ap_config, snapshot.f)

static const char *const pmu_ext_names[] = { "none", "ext32", "ext64", NULL };
static const char *const unknown_names[] = { "ones", "stale", NULL };
static const char *const ressse_names[] = { "disabled", "prohibited", "allowed", NULL };

static const struct ap_config_key prof_keys[] = {
	{ "pmu.counters", AP_CFG_U8, PMU(num_counters), 0, 31, NULL,
	  "number of event counters N, PMCR_EL0.N; also the number of PMEVCNTSVR<n>_EL1 (SS-RVLKCZ)" },
	{ "pmu.icntr", AP_CFG_BOOL, PMU(icntr), 0, 1, NULL,
	  "FEAT_PMUv3_ICNTR: PMICNTR_EL0 and PMICNTSVR_EL1 (SS-RVPZHN-3)" },
	{ "pmu.pmuv3p5", AP_CFG_BOOL, PMU(pmuv3p5), 0, 1, NULL,
	  "FEAT_PMUv3p5: 64-bit event counters and PMCR_EL0.LP (else 32-bit)" },
	{ "pmu.pmcr_imp", AP_CFG_U8, PMU(pmcr_imp), 0, 255, NULL, "PMCR_EL0.IMP (IMPLEMENTATION DEFINED)" },
	{ "pmu.pmcr_idcode", AP_CFG_U8, PMU(pmcr_idcode), 0, 255, NULL, "PMCR_EL0.IDCODE (IMPLEMENTATION DEFINED)" },
	{ "pmu.ceid0", AP_CFG_U64, PMU(ceid0), 0, UINT64_MAX, NULL,
	  "PMCEID0_EL0: common events 0x00-0x1F [31:0] and 0x4000-0x401F [63:32] implemented; with SPE [35:32] are always set (SPE-2.6-1/2)" },
	{ "pmu.ceid1", AP_CFG_U64, PMU(ceid1), 0, UINT64_MAX, NULL,
	  "PMCEID1_EL0: common events 0x20-0x3F [31:0] and 0x4020-0x403F [63:32]; [24:17] the SPE Table 2 events 0x31-0x38 (SPE-2.6-3/4)" },
	{ "pcsr.v8", AP_CFG_BOOL, PCSR(feat_pcsrv8), 0, 1, NULL,
	  "FEAT_PCSRv8: EDPCSR/EDCIDSR/EDVIDSR in the external debug frame (PCS-H7.1.2-2/6)" },
	{ "pcsr.v8p2", AP_CFG_BOOL, PCSR(feat_pcsrv8p2), 0, 1, NULL,
	  "FEAT_PCSRv8p2: PMPCSR and context registers in the PMU frame; never with pcsr.v8 (PCS-H7.1.2-3/4)" },
	{ "pcsr.v8p9", AP_CFG_BOOL, PCSR(feat_pcsrv8p9), 0, 1, NULL,
	  "FEAT_PCSRv8p9: PMPCSCTL suspend/activate (PCS-H7.1.1.1-1..8)" },
	{ "pcsr.arch_major", AP_CFG_U8, PCSR(arch_major), 8, 9, NULL,
	  "architecture major version: FEAT_PCSRv8 is not permitted from Armv8.2 (PCS-H7.1.2-5)" },
	{ "pcsr.arch_minor", AP_CFG_U8, PCSR(arch_minor), 0, 9, NULL, "architecture minor version (Armv<major>.<minor>)" },
	{ "pcsr.pmu_ext", AP_CFG_ENUM, PCSR(pmu_ext), 0, 2, pmu_ext_names,
	  "external PMU view: none (own frame, Table H7-1), ext32 (FEAT_PMUv3_EXT32), ext64 (FEAT_PMUv3_EXT64) (PCS-H7.1.2-8..10)" },
	{ "pcsr.atomic64", AP_CFG_BOOL, PCSR(atomic64), 0, 1, NULL,
	  "64-bit atomic reads of PMPCSR in a 32-bit frame (PMPCSR-6/7); else such a read gets an error response" },
	{ "pcsr.software_lock", AP_CFG_BOOL, PCSR(software_lock), 0, 1, NULL,
	  "OPTIONAL Software Lock PMLSR/PMLAR (EDLSR/EDLAR), locked at reset (PMPCSR-34/35)" },
	{ "pcsr.tme", AP_CFG_BOOL, PCSR(feat_tme), 0, 1, NULL, "FEAT_TME: PMPCSR.T (PMPCSR-21/23)" },
	{ "pcsr.vmid16", AP_CFG_BOOL, PCSR(feat_vmid16), 0, 1, NULL, "FEAT_VMID16: 16-bit VMID samples" },
	{ "pcsr.sample_any", AP_CFG_BOOL, PCSR(sample_any), 0, 1, NULL,
	  "instructions other than branch targets can be sampled (PCS-H7.1-6)" },
	{ "pcsr.pmpcsctl_imp", AP_CFG_BOOL, PCSR(pmpcsctl_imp), 0, 1, NULL,
	  "PMPCSCTL.IMP: PMPCSCTL.EN is a read-write control (PCS-H7.1.1.1-1/2)" },
	{ "pcsr.reset_suspended", AP_CFG_BOOL, PCSR(reset_suspended), 0, 1, NULL,
	  "suspended at Warm reset when PMPCSCTL.IMP is 0 or FEAT_PCSRv8p9 is absent (PCS-H7.1.1.1-4)" },
	{ "pcsr.first_read_ones", AP_CFG_BOOL, PCSR(first_read_ones), 0, 1, NULL,
	  "the first read of PMPCSR[31:0] after reset returns 0xFFFFFFFF (PMPCSR-30)" },
	{ "pcsr.activate_read_ones", AP_CFG_BOOL, PCSR(activate_read_ones), 0, 1, NULL,
	  "the read that activates a suspended PC sampler returns 0xFFFFFFFF, else an UNKNOWN value (PCS-H7.1.3-4)" },
	{ "pcsr.capture_unknown_ones", AP_CFG_BOOL, PCSR(capture_unknown_ones), 0, 1, NULL,
	  "the first Capture event after PMPCSCTL.SS=1 records 0xFFFFFFFF (SS-RWSVYM-3)" },
	{ "pcsr.edvidsr_hv_when_zero", AP_CFG_BOOL, PCSR(edvidsr_hv_when_zero), 0, 1, NULL,
	  "EDVIDSR.HV when EDPCSRhi is zero (IMPLEMENTATION DEFINED in Read_EDPCSRlo)" },
	{ "pcsr.unknown", AP_CFG_ENUM, PCSR(unknown), 0, 1, unknown_names,
	  "what an UNKNOWN PC sample reads as: ones (0xFFFFFFFF, context UNKNOWN) or stale (the last sample) (PCS-H7.1.3-3, PMPCSR-31)" },
	{ "pcsr.unknown_fill", AP_CFG_U64, PCSR(unknown_fill), 0, UINT64_MAX, NULL,
	  "the bits written where a PC sample register becomes UNKNOWN (PMPCSR-32)" },
	{ "pcsr.pmdevarch_archid", AP_CFG_U32, PCSR(pmdevarch_archid), 0, 0xFFFF, NULL,
	  "PMDEVARCH.ARCHID of a PMU-less frame: 0x0A10 or 0x0A20 (PCS-H7.1.2-13)" },
	{ "pcsr.debug_pidr", AP_CFG_U64, PCSR(debug_pidr), 0, 0xFFFFFFFFFFull, NULL,
	  "the external debug frame's Peripheral ID EDPIDR4..0 [39:0] (IMPLEMENTATION DEFINED: designer, part, revision)" },
	{ "snapshot.feat_pmuv3_ss", AP_CFG_BOOL, SS(feat_pmuv3_ss), 0, 1, NULL,
	  "FEAT_PMUv3_SS: PMU snapshots, PMSSCR_EL1, PMECR_EL1.SSE, PMPCSCTL.SS (SS-RSCLCQ-1)" },
	{ "snapshot.capture_in_debug", AP_CFG_BOOL, SS(capture_in_debug), 0, 1, NULL,
	  "the PE allows Capture events in Debug state (SS-RTSYTY-8)" },
	{ "snapshot.event_in_debug", AP_CFG_BOOL, SS(snapshot_event_in_debug), 0, 1, NULL,
	  "PMU_SNAPSHOT is counted for a Capture event in Debug state (SS-RPLPCY-2)" },
	{ "snapshot.reserved_sse", AP_CFG_ENUM, SS(reserved_sse), 0, 2, ressse_names,
	  "PMECR_EL1.SSE == 0b01 (reserved) behaves as disabled, or as 0b10 / 0b11 (Unpredictable_RESPMSSE, SS-2)" },
	{ "snapshot.capture_delay", AP_CFG_U32, SS(capture_delay), 0, 1000000, NULL,
	  "retired instructions until a Capture event completes; PMSSCR_EL1.SS reads 1 meanwhile (SS-4, SS-IMXCMM-2)" },
};

AP_CFG_KEY_TABLE(ap_prof_config_keys, prof_keys);

void ap_prof_config_defaults(struct ap_config *cfg)
{
	ap_pmu_config_init(&cfg->pmu);
	cfg->pmu.num_counters = 6; /* Neoverse N1: 6 event counters, PMUv3p4 */
	cfg->pmu.icntr = false;
	cfg->pmu.pmuv3p5 = false;
	/* Neoverse N1 (Armv8.2): FEAT_PCSRv8p2 in a FEAT_PMUv3_EXT32 frame, no
	 * FEAT_PCSRv8p9, no FEAT_PMUv3_SS. */
	struct ap_pcsr_config *p = &cfg->pcsr;
	memset(p, 0, sizeof(*p));
	p->feat_pcsrv8p2 = true;
	p->arch_major = 8;
	p->arch_minor = 2;
	p->pmu_ext = AP_PCSR_EXT32;
	p->software_lock = true;
	p->feat_vmid16 = true;
	p->pmpcsctl_imp = true;
	p->activate_read_ones = true; /* as the DDI 0487 Read_PMPCSR pseudocode */
	p->edvidsr_hv_when_zero = true;
	p->unknown = AP_PCSR_UNKNOWN_ONES;
	p->pmdevarch_archid = 0x0A20;
	/* EDPIDR4..0: Arm's JEP106 identity (continuation 0x4, code 0x3B), part
	 * 0xD0C (Neoverse N1's MIDR_EL1.PartNum), revision 0. */
	p->debug_pidr = 0x04000BBD0Cull;
	memset(&cfg->snapshot, 0, sizeof(cfg->snapshot));
	cfg->snapshot.reserved_sse = AP_SS_RESSSE_DISABLED;
}

static int fail(struct ap_error_ctx *err, const char *msg)
{
	if (err)
		snprintf(err->message, sizeof(err->message), "%s", msg);
	return -AP_ERR_INVALID;
}

int ap_pcsr_config_check(const struct ap_config *cfg, const char **why)
{
	const struct ap_pcsr_config *c = &cfg->pcsr;
	const char *msg = NULL;
	bool v8_2_or_later = c->arch_major > 8 || (c->arch_major == 8 && c->arch_minor >= 2);
	if (c->feat_pcsrv8 && c->feat_pcsrv8p2)
		msg = "PCS-H7.1.2-4: an implementation must not include both FEAT_PCSRv8 and FEAT_PCSRv8p2 (H7.1.2)";
	else if (c->feat_pcsrv8 && v8_2_or_later)
		msg = "PCS-H7.1.2-5: FEAT_PCSRv8 is not permitted from Armv8.2 (H7.1.2)";
	else if (c->feat_pcsrv8p9 && !c->feat_pcsrv8p2)
		msg = "FEAT_PCSRv8p9 needs FEAT_PCSRv8p2: PMPCSCTL is a PMU register (DDI 0487 I5.3.46)";
	else if (c->feat_pcsrv8p9 && c->pmu_ext == AP_PCSR_EXT_NONE)
		msg = "PMPCSCTL is present only with FEAT_PCSRv8p9 and FEAT_PMUv3_EXT (DDI 0487 I5.3.46); pmu_ext=none has no PMPCSCTL";
	else if (c->feat_pcsrv8p2 && c->pmu_ext == AP_PCSR_EXT_NONE &&
	         c->pmdevarch_archid != 0x0A10 && c->pmdevarch_archid != 0x0A20)
		msg = "PCS-H7.1.2-13: PMDEVARCH.ARCHID must be 0x0A10 or 0x0A20 without a PMU (H7.1.2)";
	else if (cfg->have_rme && !cfg->have_el3)
		msg = "FEAT_RME needs EL3";
	else if (c->pmu_ext > AP_PCSR_EXT64)
		msg = "pmu_ext must be none, ext32 or ext64";
	else if (c->unknown > AP_PCSR_UNKNOWN_STALE)
		msg = "unknown policy must be ones or stale";
	if (why)
		*why = msg;
	return msg ? -AP_ERR_INVALID : 0;
}

int ap_prof_config_validate(const struct ap_config *cfg, struct ap_error_ctx *err)
{
	/* spec/002 1 (SPE-1-1): an implementation with SPE complies with at least
	 * Armv8.1; the architecture version is pcsr.arch_major/arch_minor. */
	if (cfg->have_spe && cfg->pcsr.arch_major == 8 && cfg->pcsr.arch_minor < 1) {
		if (err)
			snprintf(err->message, sizeof(err->message),
			         "have_spe: SPE needs at least Armv8.1, pcsr.arch_major/arch_minor say Armv8.%u (SPE-1-1)",
			         (unsigned)cfg->pcsr.arch_minor);
		return -AP_ERR_INVALID;
	}
	const char *why = NULL;
	if (ap_pcsr_config_check(cfg, &why) < 0) {
		if (err)
			snprintf(err->message, sizeof(err->message), "pcsr: %s", why);
		return -AP_ERR_INVALID;
	}
	if (cfg->snapshot.feat_pmuv3_ss && cfg->pcsr.pmu_ext == AP_PCSR_EXT_NONE)
		return fail(err, "snapshot.feat_pmuv3_ss needs a PMU: pcsr.pmu_ext must be ext32 or ext64");
	if (cfg->snapshot.reserved_sse > AP_SS_RESSSE_ALLOWED)
		return fail(err, "snapshot.reserved_sse must be disabled, prohibited or allowed");
	if (cfg->pmu.num_counters > AP_PMU_MAX_COUNTERS)
		return fail(err, "pmu.counters must be 0..31 (PMCR_EL0.N, SS-RVLKCZ)");
	return 0;
}

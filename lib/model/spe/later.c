/* SPE after v1: the configuration keys spe.version, spe.fne, spe.fds, ...,
 * their consistency, the CPU presets, and which register bits each brings
 * (docs/requirements-later.md; DDI 0487 J1.1.1 SPEFilterByEvents/ByType/
 * ByDataSource; Linux arch/arm64/tools/sysreg PMSIDR_EL1, PMSFCR_EL1). */
#include "model/spe/later.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "model/config_keys.h"

#define OFF(f) offsetof(struct ap_config, spe_later.f)
#define BIT(n) (1ull << (n))

/* The index is the PMSVer value; 0 (not implemented) is have_spe = 0. */
static const char *const version_names[] = { "none", "v1", "v1p1", "v1p2", "v1p3", "v1p4", "v1p5", NULL };

static const struct ap_config_key later_keys[] = {
	{ "spe.version", AP_CFG_ENUM, OFF(version), 1, 6, version_names,
	  "ID_AA64DFR0_EL1.PMSVer: v1 (FEAT_SPE), v1p1, v1p2, v1p3, v1p4, v1p5 (LATER-VER-1)" },
	{ "spe.fne", AP_CFG_BOOL, OFF(fne), 0, 1, NULL,
	  "FEAT_SPE_FnE: PMSNEVFR_EL1, PMSFCR_EL1.FnE, E[6] filterable; needs v1p2 (LATER-FNE-1)" },
	{ "spe.fds", AP_CFG_BOOL, OFF(fds), 0, 1, NULL,
	  "FEAT_SPE_FDS: PMSDSFR_EL1, PMSFCR_EL1.FDS, MDCR_EL3.EnPMS3; needs v1p4 (LATER-FDS-1)" },
	{ "spe.eft", AP_CFG_BOOL, OFF(eft), 0, 1, NULL,
	  "FEAT_SPE_EFT: PMSFCR_EL1.{FP,SIMD} and the AND masks {B,LD,ST,FP,SIMD}m; needs v1p4 (LATER-EFT-1)" },
	{ "spe.crr", AP_CFG_BOOL, OFF(crr), 0, 1, NULL,
	  "FEAT_SPE_CRR: call/return branch subclasses in the Operation Type packet; needs v1p4 (LATER-CRR-1)" },
	{ "spe.pbt", AP_CFG_BOOL, OFF(pbt), 0, 1, NULL,
	  "FEAT_SPE_PBT: previous-branch-target Address packets (INDEX 0b00100); needs v1p2 (LATER-PBT-1)" },
	{ "spe.fpf", AP_CFG_BOOL, OFF(fpf), 0, 1, NULL,
	  "FEAT_SPE_FPF: PMSIDR_EL1.FPF reads 1 (the floating-point flag; ID only); needs v1p4 (LATER-VER-3)" },
	{ "spe.sme", AP_CFG_BOOL, OFF(sme), 0, 1, NULL,
	  "FEAT_SPE_SME: PMSIDR_EL1.SME; with v1p4 E[24], E[25] are filterable (LATER-EVF-1)" },
	{ "spe.fne_zero_discards", AP_CFG_BOOL, OFF(fne_zero_discards), 0, 1, NULL,
	  "FnE == 1 with PMSNEVFR_EL1 == 0: 1 = discard, 0 = as if FnE == 0 (LATER-FNE-5)" },
	{ "spe.fne_overlap_discards", AP_CFG_BOOL, OFF(fne_overlap_discards), 0, 1, NULL,
	  "FE and FnE select the same event: 1 = discard, 0 = keep the record (LATER-FNE-6)" },
};

AP_CFG_KEY_TABLE(ap_spe_later_config_keys, later_keys);

/* DDI 0487 J1.1.1.85 SPEFilterByEvents(): the mask of filterable bits. */
uint64_t ap_spe_later_event_bits(const struct ap_config *c)
{
	unsigned v = ap_spe_version(c);
	const struct ap_spe_later_config *l = &c->spe_later;
	uint64_t m = 0;
	if (v >= AP_SPE_V1P1)
		m |= BIT(11) | BIT(17) | BIT(18); /* alignment, SVE/SME predicates */
	if (l->fne)
		m |= BIT(6); /* not taken */
	if (v >= AP_SPE_V1P4) {
		m |= BIT(2) | BIT(4) | BIT(8) | BIT(9) | BIT(10) | (0x1Full << 19);
		if (l->sme)
			m |= BIT(24) | BIT(25);
	}
	return m;
}

uint64_t ap_spe_later_pmsfcr_bits(const struct ap_config *c)
{
	const struct ap_spe_later_config *l = &c->spe_later;
	uint64_t m = 0;
	if (l->fne)
		m |= AP_PMSFCR_FNE;
	if (l->fds)
		m |= AP_PMSFCR_FDS;
	if (l->eft)
		m |= AP_PMSFCR_FP | AP_PMSFCR_SIMD | AP_PMSFCR_BM | AP_PMSFCR_LDM | AP_PMSFCR_STM |
		     AP_PMSFCR_FPM | AP_PMSFCR_SIMDM;
	return m;
}

/* Linux arch/arm64/tools/sysreg PMSIDR_EL1: FnE [6], FDS [7], PBT [24],
 * CRR [25], EFT [26], FPF [27], SME [32]. */
uint64_t ap_spe_later_pmsidr_bits(const struct ap_config *c)
{
	const struct ap_spe_later_config *l = &c->spe_later;
	return (l->fne ? BIT(6) : 0) | (l->fds ? BIT(7) : 0) | (l->pbt ? BIT(24) : 0) |
	       (l->crr ? BIT(25) : 0) | (l->eft ? BIT(26) : 0) | (l->fpf ? BIT(27) : 0) |
	       (l->sme ? BIT(32) : 0);
}

static int fail(struct ap_error_ctx *err, const char *msg)
{
	if (err)
		snprintf(err->message, sizeof(err->message), "%s", msg);
	return -AP_ERR_INVALID;
}

int ap_spe_later_validate(const struct ap_config *c, struct ap_error_ctx *err)
{
	const struct ap_spe_later_config *l = &c->spe_later;
	unsigned v = ap_spe_version(c);
	/* LATER-VER-2: each feature with the version it needs. */
	if (l->fne && v < AP_SPE_V1P2)
		return fail(err, "spe.fne needs spe.version v1p2 or later (FEAT_SPE_FnE, LATER-VER-2)");
	if (l->pbt && v < AP_SPE_V1P2)
		return fail(err, "spe.pbt needs spe.version v1p2 or later (FEAT_SPE_PBT, LATER-VER-2)");
	if ((l->fds || l->eft || l->crr || l->fpf) && v < AP_SPE_V1P4)
		return fail(err, "spe.fds, spe.eft, spe.crr and spe.fpf need spe.version v1p4 or later (LATER-VER-2)");
	if (v >= AP_SPE_V1P2 && !l->fne)
		return fail(err, "spe.version v1p2 and later include FEAT_SPE_FnE: set spe.fne=1 (LATER-VER-2)");
	return 0;
}

unsigned ap_config_pmsver(const struct ap_config *cfg)
{
	return cfg->have_spe ? ap_spe_version(cfg) : 0;
}

struct preset {
	const char *name;
	struct ap_spe_later_config later;
};

/* Each CPU's SPE as its Technical Reference Manual gives PMSVer; the
 * optional features none of these CPUs has stay 0 (LATER-VER-4). */
static const struct preset presets[] = {
	{ "neoverse-n1", { AP_SPE_V1, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ "neoverse-v1", { AP_SPE_V1P1, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ "neoverse-n2", { AP_SPE_V1P2, 1, 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ "neoverse-v2", { AP_SPE_V1P2, 1, 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ "max", { AP_SPE_V1P5, 1, 1, 1, 1, 1, 1, 1, 0, 0 } },
};

int ap_config_spe_preset(struct ap_config *cfg, const char *name, struct ap_error_ctx *err)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (name && !strcmp(name, presets[i].name)) {
			cfg->spe_later = presets[i].later;
			return 0;
		}
	if (err)
		snprintf(err->message, sizeof(err->message),
		         "SPE preset '%s' is not one of neoverse-n1, neoverse-v1, neoverse-n2, neoverse-v2, max",
		         name ? name : "(null)");
	return -AP_ERR_INVALID;
}

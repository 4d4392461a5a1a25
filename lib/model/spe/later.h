/* SPE after v1 (docs/requirements-later.md): which fields of which register
 * each version and optional feature brings. The register table
 * (sysregs.c), the access checks (access.c) and the engine read these, so
 * a feature that is not configured leaves its bits RES0 and its registers
 * UNDEFINED exactly as in SPEv1. */
#ifndef ARMPROF_MODEL_SPE_LATER_H
#define ARMPROF_MODEL_SPE_LATER_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/model.h"

/* PMSFCR_EL1 fields after v1 (Linux arch/arm64/tools/sysreg PMSFCR_EL1). */
#define AP_PMSFCR_FNE   (1ull << 3)  /* FEAT_SPEv1p2 */
#define AP_PMSFCR_FDS   (1ull << 4)  /* FEAT_SPE_FDS */
#define AP_PMSFCR_FP    (1ull << 19) /* FEAT_SPE_EFT */
#define AP_PMSFCR_SIMD  (1ull << 20) /* FEAT_SPE_EFT */
#define AP_PMSFCR_BM    (1ull << 48) /* FEAT_SPE_EFT: B is an AND filter */
#define AP_PMSFCR_LDM   (1ull << 49)
#define AP_PMSFCR_STM   (1ull << 50)
#define AP_PMSFCR_FPM   (1ull << 51)
#define AP_PMSFCR_SIMDM (1ull << 52)

/* PMBLIMITR_EL1.FM [2:1] (FEAT_SPEv1p2): 0b10 discard mode. */
#define AP_PMBLIMITR_FM_SHIFT 1
#define AP_PMBLIMITR_FM_DISCARD 2u

/* The version, 1 (v1) .. 6 (v1p5); a config without the block is v1. */
static inline unsigned ap_spe_version(const struct ap_config *c)
{
	return c->spe_later.version ? c->spe_later.version : AP_SPE_V1;
}

/* PMSFCR_EL1 bits the configuration implements beyond v1. */
uint64_t ap_spe_later_pmsfcr_bits(const struct ap_config *c);
/* PMSEVFR_EL1 / PMSNEVFR_EL1 architectural event bits beyond v1's
 * E[1,3,5,7] (LATER-EVF-1). */
uint64_t ap_spe_later_event_bits(const struct ap_config *c);
/* PMSIDR_EL1 bits beyond v1: FnE, FDS, PBT, CRR, EFT, FPF, SME. */
uint64_t ap_spe_later_pmsidr_bits(const struct ap_config *c);
/* Consistency of spe.version and the feature keys (ap_config_validate). */
int ap_spe_later_validate(const struct ap_config *c, struct ap_error_ctx *err);

#endif

/* The access checks of the SPE System registers (lib/model/spe/access.c). */
#ifndef ARMPROF_MODEL_SPE_ACCESS_H
#define ARMPROF_MODEL_SPE_ACCESS_H

#include <stdbool.h>

#include "model/sysreg.h"

/* PMSCR_EL1, PMSICR_EL1, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1, PMSLATFR_EL1,
 * PMSIDR_EL1: CheckStatisticalProfilingAccess() (MDCR_EL2.TPMS). */
int ap_spe_check_sampling_reg(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);
/* PMBLIMITR_EL1, PMBPTR_EL1, PMBSR_EL1: CheckProfilingBufferAccess()
 * (MDCR_EL2.E2PB<0>). */
int ap_spe_check_buffer_reg(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);
/* PMBIDR_EL1 (4.3.1: no traps or enables). */
int ap_spe_check_pmsnevfr(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);
int ap_spe_check_pmsdsfr(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);
int ap_spe_check_pmbidr(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);
/* PMSCR_EL2 (4.3.7), PMSCR_EL12 (4.3.6). */
int ap_spe_check_pmscr_el2(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);
int ap_spe_check_pmscr_el12(const struct ap_pe *pe, const struct ap_sysreg *r, bool write);

#endif
